"""Hypothesis profiles and slow tests.

Hypothesis: "quick" for local runs, "thorough" for CI (when CI is set, as .ci/run does, or
with ``HYPOTHESIS_PROFILE=thorough``). Tests marked ``slow`` run in CI and with ``--slow``;
a plain local ``pytest -q`` skips them.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("quick", max_examples=25, deadline=None)
settings.register_profile(
    "thorough",
    max_examples=100,  # CI's whole run must stay within 12 minutes on 2 cores (the fuzz tests are much of it)
    deadline=None,
    derandomize=True,  # CI runs the same examples every time: a red run can be reproduced
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("thorough" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "quick"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="Also run the tests marked slow (CI always does).")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CI") or config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (CI runs it)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
