"""Games of target dice and Chance Chess entered at a table (``workbench record``): every entry checked as it is
made, the script written after every round (target dice) or ply (Chance Chess), a stopped game kept and resumed to
the very same file, and what was entered replayed exactly by ``replay``."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml
from typed import Typed
from typer.testing import CliRunner

from workbench import api, playtest
from workbench.cli import app
from workbench.games import load_variant
from workbench.play import Chance, Left, Question, Table

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Case:
    """A family's game as the tests enter it: its variant, its players and names, and the unit its script counts."""

    variant: Path
    players: int
    names: tuple[str, ...]
    unit: str  #: what its script's expect counts the game's length in: ``rounds`` or ``plies``

    def __str__(self) -> str:
        return self.variant.stem


TARGET_DICE = Case(ROOT / "variants" / "target-dice.yaml", 4, ("Ann", "Bo", "Cy", "Di"), "rounds")
CHANCE_CHESS = Case(ROOT / "variants" / "chance-chess.yaml", 2, ("Wil", "Bea"), "plies")
CASES = [TARGET_DICE, CHANCE_CHESS]


class Typist:
    """A table whose entries are drawn from a seeded stream, each kept as the line a person would type: dice as they
    fall, any card that may come up (typed by its number or its name), and decisions as a table that plays on would
    make them (one or two dice mostly, a mate or a capture mostly), so a game ends in a few dozen rounds or plies."""

    def __init__(self, seed: int, stop_after: int | None = None):
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.stop_after = stop_after
        self.starts: dict[int, int] = {}  #: where each round's (ply's) entries start among the lines
        self.chances: list[tuple[Chance, tuple[int, ...]]] = []  #: what chance brought, as asked and entered

    def _typed(self, unit: int, line: str) -> None:
        if self.stop_after is not None and len(self.lines) >= self.stop_after:
            raise Left("the input ended")
        self.starts.setdefault(unit, len(self.lines))
        self.lines.append(line)

    def answer(self, question: Question) -> int:
        options = question.options
        count = len(options)
        if question.kind == "dice" and count > 2 and self.rng.random() < 0.8:
            choice = self.rng.choice((1, 1, 2))  # roll one die, or two
        else:
            mates = [i for i, words in enumerate(options) if "#" in words]
            captures = [i for i, words in enumerate(options) if "x" in words.split(" ")[0]]
            best = mates or captures
            choice = self.rng.choice(best) if best and self.rng.random() < 0.8 else self.rng.randrange(count)
        self._typed(question.round, str(choice + 1))
        return choice

    def enter(self, chance: Chance) -> tuple[int, ...]:
        if chance.options:
            index = self.rng.randrange(len(chance.options))
            by_place = chance.numbered and not index % 2  # by its place in the list, or by name
            self._typed(chance.round, str(index + 1) if by_place else chance.names[index][0])
            entry: tuple[int, ...] = (index,)
        else:
            entry = tuple(self.rng.randint(1, chance.sides) for _ in range(chance.count))
            self._typed(chance.round, " ".join(map(str, entry)))
        self.chances.append((chance, entry))
        return entry

    @property
    def table(self) -> Table:
        return Table(self.answer, self.enter)


def deck_of(case: Case) -> tuple[Any, ...]:
    """The variant's deck, every card with its copies."""
    loaded = load_variant(case.variant)
    return tuple(loaded.family.rules(loaded.variant).deck)


@pytest.mark.parametrize("family", CASES, ids=str)
def test_a_game_entered_at_the_table_replays_to_the_state_it_ended_in(tmp_path: Path, family: Case) -> None:
    """Games of random entries (twenty of target dice, five of the longer chess): each script replays and meets its expectations, which are the whole state
    the replay ends in but for the order of the cards not come up (never known at a table: the replay lays them out
    in the variant's order, and they are every card not in the discard pile)."""
    reshuffled = 0
    for seed in range(20 if family.players > 2 else 5):
        out = tmp_path / f"game-{seed}.yaml"
        recording = playtest.record(family.variant, out, Typist(seed).table, family.players, names=family.names)
        assert recording.finished
        script = yaml.safe_load(out.read_text())
        assert script["playtest"]["table"] == list(family.names) and "unfinished" not in script["playtest"]
        assert script["players"] == family.players and script["expect"][family.unit]
        found = api.replay(out)
        assert found is not None
        _, result = found
        assert result.passed, result.failures
        assert result.output["end_reason"] == script["expect"]["end_reason"] is not None
        assert {k: v for k, v in result.output.items() if k not in ("events", "deck")} == script["expect"]
        assert len(result.output["deck"]) + result.output["discard"] == len(deck_of(family))
        reshuffled += any(event["type"] == "reshuffle" for event in result.output["events"])
    assert reshuffled  # some games made a new deck: its cards were entered as they came up, and replayed


@pytest.mark.parametrize("family", CASES, ids=str)
def test_a_stopped_game_is_kept_unfinished_and_resumed_to_the_same_file(tmp_path: Path, family: Case) -> None:
    whole = tmp_path / "whole.yaml"
    typist = Typist(7)
    playtest.record(family.variant, whole, typist.table, family.players, names=family.names)
    units = yaml.safe_load(whole.read_text())["expect"][family.unit]
    starts = sorted(typist.starts.items())
    # the first round (ply) past the middle with two entries or more: stopped after its first
    stopped, first = next(
        (unit, start) for (unit, start), (_, after) in pairwise(starts) if unit > units // 2 and after - start > 1
    )

    parts = tmp_path / "parts.yaml"
    saved: list[playtest.Recording] = []
    with pytest.raises(Left):
        playtest.record(
            family.variant, parts, Typist(7, stop_after=first + 1).table, family.players, names=family.names, saved=saved
        )
    kept = yaml.safe_load(parts.read_text())
    assert kept["playtest"]["unfinished"] is True and kept["playtest"]["table"] == list(family.names)
    assert kept["expect"][family.unit] == stopped - 1  # the round (ply) in play is not kept
    assert saved[-1].script == kept
    found = api.replay(parts)
    assert found is not None and found[1].passed and found[1].output["end_reason"] is None

    # the second sitting types the rest, from the first entry of the round (ply) not kept
    second = Typed(typist.lines[first:])
    done = playtest.record(family.variant, parts, second.table, resume=True)
    assert done.finished and not second.lines
    assert parts.read_text() == whole.read_text()


def test_an_impossible_target_dice_entry_is_refused_saying_why(tmp_path: Path) -> None:
    """A die face too big, too few dice, a number card that came up already, a card the deck never held."""
    typist = Typist(3)
    playtest.record(TARGET_DICE.variant, tmp_path / "game.yaml", typist.table, TARGET_DICE.players)
    cards = [chance for chance, _ in typist.chances if chance.kind == "card"]
    rolls = [chance for chance, _ in typist.chances if chance.kind == "roll"]
    first = next(chance for chance, _ in typist.chances if chance.kind == "rolloff")
    assert first.count == TARGET_DICE.players and first.read("6 1 2 3") == (6, 1, 2, 3)
    with pytest.raises(ValueError, match=r"^7 is not a face of a 6-sided die$"):
        rolls[0].read(" ".join(["7"] * rolls[0].count))
    with pytest.raises(ValueError, match=f"^{first.count} dice are asked for, and 2 were typed$"):
        first.read("1 2")
    drawn = [chance.names[entry[0]][0] for chance, entry in typist.chances if chance.kind == "card"]
    gone = next(
        (name, later)
        for at, name in enumerate(drawn)
        if name.startswith("card ")
        for later in cards[at + 1 :]
        if all(name not in names for names in later.names)
    )
    name, later = gone
    count = len(later.options)
    with pytest.raises(ValueError, match=f"^'{name}' is not one of the cards that may come up: type its name as listed$"):
        later.read(name)
    number = name.removeprefix("card ")
    with pytest.raises(ValueError, match="is not one of the cards that may come up"):  # a number card is named by its number
        later.read(number)
    for entry in ("blue", "0"):
        with pytest.raises(ValueError, match="is not one of the cards that may come up"):
            later.read(entry)
    assert later.read(later.names[-1][0].upper()) == (count - 1,)
    numbers = [names[1] for names in later.names if names[0].startswith("card ")]
    assert later.read(numbers[0]) == later.read(f"card {numbers[0]}")


def test_an_impossible_chance_chess_entry_is_refused_saying_why(tmp_path: Path) -> None:
    """A card the deck does not hold, a line that is not one of the cards'."""
    typist = Typist(5, stop_after=1)  # the first card, entered
    with pytest.raises(Left):
        playtest.record(CHANCE_CHESS.variant, tmp_path / "game.yaml", typist.table)
    ((chance, _),) = typist.chances
    assert chance.kind == "card" and chance.round == 1 and chance.prompt == "Ply 1: white draws a card: which one comes up?"
    assert [names[-1] for names in chance.names] == ["pawn", "knight", "bishop", "rook", "queen", "king", "any", "reshuffle"]
    assert chance.options[0] == "pawn (13 in the deck)" and chance.read("Any piece") == chance.read("7") == (6,)
    for entry in ("joker", "9", "0", ""):
        with pytest.raises(ValueError, match="is not one of the cards that may come up: type a number from 1 to 8, or its name"):
            chance.read(entry)


@pytest.mark.parametrize(("family", "wrong", "refusal"), [
    (TARGET_DICE, "7 7 7 7", "7 is not a face of a 6-sided die"),
    (CHANCE_CHESS, "joker", "'joker' is not one of the cards that may come up"),
], ids=["target-dice", "chance-chess"])  # fmt: skip
def test_the_terminal_takes_the_same_game_and_refuses_an_impossible_entry(
    tmp_path: Path, family: Case, wrong: str, refusal: str
) -> None:
    typist = Typist(11)
    by_library = tmp_path / "library.yaml"
    playtest.record(family.variant, by_library, typist.table, family.players)
    lines = [wrong, *typist.lines]  # the first entry: target dice's roll-off, Chance Chess's first card
    by_terminal = tmp_path / "terminal.yaml"
    result = CliRunner().invoke(app, ["record", str(family.variant), "--out", str(by_terminal)], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert refusal in result.output
    assert by_terminal.read_text() == by_library.read_text().replace("library.yaml", "terminal.yaml")
    replayed = CliRunner().invoke(app, ["replay", str(by_terminal)])
    assert replayed.exit_code == 0 and replayed.output.startswith("PASS"), replayed.output


def test_a_reshuffled_target_dice_deck_is_entered_card_by_card(tmp_path: Path) -> None:
    """The deck lists every card as it came up, past the reshuffles of the discard: the first deck's cards are the
    whole deck, each new deck's those of the discard pile it was made of."""
    for seed in range(40):
        typist = Typist(seed)
        out = tmp_path / f"game-{seed}.yaml"
        playtest.record(TARGET_DICE.variant, out, typist.table, TARGET_DICE.players)
        found = api.replay(out)
        assert found is not None
        events: list[dict[str, Any]] = found[1].output["events"]
        if any(event["type"] == "reshuffle" for event in events):
            break
    else:
        pytest.fail("no game reshuffled its discard pile")
    deck, full = yaml.safe_load(out.read_text())["deck"], deck_of(TARGET_DICE)
    assert Counter(deck[: len(full)]) == Counter(full) and len(deck) > len(full)
