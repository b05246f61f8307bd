"""Broken scripts in tests/scenarios/broken/ stop with a located, readable message.

Each case names the file, the line and key path the message must point at, and words it
must contain (the round and the seat where the script knows them). Every case is checked
through the library (`replay_scenario` raises a ScenarioError) and through the CLI
(`workbench replay` exits 1 with the message and no traceback).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

import workbench.errors
import workbench.games
from workbench.cli import app

BROKEN = Path(__file__).parent / "scenarios" / "broken"


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    key: str  # key path printed after the line; "" when the message has none
    words: tuple[str, ...]

    @property
    def path(self) -> Path:
        return BROKEN / self.file

    @property
    def where(self) -> str:
        """`name.yaml:LINE: key: ` as it appears in the message."""
        return f"{self.file}:{self.line}: " + (f"{self.key}: " if self.key else "")


CASES = [
    Case("forced-in-picks-out.yaml", 9, "rounds.1.guides.2", ("round 2", "seat 2", "cannot play 'out'", "forced to play in")),
    Case("cannot-afford.yaml", 12, "rounds.0.choices.2", ("round 1", "seat 0", "cannot buy lucky", "costs 3 coins", "has 0")),
    Case(
        "wrong-seat.yaml",
        10,
        "rounds.0.choices.0",
        ("round 1", "asks seat 0", "buy or discard", "next scripted choice is for seat 1"),
    ),
    Case("too-few-rerolls.yaml", 7, "rounds.0.rerolls", ("round 1", "seat 0 (the starting player)", "too few rerolls")),
    Case("too-many-rerolls.yaml", 7, "rounds.0.rerolls.1", ("round 1", "1 scripted reroll(s) never happened", "[5]")),
    Case("missing-chance.yaml", 7, "rounds.0.chance", ("round 1", "too few chance results", "chance test")),
    Case(
        "use-ineligible.yaml",
        17,
        "rounds.0.choices.2",
        ("round 1", "seat 0", "cannot use 'purse'", "eligible cards are bet, dare"),
    ),
    Case("extra-choice.yaml", 9, "rounds.0.choices.0", ("round 1", "never asked for the choice", "{seat: 0, buy: balm}")),
    Case("wrong-dice-count.yaml", 6, "rounds.0.roll", ("round 1", "needs 5 dice, got 4")),
    Case("face-seven.yaml", 6, "rounds.0.roll.4", ("round 1", "7 is not a face of a 6-sided die")),
    Case("guide-for-eliminated.yaml", 9, "rounds.1.guides.1", ("round 2", "seat 1", "out of the game", "must be null")),
    Case("null-guide-live.yaml", 7, "rounds.0.guides.2", ("round 1", "seat 2", "still in the game", "needs a guide")),
    Case("unknown-card.yaml", 5, "market.1", ("no card with id 'potion'",)),
    Case("too-many-copies.yaml", 5, "market.2", ("'windfall'", "listed more often than the variant has copy (1)")),
    Case("players-out-of-range.yaml", 4, "players", ("for 3 to 5 players, not 6",)),
    Case("rounds-after-end.yaml", 8, "rounds.1", ("ended in round 1", "all_eliminated", "1 more round(s)")),
    Case("yaml-syntax.yaml", 7, "", ("YAML syntax error", "flow sequence", "expected ',' or ']'")),
    Case("misspelt-key.yaml", 6, "rounds.0.rolls", ("unknown key 'rolls' (did you mean 'roll'?)",)),
    Case(
        "steal-target-self.yaml",
        16,
        "rounds.0.choices.2",
        ("round 1", "seat 0", "cannot target seat 0", "the only seat it may target is 1", "still in the game"),
    ),
    Case(
        "steal-target-out.yaml",
        16,
        "rounds.0.choices.2",
        ("round 1", "seat 0", "cannot target seat 2", "the only seat it may target is 1", "still in the game"),
    ),
    Case(
        "choose-out-of-range.yaml",
        19,
        "rounds.1.choices.0",
        ("round 2", "seat 0", "cannot choose option 2", "the options are numbered 0 to 1"),
    ),
    Case(
        "choose-for-target.yaml",
        17,
        "rounds.0.choices.3",
        ("round 1", "seat 0 must choose a seat to steal from (1, 2)", "the script says {seat: 0, choose: 1}"),
    ),
    Case(
        "target-for-choose.yaml",
        19,
        "rounds.1.choices.0",
        ("round 2", "seat 0 must choose one of 2 options (0 to 1)", "the script says {seat: 0, target: 1}"),
    ),
    Case("target-never-asked.yaml", 15, "rounds.0.choices.1", ("round 1", "never asked for the choice", "{seat: 0, target: 1}")),
]


def _check(message: str, case: Case) -> None:
    assert case.where in message, message
    for word in case.words:
        assert word in message, f"{word!r} not in {message!r}"


@pytest.mark.parametrize("case", CASES, ids=[c.path.stem for c in CASES])
def test_replay_raises_located_error(case: Case) -> None:
    with pytest.raises(workbench.errors.ScenarioError) as info:
        workbench.games.replay_scenario(case.path)
    _check(str(info.value.problems[0]), case)


@pytest.mark.parametrize("case", CASES, ids=[c.path.stem for c in CASES])
def test_cli_replay_reports_error(case: Case) -> None:
    result = CliRunner().invoke(app, ["replay", str(case.path)])
    assert result.exit_code == 1, result.output
    _check(result.output, case)
    assert "FAIL " in result.output
    assert "Traceback" not in result.output
    assert "internal error" not in result.output


MISSPELT = BROKEN / "misspelt-key.yaml"
DID_YOU_MEAN = "misspelt-key.yaml:6: rounds.0.rolls: unknown key 'rolls' (did you mean 'roll'?)"


def test_misspelt_key_suggests_the_right_one() -> None:
    with pytest.raises(workbench.errors.ScenarioError) as info:
        workbench.games.replay_scenario(MISSPELT)
    messages = [str(problem) for problem in info.value.problems]
    assert len(messages) == 1 and DID_YOU_MEAN in messages[0], messages  # no separate "missing 'roll'"


def test_cli_misspelt_key_suggests_the_right_one() -> None:
    result = CliRunner().invoke(app, ["replay", str(MISSPELT)])
    assert result.exit_code == 1
    assert DID_YOU_MEAN in result.output
    assert "Traceback" not in result.output


FAILED = BROKEN / "failed-expectation.yaml"
MISMATCH = "failed-expectation.yaml:10: expect.players.0.coins: expected 8, got 7"


def test_failed_expectation_is_located() -> None:
    # not a broken script: the replay succeeds and reports the mismatch instead of raising
    _, result = workbench.games.replay_scenario(FAILED)
    assert not result.passed
    assert [str(problem).endswith(MISMATCH) for problem in result.failures] == [True]


def test_cli_failed_expectation_exits_1() -> None:
    result = CliRunner().invoke(app, ["replay", str(FAILED)])
    assert result.exit_code == 1
    assert MISMATCH in result.output
    assert "FAIL" in result.output
    assert "Traceback" not in result.output


def test_a_broken_script_traced_shows_what_happened_up_to_the_failure() -> None:
    """With --trace the events played before the failure come first, so a designer sees where the script went wrong."""
    path = BROKEN / "steal-target-out.yaml"
    result = CliRunner().invoke(app, ["replay", str(path), "--trace"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    failure = next(i for i, line in enumerate(lines) if "cannot target seat 2" in line)
    assert lines[:failure][-2:] == ["round 1: seat 0 gains +2 coins", "round 1: seat 0 uses duel"], lines
    assert "round 1: seat 0 buys duel for 2 coins" in lines[:failure]
    with pytest.raises(workbench.errors.ScenarioError) as info:
        workbench.games.replay_scenario(path)
    assert info.value.trace[-1] == "round 1: seat 0 uses duel"


def test_a_script_that_fails_before_play_has_no_trace() -> None:
    with pytest.raises(workbench.errors.ScenarioError) as info:
        workbench.games.replay_scenario(BROKEN / "unknown-card.yaml")
    assert info.value.trace == []


@pytest.mark.parametrize(("named", "said"), [("nope.yaml", "no such file: nope.yaml"), (".", "a folder, not a variant file: .")])
def test_a_scenarios_variant_that_is_not_a_file_is_located_at_its_key(tmp_path: Path, named: str, said: str) -> None:
    """It said ``nope.yaml: file not found``, naming neither the script nor its line (``extends:`` was located)."""
    script = tmp_path / "s.yaml"
    script.write_text(f"players: 3\nvariant: {named}\n")
    with pytest.raises(workbench.errors.ScenarioError) as raised:
        workbench.games.replay_scenario(script)
    [problem] = raised.value.problems
    assert (problem.file, problem.line, problem.path) == (script, 2, "variant")
    assert problem.message == f"{said} (looked for {tmp_path / named})"
