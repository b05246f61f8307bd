"""The engine plays every shipped variant to an end, deterministically, conserving tokens and cards."""

from pathlib import Path

import pytest

from workbench.games import FAMILIES, load_variant
from workbench.games.chance_it.bots import RandomBot
from workbench.games.chance_it.chance import RandomChance, bot_stream
from workbench.games.chance_it.engine import Game, compile_variant

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
VARIANTS = [p for p in sorted((ROOT / "variants").glob("*.yaml")) if load_variant(p).family is FAMILIES["chance-it"]]


def play(rules, players: int, seed: int, *, hook=None) -> Game:
    chance = RandomChance.streams(seed, 0)
    game = Game(rules, players, chance)
    game.after_step = hook
    game.play(chance, [RandomBot(bot_stream(seed, 0, seat)) for seat in range(players)])
    return game


def check_conservation(game: Game) -> None:
    """Rule 15: players plus supply hold each limited resource's total; every card is somewhere."""
    rules = game.rules
    for resource, total in enumerate(rules.supply):
        if total is not None:
            held = sum(p.res[resource] for p in game.players)
            assert held + game.supply[resource] == total, (game.round, resource)
    cards = game.pile + game.market + game.discard + [c for p in game.players for c in p.tableau]
    assert sorted(c.id for c in cards) == sorted(c.id for c in rules.deck)
    for player in game.players:
        assert min(player.res) >= 0
        if player.eliminated:
            assert player.res == [0, 0, 0] and not player.tableau and not player.forced_in


@pytest.mark.parametrize("variant", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_every_shipped_variant_plays_to_an_end_at_every_player_count(variant: Path) -> None:
    loaded = load_variant(variant)
    rules = compile_variant(loaded.variant)
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(5):
            game = play(rules, players, seed, hook=check_conservation)
            assert game.end_reason in ("stars", "last_standing", "all_eliminated", "max_rounds")
            assert 1 <= game.round <= rules.max_rounds
            check_conservation(game)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_seeded_game_of_the_base_variant_is_the_same_every_time(players: int) -> None:
    rules = compile_variant(load_variant(BASE).variant)
    first, second = play(rules, players, 11), play(rules, players, 11)
    assert first.events == second.events
    assert first.snapshot() == second.snapshot()
    assert play(rules, players, 12).events != first.events


def test_family_play_is_deterministic_for_a_seed() -> None:
    loaded = load_variant(BASE)
    family = FAMILIES["chance-it"]
    bots = [family.personas(loaded.variant)["random"]] * 4
    assert family.play(loaded.variant, 4, 5, bots, {}) == family.play(loaded.variant, 4, 5, bots, {})


def test_end_reason_agrees_with_the_final_state() -> None:
    rules = compile_variant(load_variant(BASE).variant)
    for seed in range(40):
        game = play(rules, 4, seed)
        alive = [p for p in game.players if not p.eliminated]
        if game.end_reason == "stars":
            assert any(p.stars >= rules.end_stars for p in alive)
        elif game.end_reason == "last_standing":
            assert [p.seat for p in alive] == game.winners
        elif game.end_reason == "all_eliminated":
            assert not alive and game.winners == []
        best = max((p.stars, p.hearts, p.coins) for p in alive) if alive else None
        assert all((game.players[s].stars, game.players[s].hearts, game.players[s].coins) == best for s in game.winners)


def test_player_count_outside_the_variant_is_refused() -> None:
    rules = compile_variant(load_variant(BASE).variant)
    with pytest.raises(ValueError, match="3 to 6 players"):
        Game(rules, 7, RandomChance.streams(0, 0))


def _variant_with(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {ROOT / 'tests' / 'scenarios' / 'variant-test.yaml'}\n{extra}")
    return path


def test_a_chain_of_market_granting_flash_cards_stops_at_the_limit(tmp_path: Path) -> None:
    from workbench.games.chance_it.engine import MAX_CHAINED_MARKETS

    path = _variant_with(
        tmp_path,
        "market: {face_up: 2}\nboard: {1: [market], 2: [market], 3: [market], 4: [market], 5: [market], 6: [market]}\n"
        "cards:\n  - {id: echo, name: Echo, when: flash, cost: 0, copies: 3, effects: [market, market, market]}\n",
    )
    rules = compile_variant(load_variant(path).variant)

    class Buyer:  # always buys when it can: the worst case for a chain
        def guide(self, view, options):
            return options[0]

        def market(self, view, options):
            return options[0]

        def use(self, view, options):
            return options[0]

    chance = RandomChance.streams(1, 0)
    game = Game(rules, 3, chance)
    game.play_round(chance, [Buyer()] * 3)
    events = game.events
    limits = [i for i, e in enumerate(events) if e["type"] == "market_limit"]
    assert limits, "the chain must hit the limit"
    # between the chain's first buy and its limit, exactly the allowed number of market actions happened
    first = next(i for i, e in enumerate(events) if e["type"] == "buy")
    actions = [e for e in events[first + 1 : limits[0]] if e["type"] in ("buy", "discard", "market_empty")]
    assert len(actions) == MAX_CHAINED_MARKETS
    check_conservation(game)


def test_no_reroll_once_every_participant_is_out(tmp_path: Path) -> None:
    path = _variant_with(tmp_path, "board: {1: [{lose: {hearts: 20}}, reroll_ones]}\n")
    rules = compile_variant(load_variant(path).variant)

    class In:
        def guide(self, view, options):
            return "in" if view.seat < 2 else "out"

        def market(self, view, options):
            return options[0]

        def use(self, view, options):
            return options[0]

    class Ones(RandomChance):
        def roll(self, count, sides):
            return [1] * count

    chance = Ones.streams(1, 0)
    game = Game(rules, 3, chance)
    game.play_round(chance, [In()] * 3)
    kinds = [e["type"] for e in game.events]
    assert kinds.count("eliminated") == 2 and "reroll" not in kinds
    assert game.end_reason == "last_standing" and game.winners == [2]
