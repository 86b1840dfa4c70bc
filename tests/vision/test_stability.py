"""The stability gate: steady only after a still window and a clear reading."""

from __future__ import annotations

import numpy as np
import pytest

from vision.geometry import BoardGeometry
from vision.read import Reading, refused_reading
from vision.refusal import Refusal
from vision.stability import StabilityConfig, StabilityGate

GEOMETRY = BoardGeometry(((0, 0), (480, 0), (480, 400), (0, 400)), (480, 400), (216.0, 264.0), 33.0)


def _frame(value: int, *, square_at: int | None = None) -> np.ndarray:
    frame = np.full((120, 160, 3), value, np.uint8)
    if square_at is not None:
        frame[40:80, square_at : square_at + 40] = 255 - value
    return frame


def test_gate_is_steady_only_after_the_window() -> None:
    gate = StabilityGate(reader=lambda f: None, config=StabilityConfig(window_s=1.0))
    states = [gate.feed(_frame(80), t).state for t in (0.0, 0.4, 0.8, 1.0, 1.3)]
    assert states == ["settling", "settling", "settling", "steady", "steady"]


def test_motion_restarts_the_window() -> None:
    gate = StabilityGate(reader=lambda f: None, config=StabilityConfig(window_s=1.0))
    gate.feed(_frame(80, square_at=10), 0.0)
    gate.feed(_frame(80, square_at=10), 0.9)
    moved = gate.feed(_frame(80, square_at=60), 1.0)  # a checker slid across
    assert moved.state == "moving" and moved.change > 4
    assert gate.feed(_frame(80, square_at=60), 1.5).state == "settling"
    assert gate.feed(_frame(80, square_at=60), 2.0).state == "steady"


def test_sensor_noise_does_not_count_as_motion() -> None:
    rng = np.random.default_rng(3)
    gate = StabilityGate(reader=lambda f: None, config=StabilityConfig(window_s=0.5))
    states = []
    for i in range(8):
        noisy = np.clip(_frame(100).astype(int) + rng.normal(0, 3, (120, 160, 3)), 0, 255).astype(np.uint8)
        states.append(gate.feed(noisy, i * 0.1).state)
    assert states[-1] == "steady" and "moving" not in states


def test_a_refused_reading_is_never_steady() -> None:
    hand = refused_reading(Refusal("hand_over_board", "a hand"), GEOMETRY)
    gate = StabilityGate(reader=lambda f: hand, config=StabilityConfig(window_s=0.2))
    statuses = [gate.feed(_frame(50), t) for t in (0.0, 0.1, 0.3, 0.6)]
    assert [s.state for s in statuses] == ["settling", "settling", "refused", "refused"]
    assert statuses[-1].reading is hand
    assert gate.steady_at(1.0) is None


def test_steady_at_gives_the_last_steady_reading_before_a_time() -> None:
    readings: list[Reading] = []

    def reader(frame: np.ndarray) -> Reading:
        reading = refused_reading(Refusal("ambiguous", "placeholder"), GEOMETRY)
        reading = Reading(reading.counts + int(frame[0, 0, 0]), reading.confidence, reading.slot_prob, 0, 0, 1.0, ())
        readings.append(reading)
        return reading

    gate = StabilityGate(reader=reader, config=StabilityConfig(window_s=0.5))
    for t in (0.0, 0.5, 1.0):
        gate.feed(_frame(10), t)
    gate.feed(_frame(200), 1.2)  # a move begins
    for t in (1.4, 1.8, 2.0):
        gate.feed(_frame(200), t)
    found = gate.steady_at(1.3)
    assert found is not None and found[0] == 1.0 and int(found[1].counts[0, 0]) == 10  # type: ignore[union-attr]
    later = gate.steady_at(5.0)
    assert later is not None and later[0] == 2.0 and int(later[1].counts[0, 0]) == 200  # type: ignore[union-attr]
    assert gate.steady_at(0.2) is None


def test_time_must_not_run_backwards() -> None:
    gate = StabilityGate(reader=lambda f: None)
    gate.feed(_frame(10), 2.0)
    with pytest.raises(ValueError, match="before the previous"):
        gate.feed(_frame(10), 1.0)
