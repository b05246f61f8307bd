"""A Hypothesis state machine that plays generated variants one round at a time.

Every decision (guides, market moves, which card to use, effect choices and victims) and every die (rolls, rerolls,
chance tests) is drawn from Hypothesis data, and the market shuffles come from
``st.randoms()``, so a failing game shrinks to the shortest sequence of rounds and the
simplest choices and dice that still break a rule. The engine's invariant checker runs
after every step (``after_step``) and again as an ``@invariant`` after every round,
together with properties of the game as a whole.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import strategies
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from workbench.games.chance_it.chance import top
from workbench.games.chance_it.engine import Game, MarketMove, View, compile_variant
from workbench.games.chance_it.invariants import Invariants
from workbench.games.chance_it.rules import CardDef, Effects
from workbench.games.chance_it.schema import Variant


def rerolls(sides: int) -> st.SearchStrategy[int]:
    """A die that shrinks towards 2, not 1: the engine rerolls a 1 again, so a shrinker aiming at 1 never stops."""
    return st.integers(0, sides - 1).map(lambda i: i + 2 if i < sides - 1 else 1)


class DrawnChance:
    """A chance source answering from Hypothesis: dice from the current rule's data, shuffles from a Hypothesis random."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.data: Any = None  # the st.data() of the rule being run

    def deal(self, pile: list) -> None:
        self.rng.shuffle(pile)

    reshuffle = deal

    def lay_out(self, pile: list, count: int) -> list:
        return top(pile, count)

    def roll(self, count: int, sides: int) -> list[int]:
        return self.data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count), label="roll")

    def reroll(self, sides: int) -> int:
        return self.data.draw(rerolls(sides), label="reroll")

    def test(self, sides: int) -> int:
        return self.data.draw(st.integers(1, sides), label="chance test")


class DrawnDecider:
    """A seat whose every choice is drawn from the legal options."""

    def __init__(self, chance: DrawnChance):
        self.chance = chance  # shares the current rule's data

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        return self.chance.data.draw(st.sampled_from(options), label=f"seat {view.seat} guide")

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        return self.chance.data.draw(st.sampled_from(options), label=f"seat {view.seat} market")

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        return self.chance.data.draw(st.sampled_from(options), label=f"seat {view.seat} use")

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        return self.chance.data.draw(st.integers(0, len(options) - 1), label=f"seat {view.seat} choose")

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        return self.chance.data.draw(st.sampled_from(options), label=f"seat {view.seat} target")


class ChanceItMachine(RuleBasedStateMachine):
    """One game of a generated variant, played round by round with drawn decisions and dice."""

    @initialize(game=strategies.games(), rng=st.randoms(use_true_random=False))
    def set_up(self, game: tuple[dict, int], rng: random.Random) -> None:
        raw, players = game
        self.variant = Variant.model_validate(raw)
        self.chance = DrawnChance(rng)
        self.game = Game(compile_variant(self.variant), players, self.chance, log=True)
        self.checker = self.game.after_step = Invariants(self.game)
        self.deciders = [DrawnDecider(self.chance) for _ in range(players)]
        self.last_round = 0
        self.out: set[int] = set()
        self.living = players

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def play_a_round(self, data: st.DataObject) -> None:
        self.chance.data = data
        before = self.game.round
        self.game.play_round(self.chance, self.deciders)
        assert self.game.round == before + 1

    @precondition(lambda self: self.game.is_over)
    @rule()
    def a_finished_game_plays_no_more(self) -> None:
        events = len(self.game.events)
        with pytest.raises(RuntimeError):
            self.game.play_round(self.chance, self.deciders)
        assert len(self.game.events) == events

    @invariant()
    def each_seat_sees_the_table(self) -> None:
        """What each seat sees is the state: its own and the public part (always possible, even after the end)."""
        game = self.game
        snapshot = game.snapshot(events=False)
        for seat, view in enumerate(game.views):
            assert view.seat == seat and view.me.seat == seat
            assert view.round == game.round and view.starting_player == game.starting_player
            assert view.guides is not None  # revealed outside the guide choice
            assert list(view.market) == game.market and view.pile_size == snapshot["pile"]
            for shown, held in zip(view.players, snapshot["players"]):
                assert (shown.coins, shown.hearts, shown.stars) == (held["coins"], held["hearts"], held["stars"])
                assert [card.id for card in shown.tableau] == held["cards"] and shown.eliminated == held["eliminated"]

    @invariant()
    def the_rules_hold(self) -> None:
        self.checker.check()
        assert self.game.round <= self.variant.end.max_rounds
        if self.game.round == self.variant.end.max_rounds:
            assert self.game.is_over

    @invariant()
    def the_round_counter_only_grows(self) -> None:
        assert self.game.round >= self.last_round
        self.last_round = self.game.round

    @invariant()
    def eliminated_players_stay_eliminated(self) -> None:
        out = {p.seat for p in self.game.players if p.eliminated}
        assert self.out <= out, f"seats {sorted(self.out - out)} came back"
        self.out = out

    @invariant()
    def the_living_never_grow(self) -> None:
        living = sum(1 for p in self.game.players if not p.eliminated)
        assert living == self.game.living
        assert living <= self.living
        self.living = living


ChanceItMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=20, deadline=None)
TestChanceIt = pytest.mark.slow(ChanceItMachine.TestCase)
