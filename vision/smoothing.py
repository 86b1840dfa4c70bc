"""Gaussian blurs wider than the picture: the light over a board, measured
on the small thumbnail (:mod:`vision.relight`, :mod:`vision.occlusion`).

A Gaussian of a few checker pitches on the thumbnail has a kernel longer
than the thumbnail itself, and ``cv2.GaussianBlur`` spends its time on the
reflected border. Along each axis the same blur is a fixed (n, n) matrix,
the border (OpenCV's ``BORDER_REFLECT_101``, folded as often as the kernel
needs) taken into it once. So wide a blur keeps only slow waves: to a
ten-thousandth, the matrix is of low rank (7 for three pitches, 10 for
two), and blurring a plane is four thin products of its factors.

Thin products also keep the blur on the calling thread. The full
matrices' products did not: ``cv2.gemm`` and numpy's ``@`` (OpenBLAS)
both slowed down tenfold or more (2.8 -> 77 ms for three planes, measured
here) whenever other processes kept the cores busy, as the camera and the
rest of the referee do on a Pi; the thin ones went from 0.16 to 0.23 ms.
(The factors themselves come once per thumbnail size, from an SVD.)
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]

#: Singular values below this share of the largest are dropped: the blur
#: stays within about 1e-5 of a plane's range of ``cv2.GaussianBlur``'s.
RANK_TOLERANCE = 1e-4


def _blur_matrix(n: int, sigma: float) -> npt.NDArray[np.float64]:
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
    return matrix


@lru_cache(maxsize=16)
def _blur_factors(n: int, sigma: float) -> tuple[FloatArray, FloatArray]:
    """The blur of :func:`_blur_matrix` as ``left`` (n, k) @ ``right`` (k, n),
    its k singular values of at least ``RANK_TOLERANCE`` of the first."""
    u, s, vt = np.linalg.svd(_blur_matrix(n, sigma))
    rank = max(1, int((s >= RANK_TOLERANCE * s[0]).sum()))
    left = np.ascontiguousarray(u[:, :rank] * s[:rank], np.float32)
    return left, np.ascontiguousarray(vt[:rank], np.float32)


def gaussian_blur(planes: FloatArray, sigma: float) -> FloatArray:
    """(k, h, w) each of ``planes`` (k, h, w) blurred by a Gaussian of ``sigma`` px,
    as ``cv2.GaussianBlur(plane, (0, 0), sigma)`` would."""
    _, h, w = planes.shape
    down_left, down_right = _blur_factors(h, sigma)
    across_left, across_right = _blur_factors(w, sigma)
    # down @ plane @ across.T, the thin factors inside
    core = (down_right @ planes) @ across_right.T
    return np.asarray((down_left @ core) @ across_left.T, np.float32)
