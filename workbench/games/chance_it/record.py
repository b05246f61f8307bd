"""Record a played game as a scenario script that replays it exactly.

A :class:`Recorder` wraps the game's chance source and each seat's decider; every draw
and every choice is written down at its named point, round by round. The script's
``expect:`` is the final state, so replaying it checks the engine against itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.games.chance_it.chance import ChanceSource
from workbench.games.chance_it.engine import BUY, Decider, Game, MarketMove, View
from workbench.games.chance_it.rules import CardDef, Effects


class Recorder:
    """Writes down a game's chance and choices; use :meth:`chance` and :meth:`deciders` in the game."""

    def __init__(self, chance: ChanceSource, deciders: Sequence[Decider]):
        self.inner = chance
        self.market: list[str] = []
        self.rounds: list[dict[str, Any]] = []
        self.chance = _RecordingChance(self)
        self.deciders = [_RecordingDecider(self, seat, decider) for seat, decider in enumerate(deciders)]

    @property
    def current(self) -> dict[str, Any]:
        """The round being recorded."""
        return self.rounds[-1]

    def script(self, game: Game, variant: str, seed: int, *, description: str) -> dict[str, Any]:
        """The scenario as plain data: the recorded rounds and the final state as ``expect``."""
        rounds = []
        for entry in self.rounds:
            guides = [entry["guides"].get(seat) for seat in range(len(game.players))]
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
        expect = game.snapshot(events=False)
        return {
            "description": description,
            "variant": variant,
            "players": len(game.players),
            "seed": seed,
            "market": list(self.market),
            "rounds": rounds,
            "expect": expect,
        }


class _RecordingChance:
    def __init__(self, recorder: Recorder):
        self.recorder = recorder

    def deal(self, pile: list[CardDef]) -> None:
        self.recorder.inner.deal(pile)
        self.recorder.market = [card.id for card in reversed(pile)]

    def reshuffle(self, pile: list[CardDef]) -> None:
        self.recorder.inner.reshuffle(pile)
        self.recorder.current["reshuffles"].append([card.id for card in reversed(pile)])

    def roll(self, count: int, sides: int) -> list[int]:
        roll = self.recorder.inner.roll(count, sides)
        self.recorder.rounds.append(
            {"roll": list(roll), "rerolls": [], "chance": [], "guides": {}, "choices": [], "reshuffles": []}
        )
        return roll

    def reroll(self, sides: int) -> int:
        value = self.recorder.inner.reroll(sides)
        self.recorder.current["rerolls"].append(value)
        return value

    def test(self, sides: int) -> int:
        value = self.recorder.inner.test(sides)
        self.recorder.current["chance"].append(value)
        return value


class _RecordingDecider:
    def __init__(self, recorder: Recorder, seat: int, inner: Decider):
        self.recorder, self.seat, self.inner = recorder, seat, inner

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        guide = self.inner.guide(view, options)
        self.recorder.current["guides"][self.seat] = guide
        return guide

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        action, card_id = self.inner.market(view, options)
        self.recorder.current["choices"].append({"seat": self.seat, "buy" if action == BUY else "discard": card_id})
        return action, card_id

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        card = self.inner.use(view, options)
        self.recorder.current["choices"].append({"seat": self.seat, "use": card.id})
        return card

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        index = self.inner.choose(view, options, texts)
        self.recorder.current["choices"].append({"seat": self.seat, "choose": index})
        return index

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        seat = self.inner.target(view, options, taking)
        self.recorder.current["choices"].append({"seat": self.seat, "target": seat})
        return seat
