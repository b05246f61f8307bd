"""Games entered at a table (``workbench record``): every entry checked as it is made, the script written after every
round, a stopped game kept and resumed, and what was entered replayed exactly by ``replay``."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from output_helpers import HANG
from typed import Typed
from typer.testing import CliRunner

from workbench import api, playtest
from workbench.cli import app
from workbench.errors import ScenarioError, UsageError, display_path
from workbench.play import Chance, Left, Question, Table

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "variants" / "chance-it.yaml"


class Typist:
    """A table whose entries are drawn from a seeded stream: each answer also kept as the line a person would type."""

    def __init__(self, seed: int, stop_after: int | None = None):
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.stop_after = stop_after
        self.rounds: list[int] = []  #: where each round's entries start among the lines (at its roll)

    def _typed(self, line: str) -> None:
        if self.stop_after is not None and len(self.lines) >= self.stop_after:
            raise Left("the input ended")
        self.lines.append(line)

    def answer(self, question: Question) -> int:
        choice = self.rng.randrange(len(question.options))
        self._typed(str(choice + 1))
        return choice

    def enter(self, chance: Chance) -> tuple[int, ...]:
        if chance.options:
            index = self.rng.randrange(len(chance.options))
            self._typed(chance.names[index][0] if index % 2 else str(index + 1))  # by name or by number
            return (index,)
        if chance.kind == "roll":
            self.rounds.append(len(self.lines))
        faces = tuple(self.rng.randint(1, chance.sides) for _ in range(chance.count))
        self._typed(" ".join(map(str, faces)))
        return faces

    @property
    def table(self) -> Table:
        return Table(self.answer, self.enter)


def test_a_game_entered_at_the_table_replays_to_the_state_it_ended_in(tmp_path: Path) -> None:
    """Twenty games of random entries on the base game (its discard is reshuffled into a new pile): each script
    replays, meets its expectations (the state when entry ended) and names its cards as they came up."""
    reshuffled = 0
    for seed in range(20):
        out = tmp_path / f"game-{seed}.yaml"
        recording = playtest.record(BASE, out, Typist(seed).table, 4, names=["Ann", "Bo", "Cy", "Di"])
        assert recording.finished
        script = yaml.safe_load(out.read_text())
        assert script["playtest"]["table"] == ["Ann", "Bo", "Cy", "Di"] and "unfinished" not in script["playtest"]
        reshuffled += any(entry.get("reshuffles") for entry in script["rounds"])
        found = api.replay(out)
        assert found is not None
        _, result = found
        assert result.passed, result.failures
        assert result.output["end_reason"] == script["expect"]["end_reason"] is not None
        assert {k: v for k, v in result.output.items() if k != "events"} == script["expect"]
    assert reshuffled  # some games reshuffled the discard: their new piles' top cards were entered as they came up


def test_a_stopped_game_is_kept_unfinished_and_resumed_to_the_same_file(tmp_path: Path) -> None:
    whole = tmp_path / "whole.yaml"
    typist = Typist(7)
    playtest.record(BASE, whole, typist.table, 3, names=["A", "B", "C"])
    rounds = len(yaml.safe_load(whole.read_text())["rounds"])

    parts = tmp_path / "parts.yaml"
    saved: list[playtest.Recording] = []
    first = Typist(7, stop_after=typist.rounds[rounds // 2] + 3)  # stopped a few entries into a round
    with pytest.raises(Left):
        playtest.record(BASE, parts, first.table, 3, names=["A", "B", "C"], saved=saved)
    kept = yaml.safe_load(parts.read_text())
    assert kept["playtest"]["unfinished"] is True
    assert len(kept["rounds"]) == rounds // 2 and saved[-1].length == f"{rounds // 2} rounds"  # not the round in play
    found = api.replay(parts)
    assert found is not None and found[1].passed and found[1].output["end_reason"] is None

    # the second sitting types the rest, from the roll of the first round not kept
    second = Typed(typist.lines[typist.rounds[rounds // 2] :])
    done = playtest.record(BASE, parts, second.table, resume=True)
    assert done.finished and not second.lines
    assert parts.read_text() == whole.read_text()


def test_the_terminal_takes_the_same_game_and_refuses_an_impossible_entry_saying_why(tmp_path: Path) -> None:
    typist = Typist(11)
    by_library = tmp_path / "library.yaml"
    playtest.record(BASE, by_library, typist.table, 4)
    lines = list(typist.lines)
    # a die that is no face, too few dice, a card that cannot come up, an option that is none: each refused, asked again
    first_roll = typist.rounds[0]
    lines[first_roll:first_roll] = ["7 1 1 1 1", "1 2"]
    lines[1:1] = ["the moon"]  # during the setup's cards
    lines.insert(first_roll + 3 + 1, "9")  # a guide numbered 9
    by_terminal = tmp_path / "terminal.yaml"
    result = CliRunner().invoke(app, ["record", str(BASE), "--out", str(by_terminal)], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "7 is not a face of a 6-sided die" in result.output
    assert "5 dice are asked for, and 2 were typed" in result.output
    assert "'the moon' is not one of the cards that may come up" in result.output
    assert "'9' is not one of the options: type a number from 1 to 3" in result.output
    assert by_terminal.read_text() == by_library.read_text().replace("library.yaml", "terminal.yaml")
    assert "check it with workbench replay" in result.output
    replayed = CliRunner().invoke(app, ["replay", str(by_terminal)])
    assert replayed.exit_code == 0 and replayed.output.startswith("PASS"), replayed.output


def test_the_terminal_keeps_a_stopped_game_and_says_how_to_go_on(tmp_path: Path) -> None:
    out = tmp_path / "evening.yaml"
    result = CliRunner().invoke(
        app, ["record", str(BASE), "--out", str(out), "--names", "Ann,Bo,Cy,Di"], input="1\n1\n1\n1\n6 6 6 6 6\n"
    )
    assert result.exit_code == 1
    assert "the input ended before the game did (round 1" in result.output
    assert f"kept unfinished in {out}" in result.output and "--resume" in result.output
    assert yaml.safe_load(out.read_text())["playtest"]["unfinished"] is True
    early = CliRunner().invoke(app, ["record", str(BASE), "--out", str(tmp_path / "early.yaml")], input="1\n")
    assert early.exit_code == 1 and "nothing was kept: the game stopped before its setup was entered" in early.output
    assert not (tmp_path / "early.yaml").exists()


def test_a_ctrl_c_at_the_table_keeps_the_game_and_says_how_to_go_on(tmp_path: Path) -> None:
    """Ctrl-C while the terminal waits for the next entry: the game so far is kept, and the command says how to go on
    with it, as when the input ends (it said only 'interrupted')."""
    out = tmp_path / "evening.yaml"
    command = [sys.executable, "-m", "workbench", "record", str(BASE), "--out", str(out), "--names", "Ann,Bo,Cy,Di"]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdin is not None
    child.stdin.write("1\n1\n1\n1\n")  # the setup's cards: the game is saved, and waits for the first roll
    child.stdin.flush()
    deadline = time.monotonic() + HANG
    while not out.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=HANG)
    assert child.returncode == 130, err
    assert "interrupted" in err and f"kept unfinished in {display_path(out)}" in err and "--resume" in err, err
    assert yaml.safe_load(out.read_text())["playtest"]["unfinished"] is True


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "4", "--names", "Ann,Bo"], "--names: name every player, one per seat from seat 0: 2 names for 4 players"),
        (["--names", "Ann,Bo"], "--names: 2 names, 2 players: the variant is for 3 to 6 players"),
        (["--date", "yesterday"], "--date yesterday: expected a day as YYYY-MM-DD"),
        (["--resume"], "there is no game to resume in this file"),
    ],
)
def test_a_recording_that_cannot_start_is_refused_before_any_question(tmp_path: Path, arguments: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["record", str(BASE), "--out", str(tmp_path / "new.yaml"), *arguments], input="")
    assert result.exit_code == 1
    assert message in result.output
    assert "which card" not in result.output.lower()


def test_a_recording_under_a_file_names_the_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    target = tmp_path / "notes.txt" / "evening" / "game.yaml"
    result = CliRunner().invoke(app, ["record", str(BASE), "--out", str(target)], input="")
    assert result.exit_code == 1
    assert f"its folder cannot be made ({display_path(tmp_path / 'notes.txt')} is a file, not a folder)" in result.output
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def test_nothing_the_user_wrote_is_replaced_and_an_ended_game_is_not_resumed(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("my notes\n")
    with pytest.raises(UsageError, match="this file exists: resume goes on with the game in it, force replaces it"):
        playtest.record(BASE, mine, Typist(1).table)
    assert mine.read_text() == "my notes\n"
    ended = tmp_path / "ended.yaml"
    playtest.record(BASE, ended, Typist(2).table)
    with pytest.raises(ScenarioError, match="this game has ended"):
        playtest.record(BASE, ended, Typist(3).table, resume=True)
    stopped = tmp_path / "stopped.yaml"
    with pytest.raises(Left):
        playtest.record(BASE, stopped, Typist(4, stop_after=30).table)
    with pytest.raises(ScenarioError, match="recorded on another variant"):
        playtest.record(ROOT / "variants" / "dearer-in.yaml", stopped, Typist(3).table, resume=True)


def test_a_recording_never_writes_over_the_variants_files_a_link_or_a_device(tmp_path: Path) -> None:
    for target, said in (
        (ROOT / "cards" / "chance-it-market.yaml", "this is one of the variant's own files"),
        (BASE, "this is one of the variant's own files"),
    ):
        before = target.read_bytes()
        with pytest.raises(UsageError, match=said):
            playtest.record(BASE, target, Typist(1).table, force=True)
        assert target.read_bytes() == before
    link = tmp_path / "link.yaml"
    link.symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(UsageError, match="this is a link: name the file itself"):
        playtest.record(BASE, link, Typist(1).table, force=True)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(UsageError, match="this is not a regular file"):
        playtest.record(BASE, pipe, Typist(1).table, force=True)
    with pytest.raises(UsageError, match="each name is 1 to 40 printable characters"):
        playtest.record(BASE, tmp_path / "n.yaml", Typist(1).table, names=["Ann", "", "Cy", "Di"])
    with pytest.raises(UsageError, match=r"notes: at most 100,000 characters \(these have 6,000,000\)"):
        playtest.record(BASE, tmp_path / "long.yaml", Typist(1).table, notes="x" * 6_000_000)  # the file could not be read back
    assert not (tmp_path / "long.yaml").exists()
    stopped = tmp_path / "stopped.yaml"
    with pytest.raises(Left):
        playtest.record(BASE, stopped, Typist(4, stop_after=30).table)
    with pytest.raises(UsageError, match="a resumed game keeps the names, notes and day it was started with"):
        playtest.record(BASE, stopped, Typist(4).table, resume=True, names=["A", "B", "C", "D"])


def test_a_file_changed_on_disk_during_the_game_is_left_as_it_is(tmp_path: Path) -> None:
    out = tmp_path / "game.yaml"
    typist = Typist(8)
    answer = typist.answer

    def meddling(question: Question) -> int:  # another program writes the file once the first round is saved
        if question.round == 2 and not out.read_text().endswith("# mine\n"):
            out.write_text(out.read_text() + "# mine\n")
        return answer(question)

    with pytest.raises(UsageError, match="this file changed on disk since the last round was saved"):
        playtest.record(BASE, out, Table(meddling, typist.enter))
    assert out.read_text().endswith("# mine\n")
