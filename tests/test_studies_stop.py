"""A stop (Ctrl-C, SIGTERM: :class:`Stop`) during compare, cards or skill keeps the games that finished."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench import studies
from workbench.sim.runner import Local, Stop

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
GAMES = 5000  # far more than finish before the stop


def stopping_after_the_first_games(stop: Stop) -> Callable[[str, int], Callable[[int], None]]:
    def row(label: str, total: int) -> Callable[[int], None]:
        return lambda finished: stop.request()

    return row


@pytest.mark.parametrize("study", ["compare", "cards", "skill"])
def test_a_stopped_study_writes_what_finished_marked_interrupted(tmp_path: Path, study: str) -> None:
    stop = Stop()
    common = {"games": GAMES, "seed": 1, "backend": Local(2), "out": tmp_path, "stop": stop}
    progress = stopping_after_the_first_games(stop)
    if study == "compare":
        result = studies.compare([BASE, ROOT / "variants" / "dearer-in.yaml"], players=[4], progress=progress, **common)
        games = result.runs[0].games
    elif study == "cards":
        result = studies.cards(BASE, only=["dagger"], progress=progress, **common)
        games = result.games
    else:
        result = studies.skill(BASE, ladder=["random", "heuristic"], progress=progress, **common)
        games = result.games
    assert result.interrupted and 0 < games < GAMES
    body = json.loads((tmp_path / f"{study}.json").read_text())
    assert body["interrupted"] is True
    assert (body["runs"][0]["games"] if study == "compare" else body["games"]) == games
    assert "interrupted" in (tmp_path / f"{study}.html").read_text()
