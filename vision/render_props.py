"""Things on, over and beside the board in a rendered photo: dice and the
doubling cube (drawn in board space); hands, arms and a dice cup over the
board, and a cup or a game clock beside it (drawn in the image, with their
shadows).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.render_style import BGR

Image = npt.NDArray[np.uint8]
Field = npt.NDArray[np.float32]
Point = tuple[float, float]

#: Pip positions on a die face, in [-1, 1] face coordinates.
PIPS: dict[int, tuple[Point, ...]] = {
    1: ((0, 0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0, 0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0, 0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.55), (0.5, -0.55), (-0.5, 0), (0.5, 0), (-0.5, 0.55), (0.5, 0.55)),
}

SKIN_BGR: tuple[BGR, ...] = (
    (165, 190, 235),
    (140, 170, 220),
    (115, 150, 200),
    (90, 120, 175),
    (65, 90, 140),
    (45, 62, 100),
)
CLOTH_BGR: tuple[BGR, ...] = (
    (90, 40, 20),
    (60, 60, 60),
    (40, 40, 150),
    (220, 220, 220),
    (25, 25, 25),
    (60, 110, 50),
    (140, 120, 90),
)
DICE_BGR: tuple[tuple[BGR, BGR], ...] = (
    ((235, 238, 240), (30, 30, 30)),
    ((40, 40, 190), (235, 235, 235)),
    ((30, 30, 30), (235, 235, 235)),
    ((80, 180, 220), (30, 30, 30)),
)


@dataclass(frozen=True)
class Block:
    """A die or the cube lying on the board: centre, side (board pixels), turn."""

    centre: Point
    side: float
    angle_deg: float

    def corners(self, lift: Point = (0.0, 0.0)) -> npt.NDArray[np.float32]:
        """The square's corners (4, 2), shifted by ``lift``."""
        a = math.radians(self.angle_deg)
        c, s = math.cos(a) * self.side / 2, math.sin(a) * self.side / 2
        cx, cy = self.centre[0] + lift[0], self.centre[1] + lift[1]
        return np.array(
            [[cx - c + s, cy - s - c], [cx + c + s, cy + s - c], [cx + c - s, cy + s + c], [cx - c - s, cy - s + c]],
            np.float32,
        )

    def clear_of(self, circles: Sequence[tuple[Point, float]], blocks: Sequence[Block]) -> bool:
        """True when the block touches none of ``circles`` (centre, radius) nor ``blocks``."""
        reach = self.side * 0.75
        for (x, y), r in circles:
            if math.hypot(x - self.centre[0], y - self.centre[1]) < r + reach:
                return False
        return all(
            math.hypot(b.centre[0] - self.centre[0], b.centre[1] - self.centre[1]) > (b.side + self.side) * 0.75
            for b in blocks
        )


def draw_block(canvas: Image, block: Block, lift: Point, body: BGR, ink: BGR, face: int | str) -> None:
    """A die (``face`` 1..6) or the cube (``face`` a number as text) seen from
    above: its sides toward the camera, then the top face shifted by ``lift``."""
    base = block.corners()
    top = block.corners(lift)
    side = tuple(int(c * 0.6) for c in body)
    hull = cv2.convexHull(np.vstack([base, top]))
    cv2.fillConvexPoly(canvas, (hull * 16).round().astype(np.int32), side, cv2.LINE_AA, shift=4)
    cv2.fillConvexPoly(canvas, (top * 16).round().astype(np.int32), body, cv2.LINE_AA, shift=4)
    edge = tuple(int(c * 0.8) for c in body)
    cv2.polylines(
        canvas, [(top * 16).round().astype(np.int32)], True, edge, max(1, round(block.side / 25)), cv2.LINE_AA, shift=4
    )
    cx, cy = top.mean(axis=0)
    a = math.radians(block.angle_deg)
    ux, uy = math.cos(a) * block.side * 0.38, math.sin(a) * block.side * 0.38
    if isinstance(face, int):
        for px, py in PIPS[face]:
            x = cx + px * ux - py * uy
            y = cy + px * uy + py * ux
            cv2.circle(
                canvas, (round(x * 16), round(y * 16)), round(block.side * 0.09 * 16), ink, -1, cv2.LINE_AA, shift=4
            )
        return
    scale = block.side / 60
    (tw, th), _ = cv2.getTextSize(face, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, round(scale * 2)))
    patch = np.zeros((th * 2 + 4, tw + 4), np.uint8)
    cv2.putText(patch, face, (2, th + 2), cv2.FONT_HERSHEY_DUPLEX, scale, 255, max(1, round(scale * 2)), cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((patch.shape[1] / 2, (th + 4) / 2), -block.angle_deg, 1.0)
    turn[:, 2] += [cx - patch.shape[1] / 2, cy - (th + 4) / 2]
    mask = cv2.warpAffine(patch, turn, (canvas.shape[1], canvas.shape[0]))
    canvas[mask > 127] = ink


@dataclass(frozen=True)
class Occluder:
    """A hand, an arm or a dice cup above the board, in image pixels."""

    kind: str
    target: Point
    """A point of the playing area it covers."""
    direction: Point
    """Unit vector from where it comes in toward ``target``."""
    scale: float
    """About one checker's diameter, in image pixels."""


def _rot(v: Point, degrees: float) -> Point:
    a = math.radians(degrees)
    return (v[0] * math.cos(a) - v[1] * math.sin(a), v[0] * math.sin(a) + v[1] * math.cos(a))


def _shade(
    image: Image, mask: npt.NDArray[np.uint8], colour: BGR, rng: np.random.Generator, light: Point, roundness: float
) -> None:
    """Paint ``colour`` where ``mask`` is set, rounded over ``roundness``
    pixels (darker toward the edges, lighter toward ``light``), with a little
    skin or cloth texture. The shading is worked out at 1/4 resolution."""
    x0, y0, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return
    x1, y1 = x0 + bw, y0 + bh
    m = mask[y0:y1, x0:x1].astype(np.float32) / 255
    small = cv2.resize(m, ((bw + 3) // 4, (bh + 3) // 4), interpolation=cv2.INTER_AREA)
    soft_small = cv2.GaussianBlur(small, (0, 0), max(0.5, roundness / 4))
    soft = cv2.resize(soft_small, (bw, bh), interpolation=cv2.INTER_LINEAR)
    shifted = np.roll(soft, (round(light[1] * roundness * 0.3), round(light[0] * roundness * 0.3)), axis=(0, 1))
    texture = cv2.resize(rng.random((bh // 12 + 2, bw // 12 + 2), dtype=np.float32), (bw, bh))
    shade = (0.5 + 0.4 * soft**0.7 + 0.15 * shifted) * (0.97 + 0.06 * texture)
    paint = np.asarray(colour, np.float32) * shade[:, :, None]
    alpha = m[:, :, None]
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + paint * alpha, 0, 255).astype(np.uint8)


def _line(mask: npt.NDArray[np.uint8], a: Point, b: Point, width: float) -> None:
    cv2.line(
        mask,
        (round(a[0] * 4), round(a[1] * 4)),
        (round(b[0] * 4), round(b[1] * 4)),
        255,
        max(2, round(width)),
        cv2.LINE_AA,
        shift=2,
    )


def _hand(skin: npt.NDArray[np.uint8], occ: Occluder, rng: np.random.Generator) -> list[tuple[Point, Point, float]]:
    """Palm, fingers (some curled) and thumb around ``occ.target`` on a mask;
    returns the stretched digits' tips as (tip, direction, width) for their nails."""
    d = occ.scale
    palm = 2.2 * d
    v = occ.direction
    n = (-v[1], v[0])
    tx, ty = occ.target
    axes = (round(palm * 0.55 * 4), round(palm * 0.48 * 4))
    angle = math.degrees(math.atan2(v[1], v[0]))
    cv2.ellipse(skin, (round(tx * 4), round(ty * 4)), axes, angle, 0, 360, 255, -1, cv2.LINE_AA, shift=2)
    tips: list[tuple[Point, Point, float]] = []
    spread = float(rng.uniform(-8, 8))
    for k, across in enumerate((-0.33, -0.11, 0.11, 0.33)):
        curl = float(rng.uniform(0.35, 1.0))
        length = palm * (0.85, 1.0, 0.95, 0.72)[k] * curl
        fd = _rot(v, spread + across * 25)
        start = (tx + v[0] * palm * 0.4 + n[0] * palm * across, ty + v[1] * palm * 0.4 + n[1] * palm * across)
        middle = (start[0] + fd[0] * length / 2, start[1] + fd[1] * length / 2)
        tip = (start[0] + fd[0] * length, start[1] + fd[1] * length)
        _line(skin, start, middle, palm * 0.21)  # fingers taper toward the tips
        _line(skin, middle, tip, palm * 0.17)
        if curl > 0.6:
            tips.append((tip, fd, palm * 0.17))
    side = 1 if rng.random() < 0.5 else -1
    td = _rot(v, side * float(rng.uniform(35, 70)))
    start = (tx + n[0] * palm * 0.4 * side, ty + n[1] * palm * 0.4 * side)
    tip = (start[0] + td[0] * palm * 0.6, start[1] + td[1] * palm * 0.6)
    _line(skin, start, tip, palm * 0.24)
    tips.append((tip, td, palm * 0.22))
    return tips


def _nails(image: Image, tips: list[tuple[Point, Point, float]], skin_bgr: BGR) -> None:
    """Paler, glossier nails at the tips of stretched fingers, seen from above."""
    nail = tuple(min(255, int(c * 1.06 + 10)) for c in skin_bgr)
    for (x, y), (dx, dy), width in tips:
        centre = (round((x - dx * width * 0.3) * 4), round((y - dy * width * 0.3) * 4))
        axes = (max(1, round(width * 0.28 * 4)), max(1, round(width * 0.22 * 4)))
        angle = math.degrees(math.atan2(dy, dx))
        cv2.ellipse(image, centre, axes, angle, 0, 360, nail, -1, cv2.LINE_AA, shift=2)


def draw_occluder(image: Image, shadow: Field, occ: Occluder, rng: np.random.Generator, light: Point) -> None:
    """Draw ``occ`` on ``image`` (H, W, 3) and darken its shadow into
    ``shadow`` (ceil(H/4), ceil(W/4)) float32, a 0..1 shadow map; ``light`` is
    the image direction (unit) of the shadow's offset."""
    h, w = image.shape[:2]
    skin = np.zeros((h, w), np.uint8)
    cloth = np.zeros((h, w), np.uint8)
    d = occ.scale
    v = occ.direction
    tx, ty = occ.target
    far = 3 * (w + h)
    if occ.kind == "cup":
        _cup(image, cloth, occ.target, 1.6 * d, rng, light)
        height = 3.0 * d
    else:
        # a hand reaches to the target; an arm lies across it with the hand beyond
        palm_at = (tx, ty) if occ.kind == "hand" else (tx + v[0] * 2.5 * d, ty + v[1] * 2.5 * d)
        wrist = (palm_at[0] - v[0] * 1.1 * d, palm_at[1] - v[1] * 1.1 * d)
        start = (wrist[0] - v[0] * far, wrist[1] - v[1] * far)
        arm_w = 2.2 * d * float(rng.uniform(0.7, 0.85))
        cv2.line(
            skin,
            (round(wrist[0] * 4), round(wrist[1] * 4)),
            (round(start[0] * 4), round(start[1] * 4)),
            255,
            max(2, round(arm_w)),
            cv2.LINE_AA,
            shift=2,
        )
        cuff = float(rng.uniform(1.0, 4.0)) * d
        sleeve = (wrist[0] - v[0] * cuff, wrist[1] - v[1] * cuff)
        cv2.line(
            cloth,
            (round(sleeve[0] * 4), round(sleeve[1] * 4)),
            (round(start[0] * 4), round(start[1] * 4)),
            255,
            max(2, round(arm_w * 1.35)),
            cv2.LINE_AA,
            shift=2,
        )
        tips = _hand(skin, Occluder(occ.kind, palm_at, v, d), rng)
        tone = np.asarray(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], float) * rng.uniform(0.92, 1.08)
        skin_bgr = (int(min(255, tone[0])), int(min(255, tone[1])), int(min(255, tone[2])))
        skin[cloth > 0] = 0
        _shade(image, skin, skin_bgr, rng, light, 0.5 * d)
        _nails(
            image,
            [t for t in tips if cloth[int(min(max(t[0][1], 0), h - 1)), int(min(max(t[0][0], 0), w - 1))] == 0],
            skin_bgr,
        )
        _shade(image, cloth, CLOTH_BGR[int(rng.integers(len(CLOTH_BGR)))], rng, light, 0.8 * d)
        height = 4.0 * d
    _cast(shadow, np.maximum(skin, cloth), light, height, d)


def _cup(
    image: Image, mask: npt.NDArray[np.uint8], centre: Point, radius: float, rng: np.random.Generator, light: Point
) -> None:
    """A leather dice cup standing open side up, seen from above; its outline is added to ``mask``."""
    body = (round(centre[0] * 4), round(centre[1] * 4))
    cv2.circle(mask, body, round(radius * 4), 255, -1, cv2.LINE_AA, shift=2)
    colour = CLOTH_BGR[int(rng.integers(len(CLOTH_BGR)))]
    _shade(image, mask, colour, rng, light, radius * 0.5)
    cv2.circle(image, body, round(radius * 0.78 * 4), tuple(int(c * 0.35) for c in colour), -1, cv2.LINE_AA, shift=2)
    rim = tuple(min(255, int(c * 1.3) + 20) for c in colour)
    cv2.circle(image, body, round(radius * 0.9 * 4), rim, max(1, round(radius * 0.04)), cv2.LINE_AA, shift=2)


def _cast(shadow: Field, mask: npt.NDArray[np.uint8], light: Point, height: float, d: float) -> None:
    """Darken ``shadow`` (1/4 resolution) where ``mask`` (full resolution),
    ``height`` pixels above the board, casts its shadow; the thing itself,
    being above the board, takes no shadow from the board's checkers."""
    small = cv2.resize(mask, (shadow.shape[1], shadow.shape[0]), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    shift = np.array([[1, 0, light[0] * height / 4], [0, 1, light[1] * height / 4]], np.float32)
    cast = cv2.warpAffine(small, shift, (shadow.shape[1], shadow.shape[0]))
    cast = cv2.GaussianBlur(cast, (0, 0), max(1.0, d / 4)) * (1 - small)
    shadow *= 1 - small
    np.maximum(shadow, 0.7 * cast, out=shadow)


def draw_clutter(
    image: Image, shadow: Field, board: npt.NDArray[np.float32], scale: float, rng: np.random.Generator, light: Point
) -> None:
    """A dice cup or a game clock on the table beside the board, clear of
    the board's outline ``board`` (4, 2) in image pixels; ``scale`` is about
    one checker's diameter. Nothing is drawn when there is no room."""
    h, w = image.shape[:2]
    outline = board.reshape(-1, 1, 2).astype(np.float32)
    clock = rng.random() < 0.4
    reach = (2.6 if clock else 1.6) * scale
    for _ in range(20):
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        if cv2.pointPolygonTest(outline, centre, True) < -reach * 1.1:
            break
    else:
        return
    mask = np.zeros((h, w), np.uint8)
    if clock:
        angle = float(rng.uniform(0, 180))
        box = cv2.boxPoints((centre, (5.0 * scale, 2.4 * scale), angle))
        cv2.fillConvexPoly(mask, (box * 4).round().astype(np.int32), 255, cv2.LINE_AA, shift=2)
        _shade(image, mask, (35, 35, 40), rng, light, 0.5 * scale)
        a = np.radians(angle)
        along = np.array([np.cos(a), np.sin(a)]) * 1.2 * scale
        for side in (-1, 1):
            panel = cv2.boxPoints((tuple(np.asarray(centre) + side * along), (1.9 * scale, 1.1 * scale), angle))
            cv2.fillConvexPoly(image, (panel * 4).round().astype(np.int32), (150, 170, 160), cv2.LINE_AA, shift=2)
        height = 1.5 * scale
    else:
        _cup(image, mask, centre, 1.6 * scale, rng, light)
        height = 3.0 * scale
    _cast(shadow, mask, light, height, scale)
