"""Where frames come from: one :class:`FrameSource` protocol, four backends.

- :class:`Picamera2Source`: the Raspberry Pi camera (Picamera2, imported
  lazily, so this module loads on any machine);
- :class:`OpenCVSource`: USB cameras through ``cv2.VideoCapture``;
- :class:`FolderSource`: recorded frames, a folder of images in name order or
  a video file;
- :class:`SyntheticSource`: the renderer showing whatever the table holds now
  (:meth:`SyntheticSource.show`), each frame with fresh sensor noise.

This is the only module in :mod:`vision` that touches a camera.

The contract, the same for every backend:

- ``read()`` returns a :class:`Frame`, or ``None`` when no frame could be had
  this time: a dropped or unreadable frame, or a recorded source at its end
  (``finished`` then says so). A camera that fails ``max_failures`` reads in a
  row is taken to be gone: ``read()`` raises :class:`CameraError`.
- A camera that cannot be opened raises :class:`CameraError` naming the
  device; so does ``read()`` after ``close()``.
- ``close()`` is idempotent; every source is a context manager.
- Timestamps come from the injected ``clock`` (seconds, monotonic), so tests
  need no real time.
- After calibration, :meth:`lock` freezes exposure, white balance and focus
  (issue 5) and returns the :class:`CameraSettings` to save; passing them as
  ``settings=`` at the next start applies them at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import NardrefError
from vision.layout import Layout
from vision.render import CameraPose, Effects, Lighting, Occlusion, Rendered, Style, find_style, random_style, render
from vision.render_camera import add_noise, jpeg

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Clock = Callable[[], float]

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class CameraError(NardrefError, OSError):
    """A camera that cannot be opened, has gone away, or was closed."""


@dataclass(frozen=True)
class Frame:
    """One camera frame."""

    image: Image
    """(H, W, 3) uint8, BGR."""
    timestamp_s: float
    """When it was taken, by the source's clock (seconds)."""
    index: int
    """Its number in this source's sequence, from 0."""


@dataclass(frozen=True)
class CameraSettings:
    """Locked exposure, white balance and focus (issue 5: fixed after calibration)."""

    exposure_time_us: int
    analogue_gain: float
    colour_gains: tuple[float, float] | None = None
    """Red and blue gains; None where the camera has no manual white balance."""
    lens_position_dioptres: float | None = None
    """1 / focus distance in metres (65 cm above the board: about 1.5); None for fixed focus."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "exposure_time_us": self.exposure_time_us,
            "analogue_gain": self.analogue_gain,
            "colour_gains": list(self.colour_gains) if self.colour_gains is not None else None,
            "lens_position_dioptres": self.lens_position_dioptres,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CameraSettings:
        """The inverse of :meth:`to_dict`; a :class:`CameraError` names a bad field."""
        try:
            gains = data.get("colour_gains")
            lens = data.get("lens_position_dioptres")
            return cls(
                exposure_time_us=int(data["exposure_time_us"]),
                analogue_gain=float(data["analogue_gain"]),
                colour_gains=(float(gains[0]), float(gains[1])) if gains is not None else None,
                lens_position_dioptres=float(lens) if lens is not None else None,
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CameraError(
                f"camera settings {data!r}: {exc!r} (expected exposure_time_us, analogue_gain, ...)"
            ) from None


@runtime_checkable
class FrameSource(Protocol):
    """Anything frames can be read from."""

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class _Source:
    """What every backend shares: the closed state, frame numbering, the
    count of failed reads and the context manager."""

    name: str = "source"

    def __init__(self, *, clock: Clock, max_failures: int) -> None:
        self._clock = clock
        self._max_failures = max_failures
        self._failures = 0
        self._index = 0
        self._closed = False
        self.finished = False
        """True once a recorded source has no more frames."""

    def read(self) -> Frame | None:
        if self._closed:
            raise CameraError(f"{self.name}: read after close")
        try:
            image = self._grab()
        except (RuntimeError, OSError, cv2.error) as exc:  # a driver's error for one frame: a dropped frame
            if isinstance(exc, CameraError):
                raise
            log.warning("%s: frame %d failed: %r", self.name, self._index, exc)
            image = None
        if image is None:
            if not self.finished:
                self._failures += 1
                if self._failures >= self._max_failures:
                    raise CameraError(
                        f"{self.name}: {self._failures} frames in a row failed; is the camera still connected?"
                    )
            return None
        self._failures = 0
        frame = Frame(image=_bgr(image, self.name), timestamp_s=self._clock(), index=self._index)
        self._index += 1
        return frame

    def _grab(self) -> Image | None:
        raise NotImplementedError

    def _release(self) -> None:
        """Free the device (once)."""

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._release()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        """Frames until a recorded source finishes (a live camera never does)."""
        while not self.finished:
            frame = self.read()
            if frame is not None:
                yield frame


def _bgr(image: npt.NDArray[Any], name: str) -> Image:
    """(H, W, 3) uint8 from what a backend gives: grey becomes BGR, a fourth (X or alpha) channel is dropped."""
    if image.dtype != np.uint8:
        raise CameraError(f"{name}: frames of dtype {image.dtype!s}, expected uint8")
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 3:
        return np.asarray(image, np.uint8)
    raise CameraError(f"{name}: frames of shape {image.shape!r}, expected (H, W, 3)")


class Picamera2Source(_Source):
    """The Raspberry Pi camera through Picamera2 (libcamera).

    Frames are ``RGB888``, which Picamera2 lays out B, G, R: OpenCV's order.
    Picamera2 is imported when the source is made, not when this module
    loads. Tests inject a small fake ``picamera2`` (and ``libcamera``) module
    into ``sys.modules``; the real one comes from Raspberry Pi OS
    (``apt install python3-picamera2``, venv made with ``--system-site-packages``).
    """

    def __init__(
        self,
        camera_num: int = 0,
        *,
        size: tuple[int, int] = (1280, 720),
        settings: CameraSettings | None = None,
        clock: Clock = time.monotonic,
        max_failures: int = 10,
    ) -> None:
        super().__init__(clock=clock, max_failures=max_failures)
        self.name = f"Pi camera {camera_num}"
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(
                f"{self.name}: Picamera2 is not installed ({exc}); on Raspberry Pi OS: "
                "sudo apt install python3-picamera2, and make the venv with --system-site-packages"
            ) from None
        try:
            self._camera = Picamera2(camera_num)
        except (IndexError, RuntimeError, OSError) as exc:
            raise CameraError(
                f"{self.name}: cannot open it ({exc}); is the ribbon cable seated and the camera enabled?"
            ) from None
        try:
            config = self._camera.create_video_configuration(main={"size": tuple(size), "format": "RGB888"})
            self._camera.configure(config)
            if settings is not None:
                self.apply(settings)
            self._camera.start()
        except Exception as exc:
            self._camera.close()
            raise CameraError(f"{self.name}: cannot start it at {size[0]}x{size[1]}: {exc}") from None
        log.info("%s started at %dx%d", self.name, size[0], size[1])

    def _grab(self) -> Image | None:
        image = self._camera.capture_array("main")
        return None if image is None else np.asarray(image)

    def apply(self, settings: CameraSettings) -> None:
        """Switch off auto exposure and white balance (and autofocus, if the
        module has it) and hold ``settings``."""
        controls: dict[str, Any] = {
            "AeEnable": False,
            "ExposureTime": int(settings.exposure_time_us),
            "AnalogueGain": float(settings.analogue_gain),
        }
        if settings.colour_gains is not None:
            controls["AwbEnable"] = False
            controls["ColourGains"] = tuple(settings.colour_gains)
        if settings.lens_position_dioptres is not None and "AfMode" in self._camera.camera_controls:
            from libcamera import controls as libcamera_controls

            controls["AfMode"] = libcamera_controls.AfModeEnum.Manual
            controls["LensPosition"] = float(settings.lens_position_dioptres)
        self._camera.set_controls(controls)

    def lock(self) -> CameraSettings:
        """Freeze what auto exposure, white balance and focus settled on; return it to save."""
        meta = self._camera.capture_metadata()
        gains = meta.get("ColourGains")
        lens = meta.get("LensPosition")
        settings = CameraSettings(
            exposure_time_us=int(meta["ExposureTime"]),
            analogue_gain=float(meta["AnalogueGain"]),
            colour_gains=(float(gains[0]), float(gains[1])) if gains is not None else None,
            lens_position_dioptres=float(lens) if lens is not None else None,
        )
        self.apply(settings)
        log.info("%s locked: %s", self.name, settings)
        return settings

    def _release(self) -> None:
        try:
            self._camera.stop()
        finally:
            self._camera.close()


class OpenCVSource(_Source):
    """A USB (UVC) camera, or anything else ``cv2.VideoCapture`` opens.

    ``device`` is an index (0 = the first camera) or a path such as
    ``/dev/video0``. Manual exposure, white balance and focus are asked for
    where the driver supports them (V4L2: auto exposure 1 = manual, 3 = auto);
    what it refuses is logged, not fatal.
    """

    def __init__(
        self,
        device: int | str = 0,
        *,
        size: tuple[int, int] | None = (1280, 720),
        settings: CameraSettings | None = None,
        clock: Clock = time.monotonic,
        max_failures: int = 10,
    ) -> None:
        super().__init__(clock=clock, max_failures=max_failures)
        self.name = f"camera {device!r}"
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(
                f"{self.name}: OpenCV cannot open it; is it plugged in, is the index or path right, "
                "and is the user in the 'video' group?"
            )
        if size is not None:
            self._set("frame width", cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._set("frame height", cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if settings is not None:
            self.apply(settings)

    def _set(self, what: str, prop: int, value: float) -> bool:
        ok = bool(self._capture.set(prop, value))
        if not ok:
            log.debug("%s: the driver refused %s = %r", self.name, what, value)
        return ok

    def _grab(self) -> Image | None:
        ok, image = self._capture.read()
        return np.asarray(image) if ok and image is not None else None

    def apply(self, settings: CameraSettings) -> None:
        """Manual exposure (V4L2 units of 100 us), gain, white balance off, focus fixed, where supported."""
        self._set("auto exposure", cv2.CAP_PROP_AUTO_EXPOSURE, 1)
        self._set("exposure", cv2.CAP_PROP_EXPOSURE, settings.exposure_time_us / 100)
        self._set("gain", cv2.CAP_PROP_GAIN, settings.analogue_gain)
        self._set("auto white balance", cv2.CAP_PROP_AUTO_WB, 0)
        if settings.lens_position_dioptres is not None:
            self._set("autofocus", cv2.CAP_PROP_AUTOFOCUS, 0)

    def lock(self) -> CameraSettings:
        """Freeze the driver's current exposure and gain (and white balance and focus)."""
        settings = CameraSettings(
            exposure_time_us=max(1, int(self._capture.get(cv2.CAP_PROP_EXPOSURE) * 100)),
            analogue_gain=float(self._capture.get(cv2.CAP_PROP_GAIN)),
        )
        self.apply(settings)
        self._set("autofocus", cv2.CAP_PROP_AUTOFOCUS, 0)
        return settings

    def _release(self) -> None:
        self._capture.release()


class FolderSource(_Source):
    """Recorded frames: a folder of images read in name order, or a video file.

    An image that cannot be decoded gives ``None`` for its turn (logged) and
    the folder goes on; at the end ``finished`` is set and ``read()`` returns
    None, unless ``loop`` starts it again.
    """

    def __init__(
        self, path: str | Path, *, loop: bool = False, clock: Clock = time.monotonic, max_failures: int = 10
    ) -> None:
        super().__init__(clock=clock, max_failures=max_failures)
        self.path = Path(path)
        self.name = f"recording {str(self.path)!r}"
        self._loop = loop
        self._files: list[Path] = []
        self._video: cv2.VideoCapture | None = None
        self._next = 0
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise CameraError(f"{self.name}: no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in this folder")
        elif self.path.is_file():
            self._video = cv2.VideoCapture(str(self.path))
            if not self._video.isOpened():
                self._video.release()
                raise CameraError(f"{self.name}: OpenCV cannot read this file as a video")
        else:
            raise CameraError(f"{self.name}: no such folder or video file")

    def __len__(self) -> int:
        """Frames in the recording (a video's count is the container's estimate)."""
        if self._video is not None:
            return int(self._video.get(cv2.CAP_PROP_FRAME_COUNT))
        return len(self._files)

    def _grab(self) -> Image | None:
        if self._video is not None:
            ok, image = self._video.read()
            if ok and image is not None:
                self._next += 1
                return np.asarray(image)
            if self._loop and self._next > 0:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                self._next = 0
                return self._grab()
            self.finished = True
            return None
        if self._next >= len(self._files):
            if not self._loop:
                self.finished = True
                return None
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        decoded: npt.NDArray[Any] | None = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if decoded is None:
            log.warning("%s: cannot decode %s", self.name, path.name)
            return None
        return np.asarray(decoded, np.uint8)

    def _release(self) -> None:
        if self._video is not None:
            self._video.release()


class SyntheticSource(_Source):
    """The synthetic board as a camera: :meth:`show` says what lies on the
    table now (the layout, a hand over it, dice, the cube); each ``read()``
    renders it with fresh sensor noise.

    The board (its style, ``"random"`` included), the camera pose, the
    light and the lens are fixed when the source is made (drawn from ``rng``
    where not given), as with a camera on a mount over one board. Each
    :meth:`show` draws a new scene seed (where the dice lie, the hand's
    shape) from ``rng``; the scene is rendered once and each frame of it
    gets fresh sensor noise (and JPEG, if the effects have it), so reading
    is cheap. Nothing is shown until the first :meth:`show`: ``read()``
    returns None.
    """

    name = "synthetic camera"

    def __init__(
        self,
        *,
        rng: np.random.Generator,
        style: Style | str = "wood",
        size: tuple[int, int] = (1280, 720),
        camera: CameraPose | None = None,
        lighting: Lighting | None = None,
        effects: Effects | None = None,
        clock: Clock = time.monotonic,
        max_failures: int = 1_000_000,
    ) -> None:
        super().__init__(clock=clock, max_failures=max_failures)
        self._rng = rng
        self.style = (
            (random_style(rng) if style == "random" else find_style(style)) if isinstance(style, str) else style
        )
        self.size = size
        self.camera = CameraPose.random(rng) if camera is None else camera
        self.lighting = Lighting.random(rng) if lighting is None else lighting
        self.effects = Effects.random(rng) if effects is None else effects
        self.board_seed = int(rng.integers(2**31))
        self._scene: dict[str, Any] | None = None
        self._shot: Rendered | None = None
        self.last_corners: npt.NDArray[np.float32] | None = None
        """The playing area's corners (4, 2) in the last frame (ground truth)."""
        self.last_tray: npt.NDArray[np.float32] | None = None
        """The bear-off tray's corners (4, 2) in the last frame, or None (no tray)."""

    def show(
        self,
        layout: Layout,
        *,
        occlusion: Occlusion = "none",
        dice: tuple[int, int] | None = None,
        cube: int | None = None,
    ) -> None:
        """What the table looks like from now on."""
        self._scene = {
            "layout": layout,
            "occlusion": occlusion,
            "dice": dice,
            "cube": cube,
            "seed": int(self._rng.integers(2**63)),
        }
        self._shot = None

    def move_camera(self, camera: CameraPose) -> None:
        """Someone knocked the camera arm: later frames see the board from ``camera``."""
        self.camera = camera
        self._shot = None

    def _grab(self) -> Image | None:
        if self._scene is None:
            return None
        if self._shot is None:
            self._shot = render(
                self._scene["layout"],
                rng=np.random.default_rng(self._scene["seed"]),
                style=self.style,
                size=self.size,
                camera=self.camera,
                occlusion=self._scene["occlusion"],
                dice=self._scene["dice"],
                cube=self._scene["cube"],
                lighting=self.lighting,
                effects=replace(self.effects, noise_sigma=0.0, jpeg_quality=None),
                board_seed=self.board_seed,
                clutter=False,
            )
            self.last_corners = self._shot.corners
            self.last_tray = self._shot.tray
        image = self._shot.image
        if self.effects.noise_sigma > 0:
            image = add_noise(image, self.effects.noise_sigma, self._rng)
        if self.effects.jpeg_quality is not None:
            image = jpeg(image, self.effects.jpeg_quality)
        return image


def open_source(spec: str, *, size: tuple[int, int] = (1280, 720), clock: Clock = time.monotonic) -> FrameSource:
    """A camera from a config string: ``pi`` or ``pi:N`` (Pi camera N),
    ``usb:N`` or a device path such as ``/dev/video0`` (OpenCV), or the path
    of a folder of images or a video file (recorded frames)."""
    kind, _, rest = spec.partition(":")
    if kind in ("pi", "usb"):
        if rest and not rest.isdigit() or kind == "usb" and not rest:
            raise CameraError(f"camera {spec!r}: expected {kind}:N with N the camera's number")
        if kind == "pi":
            return Picamera2Source(int(rest or 0), size=size, clock=clock)
        return OpenCVSource(int(rest), size=size, clock=clock)
    if spec.startswith("/dev/"):
        return OpenCVSource(spec, size=size, clock=clock)
    if Path(spec).exists():
        return FolderSource(spec, clock=clock)
    raise CameraError(f"camera {spec!r}: expected pi, pi:N, usb:N, /dev/videoN, or a folder or video file that exists")
