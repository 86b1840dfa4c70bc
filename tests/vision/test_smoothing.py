"""The wide Gaussian blur as low-rank matrices: the same as OpenCV's to 1e-5 of the range, also where the
kernel is longer than the picture and its border folds more than once."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.smoothing import gaussian_blur


@pytest.mark.parametrize(
    ("height", "width", "sigma"),
    [(127, 124, 27.0), (127, 124, 18.0), (40, 300, 3.0), (5, 3, 2.0), (1, 7, 1.5), (2, 2, 10.0)],
)
def test_blur_matches_opencv(height: int, width: int, sigma: float) -> None:
    planes = np.random.default_rng(height * width).uniform(0, 255, (3, height, width)).astype(np.float32)
    expected = np.stack([cv2.GaussianBlur(plane, (0, 0), sigma) for plane in planes])
    blurred = gaussian_blur(planes, sigma)
    assert blurred.shape == planes.shape and blurred.dtype == np.float32
    np.testing.assert_allclose(blurred, expected, atol=1e-5 * 255)


def test_a_flat_plane_stays_flat_and_a_step_spreads() -> None:
    step = np.zeros((1, 30, 60), np.float32)
    step[0, :, 30:] = 100.0
    flat = np.full((1, 30, 60), 42.0, np.float32)
    np.testing.assert_allclose(gaussian_blur(flat, 20.0), flat, rtol=1e-5)
    row = gaussian_blur(step, 4.0)[0, 15]
    assert row[0] < 1 and row[-1] > 99 and abs(row[29] + row[30] - 100) < 1e-2 and np.all(np.diff(row) >= -1e-3)
