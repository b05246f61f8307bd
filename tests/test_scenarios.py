"""Every scripted scenario in tests/scenarios/ replays and meets its expectations."""

from pathlib import Path

import pytest

from workbench.games import replay_scenario

SCENARIOS = sorted(Path(__file__).parent.joinpath("scenarios").glob("*.yaml"))
SCENARIOS = [path for path in SCENARIOS if not path.name.startswith("variant-")]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_meets_expectations(path: Path) -> None:
    _, result = replay_scenario(path)
    assert result.checks > 0, "every scenario here states what it expects"
    assert result.failures == []
