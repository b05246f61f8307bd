"""Exact odds of a variant's dice against its targets (``workbench odds``): computed with icepool as fractions.

For each number of dice n the stock can give (1 to ``dice.count``) and each target t from 1
to the highest number card (under ``keep`` a later player rolls for the difference left, so
every target up to the highest card is useful): the chance that n dice sum to exactly t (a
HIT), to more than t (over) and to less (under). And for each target, the number of dice
with the best chance of a HIT.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool

from workbench.games.target_dice.schema import Variant
from workbench.sim.stats import ExactReport, exact, exact_text


@dataclass(frozen=True)
class Chances:
    """What n dice do against one target: every chance an exact Fraction."""

    hit: Fraction
    over: Fraction
    under: Fraction


@dataclass(frozen=True)
class Odds:
    """The exact odds of a variant's dice against every useful target."""

    variant: str
    dice: int
    sides: int
    targets: tuple[int, ...]  #: 1 to the highest number card
    cards: tuple[int, ...]  #: the number cards of the deck
    chances: dict[int, dict[int, Chances]]  #: dice taken -> target -> chances

    def best(self, target: int) -> int:
        """The number of dice with the best chance of hitting ``target`` exactly (the fewest, on a tie)."""
        return max(self.chances, key=lambda n: (self.chances[n][target].hit, -n))

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``: each chance as an exact fraction ``"n/d"`` with its percentage."""

        return {
            "variant": self.variant,
            "dice": {"count": self.dice, "sides": self.sides},
            "cards": list(self.cards),
            "by_dice": {
                str(n): {
                    str(t): {"hit": exact(c.hit), "over": exact(c.over), "under": exact(c.under)} for t, c in by_target.items()
                }
                for n, by_target in self.chances.items()
            },
            "best": {str(t): {"dice": self.best(t), "hit": exact(self.chances[self.best(t)][t].hit)} for t in self.targets},
        }


def odds(variant: Variant) -> Odds:
    """The exact odds of ``variant``'s dice against every target from 1 to its highest number card."""
    count, sides = variant.dice.count, variant.dice.sides
    cards = tuple(sorted(variant.deck.numbers))
    targets = tuple(range(1, cards[-1] + 1))
    chances: dict[int, dict[int, Chances]] = {}
    for n in range(1, count + 1):
        total = n @ icepool.d(sides)
        chances[n] = {
            t: Chances(
                Fraction(total.probability("==", t)), Fraction(total.probability(">", t)), Fraction(total.probability("<", t))
            )
            for t in targets
        }
    return Odds(variant.name, count, sides, targets, cards, chances)


def odds_tables(data: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The odds of :meth:`Odds.to_dict` as terminal tables: (title, headers, rows), one per outcome and the best dice."""

    dice = data["dice"]
    counts = list(data["by_dice"])
    cards = set(data["cards"])
    headers = ["target", *(f"{n} {'die' if n == '1' else 'dice'}" for n in counts)]
    targets = list(data["best"])
    what = f"{dice['count']} dice with {dice['sides']} sides"
    tables: list[tuple[str, list[str], list[list[str]]]] = []
    for outcome, title in (
        ("hit", "HIT: the dice sum to exactly the target"),
        ("over", "over: the dice sum to more than the target (points lost)"),
        ("under", "under: the dice sum to less than the target"),
    ):
        rows = [[_target(t, cards), *(_percent(data["by_dice"][n][t][outcome]) for n in counts)] for t in targets]
        tables.append((f"{data['variant']}: {title}; {what} (* a number card; exact fractions: --json)", headers, rows))
    tables.append(
        (
            "The best number of dice to hit each target from scratch (the fewest, on a tie)",
            ["target", "dice", "hit"],
            [[_target(t, cards), str(data["best"][t]["dice"]), exact_text(data["best"][t]["hit"])] for t in targets],
        )
    )
    return tables


def _percent(report: ExactReport) -> str:
    """A chance in a grid: a percentage with one decimal, never rounded to an impossible 0 or a sure 100.

    >>> [_percent(exact(Fraction(n, 46656))) for n in (0, 1, 7776, 46655, 46656)]
    ['0', '<0.1%', '16.7%', '>99.9%', '100%']
    """
    if report["fraction"] in ("0/1", "1/1"):
        return "0" if report["fraction"] == "0/1" else "100%"
    percent = report["percent"]
    return "<0.1%" if percent < 0.05 else ">99.9%" if percent > 99.95 else f"{percent:.1f}%"


def _target(target: str, cards: set[int]) -> str:
    return f"{target}*" if int(target) in cards else target


__all__ = ["Chances", "Odds", "odds", "odds_tables"]
