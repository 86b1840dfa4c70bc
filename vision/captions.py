"""A broadcast's caption: a box of names, score and clock laid over the picture.

A televised match lays its caption over the camera's picture, along the
top or the bottom, and moves it, takes it away and brings it back between
frames. Beside the board it covers the frame, where a hand reaching in is
looked for (:func:`vision.refusal.check_board_moved`). It is drawn on the
picture, not seen through the lens, so its box is square to the picture's
own axes whatever the board's perspective: its top and bottom edges are
rows of the picture, straight over a quarter of its width or more, and its
ends are columns. Nothing standing by a board draws that: a board's edges
follow its perspective (a board seen straight on and square to the picture
is the exception, told apart by where its playing area lies, see
:func:`caption_boxes`), and a hand or an arm has no straight edge at all.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import Image

#: A caption's edge runs unbroken over this share of the picture's width or more...
MIN_WIDTH = 0.25
#: ... and it is this share of the picture's height tall at most.
MAX_HEIGHT = 0.2
#: The edge between the caption and what lies under it changes a colour
#: channel by this much (0..255) across two rows.
EDGE = 16
#: Captions are looked for in the picture shrunk to this width (px), where
#: it is wider: for speed, and so that what :data:`EDGE` means does not
#: depend on the camera (a 12-megapixel photo, shrunk, averages its sensor
#: noise away; looked at whole, that noise breaks every row into edges).
WIDTH = 640
#: An edge of a caption may run on past the caption's end, where another
#: edge lines up with it (the top of a board's frame just under a caption
#: along the picture's top): the caption's side is looked for this far in
#: from the edge's end (px of the shrunk picture) ...
SIDE_REACH = 64
#: ... and this far out: where what lies under the caption is about as dark
#: as the caption, its edge fades out a few pixels before its side.
SIDE_OUT = 4

Box = tuple[int, int, int, int]


def _edge_rows(image: Image) -> list[tuple[int, int, int]]:
    """The picture's straight horizontal edges: (row, first column, last
    column) of every run of a row, :data:`MIN_WIDTH` of the width or longer,
    across which the colour changes; an edge blurred over a few rows is
    found once, at its strongest."""
    w = image.shape[1]
    pixels = image.astype(np.int16)
    across = np.abs(pixels[2:] - pixels[:-2]).max(axis=2)  # across row y + 1
    edge = (across >= EDGE).astype(np.uint8)
    # JPEG blocks and noise break an edge for a pixel or two
    edge = cv2.morphologyEx(edge, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 1)))
    length = max(int(MIN_WIDTH * w), 3)
    edge = cv2.morphologyEx(edge, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1)))
    found: list[tuple[float, int, int, int]] = []
    for row in np.flatnonzero(edge.any(axis=1)):
        runs = np.diff(np.concatenate([[0], edge[row], [0]]).astype(np.int8))
        for start, end in zip(np.flatnonzero(runs == 1), np.flatnonzero(runs == -1), strict=True):
            found.append((float(across[row, start:end].mean()), int(row) + 1, int(start), int(end) - 1))
    kept: list[tuple[int, int, int]] = []
    for _, y, x0, x1 in sorted(found, reverse=True):
        if not any(abs(y - yy) <= 3 and min(x1, b) - max(x0, a) > (x1 - x0) // 2 for yy, a, b in kept):
            kept.append((y, x0, x1))
    return kept


def _side(image: Image, x: int, y0: int, y1: int) -> bool:
    """A caption's side at column ``x`` between rows ``y0`` and ``y1``: the
    picture's own border, or a colour change across it on most rows."""
    w = image.shape[1]
    if x <= 2 or x >= w - 3:
        return True
    a, b = image[y0:y1, x - 2].astype(np.int16), image[y0:y1, x + 2].astype(np.int16)
    return bool(np.mean(np.abs(a - b).max(axis=1) >= EDGE) >= 0.8)


def _side_from(image: Image, x: int, y0: int, y1: int, inward: int) -> int | None:
    """The column of a caption's side (:func:`_side`) between rows ``y0`` and
    ``y1`` outermost near an edge's end ``x``, from :data:`SIDE_OUT` out of
    it to :data:`SIDE_REACH` in from it in the direction ``inward`` (+1
    from a left end, -1 from a right end); None if there is none."""
    w = image.shape[1]
    for column in range(x - inward * SIDE_OUT, x + inward * (SIDE_REACH + 1), inward):
        if not 0 <= column < w:
            continue
        if _side(image, column, y0, y1):
            return column
    return None


def caption_boxes(image: Image) -> list[Box]:
    """The captions (x0, y0, x1, y1), ends included, laid over a camera
    frame (H, W, 3) BGR uint8: a box with a side at each end between two
    straight rows of the picture, less than :data:`MAX_HEIGHT` apart and
    alongside each other over :data:`MIN_WIDTH` of the width or more (what
    lies under a translucent caption may break its edge here and there),
    or between one and the picture's top or bottom border; each side
    within :data:`SIDE_REACH` of where the rows end.

    A board seen straight on, its edges square to the picture, shows such a
    box on a side of its frame too: between the frame's outer edge and the
    playing area's (see :func:`along_outline` and :func:`unknown`)."""
    scale = min(WIDTH / image.shape[1], 1.0)
    small: Image = np.asarray(cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8)
    h, w = small.shape[:2]
    edges = _edge_rows(small)
    tall = MAX_HEIGHT * h
    boxes: list[Box] = []
    for y, x0, x1 in edges:
        spans = [(yy, a, b) for yy, a, b in edges if 4 <= yy - y <= tall and min(b, x1) - max(a, x0) >= MIN_WIDTH * w]
        # the picture's bottom border below the row, or its top border above
        # it (written as the row itself)
        spans += [(h - 1, x0, x1)] if h - 1 - y <= tall else []
        spans += [(y, x0, x1)] if y <= tall else []
        for yy, a, b in spans:
            top, bottom = (0, y) if yy == y else (y, yy)
            left = _side_from(small, min(a, x0), top, bottom, 1)
            right = _side_from(small, max(b, x1), top, bottom, -1)
            if left is not None and right is not None and right > left:
                boxes.append((round(left / scale), round(top / scale), round(right / scale), round(bottom / scale)))
    return boxes


def along_outline(box: Box, outline: npt.NDArray[np.float32], *, near: float = 6.0) -> bool:
    """A side of the playing area's ``outline`` (4n, 2) (x, y in the
    picture, n points a side, in order along each) runs along the top or
    bottom edge of ``box`` over half its width, all within ``near`` px of
    it: the box may be a side of the board's own frame, seen square."""
    x0, y0, x1, y1 = box
    for side in outline.reshape(4, -1, 2):
        for y in (y0, y1):
            close = np.concatenate([[0], (np.abs(side[:, 1] - y) <= near).astype(np.int8), [0]])
            for a, b in zip(np.flatnonzero(np.diff(close) == 1), np.flatnonzero(np.diff(close) == -1), strict=True):
                xs = np.clip(side[a:b, 0], x0, x1)
                if np.ptp(xs) >= 0.5 * (x1 - x0):
                    return True
    return False


def unknown(boxes: list[Box], known: list[Box], *, tolerance: int = 10) -> list[Box]:
    """The ``boxes`` that are none of the ``known`` ones (each edge within
    ``tolerance`` px): those seen at calibration are the board's own frame
    seen square, or a caption that stayed, over what has not changed."""
    return [
        box
        for box in boxes
        if not any(max(abs(a - b) for a, b in zip(box, k, strict=True)) <= tolerance for k in known)
    ]


def inside(points: npt.NDArray[np.float32], boxes: list[Box], *, margin: int = 3) -> npt.NDArray[np.bool_]:
    """Which ``points`` (n, 2) (x, y) lie in any of the ``boxes``, or within ``margin`` px of one."""
    hit = np.zeros(len(points), np.bool_)
    for x0, y0, x1, y1 in boxes:
        hit |= (
            (points[:, 0] >= x0 - margin)
            & (points[:, 0] <= x1 + margin)
            & (points[:, 1] >= y0 - margin)
            & (points[:, 1] <= y1 + margin)
        )
    return hit
