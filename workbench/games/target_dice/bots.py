"""Bots: deciders that choose for a seat from what its :class:`View` shows and their own random stream.

A bot never sees the engine's chance source. Three policies:

- ``random``: uniform over the legal choices (how many dice, passing included; each special's options).
- ``greedy``: the choice worth the most points *this turn*, from exact probabilities (the sum
  distributions of n dice, computed once with icepool). A HIT is worth the target, a roll
  over it the points lost. Under ``keep`` a roll below the target is worth P + r only when
  the round surely ends after this turn (the player is the last to act, or it took the last
  dice of the stock), else nothing: the next players may well take the holding away, and
  greedy does not look at them. The starting player's special counts too: for each number of
  dice, the expected points with the best special decision after each roll (red by the faces
  rolled: for more than :data:`MOST_MULTISETS` different rolls, returning a die is left out of
  this estimate, never out of the decision after the roll).
- ``search``: the same, but it also weighs what it leaves to the following players: it plays
  out the rest of the round exactly (every roll, by probability) with each of the next
  ``depth`` players replying as greedy would, and values an option by its own expected points
  this round less ``rivals`` times the points the following players are expected to score.
  So under ``keep`` a holding of P is worth P times the chance that it survives the rest of
  the round. Players beyond ``depth`` are not looked at: a holding still open when the
  lookahead stops counts for nothing, as greedy counts it (``depth: 0`` plays as greedy).

Ties go to the first option: passing, then fewer dice; keeping a roll as it is.
Greedy and search use no randomness, so a seeded game with them is always the same.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

import icepool

from workbench.games.target_dice.engine import ADD, ORANGE, RED, YELLOW, RedMove, Rules, View
from workbench.games.target_dice.schema import Persona

#: Rolls of n dice counted by their faces (multisets) beyond which greedy's estimate of a red card leaves out
#: returning a die (the exact estimate would look at each of them).
MOST_MULTISETS = 3_000
#: Values closer than this are a tie (and go to the first option).
TIE = 1e-9

T = TypeVar("T")

# Who holds the last valid roll, from the deciding seat's side.
ME, OTHER, NOBODY = 0, 1, 2


@lru_cache(maxsize=256)
def sum_odds(count: int, sides: int) -> tuple[tuple[int, float], ...]:
    """(sum, chance) for every sum ``count`` dice with ``sides`` sides can show, from icepool's exact distribution.

    >>> dict(sum_odds(2, 6))[7]
    0.16666666666666666
    """
    die = count @ icepool.d(sides)
    total = die.denominator()
    return tuple((int(s), float(Fraction(die.quantity(s), total))) for s in die.outcomes())


@lru_cache(maxsize=256)
def roll_odds(count: int, sides: int) -> tuple[tuple[tuple[int, ...], float], ...] | None:
    """(faces, chance) for every roll of ``count`` dice counted by its faces, sorted; None when there are too many.

    >>> len(roll_odds(3, 6))
    56
    """
    if math.comb(count + sides - 1, count) > MOST_MULTISETS:
        return None
    rolls = icepool.d(sides).pool(count).expand()
    total = rolls.denominator()
    return tuple((tuple(faces), float(Fraction(rolls.quantity(faces), total))) for faces in rolls.outcomes())


class Planner:
    """Values a turn's options for the deciding seat, with the next ``depth`` players replying as greedy would.

    A value is the seat's expected points from this turn to the round's end, less ``rivals``
    times the points the following players are expected to score in the round. With depth 0
    and rivals 0 it is greedy's value.
    """

    def __init__(self, sides: int, keep: bool, depth: int, rivals: float):
        self.sides, self.keep, self.depth, self.rivals = sides, keep, depth, rivals
        self.greedy = self if depth == 0 and rivals == 0 else greedy_planner(sides, keep)
        self._future: dict[tuple[int, int, int, int, int, int], tuple[float, float]] = {}
        self._best: dict[tuple[int, int, int, int, int], int] = {}
        self._special: dict[tuple[str, tuple[int, ...], int, int], int] = {}
        self._again: dict[tuple[int, int, int, int], float] = {}

    # --- the rest of the round -------------------------------------------------------------------------------

    def future(self, target: int, kept: int, stock: int, holder: int, after: int, depth: int) -> tuple[float, float]:
        """(the deciding seat's, the others') expected points from here to the round's end, ``after`` players to act."""
        if not after or not stock:  # the round ends: the holder scores
            return (kept, 0.0) if holder == ME else (0.0, kept) if holder == OTHER else (0.0, 0.0)
        if not depth:  # the lookahead stops: an open holding counts for nothing
            return 0.0, 0.0
        key = (target, kept, stock, holder, after, depth)
        found = self._future.get(key)
        if found is not None:
            return found
        # the next player replies as greedy would (for greedy, who else holds the roll makes no difference)
        taken = self.greedy.best_dice(target, kept, stock, NOBODY, after - 1)
        rest = self.future(target, kept, stock, holder, after - 1, depth - 1)  # a pass, a miss, or dice going back
        if not taken:
            self._future[key] = rest
            return rest
        mine = others = 0.0
        for s, p in sum_odds(taken, self.sides):
            total = kept + s
            if total == target:
                others += p * target
            elif total > target:
                others += p * (target - total + rest[1])
                mine += p * rest[0]
            elif self.keep:
                m, o = self.future(target, total, stock - taken, OTHER, after - 1, depth - 1)
                mine += p * m
                others += p * o
            else:
                mine += p * rest[0]
                others += p * rest[1]
        self._future[key] = mine, others
        return mine, others

    def worth(self, target: int, kept: int, stock: int, holder: int, after: int) -> float:
        """The value of the rest of the round from here (after the deciding seat's turn)."""
        mine, others = self.future(target, kept, stock, holder, after, self.depth)
        return mine - self.rivals * others

    def outcome(self, total: int, used: int, target: int, kept: int, stock: int, holder: int, after: int) -> float:
        """The value of a roll that ends at ``total`` with ``used`` dice, taken from ``stock`` with ``kept`` on the table."""
        if total == target:
            return target
        if total > target:
            return target - total + self.worth(target, kept, stock, holder, after)
        if self.keep:
            return self.worth(target, total, stock - used, ME, after)
        return self.worth(target, kept, stock, holder, after)

    # --- a plain turn ----------------------------------------------------------------------------------------

    def dice_values(self, target: int, kept: int, stock: int, holder: int, after: int) -> list[float]:
        """The value of passing (index 0) and of taking each number of dice (1 to ``stock``)."""
        values = [self.worth(target, kept, stock, holder, after)]
        for taken in range(1, stock + 1):
            values.append(
                sum(p * self.outcome(kept + s, taken, target, kept, stock, holder, after) for s, p in sum_odds(taken, self.sides))
            )
        return values

    def best_dice(self, target: int, kept: int, stock: int, holder: int, after: int) -> int:
        """How many dice to take (0: pass): the first of the best values."""
        key = (target, kept, stock, holder, after)
        found = self._best.get(key)
        if found is None:
            found = self._best[key] = first_best(self.dice_values(target, kept, stock, holder, after))
        return found

    # --- the starting player's special card ------------------------------------------------------------------

    def red_options(self, roll: Sequence[int], target: int, stock: int, after: int) -> list[tuple[RedMove, float]]:
        """Red after the roll (``stock`` left after it): keep it, return each face rolled, add a die."""
        total, used = sum(roll), len(roll)
        options: list[tuple[RedMove, float]] = [(None, self.outcome(total, used, target, 0, stock + used, NOBODY, after))]
        if used > 1:
            for face in sorted(set(roll)):
                options.append((face, self.outcome(total - face, used - 1, target, 0, stock + used, NOBODY, after)))
        if stock:
            added = sum(
                self.outcome(total + x, used + 1, target, 0, stock + used, NOBODY, after) for x in range(1, self.sides + 1)
            )
            options.append((ADD, added / self.sides))
        return options

    def orange_options(self, result: int, used: int, target: int, stock: int, after: int) -> list[tuple[int, float]]:
        """Orange after the roll: keep the result, subtract 1, add 1."""
        return [(a, self.outcome(result + a, used, target, 0, stock + used, NOBODY, after)) for a in (0, -1, 1)]

    def yellow_options(self, result: int, used: int, targets: Sequence[int], stock: int, after: int) -> list[tuple[int, float]]:
        """Yellow after the roll: each number card in play, the first drawn first."""
        return [(t, self.outcome(result, used, t, 0, stock + used, NOBODY, after)) for t in targets]

    def purple_options(self, result: int, used: int, target: int, stock: int, after: int) -> list[tuple[bool, float]]:
        """Purple after the roll: keep it, or roll the same dice again (valued as a fresh roll)."""
        keep = self.outcome(result, used, target, 0, stock + used, NOBODY, after)
        key = (used, target, stock, after)
        again = self._again.get(key)
        if again is None:  # the same for every result of the first roll: once, not once per result
            again = self._again[key] = sum(
                p * self.outcome(s, used, target, 0, stock + used, NOBODY, after) for s, p in sum_odds(used, self.sides)
            )
        return [(False, keep), (True, again)]

    def special_dice(self, special: str, targets: tuple[int, ...], stock: int, after: int) -> int:
        """How many dice the starting player takes with ``special`` in play, each valued with its best decision."""
        key = (special, targets, stock, after)
        found = self._special.get(key)
        if found is None:
            found = self._special[key] = first_best(self.special_values(special, targets, stock, after))
        return found

    def special_values(self, special: str, targets: tuple[int, ...], stock: int, after: int) -> list[float]:
        """The starting player's value of passing (index 0) and of taking each number of dice, with ``special``."""
        values = [self.worth(targets[0], 0, stock, NOBODY, after)]
        for taken in range(1, stock + 1):
            left = stock - taken
            if special == RED:
                values.append(self._red_value(taken, targets[0], left, after))
                continue
            value = 0.0
            for s, p in sum_odds(taken, self.sides):
                options: Sequence[tuple[object, float]]
                if special == ORANGE:
                    options = self.orange_options(s, taken, targets[0], left, after)
                elif special == YELLOW:
                    options = self.yellow_options(s, taken, targets, left, after)
                else:
                    options = self.purple_options(s, taken, targets[0], left, after)
                value += p * max(v for _, v in options)
            values.append(value)
        return values

    def _red_value(self, taken: int, target: int, left: int, after: int) -> float:
        rolls = roll_odds(taken, self.sides)
        if rolls is not None:
            return sum(p * max(v for _, v in self.red_options(faces, target, left, after)) for faces, p in rolls)
        value = 0.0  # too many different rolls: by their sums alone, leaving out a returned die
        sides = self.sides
        if left:  # added[t]: the sum of the outcomes of t + 1 .. t + sides with one more die (a sliding window)
            plus = [self.outcome(t, taken + 1, target, 0, left + taken, NOBODY, after) for t in range((taken + 1) * sides + 1)]
            window = [0.0, *itertools.accumulate(plus)]
        for s, p in sum_odds(taken, sides):
            keep = self.outcome(s, taken, target, 0, left + taken, NOBODY, after)
            if left:
                keep = max(keep, (window[s + sides + 1] - window[s + 1]) / sides)
            value += p * keep
        return value


def first_best(values: Sequence[float]) -> int:
    """The index of the first value within :data:`TIE` of the largest.

    >>> first_best([0.0, 2.0, 2.0, 1.0])
    1
    """
    best = max(values)
    return next(i for i, v in enumerate(values) if v >= best - TIE)


def pick(options: Sequence[tuple[T, float]]) -> T:
    """The first option of the best value."""
    return options[first_best([v for _, v in options])][0]


@lru_cache(maxsize=64)
def greedy_planner(sides: int, keep: bool) -> Planner:
    """The greedy planner of a variant's dice and under rule, shared by every bot (its tables fill as games go)."""
    return Planner(sides, keep, 0, 0.0)


@lru_cache(maxsize=64)
def planner(sides: int, keep: bool, depth: int, rivals: float) -> Planner:
    """A planner, shared by every bot of the same persona and rules."""
    return greedy_planner(sides, keep) if depth == 0 and rivals == 0 else Planner(sides, keep, depth, rivals)


def _holder(view: View) -> int:
    return NOBODY if view.holder is None else OTHER


class PlanningBot:
    """A bot that takes the option a :class:`Planner` values most (greedy: depth 0, rivals 0; search: the persona's)."""

    __slots__ = ("depth", "rivals", "rng")

    def __init__(self, rng: random.Random, depth: int = 0, rivals: float = 0.0):
        self.rng = rng  # unused: the choices follow from exact probabilities
        self.depth, self.rivals = depth, rivals

    @classmethod
    def greedy(cls, persona: Persona, rng: random.Random) -> PlanningBot:
        """The greedy policy's bot: no look-ahead, no rivals."""
        return cls(rng)

    @classmethod
    def searching(cls, persona: Persona, rng: random.Random) -> PlanningBot:
        """The search policy's bot, as deep and as wary of rivals as the persona says."""
        return cls(rng, persona.depth, persona.rivals)

    def planner(self, rules: Rules) -> Planner:
        """The planner for these rules."""
        return planner(rules.sides, rules.keep, self.depth, self.rivals)

    def dice(self, view: View) -> int:
        """The number of dice (0: pass) of the best value; the starting player counts its special card."""
        plan = self.planner(view.rules)
        if view.special is not None and view.seat == view.starting_player:  # the first turn: its special counts
            return plan.special_dice(view.special, view.targets, view.stock, view.after)
        return plan.best_dice(view.target, view.kept, view.stock, _holder(view), view.after)

    def red(self, view: View, roll: tuple[int, ...]) -> RedMove:
        """Keep the roll, return a face or add a die: the best value."""
        plan = self.planner(view.rules)
        return pick(plan.red_options(roll, view.target, view.stock, view.after))

    def orange(self, view: View, roll: tuple[int, ...]) -> int:
        """0, -1 or +1: the best value."""
        plan = self.planner(view.rules)
        return pick(plan.orange_options(sum(roll), len(roll), view.target, view.stock, view.after))

    def yellow(self, view: View, roll: tuple[int, ...]) -> int:
        """The number card of the best value."""
        plan = self.planner(view.rules)
        return pick(plan.yellow_options(sum(roll), len(roll), view.targets, view.stock, view.after))

    def purple(self, view: View, roll: tuple[int, ...]) -> bool:
        """Roll again when a fresh roll of these dice is worth more than this one."""
        plan = self.planner(view.rules)
        return pick(plan.purple_options(sum(roll), len(roll), view.target, view.stock, view.after))


class RandomBot:
    """Uniform over the legal choices."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random):
        self.rng = rng

    @classmethod
    def of(cls, persona: Persona, rng: random.Random) -> RandomBot:
        """The random policy's bot (it reads no parameter of ``persona``)."""
        return cls(rng)

    def dice(self, view: View) -> int:
        """0 (pass) to every die of the stock, alike."""
        return int(self.rng.random() * (view.stock + 1))

    def red(self, view: View, roll: tuple[int, ...]) -> RedMove:
        """Keep, return any face rolled (two dice or more), add a die (one left): alike."""
        options: list[RedMove] = [None]
        if len(roll) > 1:
            options.extend(sorted(set(roll)))
        if view.stock:
            options.append(ADD)
        return options[int(self.rng.random() * len(options))]

    def orange(self, view: View, roll: tuple[int, ...]) -> int:
        """-1, 0 or +1, alike."""
        return (-1, 0, 1)[int(self.rng.random() * 3)]

    def yellow(self, view: View, roll: tuple[int, ...]) -> int:
        """Either number card, alike."""
        targets = view.targets
        return targets[int(self.rng.random() * len(targets))]

    def purple(self, view: View, roll: tuple[int, ...]) -> bool:
        """Roll again or not, alike."""
        return self.rng.random() < 0.5


__all__ = [
    "MOST_MULTISETS",
    "Planner",
    "PlanningBot",
    "RandomBot",
    "first_best",
    "greedy_planner",
    "planner",
    "roll_odds",
    "sum_odds",
]
