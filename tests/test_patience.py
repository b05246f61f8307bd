"""A run far beyond reason is refused once its speed is measured, unless asked for (``--yes``); nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from output_helpers import BASE, invoke

from workbench import api, runs
from workbench.errors import UsageError
from workbench.sim.runner import Stop

#: More games than any machine here plays in a day, yet fewer than a day's worth at :data:`runs.FASTEST`: judged
#: once measured.
ABSURD = 10**11


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_run_is_judged_once_it_has_played_long_enough_and_refused_past_a_day() -> None:
    clock, stop = Clock(), Stop()
    patience = runs.Patience(100_000_000, stop, clock)
    clock.now = 1.0
    patience(1_000)  # the first games: the clock starts here
    clock.now = 2.0
    patience(1_000)
    assert not stop(), "not judged before JUDGED_AFTER seconds of play after the first games"
    clock.now = 3.0
    patience(1_000)  # 2,000 games in 2 s: 100,000,000 games take 100,000 s, more than a day
    assert stop() and patience.estimate == pytest.approx(100_000.0)
    clock.now = 4.0
    patience(500)  # the games under way when it was stopped: the estimate and its speed stay those it was judged by
    with pytest.raises(UsageError) as refused:
        patience.check()
    said = refused.value.text(lambda name: f"--{name}")
    assert said.startswith("--games 100000000: 100,000,000 games would take about 1.2 days at the speed measured")
    assert "(1,000.0 games a second): give fewer games, or --yes to play them all the same" in said


def test_a_run_within_a_day_goes_on() -> None:
    clock, stop = Clock(), Stop()
    patience = runs.Patience(80_000_000, stop, clock)
    clock.now = 1.0
    patience(1_000)
    clock.now = 3.0
    patience(2_000)  # 80,000 s: under a day
    clock.now = 100.0
    patience(50_000)  # slower later: judged once, a run found reasonable is never stopped hours in
    assert not stop() and patience.estimate is None
    patience.check()


def test_the_first_games_which_wait_for_the_engine_are_not_counted() -> None:
    """On a busy machine the batch engine took 6 s to load before its first 8 games: judged on them, 200,000 games
    looked like 1.7 days and were refused, although the engine then played 2,000 games a second."""
    clock, stop = Clock(), Stop()
    patience = runs.Patience(200_000, stop, clock)
    clock.now = 6.0
    patience(8)
    clock.now = 8.0
    patience(4_000)
    assert patience.judged and patience.speed == pytest.approx(2_000.0) and not stop()


def test_a_count_too_long_at_any_speed_is_refused_before_a_game_is_measured() -> None:
    """Slow bots (a search bot on the interpreter) finish their first chunk of games only after minutes: the refusal
    of --games 10^26 came 76 s to 215 s in. Beyond a day even at the fastest speed, it needs no measure."""
    stop = Stop()
    patience = runs.Patience(10**26, stop, Clock())
    assert stop(), "stopped before any game"
    with pytest.raises(UsageError) as refused:
        patience.check()
    said = refused.value.text(lambda name: f"--{name}")
    assert "games would take about" in said and "even at 10,000,000 games a second (no engine here is faster)" in said
    assert not runs.Patience(86_400 * 10_000_000, Stop(), Clock()).judged, "a day's worth at that speed is measured"


def test_a_simulation_of_a_hundred_billion_games_is_refused_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runs, "JUDGED_AFTER", 0.0)  # judged at its first chunk (any machine is a trillion games short)
    out = tmp_path / "report"
    with pytest.raises(UsageError) as refused:
        api.simulate(BASE, players=4, games=ABSURD, bots="random", engine="interpreter", out=out)
    assert refused.value.field == "games" and "games would take about" in str(refused.value)
    assert "years at the speed measured" in str(refused.value)
    assert not out.exists(), "nothing written, not even the folder"


def test_yes_plays_it_all_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``yes`` the run goes on (here until a stop after its first games, as Ctrl-C would end it)."""
    monkeypatch.setattr(runs, "JUDGED_AFTER", 0.0)
    stop = Stop()
    hearing = lambda label, games: lambda finished: stop.request()  # noqa: E731
    simulation = api.simulate(
        BASE, players=4, games=ABSURD, bots="random", engine="interpreter", yes=True, stop=stop, progress=hearing
    )
    assert simulation.interrupted and 0 < simulation.games < ABSURD


def test_the_command_line_names_its_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "JUDGED_AFTER", 0.0)
    ran = invoke(
        "simulate", BASE, "--games", str(ABSURD), "--bots", "random", "--engine", "interpreter", "--workers", "1",
        "--out", tmp_path / "report",
    )  # fmt: skip
    assert ran.code == 1, ran.stderr
    assert f"--games {ABSURD}: {ABSURD:,} games would take about" in ran.stderr
    assert "give fewer games, or --yes to play them all the same" in ran.stderr
    assert not (tmp_path / "report").exists()


def test_a_tuning_beyond_reason_is_refused_on_its_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tuner plays its races its own way; its rows judge the speed all the same (it ran on for 30 hours)."""
    monkeypatch.setattr(runs, "JUDGED_AFTER", 0.0)
    ran = invoke(
        "tune-stakes", BASE, "--players", "3", "--budget", str(ABSURD), "--engine", "interpreter", "--workers", "1",
        "--out", tmp_path / "stakes.yaml",
    )  # fmt: skip
    assert ran.code == 1, ran.stderr
    assert f"--budget {ABSURD}: {ABSURD:,} games would take about" in ran.stderr
    assert "give fewer games, or --yes to play them all the same" in ran.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_tunings_measure_of_a_stronger_bot_beyond_reason_is_refused_on_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reasonable budget judged reasonable, then --exploit-games of a hundred billion: its row is judged too."""
    monkeypatch.setattr(runs, "JUDGED_AFTER", 0.0)
    ran = invoke(
        "tune-stakes", BASE, "--players", "3", "--budget", "100", "--bots", "random", "--exploit-bot", "heuristic",
        "--exploit-games", str(ABSURD), "--engine", "interpreter", "--workers", "1", "--out", tmp_path / "stakes.yaml",
    )  # fmt: skip
    assert ran.code == 1, ran.stderr
    assert f"--exploit-games {ABSURD}: " in ran.stderr and "games would take about" in ran.stderr
    assert "give fewer games, or --yes to play them all the same" in ran.stderr
    assert list(tmp_path.iterdir()) == []


def test_games_beyond_those_first_said_are_judged_at_the_speed_measured() -> None:
    clock, stop = Clock(), Stop()
    patience = runs.Patience(1_000, stop, clock)
    clock.now = 1.0
    patience(500)
    clock.now = 3.0
    patience(1_000)  # 500 games a second: 1,000 games are nothing
    assert patience.judged and not stop()
    patience.expect(10_000_000)  # 20,000 s more: still within a day
    assert not stop()
    patience.expect(50_000_000)  # 120,002 s in all
    assert stop() and patience.estimate == pytest.approx(60_001_000 / 500)


def test_a_run_whose_first_games_never_end_is_judged_on_the_time_without_one() -> None:
    """Two games at a time, none finished after IDLE_AFTER (300 s): each takes longer, and 5,000 games at least
    5,000 / 2 x 300 s = 8.7 days (a search persona of 10,000 playouts played on for hours). Before then nothing is
    judged, however many games: the first games wait for the engine (a loaded CI machine took 2 s before the first
    of 200,000 batch games, and a judge at 2 s refused them)."""
    clock, stop = Clock(), Stop()
    patience = runs.Patience(5_000, stop, clock, parallel=2)
    clock.now = 299.0
    patience.idle()  # at least 747,500 s already, but not yet judged on the time without a game
    assert not stop()
    clock.now = 300.0
    patience.idle()
    assert stop() and patience.estimate == pytest.approx(750_000.0)
    with pytest.raises(UsageError) as refused:
        patience.check()
    said = refused.value.text(lambda name: f"--{name}")
    assert said.startswith("--games 5000: 5,000 games would take at least 8.7 days (no game finished in its first 300 s")
    assert "2 played at once): give fewer games, or --yes to play them all the same" in said
    unknown = runs.Patience(5_000, Stop(), clock)  # how many play at once unknown (one process, a cluster): not judged
    clock.now = 10_000.0
    unknown.idle()
    assert not unknown.judged


def test_a_simulation_whose_games_never_end_is_refused_by_its_watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A persona so slow that no game ends in the test's time, on two worker processes: the run's watch stops it and
    the command says why, writing nothing."""
    monkeypatch.setattr(runs, "IDLE_AFTER", 0.0)
    monkeypatch.setattr(runs, "LONGEST_RUN", 1.0)  # a day here is a second: the watch judges at its first look
    personas = tmp_path / "slow.yaml"
    personas.write_text("bots:\n  ponderer: {policy: search, playouts: 10000}\n")
    ran = invoke(
        "simulate", BASE, "--games", "100", "--bots", "ponderer", "--personas", personas, "--engine", "interpreter",
        "--workers", "2", "--out", tmp_path / "report",
    )  # fmt: skip
    assert ran.code == 1, ran.stderr
    assert "--games 100: 100 games would take at least" in ran.stderr and "no game finished in its first" in ran.stderr
    assert not (tmp_path / "report").exists()
