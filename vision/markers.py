"""Finding the playing area: ArUco markers at its four corners, or the
board's own outline as a best effort; and the printable marker sheet.

Markers come from ``DICT_4X4_50``: id 0 at the top-left corner of the
playing area (the TL->TR edge runs along a row of twelve points), 1 top-right,
2 bottom-right, 3 bottom-left. Each marker lies on the frame with one of its
corners touching the playing area's corner; the corner of each marker nearest
the middle of the four is taken as the board's corner, so a marker may be
turned any way.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import MarkerError
from vision.geometry import Image, check_corners

log = logging.getLogger(__name__)

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
CORNER_NAMES = ("top-left (TL)", "top-right (TR)", "bottom-right (BR)", "bottom-left (BL)")

PLACING = (
    "Print this sheet at 100 % and cut out the four markers.",
    "Put each on the board's frame, touching the corner of the playing area:",
    "0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, where the",
    "top edge (0 to 1) runs along one row of twelve points.",
    "The corner of each marker nearest the middle of the board",
    "must touch the playing area's corner. Keep them flat and unhidden.",
)


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)


def find_marker_corners(image: Image) -> npt.NDArray[np.float32]:
    """TL, TR, BR, BL (4, 2) float32 of the playing area from the four markers
    in a frame (h, w, 3) BGR uint8; :class:`MarkerError` names the missing ones."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    found_corners, ids, _ = detector.detectMarkers(grey)
    seen: dict[int, npt.NDArray[np.float32]] = {}
    if ids is not None:
        for quad, marker_id in zip(found_corners, ids.ravel(), strict=True):
            if int(marker_id) in MARKER_IDS:
                seen[int(marker_id)] = np.asarray(quad, np.float32).reshape(4, 2)
    missing = [f"{i} ({CORNER_NAMES[i]})" for i in MARKER_IDS if i not in seen]
    if missing:
        raise MarkerError(f"ArUco markers not found: {', '.join(missing)} (DICT_4X4_50); see 'nardref markers'")
    middle = np.mean([seen[i].mean(axis=0) for i in MARKER_IDS], axis=0)
    corners = np.array(
        [seen[i][int(np.argmin(np.linalg.norm(seen[i] - middle, axis=1)))] for i in MARKER_IDS], np.float32
    )
    check_corners(corners, image_shape=image.shape)
    log.debug("markers give corners %s", corners.tolist())
    return corners


def find_board_outline(image: Image) -> npt.NDArray[np.float32]:
    """Best effort without markers: the largest convex quadrilateral inside
    the largest one (the playing area inside the frame), (4, 2) float32
    TL, TR, BR, BL; :class:`MarkerError` when none is found. Fails where the
    table has the board's colour: use markers or corners then."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_image = image.shape[0] * image.shape[1]
    quads: list[tuple[float, npt.NDArray[np.float32]]] = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        area = float(cv2.contourArea(approx))
        if len(approx) == 4 and area > 0.08 * area_image:
            quads.append((area, approx.reshape(4, 2).astype(np.float32)))
    if not quads:
        raise MarkerError("no board outline found (and no ArUco markers): give --corners or place the markers")
    quads.sort(key=lambda q: -q[0])
    outer_area = quads[0][0]
    inner = [q for a, q in quads if 0.55 * outer_area < a < 0.97 * outer_area]
    quad = inner[0] if inner else quads[0][1]
    return _clockwise_from_top_left(quad)


def _clockwise_from_top_left(quad: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]  # clockwise on the image (y down), starting near the left
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0).astype(np.float32)


def marker_sheet(*, dpi: int = 150) -> Image:
    """A printable A4 sheet (portrait) with the four markers, each 5 cm wide,
    labelled with its corner, and the placing explained; (h, w, 3) uint8."""
    px_per_cm = dpi / 2.54
    width, height = int(21.0 * px_per_cm), int(29.7 * px_per_cm)
    sheet = np.full((height, width, 3), 255, np.uint8)
    side = int(5.0 * px_per_cm)
    margin = int(2.0 * px_per_cm)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = dpi / 150 * 0.7
    y = margin
    cv2.putText(
        sheet, "nardref board markers (ArUco DICT_4X4_50)", (margin, y), font, scale * 1.2, (0, 0, 0), 2, cv2.LINE_AA
    )
    y += int(1.0 * px_per_cm)
    for line in PLACING:
        cv2.putText(sheet, line, (margin, y), font, scale, (0, 0, 0), 1, cv2.LINE_AA)
        y += int(0.6 * px_per_cm)
    y += int(0.8 * px_per_cm)
    cells = [
        (margin, y),
        (width - margin - side, y),
        (width - margin - side, y + side + int(3 * px_per_cm)),
        (margin, y + side + int(3 * px_per_cm)),
    ]
    for marker_id, (x0, y0) in zip(MARKER_IDS, cells, strict=True):
        marker = cv2.aruco.generateImageMarker(_dictionary(), marker_id, side)
        sheet[y0 : y0 + side, x0 : x0 + side] = marker[:, :, None]
        cv2.putText(
            sheet,
            f"{marker_id}: {CORNER_NAMES[marker_id]}",
            (x0, y0 + side + int(0.8 * px_per_cm)),
            font,
            scale,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
    return sheet
