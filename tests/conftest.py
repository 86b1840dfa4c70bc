"""Test settings shared by every package's tests."""

from __future__ import annotations

import os

from hypothesis import settings

# CI runs the same examples every time, so a red run can be reproduced; a
# developer's run explores new examples (and keeps failures in .hypothesis/).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
