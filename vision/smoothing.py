"""Gaussian blurs wider than the picture: the light over a board, measured
on the small thumbnail (:mod:`vision.relight`, :mod:`vision.occlusion`).

A Gaussian of a few checker pitches on the thumbnail has a kernel longer
than the thumbnail itself, and ``cv2.GaussianBlur`` spends its time on the
reflected border. Along each axis the same blur is a fixed (n, n) matrix,
the border (OpenCV's ``BORDER_REFLECT_101``, folded as often as the kernel
needs) taken into it once, so that blurring a plane is two small matrix
products: the same result to float rounding, in a third of the time. The
products are OpenCV's, on the one thread it is given: numpy's would start
BLAS threads of their own, which spin beside the rest of the referee.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


@lru_cache(maxsize=16)
def _blur_matrix(n: int, sigma: float) -> FloatArray:
    """(n, n) the Gaussian blur of ``sigma`` px along a line of ``n`` px, as
    ``cv2.GaussianBlur`` does it on float images (a kernel of 8 sigma)."""
    size = int(round(8 * sigma + 1)) | 1
    kernel = cv2.getGaussianKernel(size, sigma, cv2.CV_64F)[:, 0]
    reach = size // 2
    source = np.arange(n)[:, None] + np.arange(-reach, reach + 1)[None, :]
    if n == 1:
        source = np.zeros_like(source)
    else:
        period = 2 * (n - 1)
        source %= period
        source = np.where(source >= n, period - source, source)
    matrix = np.zeros((n, n))
    np.add.at(matrix, (np.repeat(np.arange(n), size), source.ravel()), np.tile(kernel, n))
    return matrix.astype(np.float32)


def gaussian_blur(planes: FloatArray, sigma: float) -> FloatArray:
    """(k, h, w) each of ``planes`` (k, h, w) blurred by a Gaussian of ``sigma`` px,
    as ``cv2.GaussianBlur(plane, (0, 0), sigma)`` would."""
    _, h, w = planes.shape
    down, across = _blur_matrix(h, sigma), _blur_matrix(w, sigma)
    nothing = np.empty((0, 0), np.float32)  # no third matrix added
    return np.stack(
        [
            cv2.gemm(cv2.gemm(down, plane, 1.0, nothing, 0.0), across, 1.0, nothing, 0.0, flags=cv2.GEMM_2_T)
            for plane in planes
        ]
    )
