"""Record a played game as a scenario script that replays it exactly.

A :class:`Recorder` wraps the game's chance source and each seat's decider; every draw
and every choice is written down at its named point, round by round. The script's
``expect:`` is the final state, so replaying it checks the engine against itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.games.chance_it.chance import ChanceSource
from workbench.games.chance_it.engine import BUY, DISCARD, Decider, MarketMove, View
from workbench.games.chance_it.rules import CardDef, Effects


class Recorder:
    """Writes down a game's chance and choices, as they happen: use :attr:`chance` and :attr:`deciders` in the game
    (the interpreter), or call the methods that note each one (the batch engine reads them from its log)."""

    def __init__(self, chance: ChanceSource | None = None, deciders: Sequence[Decider] = ()):
        self.market: list[str] = []
        self.rounds: list[dict[str, Any]] = []
        if chance is not None:
            self.chance: ChanceSource = _RecordingChance(self, chance)
        self.deciders = [_RecordingDecider(self, seat, decider) for seat, decider in enumerate(deciders)]

    @property
    def current(self) -> dict[str, Any]:
        """The round being recorded."""
        return self.rounds[-1]

    def dealt(self, market: list[str]) -> None:
        """The market pile as dealt, from the top."""
        self.market = market

    def laid_out(self, cards: list[str]) -> None:
        """Cards turned face up from the pile (a game's script gives the whole pile as dealt: nothing to add)."""

    def rolled(self, roll: list[int]) -> None:
        """A new round's roll, as the dice fell."""
        self.rounds.append({"roll": roll, "rerolls": [], "chance": [], "guides": {}, "choices": [], "reshuffles": []})

    def rerolled(self, value: int) -> None:
        self.current["rerolls"].append(value)

    def tested(self, value: int) -> None:
        self.current["chance"].append(value)

    def reshuffled(self, pile: list[str]) -> None:
        """A new market pile from the old discard, from the top."""
        self.current["reshuffles"].append(pile)

    def guided(self, seat: int, guide: str) -> None:
        self.current["guides"][seat] = guide

    def chose(self, seat: int, action: str, value: str | int) -> None:
        """A seat's choice: ``buy``, ``discard`` or ``use`` a card id, ``choose`` an option, ``target`` a seat."""
        self.current["choices"].append({"seat": seat, action: value})

    def script(self, expect: dict[str, Any], players: int, variant: str, seed: int, *, description: str) -> dict[str, Any]:
        """The scenario as plain data: the recorded rounds and ``expect``, the final state (``snapshot(events=False)``)."""
        rounds = []
        for entry in self.rounds:
            guides = [entry["guides"].get(seat) for seat in range(players)]
            rounds.append(
                {
                    key: value
                    for key, value in (
                        ("roll", entry["roll"]),
                        ("rerolls", entry["rerolls"]),
                        ("chance", entry["chance"]),
                        ("guides", guides),
                        ("choices", entry["choices"]),
                        ("reshuffles", entry["reshuffles"]),
                    )
                    if value or key in ("roll", "guides")
                }
            )
        return {
            "description": description,
            "variant": variant,
            "players": players,
            "seed": seed,
            "market": list(self.market),
            "rounds": rounds,
            "expect": expect,
        }


class _RecordingChance:
    def __init__(self, recorder: Recorder, inner: ChanceSource):
        self.recorder, self.inner = recorder, inner

    def deal(self, pile: list[CardDef]) -> None:
        self.inner.deal(pile)
        self.recorder.dealt([card.id for card in reversed(pile)])

    def reshuffle(self, pile: list[CardDef]) -> None:
        self.inner.reshuffle(pile)
        self.recorder.reshuffled([card.id for card in reversed(pile)])

    def lay_out(self, pile: list[CardDef], count: int) -> list[CardDef]:
        cards = self.inner.lay_out(pile, count)
        self.recorder.laid_out([card.id for card in cards])
        return cards

    def roll(self, count: int, sides: int) -> list[int]:
        roll = self.inner.roll(count, sides)
        self.recorder.rolled(list(roll))
        return roll

    def reroll(self, sides: int) -> int:
        value = self.inner.reroll(sides)
        self.recorder.rerolled(value)
        return value

    def test(self, sides: int) -> int:
        value = self.inner.test(sides)
        self.recorder.tested(value)
        return value


class _RecordingDecider:
    def __init__(self, recorder: Recorder, seat: int, inner: Decider):
        self.recorder, self.seat, self.inner = recorder, seat, inner

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        guide = self.inner.guide(view, options)
        self.recorder.guided(self.seat, guide)
        return guide

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        action, card_id = self.inner.market(view, options)
        self.recorder.chose(self.seat, BUY if action == BUY else DISCARD, card_id)
        return action, card_id

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        card = self.inner.use(view, options)
        self.recorder.chose(self.seat, "use", card.id)
        return card

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        index = self.inner.choose(view, options, texts)
        self.recorder.chose(self.seat, "choose", index)
        return index

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        seat = self.inner.target(view, options, taking)
        self.recorder.chose(self.seat, "target", seat)
        return seat
