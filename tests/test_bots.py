"""Bots only ever return legal choices, see only their view, and are deterministic for their stream."""

import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from workbench.games import load_variant
from workbench.games.chance_it.bots import EquilibriumBot, HeuristicBot, RandomBot, SearchBot, drawn, regret_matching
from workbench.games.chance_it.chance import BOTS, RandomChance, bot_stream, game_streams
from workbench.games.chance_it.effects import Effect, Valuer, compile_effects
from workbench.games.chance_it.engine import CHANCE_IT, GUIDES, IN, OUT, Game, View, compile_variant
from workbench.games.chance_it.invariants import Invariants
from workbench.games.chance_it.rules import COINS, HEARTS, STARS, Effects, Rules
from workbench.games.chance_it.schema import Persona, PersonaFile
from workbench.policies import make_bot

BUILTIN = PersonaFile.builtin_bots()

ROOT = Path(__file__).parent.parent
RULES = compile_variant(load_variant(ROOT / "variants" / "chance-it.yaml").variant)
#: The base game plus eight cards of the card language: steal (each, richest, choose), choose, if, for_each, ...
LAB = compile_variant(load_variant(ROOT / "variants" / "card-lab.yaml").variant)
PERSONAS = [
    BUILTIN["random"],
    BUILTIN["heuristic"],
    Persona(policy="heuristic", min_hearts=5, danger=3.0),
    Persona(policy="heuristic", chance_it=2.0, star=2.0, reserve=3),
    Persona(policy="search", playouts=2, depth=1),
    Persona(policy="equilibrium", playouts=1, depth=0, samples=1, iterations=10),  # 729 joint choices at 6 seats
]


class Checked:
    """Wraps a bot and asserts every answer is legal: one of the options it was offered, for ``choose``
    an index into the options, for ``target`` one of the seats offered. Counts the decisions of each kind.

    With ``state`` (a function of nothing returning the game's state), it also asserts that no
    decision changes the real game or its chance source (a search bot plays on copies).
    """

    def __init__(self, bot, state: Callable[[], Any] | None = None):
        self.bot = bot
        self.state = state
        self.asked = 0
        self.counts: Counter[str] = Counter()

    def _ask(self, kind, view, *args):
        assert isinstance(view, View) and not hasattr(view, "chance")
        before = self.state() if self.state is not None else None
        choice = getattr(self.bot, kind)(view, *args)
        if self.state is not None:
            assert self.state() == before, f"{kind} changed the real game"
        self.asked += 1
        self.counts[kind] += 1
        return choice

    def _check(self, kind, view, options):
        choice = self._ask(kind, view, options)
        assert choice in options, (kind, choice, options)
        return choice

    def guide(self, view, options):
        return self._check("guide", view, options)

    def market(self, view, options):
        return self._check("market", view, options)

    def use(self, view, options):
        return self._check("use", view, options)

    def choose(self, view, options, texts):
        assert isinstance(options, tuple) and options, options  # asked even for a single option, never for none
        assert len(texts) == len(options) and all(isinstance(t, str) and t for t in texts), texts  # each worded
        choice = self._ask("choose", view, options, texts)
        assert type(choice) is int and 0 <= choice < len(options), ("choose", choice, len(options))
        if len(options) > 1:
            self.counts["choose between several"] += 1
        return choice

    def target(self, view, options, taking):
        assert isinstance(options, tuple) and options and len(set(options)) == len(options), options
        assert view.seat not in options, (view.seat, options)  # never oneself
        assert not any(view.players[seat].eliminated for seat in options), options  # only players still in the game
        assert taking and all(r in (COINS, HEARTS, STARS) and n >= 0 for r, n in taking), taking
        choice = self._ask("target", view, options, taking)
        assert type(choice) is int and choice in options, ("target", choice, options)
        if len(options) > 1:
            self.counts["target among several"] += 1
        return choice


@pytest.mark.parametrize("rules", [RULES, LAB], ids=["base", "card-lab"])
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 6),
    table=st.lists(st.integers(0, len(PERSONAS) - 1), min_size=6, max_size=6),
)
def test_bots_only_return_legal_choices(rules: Rules, seed: int, players: int, table: list[int]) -> None:
    chance = RandomChance.streams(seed, 0)
    game = Game(rules, players, chance, log=False)
    deciders = [Checked(make_bot(PERSONAS[table[seat]], bot_stream(seed, 0, seat))) for seat in range(players)]
    game.play(chance, deciders)
    assert game.is_over and sum(d.asked for d in deciders) > 0


def test_a_bot_with_the_same_stream_makes_the_same_game() -> None:
    def play(seed: int) -> list:
        chance = RandomChance.streams(seed, 0)
        game = Game(RULES, 4, chance)
        persona = Persona(policy="search", playouts=3, depth=1)
        game.play(chance, [make_bot(persona if s == 0 else BUILTIN["heuristic"], bot_stream(seed, 0, s)) for s in range(4)])
        return game.events

    assert play(3) == play(3)


def test_lookahead_does_not_touch_the_real_game_or_its_chance() -> None:
    streams = game_streams(1, 0, 4)
    chance = RandomChance(streams)
    game = Game(RULES, 4, chance)
    bots = [SearchBot(Persona(policy="search", playouts=2, depth=2), streams.stream(BOTS + s)) for s in range(4)]
    state_before = None

    class Spy:
        def __init__(self, bot):
            self.bot = bot

        def guide(self, view, options):
            nonlocal state_before
            state_before = (game.snapshot(events=False), list(streams.states[:BOTS]))
            choice = self.bot.guide(view, options)
            assert (game.snapshot(events=False), list(streams.states[:BOTS])) == state_before
            return choice

        def market(self, view, options):
            before = (game.snapshot(events=False), list(streams.states[:BOTS]))
            choice = self.bot.market(view, options)
            assert (game.snapshot(events=False), list(streams.states[:BOTS])) == before
            return choice

        def use(self, view, options):
            return self.bot.use(view, options)

    game.play_round(chance, [Spy(b) for b in bots])
    assert state_before is not None


def test_heuristic_avoids_a_deadly_roll_and_takes_a_rich_one() -> None:
    model = HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, 0)).model(RULES)
    deadly = model.guide_values([2, 3, 3, 4, 5], coins=5, hearts=3, stars=4, tableau=(), alive=4)
    assert max(deadly, key=deadly.get) == "out"  # two 3s take 4 of its 3 hearts
    rich = model.guide_values([2, 4, 4, 4, 5], coins=5, hearts=6, stars=4, tableau=(), alive=4)
    assert max(rich, key=rich.get) != "out"  # three stars and a heart for the taking


def _guides_at_the_last_heart(dice: list[int]) -> list[str]:
    """What four heuristic bots, each at its last heart, choose with these dice."""
    game = Game(RULES, 4, RandomChance.streams(1, 0), log=False)
    for player in game.players:
        player.res[HEARTS] = 1
    game.dice = tuple(sorted(dice))
    bots = [HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, seat)) for seat in range(4)]
    return [bot.guide(game.views[seat], ("in", "out", "chance-it")) for seat, bot in enumerate(bots)]


def test_a_table_at_its_last_heart_does_not_all_play_out_into_the_all_out_rule() -> None:
    # Everybody OUT takes each player's last heart. Reading the others from their own holdings (level 1), each bot
    # sees that nobody else will play IN and takes its chance IN: the 1 is rerolled, a 2 gives a heart back.
    # (Judging the others from the dice alone, all four played OUT and were eliminated together.)
    assert "out" not in _guides_at_the_last_heart([1, 2, 3, 4, 5])
    assert _guides_at_the_last_heart([2, 2, 4, 5, 6]) == ["in"] * 4  # no 3: IN is safe


def test_a_sure_death_is_worth_nothing_whatever_the_round_would_have_brought() -> None:
    # Two 3s take 4 hearts: IN loses everything, its coin and market action too; OUT survives if anybody plays IN.
    assert _guides_at_the_last_heart([2, 3, 3, 5, 6]) == ["out"] * 4
    model = HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, 0)).model(RULES)
    values = model.guide_values([3, 3, 5, 6, 6], coins=0, hearts=1, stars=0, tableau=(), alive=4, others=[0.5] * 3)
    assert values["in"] == model.hearts_worth(0, 0.0)  # the loss of everything, and nothing else


def test_outcome_weighs_a_chance_test_by_its_odds() -> None:
    card = RULES.by_id["jackpot"]  # chance 4+: +2 stars, else -1 heart
    coins, hearts, stars, markets, knives, rerolls = Valuer(sides=6, dice=5).of(card.effects)
    assert (coins, markets, knives, rerolls) == (0, 0, 0, 0)
    assert stars == pytest.approx(2 * 3 / 6) and hearts == pytest.approx(-1 * 3 / 6)


def test_personas_are_validated() -> None:
    with pytest.raises(ValueError, match="random policy takes no parameters"):
        Persona(policy="random", min_hearts=3)
    with pytest.raises(ValueError, match="playouts only applies to the search or equilibrium policy"):
        Persona(policy="heuristic", playouts=3)
    with pytest.raises(ValueError, match="samples only applies to the equilibrium policy"):
        Persona(policy="search", samples=3)
    for field, bad in (("samples", 0), ("iterations", 0), ("samples", 1001), ("iterations", 100_001), ("samples", 2.5)):
        with pytest.raises(ValueError, match=field):
            Persona.model_validate({"policy": "equilibrium", field: bad})


# --- effect decisions (issue 10): choose an option, target a victim --------------------------------------------------

#: The policies' effect decisions, the search bot with a small budget (the equilibrium bot's are the search bot's own
#: methods: test_the_equilibrium_bot_decides_all_but_its_guide_as_the_search_bot).
POLICIES = {
    "random": BUILTIN["random"],
    "heuristic": BUILTIN["heuristic"],
    "search": Persona(policy="search", playouts=2, depth=1),
}
#: Seeds of the card-lab games each policy plays at every table size from 3 to 6.
LAB_SEEDS = range(6)
EFFECT_LIST = TypeAdapter(tuple[Effect, ...])


def play_lab(persona: Persona, players: int, seed: int) -> tuple[Game, Counter[str]]:
    """One seeded card-lab game, every seat the same policy behind :class:`Checked`, the invariants after every step.

    Every decision is also checked to leave the real game and its chance source as they were.
    """
    streams = game_streams(seed, players, players)
    chance = RandomChance(streams)
    game = Game(LAB, players, chance, log=True)
    checker = game.after_step = Invariants(game)

    def state() -> Any:
        return game.snapshot(events=False), list(streams.states[:BOTS])

    deciders = [Checked(make_bot(persona, bot_stream(seed, players, seat)), state) for seat in range(players)]
    game.play(chance, deciders)
    checker(game)
    assert game.is_over
    return game, sum((d.counts for d in deciders), Counter())


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_every_bot_answers_the_card_labs_effect_decisions_legally(policy: str) -> None:
    """Fork (choose) and Duel (steal from: choose) ask effect decisions; every bot answers them legally.

    Fails when no decision of either kind was asked (or none with a real choice between
    several options), so the test cannot pass by never reaching them.
    """
    counts: Counter[str] = Counter()
    for players in range(3, 7):
        for seed in LAB_SEEDS:
            game, asked = play_lab(POLICIES[policy], players, seed)
            events = Counter(event["type"] for event in game.events or ())
            assert events["choose"] == asked["choose"]  # each choice asked was applied, and logged once
            assert events["steal"] >= asked["target"]  # each victim picked was robbed
            counts += asked
    assert counts["choose"] > 0 and counts["target"] > 0, counts
    assert counts["choose between several"] > 0 and counts["target among several"] > 0, counts


def compiled(*options: list[Any]) -> tuple[Effects, ...]:
    """The options of a ``choose`` effect, compiled for the card lab's dice."""
    return tuple(compile_effects(EFFECT_LIST.validate_python(option), LAB.sides) for option in options)


def position(*holdings: tuple[int, int, int], players: int = 4) -> View:
    """Seat 0's view of a card-lab table where seat i holds ``holdings[i]`` (coins, hearts, stars)."""
    game = Game(LAB, players, RandomChance.streams(0, 0), log=False)
    for player, held in zip(game.players, holdings):
        player.res = list(held)
    return game.views[0]


#: Seat 0 with plenty of everything.
COMFORTABLE = (5, 6, 4)
HEART = [{"gain": {"hearts": 1}}]
LOSE_THREE_STARS = [{"lose": {"stars": 3}}]
TWO_COINS = [{"gain": {"coins": 2}}]


def test_the_heuristic_chooses_the_better_option() -> None:
    """It takes the option worth most now by its values (star 1, heart 0.4, coin 0.25), hearts dearer below min_hearts (3)."""
    bot = HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, 0))
    view = position(COMFORTABLE)
    assert bot.choose(view, compiled(HEART, LOSE_THREE_STARS)) == 0
    assert bot.choose(view, compiled(LOSE_THREE_STARS, HEART)) == 1  # by value, not by position
    assert bot.choose(view, LAB.by_id["fork"].effects[0][1][0]) == 0  # Fork: +1 heart beats +2 coins and -1 star
    # two coins (0.5) beat a heart (0.4) with hearts to spare, not with one heart left
    assert bot.choose(view, compiled(TWO_COINS, HEART)) == 0
    assert bot.choose(position((5, 1, 4)), compiled(TWO_COINS, HEART)) == 1
    # never the option that costs the last heart, whatever comes after it
    assert bot.choose(position((5, 1, 4)), compiled([{"lose": {"hearts": 1}}, {"gain": {"stars": 5}}], [])) == 1


def test_the_heuristic_robs_the_victim_that_gives_most() -> None:
    """Its rule: what the victim can give (at most the amount) at the persona's values, plus 2 stars' worth
    for knocking the victim out and 0.1 star per star the victim holds (rob the leader); the first of equals."""
    bot = HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, 0))
    two_coins = ((COINS, 2),)
    assert bot.target(position(COMFORTABLE, (1, 5, 2), (6, 5, 2), (0, 5, 2)), (1, 2, 3), two_coins) == 2  # the most coins
    # what a victim gives is capped by the amount: among those who can give it all, the leader on stars
    assert bot.target(position(COMFORTABLE, (2, 5, 0), (9, 5, 0), (2, 5, 4)), (1, 2, 3), two_coins) == 3
    # equals: the first offered (the engine offers them in turn order from the player's left)
    assert bot.target(position(COMFORTABLE, (3, 5, 1), (3, 5, 1), (3, 5, 1)), (2, 3, 1), two_coins) == 2
    duel = LAB.by_id["duel"].effects[0][1]
    assert duel == ("choose", ((HEARTS, 1),))
    taking = duel[1]
    # Duel steals a heart: a victim with one heart left is knocked out, which beats robbing the leader ...
    assert bot.target(position(COMFORTABLE, (0, 4, 6), (0, 1, 0), (0, 5, 2)), (1, 2, 3), taking) == 2
    # ... and with nobody to knock out, the leader
    assert bot.target(position(COMFORTABLE, (0, 4, 6), (0, 3, 0), (0, 5, 2)), (1, 2, 3), taking) == 1


def test_the_search_bot_weighs_effect_decisions_by_playouts() -> None:
    """With depth 0 a playout scores the position right after the decision: the better option, the richer victim."""
    bot = SearchBot(Persona(policy="search", playouts=3, depth=0), bot_stream(0, 0, 0))
    view = position(COMFORTABLE, (3, 5, 1), (3, 5, 1), (3, 5, 1))
    assert bot.choose(view, compiled(LOSE_THREE_STARS, [{"gain": {"stars": 3}}])) == 1
    assert bot.choose(view, compiled([{"gain": {"stars": 3}}], LOSE_THREE_STARS)) == 0
    view = position(COMFORTABLE, (0, 5, 1), (5, 5, 1), (0, 5, 1))
    assert bot.target(view, (1, 2, 3), ((COINS, 2),)) == 2  # only seat 2 has coins to give
    assert bot.target(view, (3, 2, 1), ((COINS, 2),)) == 2


#: The two-seat position of ``tests/data/matching-pennies.yaml`` (its comments work it out): seat 0 wins when the guides
#: differ, seat 1 when they match, OUT against IN or CHANCE IT.
PENNIES = compile_variant(load_variant(ROOT / "tests" / "data" / "matching-pennies.yaml").variant)


def pennies_round(deciders: list[Any], seed: int = 0) -> Game:
    """The pennies position's first round played: seat 0 holds 5 coins and 1 heart, seat 1 no coin and 3 hearts."""
    chance = RandomChance.streams(seed, 0)
    game = Game(PENNIES, 2, chance, log=False)
    game.players[0].res, game.players[1].res = [5, 1, 0], [0, 3, 0]
    game.play_round(chance, deciders)
    return game


class Fixed:
    """A seat that plays one guide."""

    def __init__(self, guide: str):
        self.guide = lambda view, options: guide


class Mixing:
    """Seat 0's equilibrium bot, keeping the mixed strategy it drew its guide from."""

    def __init__(self, bot: EquilibriumBot):
        self.bot, self.mix = bot, [0.0] * 3

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        self.mix = self.bot.mix(view)
        return self.bot.guide(view, options)


def test_the_pennies_position_punishes_every_pure_guide() -> None:
    """The hand-built position, played by the engine for each pair of guides: a seat that always plays one guide loses
    every game to a rival who answers it."""
    for first in GUIDES:
        for second in GUIDES:
            game = pennies_round([Fixed(first), Fixed(second)])
            assert game.winners == ([0] if (first == OUT) != (second == OUT) else [1]), (first, second)


def test_the_equilibrium_bot_mixes_where_a_pure_guide_is_punished() -> None:
    """In the pennies position the search and heuristic bots play one guide for sure, which a rival who knows it beats
    every time; the equilibrium bot plays OUT about half the time (the position's equilibrium: 1/2), so that no answer
    wins more than about half its games, and draws its guides from that mix."""
    persona = Persona(policy="equilibrium", samples=2, depth=0)
    seat = Mixing(EquilibriumBot(persona, bot_stream(0, 0, 0)))
    pennies_round([seat, Fixed(IN)])
    out, played_in = seat.mix[GUIDES.index(OUT)], seat.mix[GUIDES.index(IN)] + seat.mix[GUIDES.index(CHANCE_IT)]
    assert sum(seat.mix) == pytest.approx(1.0) and abs(out - 0.5) < 0.02, seat.mix
    best_answer = max(out, played_in)  # seat 1 matches whichever of OUT or not-OUT seat 0 plays more
    assert best_answer < 0.52
    for pure in (SearchBot(Persona(policy="search", playouts=2, depth=0), bot_stream(0, 0, 0)),
                 HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, 0))):  # fmt: skip
        chosen = {pennies_round([pure, Fixed(IN)], seed).players[0].guide for seed in range(5)}
        assert len(chosen) == 1, chosen  # one guide for sure: an answer that matches it wins every game
    drawn_out = sum(pennies_round([EquilibriumBot(persona, bot_stream(1, i, 0)), Fixed(IN)]).players[0].guide == OUT
                    for i in range(200))  # fmt: skip
    assert 60 <= drawn_out <= 140, drawn_out  # 200 draws at 1/2: 100, sd 7


def test_the_equilibrium_bot_decides_all_but_its_guide_as_the_search_bot() -> None:
    for decision in ("market", "use", "choose", "target"):
        assert getattr(EquilibriumBot, decision) is getattr(SearchBot, decision), decision
    assert EquilibriumBot.guide is not SearchBot.guide


def test_regret_matching_approaches_the_equilibrium_of_a_known_game() -> None:
    """Two seats, zero-sum: seat 0 gets 2, -1, -1, 1 for (0, 0), (0, 1), (1, 0), (1, 1); both equilibrium strategies play
    option 0 with probability 2/5 (solving 2p - (1 - p) = -p + (1 - p)). A dominated option fades out (a prisoner's
    dilemma), and one-option seats (forced IN) are played for sure."""
    game = [[2, -1], [-1, 1]]
    strategies = regret_matching([[game[a][b], -game[a][b]] for a in range(2) for b in range(2)], [2, 2], 5000)
    assert all(abs(s[0] - 0.4) < 0.015 for s in strategies), strategies
    dilemma = [[3, 3], [0, 5], [5, 0], [1, 1]]
    assert all(s[1] > 0.99 for s in regret_matching(dilemma, [2, 2], 1000))
    forced = regret_matching([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [1, 3, 1], 100)
    assert forced[0] == [1.0] and forced[2] == [1.0] and forced[1][1] > 0.9


def test_a_guide_is_drawn_from_its_share_of_the_53_bit_draws() -> None:
    """``drawn`` reads a draw's top 53 bits as a fraction and walks the running shares."""
    assert [drawn([0.25, 0.5, 0.25], (x << 11)) for x in (0, 2**51 - 1, 2**51, 3 * 2**51 - 1, 3 * 2**51)] == [0, 0, 1, 1, 2]
    assert drawn([0.0, 1.0, 0.0], 0) == 1 and drawn([0.5, 0.5, 0.0], 2**64 - 1) == 1


def test_the_random_bot_decides_uniformly() -> None:
    bot = RandomBot(bot_stream(5, 0, 0))
    view = position(COMFORTABLE)
    options = compiled(HEART, TWO_COINS, LOSE_THREE_STARS)
    chosen = Counter(bot.choose(view, options) for _ in range(3000))
    assert set(chosen) == {0, 1, 2} and all(900 <= n <= 1100 for n in chosen.values()), chosen
    targets = Counter(bot.target(view, (3, 1, 2), ((COINS, 1),)) for _ in range(3000))
    assert set(targets) == {1, 2, 3} and all(900 <= n <= 1100 for n in targets.values()), targets


def in_round(view: View, guides: tuple[str, ...], dice: tuple[int, ...]) -> View:
    """The same view during an action round: these guides revealed, these dice showing."""
    game = view._game
    for player, guide in zip(game.players, guides):
        player.guide = guide
    game.dice = dice
    return view


def test_the_heuristic_values_an_option_as_it_would_apply_now() -> None:
    """A choice is valued at this moment, not on average: losses held to what is held, tests and dice as
    they stand, steals by what the others in the round hold."""
    bot = HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, 0))
    everyone_in = ("in", "in", "in", "in")
    # Fork without stars: -1 star costs nothing, so +2 coins (0.5) beats +1 heart (0.4)
    assert bot.choose(in_round(position((5, 6, 0)), everyone_in, (2, 2, 3, 4, 6)), LAB.by_id["fork"].effects[0][1][0]) == 1
    # three 5s showing: +1 star for each 5 is worth 3 stars, more than 2 stars
    view = in_round(position(COMFORTABLE), everyone_in, (1, 5, 5, 5, 6))
    each_five = [{"for_each": {"face": 5, "effects": [{"gain": {"stars": 1}}]}}]
    assert bot.choose(view, compiled([{"gain": {"stars": 2}}], each_five)) == 1
    # a test that does not hold gives its else: with 6 hearts, "if at most 2 hearts: +3 stars" gives nothing
    low = [{"if": {"test": {"hearts": {"at_most": 2}}, "then": [{"gain": {"stars": 3}}]}}]
    assert bot.choose(view, compiled(low, [{"gain": {"stars": 1}}])) == 1
    assert bot.choose(in_round(position((5, 2, 4)), everyone_in, (1, 5, 5, 5, 6)), compiled(low, [{"gain": {"stars": 1}}])) == 0
    # a steal from players without coins gives nothing; from seat 2, who played IN with 9 coins, it gives 2
    steal = [{"steal": {"coins": 2}}]
    poor = in_round(position(COMFORTABLE, (0, 5, 1), (0, 5, 1), (0, 5, 1)), everyone_in, (1, 2, 3, 4, 6))
    assert bot.choose(poor, compiled(steal, [{"gain": {"coins": 1}}])) == 1
    rich = in_round(position(COMFORTABLE, (0, 5, 1), (9, 5, 1), (0, 5, 1)), everyone_in, (1, 2, 3, 4, 6))
    assert bot.choose(rich, compiled(steal, [{"gain": {"coins": 1}}])) == 0
    # ... but not when seat 2 played OUT: it is not in the round
    out = in_round(position(COMFORTABLE, (0, 5, 1), (9, 5, 1), (0, 5, 1)), ("in", "in", "out", "in"), (1, 2, 3, 4, 6))
    assert bot.choose(out, compiled(steal, [{"gain": {"coins": 1}}])) == 1


def test_a_heuristic_with_a_temperature_draws_its_choice_by_exp_of_value_over_temperature() -> None:
    """A quantal-response player: option i with chance exp(v_i / T) / sum_j exp(v_j / T), one draw of its stream; at
    temperature 0 the option worth most, as always."""
    view = position(COMFORTABLE)
    options = compiled(TWO_COINS, HEART, LOSE_THREE_STARS)
    cold = HeuristicBot(BUILTIN["heuristic"], bot_stream(0, 0, 0))
    values = cold.choose_values(view, options)
    assert values == pytest.approx([2.9, 2.8, -0.6])  # the six hearts held count too (6 x 0.4)
    assert {cold.choose(view, options) for _ in range(50)} == {0}
    warm = HeuristicBot(Persona(policy="heuristic", temperature=0.25), bot_stream(0, 0, 0))
    draws = Counter(warm.choose(view, options) for _ in range(4000))
    expected = [math.exp(v / 0.25) for v in values]
    shares = [e / sum(expected) for e in expected]  # 0.599, 0.401, 0.000002
    for option, share in enumerate(shares):
        assert abs(draws[option] / 4000 - share) < 4 * math.sqrt(share * (1 - share) / 4000) + 1e-3
    assert draws[2] == 0  # a third of a millionth: not in 4,000 draws
    with pytest.raises(ValueError, match="temperature only applies to the heuristic policy"):
        Persona(policy="search", temperature=0.5)
    family = load_variant(ROOT / "variants" / "chance-it.yaml").family
    assert family.batched is not None
    reason = family.batched.batch_blocker(load_variant(ROOT / "variants" / "chance-it.yaml").variant, [warm.persona])
    assert (
        reason == "a heuristic bot with a temperature (it draws among its options by their values) plays only in the interpreter"
    )
