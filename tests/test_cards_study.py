"""`workbench cards`: card strength by intervention (a seat is given the card), on paired games."""

import json
import math
from pathlib import Path

from typer.testing import CliRunner

from workbench import api, studies
from workbench.cli import app
from workbench.games.chance_it.chance import RandomChance, bot_stream
from workbench.games.chance_it.engine import Game, compile_variant
from workbench.games.chance_it.sim import Gift
from workbench.policies import make_bot
from workbench.sim.paired import Estimate
from workbench.sim.runner import Local

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
LAB = ROOT / "variants" / "card-lab.yaml"
runner = CliRunner()
PLANTED = """\
- {id: star-shower, name: Star Shower, when: flash, cost: 1, effects: [{gain: {stars: 5}}]}
- {id: copper, name: Copper, when: die-3, cost: 6, effects: [{gain: {coins: 1}}]}
"""


def planted(folder: Path) -> Path:
    path = folder / "planted.yaml"
    path.write_text(PLANTED)
    return path


def test_a_gift_goes_to_one_seat_before_the_first_round(tmp_path: Path) -> None:
    family = api.load_variant(BASE).family.studied
    assert family is not None
    loaded, ids = family.with_cards(BASE, planted(tmp_path))
    assert ids == ["star-shower", "copper"]
    variant = loaded.variant
    rules = compile_variant(variant)
    chance = RandomChance.streams(1, 0)
    game = Game(rules, 4, chance, log=False)
    Gift(card="star-shower").give(game, 2, chance, [])
    Gift(card="copper", coins=3).give(game, 1, chance, [])
    assert [p.res for p in game.players] == [[8, 8, 0], [11, 8, 0], [8, 8, 5], [8, 8, 0]]  # flash: applied at once
    assert [c.id for c in game.players[1].tableau] == ["copper"] and game.players[2].tableau == []
    assert len(game.pile) + len(game.market) == len(rules.deck)  # an extra copy: the pile is as it was


def test_planted_cards_are_flagged_too_strong_and_too_weak(tmp_path: Path) -> None:
    result = studies.cards(BASE, extra=planted(tmp_path), players=4, games=1500, seed=1, out=tmp_path / "out")
    verdicts = {c.card.id: c for c in result.cards}
    assert set(verdicts) == {"star-shower", "copper"}  # --with studies the file's cards
    assert verdicts["star-shower"].flag == "too strong", verdicts["star-shower"].evidence
    assert verdicts["copper"].flag == "too weak", verdicts["copper"].evidence
    assert result.coins == 6  # the dearest card of the market (copper)
    assert result.coin_effect["win_rate"].low > 0
    body = json.loads((tmp_path / "out" / "cards.json").read_text())
    assert body["with"].endswith("planted.yaml") and body["method"]["rule"] == studies.CARD_RULE
    assert {c["source"] for c in body["cards"]} == {body["with"]}
    assert "observational" in body["observed"]["about"] and "star-shower" in body["observed"]["cards"]
    assert "<svg" in (tmp_path / "out" / "cards.html").read_text()
    assert BASE.read_text().count("star-shower") == 0  # no file was edited


def test_a_card_the_bots_never_buy_gets_a_measured_effect() -> None:
    result = studies.cards(LAB, only=["mugger"], players=4, games=300, seed=2)
    assert result.observed["mugger"]["bought"] == 0  # the bots never buy it ...
    (mugger,) = result.cards
    win = mugger.effects["win_rate"]
    assert win.n == 300 and win.se > 0 and win.low < win.value < win.high  # ... yet its effect is measured


def test_the_same_study_whatever_the_number_of_workers(tmp_path: Path) -> None:
    one = studies.cards(BASE, only=["dagger"], games=40, seed=3, backend=Local(1))
    two = studies.cards(BASE, only=["dagger"], games=40, seed=3, backend=Local(2))
    strip = [{k: v for k, v in r.to_dict().items() if k != "timing"} for r in (one, two)]
    assert strip[0] == strip[1]


def test_cli_cards_fits_100_columns_and_refuses_bad_input(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["cards", str(BASE), "-c", "dagger", "-g", "30", "-w", "1", "-o", str(tmp_path / "o")], env={"COLUMNS": "100"}
    )
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 100
    assert "dagger" in result.stdout and "observational" in result.stdout
    assert "4 players, heuristic bots, 30 games per card" in " ".join(result.stdout.split())  # whose answer it is
    bad = runner.invoke(app, ["cards", str(BASE), "-c", "dager", "-o", str(tmp_path / "x")])
    assert bad.exit_code == 1 and "did you mean 'dagger'" in bad.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("- {id: odd, name: Odd, when: flash, cost: 1, effects: [{gain: {gold: 1}}]}\n")
    bad = runner.invoke(app, ["cards", str(BASE), "--with", str(broken), "-o", str(tmp_path / "x")])
    assert bad.exit_code == 1 and "broken.yaml:1" in bad.output
    missing = runner.invoke(app, ["cards", str(BASE), "--with", str(tmp_path / "none.yaml"), "-o", str(tmp_path / "x")])
    assert missing.exit_code == 1 and "none.yaml" in missing.output and "Traceback" not in missing.output
    assert not (tmp_path / "x").exists()


def test_too_few_games_give_no_verdict() -> None:
    (dagger,) = studies.cards(BASE, only=["dagger"], games=4, seed=1).cards
    assert (dagger.flag, dagger.evidence) == ("unclear", "only 4 games: too few for a verdict (at least 100)")


def test_a_card_that_cannot_be_priced_says_why_in_valid_json() -> None:
    nothing = Estimate(math.nan, math.nan, 500)
    assert studies.card_verdict(3, nothing) == (
        "unclear",
        "the extra coins had no measurable effect on the win rate, so nothing converts to coins",
    )
    assert json.loads(json.dumps(nothing.report())) == {"value": None, "low": None, "high": None, "n": 500}


def test_a_gift_changes_no_round_roll_of_the_game() -> None:
    """Each named point of chance has its own stream: whatever a gift does (chance tests, rerolls, a reshuffle
    sooner), the games with and without it roll the same dice round after round, for as long as both last."""
    family = api.load_variant(BASE).family.studied
    assert family is not None
    rules = compile_variant(family.with_cards(BASE, ROOT / "cards" / "planted.yaml")[0].variant)
    personas = family.personas(api.load_variant(BASE).variant)

    def rolls(index: int, gift: Gift | None) -> list[list[int]]:
        chance = RandomChance.streams(9, index)
        game = Game(rules, 4, chance, log=True)
        bots = [make_bot(personas["heuristic"], bot_stream(9, index, seat)) for seat in range(4)]
        if gift is not None:
            gift.give(game, index % 4, chance, bots)
        game.play(chance, bots)
        return [event["dice"] for event in game.events or () if event["type"] == "roll"]

    compared = 0
    for index in range(30):
        plain, gifted = rolls(index, None), rolls(index, Gift(card="fortune-teller"))
        shared = min(len(plain), len(gifted))
        assert plain[:shared] == gifted[:shared], index
        compared += shared
    assert compared > 200


def test_a_card_file_that_redefines_a_card_studies_it_as_the_file_says(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        "- {id: dagger, name: Cheap Dagger, when: die-3, cost: 1, effects: [{others_lose: {hearts: 1}}]}\n"
        "- {id: nugget, name: Nugget, when: flash, cost: 2, effects: [{gain: {coins: 3}}]}\n"
    )
    result = studies.cards(BASE, extra=path, games=20, seed=1)
    studied = {c.card.id: c for c in result.cards}
    assert set(studied) == {"dagger", "nugget"}  # the file's cards, the redefined one included
    assert studied["dagger"].card.cost == 1 and studied["dagger"].source.endswith("mine.yaml")


def test_the_reference_coins_are_what_the_supply_can_give(tmp_path: Path) -> None:
    path = tmp_path / "dear.yaml"
    path.write_text("- {id: palace, name: Palace, when: passive, cost: 300, effects: [{chance_bonus: 1}]}\n")
    result = studies.cards(BASE, extra=path, games=10, seed=1)
    # 37 coins in the box (25 of 1 and 12 of 5: 85 in value), 4 players start with 8: 53 left to give
    assert result.coins == 85 - 4 * 8


def test_a_card_worth_more_than_its_price_the_heuristic_never_buys_is_said_and_the_search_bot_buys_it(tmp_path: Path) -> None:
    """Robin Hood (die-5: steal a coin from the richest player, 2 coins): the heuristic gives no worth to the coin the
    rival loses and never buys it, though given to a seat it is worth about 4 coins; ``cards`` and ``compare`` say so
    (``never_bought``), and the search bot, which plays its market moves out, buys it."""
    planted = tmp_path / "robin.yaml"
    planted.write_text(
        f"extends: {BASE}\nname: Robin Hood\ncards_add:\n  - {{id: robin-hood, name: Robin Hood, when: die-5, cost: 2, "
        "copies: 3, effects: [{steal: {coins: 1, from: richest}}]}\n"
    )
    study = studies.cards(planted, only=["robin-hood"], players=4, games=4000, seed=2)
    (robin,) = study.cards
    assert study.observed["robin-hood"]["bought"] == 0 and robin.worth.low > robin.card.cost  # worth more than its price
    (note,) = [note for note in study.notes if note["card"] == "robin-hood"]
    assert note["kind"] == "never_bought" and note["bots"] == ["heuristic"] and note["coins_equivalent"]["low"] > 2
    compared = studies.compare([BASE, planted], players=4, games=1000, seed=2)
    assert [(n["variant"], n["kind"]) for n in compared.runs[0].notes if n["card"] == "robin-hood"] == [(1, "never_bought")]
    searched = api.simulate(planted, players=4, games=100, bots="search-4", seed=2).runs[0]
    assert searched.figure("cards.robin-hood.bought_games") > 0.3 * searched.figure("cards.robin-hood.offered_games") > 0
