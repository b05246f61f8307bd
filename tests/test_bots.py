"""Bots only ever return legal choices, see only their view, and are deterministic for their stream."""

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games import load_variant
from workbench.games.chance_it.bots import BUILTIN, HeuristicBot, SearchBot, make_bot
from workbench.games.chance_it.chance import RandomChance
from workbench.games.chance_it.effects import Valuer
from workbench.games.chance_it.engine import Game, View, compile_variant
from workbench.games.chance_it.schema import Persona
from workbench.sim.seeding import stream

ROOT = Path(__file__).parent.parent
RULES = compile_variant(load_variant(ROOT / "variants" / "chance-it.yaml").variant)
PERSONAS = [
    BUILTIN["random"],
    BUILTIN["heuristic"],
    Persona(policy="heuristic", min_hearts=5, danger=3.0),
    Persona(policy="heuristic", chance_it=2.0, star=2.0, reserve=3),
    Persona(policy="search", playouts=2, depth=1),
]


class Checked:
    """Wraps a bot and asserts every answer is one of the options it was offered."""

    def __init__(self, bot):
        self.bot = bot
        self.asked = 0

    def _check(self, kind, view, options):
        assert isinstance(view, View) and not hasattr(view, "chance")
        choice = getattr(self.bot, kind)(view, options)
        assert choice in options, (kind, choice, options)
        self.asked += 1
        return choice

    def guide(self, view, options):
        return self._check("guide", view, options)

    def market(self, view, options):
        return self._check("market", view, options)

    def use(self, view, options):
        return self._check("use", view, options)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 6),
    table=st.lists(st.integers(0, len(PERSONAS) - 1), min_size=6, max_size=6),
)
def test_bots_only_return_legal_choices(seed: int, players: int, table: list[int]) -> None:
    chance = RandomChance(random.Random(seed))
    game = Game(RULES, players, chance, log=False)
    deciders = [Checked(make_bot(PERSONAS[table[seat]], random.Random(seed + seat))) for seat in range(players)]
    game.play(chance, deciders)
    assert game.is_over and sum(d.asked for d in deciders) > 0


def test_a_bot_with_the_same_stream_makes_the_same_game() -> None:
    def play(seed: int) -> list:
        chance = RandomChance(stream(seed, 0, "chance"))
        game = Game(RULES, 4, chance)
        persona = Persona(policy="search", playouts=3, depth=1)
        game.play(chance, [make_bot(persona if s == 0 else BUILTIN["heuristic"], stream(seed, 0, "bot", s)) for s in range(4)])
        return game.events

    assert play(3) == play(3)


def test_lookahead_does_not_touch_the_real_game_or_its_chance() -> None:
    chance = RandomChance(random.Random(1))
    game = Game(RULES, 4, chance)
    bots = [SearchBot(Persona(policy="search", playouts=2, depth=2), random.Random(s)) for s in range(4)]
    state_before = None

    class Spy:
        def __init__(self, bot):
            self.bot = bot

        def guide(self, view, options):
            nonlocal state_before
            state_before = (game.snapshot(events=False), chance.rng.getstate())
            choice = self.bot.guide(view, options)
            assert (game.snapshot(events=False), chance.rng.getstate()) == state_before
            return choice

        def market(self, view, options):
            before = (game.snapshot(events=False), chance.rng.getstate())
            choice = self.bot.market(view, options)
            assert (game.snapshot(events=False), chance.rng.getstate()) == before
            return choice

        def use(self, view, options):
            return self.bot.use(view, options)

    game.play_round(chance, [Spy(b) for b in bots])
    assert state_before is not None


def test_heuristic_avoids_a_deadly_roll_and_takes_a_rich_one() -> None:
    model = HeuristicBot(BUILTIN["heuristic"], random.Random(0)).model(RULES)
    deadly = model.guide_values([2, 3, 3, 4, 5], coins=5, hearts=3, stars=4, tableau=(), alive=4)
    assert max(deadly, key=deadly.get) == "out"  # two 3s take 4 of its 3 hearts
    rich = model.guide_values([2, 4, 4, 4, 5], coins=5, hearts=6, stars=4, tableau=(), alive=4)
    assert max(rich, key=rich.get) != "out"  # three stars and a heart for the taking


def test_outcome_weighs_a_chance_test_by_its_odds() -> None:
    card = RULES.by_id["jackpot"]  # chance 4+: +2 stars, else -1 heart
    coins, hearts, stars, markets, knives, rerolls = Valuer(sides=6, dice=5).of(card.effects)
    assert (coins, markets, knives, rerolls) == (0, 0, 0, 0)
    assert stars == pytest.approx(2 * 3 / 6) and hearts == pytest.approx(-1 * 3 / 6)


def test_personas_are_validated() -> None:
    with pytest.raises(ValueError, match="random policy takes no parameters"):
        Persona(policy="random", min_hearts=3)
    with pytest.raises(ValueError, match="only apply to the search policy"):
        Persona(policy="heuristic", playouts=3)
