"""Every scripted scenario in tests/scenarios/ replays and meets its expectations, on both engines.

The interpreter replays each once and checks its ``expect:`` block (the events included); the batch engine replays
it and must end in the interpreter's final state, the events aside (it keeps no event log, and says that it left
their checks out). Generated variants are played on both engines by the property tests of ``test_batch.py``.
"""

from pathlib import Path
from typing import Any

import pytest
import yaml

from workbench.expect import count_checks
from workbench.games import replay_scenario

SCENARIOS = sorted(Path(__file__).parent.joinpath("scenarios").glob("*.yaml"))
SCENARIOS = [path for path in SCENARIOS if not path.name.startswith("variant-")]


def without_events(output: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in output.items() if key != "events"}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_meets_expectations_and_the_batch_engine_ends_alike(path: Path) -> None:
    _, interpreted = replay_scenario(path)
    assert interpreted.checks > 0, "every scenario here states what it expects"
    assert interpreted.failures == []
    _, batch = replay_scenario(path, "batch")
    assert batch.output == without_events(interpreted.output)
    expect = yaml.safe_load(path.read_text())["expect"]
    assert batch.passed and batch.checks == count_checks(without_events(expect)) > 0
    assert batch.unchecked == count_checks(expect) - batch.checks, "the events are left unchecked, and said so"
