"""Hypothesis profiles: "quick" for local runs, "thorough" for CI.

The thorough one is used when CI is set (as it is in CI) or with ``HYPOTHESIS_PROFILE=thorough``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("quick", max_examples=25, deadline=None)
settings.register_profile(
    "thorough",
    max_examples=200,
    deadline=None,
    derandomize=True,  # CI runs the same examples every time: a red run can be reproduced
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("thorough" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "quick"))
