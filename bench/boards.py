"""``bench/vision.py`` as a module, ``vision_bench``, for the benches built
on its boards (``bench/piles.py``, ``bench/light.py``): imported by its
file name it would shadow the ``vision`` package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("vision_bench", Path(__file__).resolve().parent / "vision.py")
assert _spec is not None and _spec.loader is not None
vision_bench = sys.modules["vision_bench"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vision_bench)
