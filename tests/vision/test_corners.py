"""Corners given by hand, snapped to the playing area's edges (vision/corners.py;
what they do for the reading: test_uncalibrated.py)."""

from __future__ import annotations

import numpy as np

from vision.corners import snap_corners


def test_a_side_with_no_edge_near_it_is_kept_as_given() -> None:
    """A picture with no edge anywhere (a plain wall) leaves every side,
    and so every corner, as given."""
    wall = np.full((720, 1280, 3), 128, np.uint8)
    corners = np.array([[300, 100], [1000, 110], [990, 620], [290, 600]], np.float32)
    assert np.allclose(snap_corners(wall, corners), corners, atol=1e-3)


def test_a_side_off_by_a_few_pixels_is_snapped_to_the_edge_beside_it() -> None:
    """A light field on a dark frame, drawn square: corners given 6 px off,
    in and out, land on the field's corners (to a quarter pixel)."""
    picture = np.full((720, 1280, 3), 40, np.uint8)
    picture[150:601, 250:1051] = 200
    field = np.array([[249.5, 149.5], [1050.5, 149.5], [1050.5, 600.5], [249.5, 600.5]], np.float32)
    given = field + np.array([[6, -6], [-6, 6], [6, 6], [-6, -6]], np.float32)
    assert np.abs(snap_corners(picture, given) - field).max() <= 0.25
