"""`workbench odds`: exact fractions, checked against hand calculations and against the engine's own dice."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from workbench import api
from workbench.cli import app
from workbench.errors import UsageError
from workbench.games import load_variant
from workbench.games.chance_it.bots import RandomBot
from workbench.games.chance_it.chance import RandomChance, bot_stream
from workbench.games.chance_it.effects import chance_percent, success_chance
from workbench.games.chance_it.engine import Game, compile_variant
from workbench.games.chance_it.odds import odds
from workbench.games.chance_it.schema import Variant

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
LAB = ROOT / "variants" / "card-lab.yaml"


def base_data() -> dict[str, Any]:
    """The base game as plain data (its card file included)."""
    return load_variant(BASE).variant.model_dump(by_alias=True, exclude_none=True, exclude_defaults=True)


# --- hand calculations: 5 dice with 6 sides; the board rerolls a 1 until it shows 2..6 ----------------------------


def test_the_base_games_odds_are_the_hand_calculated_fractions() -> None:
    o = odds(load_variant(BASE).variant)
    # a die card of face 1 fires when any of the 5 dice first shows 1 (before its reroll): 1 - (5/6)^5
    assert o.fires[1] == 1 - Fraction(5, 6) ** 5 == Fraction(4651, 7776)
    # a die is resolved at 3 when it shows 3, or shows 1 and is rerolled to 3 (one of 5 faces): 1/6 + 1/6 * 1/5 = 1/5
    assert o.resolved[3] == Fraction(1, 6) + Fraction(1, 6) * Fraction(1, 5) == Fraction(1, 5)
    assert o.fires[3] == 1 - Fraction(4, 5) ** 5 == Fraction(2101, 3125)
    # two 6s on the roll: C(5, 2) (1/6)^2 (5/6)^3 = 1250/7776
    assert o.counts[6][2] == 10 * Fraction(1, 36) * Fraction(125, 216) == Fraction(625, 3888)
    # the 3 takes 2 hearts: 3 or more hearts means two or more dice at 3: 1 - (4/5)^5 - 5 (1/5) (4/5)^4
    assert o.hearts_taken[3] == 1 - Fraction(1024, 3125) - 5 * Fraction(1, 5) * Fraction(256, 625) == Fraction(821, 3125)
    assert o.hearts_taken[1] == o.hearts_taken[2] == Fraction(2101, 3125)  # hearts go in twos
    # exactly one market action: one die of five at 6: 5 (1/5) (4/5)^4 = 256/625; no coin at all: (4/5)^5
    assert o.board["market actions"][1] == Fraction(256, 625)
    assert o.board["coins"][0] == Fraction(1024, 3125)
    # the board gives 10 hearts lost only when all five dice land on 3: (1/5)^5
    assert o.board["hearts lost"][10] == Fraction(1, 3125)
    assert all(sum(dist.values()) == 1 for dist in o.board.values())


def test_chance_tests_list_every_total_bonus_the_passive_cards_give() -> None:
    o = odds(load_variant(LAB).variant)
    retry = next(t for t in o.tests if t.where == "cards.retry.effects.0")
    # 5+ on a d6 is 2 faces of 6; with Lucky Charm's +1, 4 faces plus... raw 4, 5, 6 -> 3 of 6
    assert retry.roll == 5 and retry.success == {0: Fraction(1, 3), 1: Fraction(1, 2)}
    jackpot = next(t for t in o.tests if t.where == "cards.jackpot.effects.0")
    assert jackpot.success == {0: Fraction(1, 2), 1: Fraction(2, 3)}


@pytest.mark.parametrize(
    ("roll", "sides", "bonus", "expected"),
    [
        (4, 6, 0, Fraction(1, 2)),  # 4, 5, 6
        (6, 6, 9, Fraction(1)),  # every result held at 6
        (2, 6, -2, Fraction(1, 2)),  # raw 4, 5, 6 reach 2 or more; 1-3 are held at 1
        (1, 6, -5, Fraction(1)),  # a 1+ always succeeds
        (7, 8, 1, Fraction(3, 8)),  # raw 6, 7, 8 on an 8-sided die
    ],
)
def test_success_chance_by_hand(roll: int, sides: int, bonus: int, expected: Fraction) -> None:
    assert success_chance(roll, sides, bonus) == expected


def test_the_printed_odds_are_the_exact_ones_rounded() -> None:
    """Cards print chance_percent, odds prints success_chance: both agree with counting faces by hand."""
    for sides in (2, 6, 8, 20):
        for roll in range(1, sides + 1):
            for bonus in (-3, 0, 2):
                faces = sum(1 for raw in range(1, sides + 1) if min(sides, max(1, raw + bonus)) >= roll)
                assert success_chance(roll, sides, bonus) == Fraction(faces, sides)
                assert chance_percent(roll, sides, bonus) == round(100 * faces / sides)


def test_without_rerolls_every_face_is_alike(tmp_path: Path) -> None:
    data = base_data()
    data["board"][1] = []
    o = odds(Variant.model_validate(data))
    assert set(o.fires.values()) == {Fraction(4651, 7776)} and set(o.resolved.values()) == {Fraction(1, 6)}


def test_effects_that_depend_on_the_table_are_left_out_and_named_not_guessed() -> None:
    data = base_data()
    data["board"][3] = [{"others_lose": {"hearts": 1}}, {"lose": {"hearts": 2}}]
    data["board"][5] = [{"chance": {"roll": 4, "then": [{"steal": {"coins": 1}}]}}, {"gain": {"coins": 1}}]
    o = odds(Variant.model_validate(data))
    assert o.inexact == {3: ["others_lose"], 5: ["steal"]}  # the steal inside the test, not the test
    # the rest is still exact: the 3 takes its 2 hearts and the 5 gives its coin, as in the base game
    assert o.hearts_taken[3] == Fraction(821, 3125) and o.board["coins"][0] == Fraction(1024, 3125)
    assert o.fires[3] == Fraction(2101, 3125)


# --- the engine's dice agree -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "sides", "reroll"), [(5, 6, True), (3, 6, False), (4, 8, True)])
def test_simulated_frequencies_fall_within_their_intervals_of_the_exact_values(count: int, sides: int, reroll: bool) -> None:
    """Rounds played by the engine (random bots): how often at least one die is resolved at each face, and how
    often the roll shows no die of a face, each within 4.5 standard errors of the exact chance (1 in 150,000)."""
    data = base_data()
    data["dice"] = {"count": count, "sides": sides}
    data["board"] = {f: [] for f in range(1, sides + 1)}
    data["board"][1] = ["reroll_ones"] if reroll else []
    data["board"][sides] = [{"gain": {"coins": 1}}]
    data["cards"] = []
    variant = Variant.model_validate(data)
    exact = odds(variant)
    rules = compile_variant(variant)
    rounds: list[set[int]] = []
    rolls: list[list[int]] = []
    for seed in range(60):
        chance = RandomChance.streams(seed, 0)
        game = Game(rules, 4, chance, log=True)
        game.play(chance, [RandomBot(bot_stream(1000 * seed + s, 0, 0)) for s in range(4)])
        assert game.events is not None
        current: dict[int, set[int]] = {}
        for event in game.events:
            if event["type"] == "roll":
                rolls.append(event["dice"])
            elif event["type"] == "die":
                current.setdefault(event["round"], set()).add(event["face"])
        rounds += current.values()  # rounds with an action round (all-OUT rounds resolve no die)
    assert len(rounds) > 500 and len(rolls) > 500
    for face in range(1, sides + 1):
        _within(sum(face in faces for faces in rounds), len(rounds), exact.fires[face])
        _within(sum(face not in roll for roll in rolls), len(rolls), exact.counts[face][0])


def _within(hits: int, n: int, p: Fraction) -> None:
    error = math.sqrt(float(p) * (1 - float(p)) / n)
    assert abs(hits / n - float(p)) <= 4.5 * error + 1e-12, (hits, n, p)


# --- the command -----------------------------------------------------------------------------------------------


def test_odds_json_gives_exact_fractions() -> None:
    result = CliRunner().invoke(app, ["odds", str(BASE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["round_resolves"]["3"] == {"fraction": "2101/3125", "percent": 67.232}
    assert data["hearts_taken_at_least"]["3"]["fraction"] == "821/3125"
    assert data["cards"]["lucky-find"] == {"face": 1, "fraction": "4651/7776", "percent": 59.8122}
    assert api.odds(BASE) == data


def test_odds_prints_tables_that_fit_100_columns() -> None:
    result = CliRunner().invoke(app, ["odds", str(LAB)], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert "2101/3125 (67.23%)" in result.output and "Chance tests" in result.output
    assert max(len(line) for line in result.output.splitlines()) <= 100


def test_odds_refuses_a_broken_variant_with_a_located_message(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump({"extends": str(BASE), "name": "B", "dice": {"count": 0}}))
    result = CliRunner().invoke(app, ["odds", str(path)])
    assert result.exit_code == 1
    assert "broken.yaml:2: dice.count: must be at least 1, got 0" in result.output
    assert "Traceback" not in result.output


def test_only_the_effects_themselves_are_named_as_depending_on_the_table() -> None:
    data = base_data()
    data["board"][2] = [{"steal": {"coins": 1}}, {"chance": {"roll": 4, "then": [{"steal": {"coins": 1}}]}}]
    data["board"][4] = [{"chance": {"roll": 4, "then": [{"chance": {"roll": 5, "else": [{"others_lose": {"hearts": 1}}]}}]}}]
    o = odds(Variant.model_validate(data))
    assert o.inexact == {2: ["steal"], 4: ["others_lose"]}  # never the chance tests around them
    assert o.board["stars"] == {0: Fraction(1)}  # face 4's stars were replaced: nothing gives one now


def test_twenty_dice_with_rich_faces_add_up_part_by_part() -> None:
    """Each part of the outcome is summed on its own (20 dice of 8 rich faces took over a minute summed jointly)."""
    data = base_data()
    data["dice"] = {"count": 20, "sides": 8}
    data["board"] = {1: ["reroll_ones"], 2: [{"gain": {"hearts": 1}}], 3: [{"lose": {"hearts": 2}}], 4: [{"gain": {"stars": 1}}],
                     5: [{"gain": {"coins": 1}}], 6: ["market"], 7: [{"gain": {"coins": 2, "stars": 1}}],
                     8: [{"lose": {"hearts": 1}}, {"gain": {"hearts": 1}}]}  # fmt: skip
    data["cards"] = []
    o = odds(Variant.model_validate(data))
    # a die gives a coin at 5 and 2 at 7, each 1/8 + 1/8 * 1/7 = 1/7 (a 1 rerolls to 2..8): none in 20 dice
    assert o.board["coins"][0] == Fraction(5, 7) ** 20
    assert o.board["coins"][40] == Fraction(1, 7) ** 20
    assert all(sum(dist.values()) == 1 for dist in o.board.values())


def test_a_long_variant_name_still_fits_100_columns(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump({"extends": str(BASE), "name": "A very long name " * 7}))
    result = CliRunner().invoke(app, ["odds", str(path)], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 100


def test_a_board_too_varied_to_sum_exactly_is_refused_before_the_work(tmp_path: Path) -> None:
    lines = ["name: wide", f"extends: {ROOT / 'variants' / 'chance-it.yaml'}", "dice: {count: 10, sides: 20}", "cards: []"]
    lines += ["board:", *(f"  {face}: [{{gain: {{coins: {3 ** (face % 12)}}}}}]" for face in range(1, 21))]
    path = tmp_path / "wide.yaml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(UsageError, match=r"coins amounts \(12 different, 1 to 177147\).*more than 100,000"):
        api.odds(path)
    small = "\n".join([*lines[:4], "board:", *(f"  {face}: [{{gain: {{coins: {face % 6}}}}}]" for face in range(1, 21))])
    path.write_text(small + "\n")
    assert api.odds(path)["dice"] == {"count": 10, "sides": 20}  # 10 dice of 20 faces with small amounts: fine
