"""Frame sources: folder and video recordings, OpenCV, the synthetic camera,
and Picamera2 against a fake ``picamera2`` module injected into ``sys.modules``
(the real one needs a Raspberry Pi and its camera)."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from engine.errors import NardrefError
from engine.position import Position
from vision.capture import (
    CameraError,
    CameraSettings,
    FolderSource,
    Frame,
    FrameSource,
    OpenCVSource,
    Picamera2Source,
    SyntheticSource,
    open_source,
)
from vision.layout import layout_from_position
from vision.render import CameraPose, Effects, Lighting


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 0.5
        return self.now


def _frames(folder: Path, count: int) -> list[np.ndarray]:
    images = []
    for k in range(count):
        image = np.full((24, 32, 3), 40 * k, np.uint8)
        cv2.imwrite(str(folder / f"frame_{k:03d}.png"), image)
        images.append(image)
    return images


def test_camera_error_is_nardref_and_os_error() -> None:
    error = CameraError("camera 0: gone")
    assert isinstance(error, NardrefError) and isinstance(error, OSError)


def test_folder_source_reads_in_name_order_with_clock_and_index(tmp_path: Path) -> None:
    images = _frames(tmp_path, 3)
    (tmp_path / "notes.txt").write_text("not a frame")
    clock = FakeClock()
    with FolderSource(tmp_path, clock=clock) as source:
        assert isinstance(source, FrameSource) and len(source) == 3
        frames = [source.read() for _ in range(3)]
        assert all(isinstance(f, Frame) for f in frames)
        assert [f.index for f in frames if f] == [0, 1, 2]
        assert [f.timestamp_s for f in frames if f] == [100.5, 101.0, 101.5]
        for frame, image in zip(frames, images, strict=True):
            assert frame is not None and np.array_equal(frame.image, image)
        assert source.read() is None and source.finished
        assert source.read() is None  # stays finished, never raises


def test_folder_source_skips_undecodable_image_with_none(tmp_path: Path) -> None:
    _frames(tmp_path, 2)
    (tmp_path / "frame_000b.png").write_bytes(b"not a png")
    with FolderSource(tmp_path) as source:
        results = [source.read() for _ in range(3)]
        assert results[0] is not None and results[1] is None and results[2] is not None
        assert not source.finished  # a bad file is a dropped frame, not the end
        assert source.read() is None and source.finished


def test_folder_source_loop_and_iteration(tmp_path: Path) -> None:
    _frames(tmp_path, 2)
    looping = FolderSource(tmp_path, loop=True)
    values = []
    for _ in range(5):
        frame = looping.read()
        assert frame is not None
        values.append(int(frame.image[0, 0, 0]))
    assert values == [0, 40, 0, 40, 0]
    assert [f.index for f in FolderSource(tmp_path)] == [0, 1]


def test_folder_source_errors_name_the_path(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no such folder"):
        FolderSource(tmp_path / "missing")
    with pytest.raises(CameraError, match="no images"):
        FolderSource(tmp_path)
    bogus = tmp_path / "clip.avi"
    bogus.write_bytes(b"\x00" * 64)
    with pytest.raises(CameraError, match="clip.avi"):
        FolderSource(bogus)


def test_source_read_after_close_raises_and_close_is_idempotent(tmp_path: Path) -> None:
    _frames(tmp_path, 1)
    source = FolderSource(tmp_path)
    source.close()
    source.close()
    with pytest.raises(CameraError, match="after close"):
        source.read()


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for k in range(4):
        writer.write(np.full((48, 64, 3), 50 * k + 20, np.uint8))
    writer.release()
    return path


def test_folder_source_reads_a_video(video: Path) -> None:
    with FolderSource(video) as source:
        frames = list(source)
    assert len(frames) == 4
    means = [float(f.image.mean()) for f in frames]
    assert means == sorted(means) and abs(means[0] - 20) < 4


def test_opencv_source_reads_and_counts_failures(video: Path) -> None:
    clock = FakeClock()
    with OpenCVSource(str(video), size=None, clock=clock, max_failures=3) as source:
        assert isinstance(source, FrameSource)
        frames = [source.read() for _ in range(4)]
        assert all(f is not None and f.image.shape == (48, 64, 3) for f in frames)
        assert source.read() is None and source.read() is None  # a dropped frame is None
        with pytest.raises(CameraError, match="3 frames in a row failed"):
            source.read()


def test_opencv_source_missing_device_names_it() -> None:
    with pytest.raises(CameraError, match="/dev/video-nardref-missing"):
        OpenCVSource("/dev/video-nardref-missing")


def test_synthetic_source_shows_layout_with_fresh_noise() -> None:
    start = layout_from_position(Position.start())
    source = SyntheticSource(
        rng=np.random.default_rng(3),
        size=(320, 240),
        camera=CameraPose.overhead(),
        lighting=Lighting.even(),
        effects=Effects(noise_sigma=4.0),
        clock=FakeClock(),
    )
    assert source.read() is None  # nothing on the table yet
    source.show(start, dice=(6, 5))
    a, b = source.read(), source.read()
    assert a is not None and b is not None and a.index == 0 and b.index == 1
    diff = np.abs(a.image.astype(int) - b.image.astype(int))
    assert 0 < diff.mean() < 8  # the same scene, new noise
    assert source.last_corners is not None and source.last_corners.shape == (4, 2)
    source.show(start, occlusion="hand")
    c = source.read()
    assert c is not None and np.abs(c.image.astype(int) - b.image.astype(int)).mean() > diff.mean()


def test_synthetic_source_same_seed_same_frames() -> None:
    start = layout_from_position(Position.start())

    def frames() -> list[np.ndarray]:
        source = SyntheticSource(rng=np.random.default_rng(9), size=(160, 120), style="random")
        source.show(start, occlusion="arm")
        return [f.image for f in (source.read(), source.read()) if f is not None]

    first, second = frames(), frames()
    assert len(first) == 2 and all(np.array_equal(x, y) for x, y in zip(first, second, strict=True))


def test_camera_settings_round_trip_and_bad_input() -> None:
    settings = CameraSettings(
        exposure_time_us=12000, analogue_gain=2.0, colour_gains=(1.8, 1.4), lens_position_dioptres=1.5
    )
    assert CameraSettings.from_dict(settings.to_dict()) == settings
    with pytest.raises(CameraError, match="exposure_time_us"):
        CameraSettings.from_dict({"analogue_gain": 1.0})


# --- Picamera2 against a fake module ---------------------------------------------------------


class FakePicamera2:
    """Just enough of Picamera2's API, recording what was asked of it."""

    instances: list[FakePicamera2] = []
    cameras = 1
    fail_captures = 0

    def __init__(self, camera_num: int = 0) -> None:
        if camera_num >= self.cameras:
            raise IndexError("list index out of range")
        self.camera_num = camera_num
        self.calls: list[tuple[str, Any]] = []
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.size = (0, 0)
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", main))
        return {"main": dict(main)}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))
        self.size = config["main"]["size"]

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", dict(controls)))

    def start(self) -> None:
        self.calls.append(("start", None))

    def capture_array(self, name: str = "main") -> np.ndarray:
        if FakePicamera2.fail_captures:
            FakePicamera2.fail_captures -= 1
            raise RuntimeError("Camera frontend has timed out!")
        w, h = self.size
        return np.full((h, w, 3), 77, np.uint8)

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 16000, "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6), "LensPosition": 1.4}

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FakePicamera2]]:
    picamera2 = types.ModuleType("picamera2")
    picamera2.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    libcamera = types.ModuleType("libcamera")
    libcamera.controls = types.SimpleNamespace(AfModeEnum=types.SimpleNamespace(Manual="manual"))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", picamera2)
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    FakePicamera2.instances = []
    FakePicamera2.cameras = 1
    FakePicamera2.fail_captures = 0
    yield FakePicamera2


def test_picamera2_source_configures_rgb888_and_reads_bgr(fake_picamera2: type[FakePicamera2]) -> None:
    with Picamera2Source(size=(320, 240), clock=FakeClock()) as source:
        frame = source.read()
        assert frame is not None and frame.image.shape == (240, 320, 3) and frame.timestamp_s == 100.5
        camera = fake_picamera2.instances[0]
        assert ("create_video_configuration", {"size": (320, 240), "format": "RGB888"}) in camera.calls
        assert camera.calls[-1] == ("start", None)
    assert camera.calls[-2:] == [("stop", None), ("close", None)]


def test_picamera2_source_lock_freezes_exposure_white_balance_focus(fake_picamera2: type[FakePicamera2]) -> None:
    source = Picamera2Source()
    settings = source.lock()
    assert settings == CameraSettings(16000, 1.5, (1.9, 1.6), 1.4)
    name, controls = fake_picamera2.instances[0].calls[-1]
    assert name == "set_controls"
    assert controls == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 16000,
        "AnalogueGain": 1.5,
        "ColourGains": (1.9, 1.6),
        "AfMode": "manual",
        "LensPosition": 1.4,
    }
    again = Picamera2Source(settings=settings)
    calls = [c[0] for c in fake_picamera2.instances[1].calls]
    assert calls.index("set_controls") < calls.index("start")  # locked before the first frame
    source.close()
    again.close()


def test_picamera2_source_dropped_frames_then_camera_error(fake_picamera2: type[FakePicamera2]) -> None:
    source = Picamera2Source(max_failures=3)
    fake_picamera2.fail_captures = 2
    assert source.read() is None and source.read() is None
    assert source.read() is not None  # recovered: the count starts again
    fake_picamera2.fail_captures = 5
    assert source.read() is None and source.read() is None
    with pytest.raises(CameraError, match="Pi camera 0: 3 frames in a row failed"):
        source.read()


def test_picamera2_source_missing_camera_and_missing_module(
    fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(CameraError, match="Pi camera 1: cannot open"):
        Picamera2Source(1)
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="Picamera2 is not installed"):
        Picamera2Source()


def test_open_source_specs(fake_picamera2: type[FakePicamera2], tmp_path: Path, video: Path) -> None:
    assert isinstance(open_source("pi"), Picamera2Source)
    _frames(tmp_path, 1)
    assert isinstance(open_source(str(tmp_path)), FolderSource)
    assert isinstance(open_source(str(video)), FolderSource)
    for bad in ("usb", "usb:x", "pi:one", "nowhere/at/all"):
        with pytest.raises(CameraError, match=repr(bad)[1:-1]):
            open_source(bad)


def test_synthetic_source_keeps_one_board_across_scenes() -> None:
    from vision.layout import Layout
    from vision.render import Style

    source = SyntheticSource(rng=np.random.default_rng(4), size=(320, 240), style="random", effects=Effects.none())
    assert isinstance(source.style, Style)
    source.show(layout_from_position(Position.start()), dice=(3, 1))
    first = source.read()
    source.show(Layout(top=(0,) * 12, bottom=(0,) * 12))
    second = source.read()
    assert first is not None and second is not None
    corners = source.last_corners
    assert corners is not None
    inside = np.zeros((240, 320), np.uint8)
    cv2.fillConvexPoly(inside, corners.round().astype(np.int32), 1)
    outside = cv2.erode(1 - inside, np.ones((9, 9), np.uint8)) > 0  # the frame and the table, away from checker shadows
    same = np.all(first.image == second.image, axis=2)
    assert same[outside].mean() > 0.95 and not same[inside > 0].all()
