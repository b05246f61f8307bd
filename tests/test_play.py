"""A person at the table: ``workbench play --human`` in the terminal (standard input) and the library's ``people``.

Each person's answer is checked against an independent decider written on the engine's own
protocol (always the first option, or a fixed seat plan), so the words and the numbering
of the questions are tested, not assumed.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from deciders import FirstOption
from output_helpers import BASE, HANG, ROOT

from workbench import api
from workbench.games.chance_it import engine as chance_engine
from workbench.games.chance_it.chance import RandomChance, bot_stream
from workbench.games.target_dice import engine as dice_engine
from workbench.games.target_dice.chance import RandomChance as DiceChance
from workbench.play import Left, Question
from workbench.policies import make_bot
from workbench.sim.seeding import stream

DICE = ROOT / "variants" / "target-dice.yaml"


class DiceFirstOption:
    """Target dice's decider that takes the first option as the person's questions order them: pass, keep the roll,
    -1, the first number card, keep the roll."""

    def dice(self, view: Any) -> int:
        return 0

    def red(self, view: Any, roll: tuple[int, ...]) -> Any:
        return None

    def orange(self, view: Any, roll: tuple[int, ...]) -> int:
        return -1

    def yellow(self, view: Any, roll: tuple[int, ...]) -> int:
        return int(view.targets[0])

    def purple(self, view: Any, roll: tuple[int, ...]) -> bool:
        return False


def chance_it_game(seat: int, players: int, seed: int, bot: str = "heuristic") -> dict[str, Any]:
    """The game ``play`` should give with ``seat`` answering 1 every time, played on the engine directly."""
    loaded = api.load_variant(BASE)
    known = loaded.family.personas(loaded.variant)
    chance = RandomChance.streams(seed, 0)
    game = chance_engine.Game(chance_engine.compile_variant(loaded.variant), players, chance)
    deciders = [FirstOption() if s == seat else make_bot(known[bot], bot_stream(seed, 0, s)) for s in range(players)]
    game.play(chance, deciders)
    return game.snapshot()


def play(*args: Any, answers: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "workbench", "play", *map(str, args)]
    return subprocess.run(command, input=answers, capture_output=True, text=True, timeout=HANG, cwd=ROOT)


def test_a_person_answering_1_plays_the_first_option_of_every_decision() -> None:
    ran = play(BASE, "--human", 0, "--bots", "heuristic", "--seed", 3, "--json", answers="1\n" * 2000)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == chance_it_game(0, 4, 3)
    assert "your choice (1-3): 1" in ran.stderr  # the dialogue, kept out of the JSON, echoes a pipe's answers
    assert "Round 1: choose your guide card" in ran.stderr


def test_an_entry_that_is_not_an_option_is_asked_again() -> None:
    ran = play(BASE, "--human", 2, "--bots", "heuristic", "--seed", 5, "--json", answers="x\n0\n4\n  \n" + "1\n" * 2000)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == chance_it_game(2, 4, 5)
    for entry in ("'x'", "'0'", "'4'", "''"):
        assert f"{entry} is not one of the options: type a number from 1 to 3" in ran.stderr


def test_the_end_of_the_input_stops_the_game_with_a_message() -> None:
    ran = play(BASE, "--human", 0, answers="1\n")
    assert ran.returncode == 1
    assert ran.stderr.strip().splitlines()[-1] == "the input ended before the game did (round 1, seat 0): it stopped unfinished"
    assert "Traceback" not in ran.stderr + ran.stdout


def test_the_terminal_shows_the_dice_the_holdings_and_numbered_options() -> None:
    ran = play(BASE, "--human", 0, "--bots", "heuristic", answers="")
    lines = ran.stdout.splitlines()
    dice = " ".join(str(face) for face in sorted(RandomChance.streams(1, 0).roll(5, 6)))  # game 0 of seed 1's first roll
    assert f"round 1: seat 0 rolls {dice}" in lines  # what happened before the question
    assert f"dice: {dice}" in lines
    assert "seat 0: Round 1: choose your guide card" in lines
    assert lines[-4:-1] == [
        "  1. IN: take part in the round (and its stakes)",
        "  2. OUT: sit the round out",
        "  3. CHANCE IT: take part, and take the CHANCE IT action (+2 coins)",
    ]
    assert any(line.replace("┃", "|").split("|")[1:4] == [" seat ", " coins ", " hearts "] for line in lines), lines


@pytest.mark.parametrize("args", [("--human", 4), ("--human", -1), ("--human", 0, "--human", 0)])
def test_seats_that_are_not_at_the_table_are_refused(args: tuple[Any, ...]) -> None:
    ran = play(BASE, *args, answers="")
    assert ran.returncode == 1
    assert ran.stderr.startswith("--human"), ran.stderr
    assert "round" not in ran.stdout


def test_without_a_person_play_is_the_random_bots_game_as_before() -> None:
    """Seat s's bot draws from the stream (seed, 0, "bot", s), a person or not at the other seats."""
    loaded = api.load_variant(BASE)
    chance = RandomChance.streams(7, 0)
    game = chance_engine.Game(chance_engine.compile_variant(loaded.variant), 4, chance)
    random_bot = loaded.family.personas(loaded.variant)["random"]
    game.play(chance, [make_bot(random_bot, bot_stream(7, 0, s)) for s in range(4)])
    assert api.play(BASE, 4, 7) == game.snapshot()


def test_the_library_asks_every_kind_of_decision_in_words() -> None:
    """Over many seeds a person's seat is asked each kind of Chance It decision, each option a sentence; the
    ``choose`` options are worded as the card words them."""
    kinds: dict[str, Question] = {}
    rng = random.Random(1)

    def answer(question: Question) -> int:
        kinds.setdefault(question.kind, question)
        assert question.options and all(isinstance(o, str) and o for o in question.options)
        return rng.randrange(len(question.options))

    for seed in range(1, 200):  # four people answering at random: every card gets bought and used
        api.play(ROOT / "variants" / "card-lab.yaml", 4, seed, people=dict.fromkeys(range(4), answer))
        if {"guide", "market", "use", "choose", "target"} <= set(kinds):
            break
    assert {"guide", "market", "use", "choose", "target"} <= set(kinds), sorted(kinds)
    assert kinds["guide"].table[0][:4] == ["seat", "coins", "hearts", "stars"]
    assert kinds["target"].prompt.startswith("Take ") and kinds["target"].prompt.endswith(" from whom?")
    assert all(option.startswith("seat ") for option in kinds["target"].options)
    assert all(not option.startswith("option ") for option in kinds["choose"].options)  # the card's own words


def test_a_person_who_leaves_stops_the_game() -> None:
    def leave(question: Question) -> int:
        raise Left("gone")

    with pytest.raises(Left):
        api.play(BASE, 4, 1, people={1: leave})


def test_target_dice_has_people_too() -> None:
    ran = play(DICE, "--human", 1, "--bots", "greedy", "--players", 3, "--seed", 2, "--json", answers="1\n" * 2000)
    assert ran.returncode == 0, ran.stderr
    loaded = api.load_variant(DICE)
    known = loaded.family.personas(loaded.variant)
    game = dice_engine.Game(dice_engine.compile_variant(loaded.variant), 3, DiceChance.streams(2, 0))
    game.play([DiceFirstOption() if s == 1 else make_bot(known["greedy"], stream(2, 0, "bot", s)) for s in range(3)])
    assert json.loads(ran.stdout) == game.snapshot()
    assert "How many dice do you roll?" in ran.stderr and "  1. pass" in ran.stderr


def test_answers_read_from_a_file_make_the_same_game(tmp_path: Path) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text("2\n" * 3000)
    with answers.open() as handle:
        ran = subprocess.run(
            [sys.executable, "-m", "workbench", "play", str(BASE), "--human", "0", "--json", "--seed", "9"],
            stdin=handle,
            capture_output=True,
            text=True,
            timeout=HANG,
        )
    again = play(BASE, "--human", 0, "--json", "--seed", 9, answers="2\n" * 3000)
    assert ran.returncode == again.returncode
    assert ran.stdout == again.stdout


def test_the_documented_transcript_reproduces() -> None:
    """Every line of the example game in docs/how-to/play.md (between its "..." cuts) is what the command prints, in
    order."""
    page = (ROOT / "docs" / "how-to" / "play.md").read_text(encoding="utf-8")
    block = page.split("$ yes 1 | .venv/bin/workbench play variants/chance-it.yaml --human 0 --bots heuristic --seed 1\n")[1]
    shown = [line for line in block.split("```")[0].splitlines() if line != "..."]
    ran = play(BASE, "--human", 0, "--bots", "heuristic", "--seed", 1, answers="1\n" * 3000)
    lines = iter(ran.stdout.splitlines())
    for line in shown:
        assert any(printed == line for printed in lines), f"not printed (in order): {line!r}"


def test_the_person_is_told_how_the_game_went_on_to_its_end() -> None:
    """After the person's last decision the game goes on (the bots, the last rounds): every event from there to the
    end is printed before the result, once."""
    ran = play(BASE, "--human", 0, "--bots", "heuristic", "--seed", 1, answers="1\n" * 3000)
    expected = chance_it_game(0, 4, 1)
    loaded = api.load_variant(BASE)
    lines = ran.stdout.splitlines()
    tail = [loaded.family.describe(event) for event in expected["events"][-5:]]
    end = lines.index(next(line for line in lines if line.startswith("ended after")))
    printed = [line for line in lines[:end] if not line.startswith(("┏", "┃", "┡", "│", "└", " "))]
    assert printed[-len(tail) - 1 : -1] == tail or printed[-len(tail) :] == tail, printed[-8:]
    last = loaded.family.describe(expected["events"][-1])
    assert sum(line == last for line in lines) == 1


def test_entries_that_cannot_be_options_are_asked_again_and_a_pipe_of_them_ends() -> None:
    ran = play(BASE, "--human", 0, answers="9" * 5000 + "\n" + "1\n" * 3000)
    assert ran.returncode == 0, ran.stderr[-500:]
    assert f"{'9' * 40!r} is not one of the options" in ran.stdout
    endless = play(BASE, "--human", 0, answers="9\n" * 150)
    assert endless.returncode == 1
    assert endless.stderr.strip() == "100 entries in a row were not options: the game stopped unfinished"


def test_a_closed_standard_input_is_said() -> None:
    command = [sys.executable, "-m", "workbench", "play", str(BASE), "--human", "0"]
    ran = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=HANG, cwd=ROOT)
    assert ran.returncode == 1 and "the input ended" in ran.stderr
    closed = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m workbench play {BASE} --human 0 <&-"], capture_output=True, text=True, timeout=HANG
    )
    assert closed.returncode == 1
    assert closed.stderr.strip() == "--human: standard input is closed, and the answers are read from it"


def test_json_with_trace_is_one_json_document() -> None:
    ran = play(BASE, "--json", "--trace", answers="")
    assert json.loads(ran.stdout) == api.play(BASE, 4, 1)
    assert ran.stderr.splitlines()[0].startswith("setup: market laid out:")
