"""How a rendered board looks: materials, colours and proportions.

Colours are BGR (OpenCV order), 0..255. Lengths are in *point widths* (the
width of one point's base) unless the name says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal

import numpy as np

from engine.errors import NardrefError

BGR = tuple[int, int, int]
Surface = Literal["wood", "felt", "leather", "marble", "plain"]
Pile = Literal["layer", "squeeze"]


class StyleError(NardrefError, ValueError):
    """A style name or value the renderer does not know."""


@dataclass(frozen=True)
class Style:
    """One board's look. Lengths in point widths, colours BGR."""

    name: str
    frame_bgr: BGR
    frame_surface: Surface
    field_bgr: BGR
    field_surface: Surface
    point_bgr: tuple[BGR, BGR]
    light_bgr: BGR
    """The brighter checkers' colour (positive counts in a layout)."""
    dark_bgr: BGR
    bar_bgr: BGR
    bar_surface: Surface = "wood"
    table_bgr: BGR = (70, 90, 110)
    #: Bar width, in point widths.
    bar_width: float = 1.2
    #: Frame width around the playing area, in point widths.
    frame_width: float = 0.8
    #: Height of the playing area, in point widths.
    board_height: float = 11.0
    #: Point length as a fraction of the playing area's height.
    point_length: float = 0.42
    #: Checker radius, in point widths (0.5 = touching its neighbours).
    checker_radius: float = 0.46
    #: 0 = matte, 1 = lacquered mirror finish (checkers and wood).
    gloss: float = 0.5
    #: An embossed ring (or logo) on the checkers' faces.
    embossed: bool = True
    #: How checkers past the fifth stand: on top in a second layer, or squeezed closer.
    pile: Pile = "layer"
    #: Bear-off trays drawn beside the frame (outside the playing area).
    trays: bool = True
    #: Thin outline (inlay) around each point.
    point_outline: bool = False
    #: Strength of the surface texture (grain or fibres), 0..1.
    texture: float = 0.5

    def checker_pitch(self, height_px: float) -> float:
        """The distance between neighbouring checkers in a line, in px of a
        playing area rectified ``height_px`` high: two checker radii. (Along
        the points: a board rectified from a photo taken askew may be
        stretched or squeezed across them.)"""
        return 2 * self.checker_radius * height_px / self.board_height


STYLES: Mapping[str, Style] = MappingProxyType(
    {
        s.name: s
        for s in (
            Style(
                name="wood",
                frame_bgr=(40, 75, 120),
                frame_surface="wood",
                field_bgr=(120, 170, 215),
                field_surface="wood",
                point_bgr=((35, 45, 110), (60, 105, 150)),
                light_bgr=(200, 225, 235),
                dark_bgr=(30, 35, 60),
                bar_bgr=(40, 75, 120),
                table_bgr=(60, 80, 95),
                gloss=0.6,
            ),
            Style(
                name="felt-green",
                frame_bgr=(30, 50, 80),
                frame_surface="wood",
                field_bgr=(60, 120, 40),
                field_surface="felt",
                point_bgr=((40, 40, 150), (210, 215, 215)),
                light_bgr=(225, 230, 235),
                dark_bgr=(35, 35, 35),
                bar_bgr=(30, 50, 80),
                table_bgr=(110, 120, 130),
                gloss=0.4,
                bar_width=1.0,
            ),
            Style(
                name="tournament",
                frame_bgr=(25, 25, 30),
                frame_surface="leather",
                field_bgr=(70, 95, 40),
                field_surface="felt",
                point_bgr=((55, 55, 150), (190, 200, 205)),
                light_bgr=(230, 235, 240),
                dark_bgr=(30, 30, 35),
                bar_bgr=(25, 25, 30),
                bar_surface="leather",
                table_bgr=(40, 40, 45),
                gloss=0.8,
                bar_width=1.4,
                checker_radius=0.47,
                board_height=11.4,
            ),
            Style(
                name="red-white",
                frame_bgr=(35, 60, 100),
                frame_surface="wood",
                field_bgr=(150, 195, 225),
                field_surface="wood",
                point_bgr=((40, 40, 120), (90, 130, 170)),
                light_bgr=(220, 228, 232),
                dark_bgr=(40, 40, 170),
                bar_bgr=(35, 60, 100),
                table_bgr=(90, 110, 120),
                gloss=0.5,
            ),
            Style(
                name="gold-white",
                frame_bgr=(30, 35, 45),
                frame_surface="leather",
                field_bgr=(45, 50, 55),
                field_surface="felt",
                point_bgr=((60, 150, 190), (200, 205, 210)),
                light_bgr=(225, 232, 238),
                dark_bgr=(60, 165, 205),
                bar_bgr=(30, 35, 45),
                bar_surface="leather",
                table_bgr=(120, 125, 125),
                gloss=0.7,
            ),
            Style(
                name="red-blue",
                frame_bgr=(45, 80, 130),
                frame_surface="wood",
                field_bgr=(170, 205, 230),
                field_surface="wood",
                point_bgr=((50, 50, 60), (120, 150, 185)),
                light_bgr=(205, 125, 55),
                dark_bgr=(40, 45, 170),
                bar_bgr=(45, 80, 130),
                table_bgr=(75, 95, 110),
                gloss=0.5,
                point_outline=True,
            ),
            Style(
                name="dark-felt",
                frame_bgr=(20, 25, 30),
                frame_surface="wood",
                field_bgr=(55, 40, 35),
                field_surface="felt",
                point_bgr=((40, 40, 130), (150, 150, 150)),
                light_bgr=(215, 220, 225),
                dark_bgr=(25, 25, 30),
                bar_bgr=(20, 25, 30),
                table_bgr=(60, 60, 60),
                gloss=0.6,
                bar_width=1.1,
            ),
            Style(
                name="marble",
                frame_bgr=(60, 60, 65),
                frame_surface="marble",
                field_bgr=(205, 210, 212),
                field_surface="marble",
                point_bgr=((40, 40, 40), (80, 120, 160)),
                light_bgr=(180, 225, 240),
                dark_bgr=(30, 40, 100),
                bar_bgr=(60, 60, 65),
                bar_surface="marble",
                table_bgr=(100, 110, 120),
                gloss=0.9,
                embossed=False,
            ),
        )
    }
)


def find_style(name: str) -> Style:
    """The named style; a :class:`StyleError` lists the names it knows."""
    try:
        return STYLES[name]
    except KeyError:
        raise StyleError(f"style {name!r}: expected one of {', '.join(STYLES)} or 'random'") from None


def luminance(bgr: BGR) -> float:
    """Brightness of a BGR colour (ITU-R BT.601 weights, as OpenCV's grey)."""
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


def _jitter(rng: np.random.Generator, bgr: BGR, spread: float) -> BGR:
    shifted = np.clip(
        np.asarray(bgr, float) * rng.uniform(1 - spread, 1 + spread) + rng.normal(0, 10 * spread, 3), 0, 255
    )
    return (int(shifted[0]), int(shifted[1]), int(shifted[2]))


def random_style(rng: np.random.Generator) -> Style:
    """A named style with its colours, proportions and finish varied, as two
    boards of the same kind differ. ``name`` keeps the base style's name."""
    base = STYLES[str(rng.choice(list(STYLES)))]
    light, dark = _jitter(rng, base.light_bgr, 0.08), _jitter(rng, base.dark_bgr, 0.15)
    if luminance(light) < luminance(dark):  # "light" names the brighter colour (issue 4)
        light, dark = dark, light
    return replace(
        base,
        frame_bgr=_jitter(rng, base.frame_bgr, 0.2),
        field_bgr=_jitter(rng, base.field_bgr, 0.15),
        point_bgr=(_jitter(rng, base.point_bgr[0], 0.15), _jitter(rng, base.point_bgr[1], 0.15)),
        light_bgr=light,
        dark_bgr=dark,
        bar_bgr=_jitter(rng, base.bar_bgr, 0.2),
        table_bgr=_jitter(rng, base.table_bgr, 0.4),
        bar_width=float(rng.uniform(0.9, 1.6)),
        frame_width=float(rng.uniform(0.5, 1.1)),
        board_height=float(rng.uniform(10.6, 11.8)),
        point_length=float(rng.uniform(0.38, 0.44)),
        checker_radius=float(rng.uniform(0.44, 0.49)),
        gloss=float(np.clip(base.gloss + rng.normal(0, 0.15), 0, 1)),
        embossed=bool(rng.random() < 0.7),
        pile="layer" if rng.random() < 0.7 else "squeeze",
        trays=bool(rng.random() < 0.7),
        point_outline=bool(rng.random() < 0.3),
        texture=float(rng.uniform(0.2, 0.9)),
    )
