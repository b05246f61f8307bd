"""Exact odds of a variant's dice (``workbench odds``): computed with icepool as fractions, never simulated.

What one round's roll does, as the rules resolve it (a die whose board face rerolls it is
resolved at the face it first showed, then at each face it is rerolled to):

- how many dice show each face on the roll, before any reroll;
- how likely one die, and at least one die of the round, is resolved at each face: the
  trigger of a die card of that face;
- what the board gives one participant before cards, summed over the dice: coins, hearts
  gained, hearts lost, stars and market actions (amounts as written: a player loses only
  what it has), and the chance that it takes k or more hearts. Each effect kind says its
  own exact outcome (:meth:`~.effects.EffectKind.exact`); one that depends on the table
  (the other players, the player's holdings, a decision) is left out of these figures
  and named for its face, never guessed;
- every chance test of the variant, with each total chance bonus the passive cards can give.

The chance of a chance test comes from :func:`~.effects.success_chance`, the function the
printed cards use.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from workbench.errors import UsageError
from workbench.games.chance_it import effects as kinds
from workbench.games.chance_it.effects.chance import BONUS, ChanceKind
from workbench.games.chance_it.rules import Effects, Rules, compile_rules
from workbench.games.chance_it.schema import Variant
from workbench.sim.stats import exact, exact_text

#: How many hearts taken the report asks about: k or more, for k = 1..HEARTS_TAKEN.
HEARTS_TAKEN = 4


@dataclass(frozen=True)
class ChanceOdds:
    """One chance test of the variant and its chance of success with each total bonus."""

    where: str  #: key path of the test, as in the variant file
    roll: int
    success: dict[int, Fraction]  #: total chance bonus -> chance of success


@dataclass(frozen=True)
class Odds:
    """The exact odds of a variant's round (see the module docstring); every probability is a Fraction."""

    variant: str
    dice: int
    sides: int
    counts: dict[int, dict[int, Fraction]]  #: face -> how many dice show it on the roll -> chance
    resolved: dict[int, Fraction]  #: face -> chance that one die is resolved at it in a round
    fires: dict[int, Fraction]  #: face -> chance that at least one die is resolved at it in a round
    #: part of the outcome (see kinds.OUTCOME) -> total for one participant -> chance (the inexact effects left out)
    board: dict[str, dict[int, Fraction]]
    inexact: dict[int, list[str]]  #: board face -> the effects left out: their outcome depends on the table
    hearts_taken: dict[int, Fraction]  #: k -> chance that the board takes k or more hearts
    tests: list[ChanceOdds]
    cards: dict[str, tuple[int, Fraction]]  #: die card id -> (its face, the chance that its trigger fires in a round)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``: each chance as an exact fraction ``"n/d"`` with its percentage."""

        def table(values: dict[int, Fraction]) -> dict[str, Any]:
            return {str(k): exact(v) for k, v in values.items()}

        return {
            "variant": self.variant,
            "dice": {"count": self.dice, "sides": self.sides},
            "face_counts": {str(face): table(counts) for face, counts in self.counts.items()},
            "die_resolved_at": table(self.resolved),
            "round_resolves": table(self.fires),
            "board": {part: table(dist) for part, dist in self.board.items()},
            "left_out": {str(face): names for face, names in self.inexact.items()},
            "hearts_taken_at_least": table(self.hearts_taken),
            "chance_tests": [{"where": t.where, "roll": t.roll, "success_by_bonus": table(t.success)} for t in self.tests],
            "cards": {card: {"face": face, **exact(value)} for card, (face, value) in self.cards.items()},
        }


def odds(variant: Variant) -> Odds:
    """The exact odds of one round of ``variant`` (see the module docstring)."""
    rules = compile_rules(variant)
    count, sides = rules.dice_count, rules.sides
    faces = range(1, sides + 1)
    counts = {face: _distribution(count @ icepool.Die({1: 1, 0: sides - 1})) for face in faces}
    resolved = {face: _reaches(rules, face) for face in faces}
    fires = {face: 1 - (1 - resolved[face]) ** count for face in faces}
    entries: dict[int, icepool.Die] = {}
    inexact: dict[int, list[str]] = {}
    for face in faces:
        walk = _Walk(sides)
        entries[face] = walk.of(rules.board[face])
        if walk.missing:
            inexact[face] = walk.missing
    die = icepool.Die([_settle(rules, entries, face) for face in faces])
    marginals = [die.marginals[i] for i in range(len(kinds.OUTCOME))]
    for part, marginal in zip(kinds.OUTCOME, marginals):
        _check_size(part, marginal, count)
    totals = [count @ marginal for marginal in marginals]  # part by part: fast, and all we show
    board = {part: _distribution(total) for part, total in zip(kinds.OUTCOME, totals)}
    lost = totals[kinds.OUTCOME.index("hearts lost")]
    hearts_taken = {k: Fraction((lost >= k).probability(True)) for k in range(1, HEARTS_TAKEN + 1)}
    cards = {card.id: (card.face, fires[card.face]) for card in rules.cards if card.kind == "die"}
    return Odds(variant.name, count, sides, counts, resolved, fires, board, inexact, hearts_taken, _tests(variant, rules), cards)


#: The most different totals one part of the board may have over the roll: beyond, exact sums take too long.
MOST_TOTALS = 100_000


def _check_size(part: str, marginal: icepool.Die, count: int) -> None:
    """Refuse, before the work, a board whose amounts of ``part`` are so varied that their sums over ``count`` dice
    have more than :data:`MOST_TOTALS` values (every multiset of amounts can give its own total)."""
    amounts = [int(outcome) for outcome in marginal.outcomes()]
    multisets = math.comb(count + len(amounts) - 1, len(amounts) - 1)
    span = count * (max(amounts) - min(amounts)) + 1
    if min(multisets, span) > MOST_TOTALS:
        raise UsageError(
            None,
            f"odds: the board's {part} amounts ({len(amounts)} different, {min(amounts)} to {max(amounts)}) can add up "
            f"to more than {MOST_TOTALS:,} different totals over {count} dice; too many to compute exactly",
        )


def _distribution(die: icepool.Die) -> dict[int, Fraction]:
    return {int(outcome): Fraction(die.probability(outcome)) for outcome in die.outcomes()}


def _reaches(rules: Rules, target: int) -> Fraction:
    """The chance that one die is resolved at ``target``: rolled there, or rerolled there after its first face."""

    def from_face(face: int) -> Fraction:
        if face == target:
            return Fraction(1)
        onward = _rerolls(rules, face)
        return sum((from_face(g) for g in onward), Fraction(0)) / len(onward) if onward else Fraction(0)

    return sum((from_face(face) for face in range(1, rules.sides + 1)), Fraction(0)) / rules.sides


def _rerolls(rules: Rules, face: int) -> tuple[int, ...]:
    """The faces a die of ``face`` moves to after it is resolved (each equally likely; none: it stays)."""
    for _, argument, kind in rules.die_steps[face]:
        if isinstance(kind, kinds.DieEffect):
            onward = kind.rerolls(argument, face, rules.sides)
            if onward:
                return onward
    return ()


def _settle(rules: Rules, entries: dict[int, icepool.Die], face: int) -> icepool.Die:
    """What one die first showing ``face`` gives a participant: the board at each face it is resolved at."""
    onward = _rerolls(rules, face)
    here = entries[face]
    return here + icepool.Die([_settle(rules, entries, g) for g in onward]) if onward else here


class _Walk:
    """The exact outcome of a list of effects, leaving out (and naming) the kinds that depend on the table."""

    def __init__(self, sides: int):
        self.exact = kinds.Exact(sides, self.of)
        self.missing: list[str] = []

    def of(self, effects: Effects) -> icepool.Die:
        total = kinds.outcome()
        for _, argument, kind in effects:
            part = kind.exact(argument, self.exact)  # nested lists come back here: None is the kind's own
            if part is None:
                if kind.tag not in self.missing:
                    self.missing.append(kind.tag)
            else:
                total = total + part
        return total


def _tests(variant: Variant, rules: Rules) -> list[ChanceOdds]:
    """Every chance test in the variant, with each total bonus the passive cards can give (0 always)."""
    bonuses = {0}
    for card in variant.cards:
        step = rules.by_id[card.id].modifiers.get(BONUS, 0)
        if step:
            bonuses = {total + step * k for total in bonuses for k in range(card.copies + 1)}
    sides = variant.dice.sides
    shown = sorted({max(-sides, min(sides, bonus)) for bonus in bonuses})  # beyond +-sides nothing changes
    return [
        ChanceOdds(
            ".".join(map(str, key)), effect.chance.roll, {b: kinds.success_chance(effect.chance.roll, sides, b) for b in shown}
        )
        for key, effect in _chance_tests(variant)
    ]


def _chance_tests(variant: Variant) -> Iterator[tuple[tuple[Any, ...], Any]]:
    lists: list[tuple[tuple[Any, ...], tuple[Any, ...]]] = [
        *((("board", face), effects) for face, effects in sorted(variant.board.items())),
        (("all_out",), variant.all_out),
        (("chance_it",), variant.chance_it),
        *((("cards", card.id, "effects"), card.effects) for card in variant.cards),
    ]
    for key, items in lists:
        for path, effect, _ in kinds.iter_effects(items, key):
            if isinstance(kinds.kind_of(effect), ChanceKind):
                yield path, effect


def odds_tables(data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The odds of :meth:`Odds.to_dict` as terminal tables: (title, headers, rows)."""

    def spread(dist: dict[str, dict[str, Any]]) -> str:
        """The likelier values of a distribution: ``0: 33%, 2: 41%`` (under 0.5% left out, or else the 5 likeliest)."""
        likely = [value for value, p in dist.items() if p["percent"] >= 0.5]
        if not likely:
            likely = sorted(sorted(dist, key=lambda value: -dist[value]["percent"])[:5], key=int)
        shown = ", ".join(f"{value}: {dist[value]['percent']:.1f}%" for value in likely)
        return shown + (", ... (all in --json)" if len(likely) < len(dist) else "")

    dice = data["dice"]
    tables = [
        (
            f"{data['variant']}: one roll of {dice['count']} dice with {dice['sides']} sides",
            ["face", "a die resolved at it", "at least one die of the round", "dice showing it on the roll"],
            [
                [face, exact_text(data["die_resolved_at"][face]), exact_text(data["round_resolves"][face]), spread(counts)]
                for face, counts in data["face_counts"].items()
            ],
        )
    ]
    left_out = "; ".join(f"face {face}: {', '.join(names)}" for face, names in data["left_out"].items())
    unless = f", leaving out what depends on the table ({left_out})" if left_out else ""
    tables.append(
        (
            f"What the board gives one participant in a round, before cards (amounts as written{unless})",
            ["", "total: chance"],
            [[part, spread(dist)] for part, dist in data["board"].items()],
        )
    )
    tables.append(
        (
            f"The board takes k or more hearts from a participant in a round{' (' + left_out + ' left out)' if left_out else ''}",
            ["k", "chance"],
            [[k, exact_text(p)] for k, p in data["hearts_taken_at_least"].items()],
        )
    )
    if data["chance_tests"]:
        tables.append(
            (
                "Chance tests: success with each total chance bonus",
                ["where", "roll", "bonus: chance"],
                [
                    [
                        test["where"],
                        f"{test['roll']}+",
                        ", ".join(f"{b:>2}: {exact_text(p)}" for b, p in test["success_by_bonus"].items()),
                    ]
                    for test in data["chance_tests"]
                ],
            )
        )
    if data["cards"]:
        tables.append(
            (
                "Die cards: the trigger fires in a round (at least one die of its face)",
                ["card", "face", "chance"],
                [[card, str(p["face"]), exact_text(p)] for card, p in data["cards"].items()],
            )
        )
    return tables
