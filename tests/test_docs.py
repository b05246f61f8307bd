"""The documentation says what the code does: tables the code can make are checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench import studies
from workbench.games import FAMILIES
from workbench.games.chance_it import effects as kinds
from workbench.sim.runner import Local

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"


def test_the_effect_table_reads_as_the_issue_wrote_the_cards() -> None:
    """The table's card texts are those the card language promises (issue 10, item 4)."""
    table = kinds.reference_table()
    for text in (
        "steal 1 coin from each other player in the round",
        "choose one: +1 heart, or +2 coins and -1 star",
        "if you have at most 2 hearts: +2 hearts, else +1 coin",
        "+1 coin for each 5",
        "your chance rolls +1 (never above 6)",
    ):
        assert f"| {text} |" in table, text


@pytest.mark.slow
def test_the_site_figures_of_the_paired_studies_reproduce() -> None:
    """The figures docs/how-to/compare.md quotes (seed 1, 2,000 games) come out of the current code."""
    FAMILIES["chance-it"].compiled.wait()  # as the page ran it: the batch engine compiled (the figures are the same)
    compared = studies.compare(
        [VARIANTS / "chance-it.yaml", VARIANTS / "dearer-in.yaml"], players=[4], games=2000, seed=1, backend=Local(2)
    )
    run = compared.runs[0]
    figures = {s.name: s for s in run.statistics}
    assert compared.engine == "batch"
    assert (len(run.significant), len(run.statistics), compared.tests) == (38, 52, 46)
    assert [round(v.value * 100, 1) for v in figures["guides.in.rate"].values] == [47.9, 41.7]
    rounds = figures["rounds.mean"]
    assert [round(v.value, 2) for v in rounds.values] == [12.17, 11.93] and not rounds.significant
    strength = studies.cards(
        VARIANTS / "chance-it.yaml", extra=ROOT / "cards" / "planted.yaml", games=2000, seed=1, backend=Local(2)
    )
    by_id = {c.card.id: c for c in strength.cards}
    assert (round(by_id["star-shower"].worth.value, 1), by_id["star-shower"].flag) == (5.4, "too strong")
    assert (round(by_id["copper"].worth.value, 1), by_id["copper"].flag) == (2.7, "too weak")


def test_the_target_dice_study_quotes_its_current_tables() -> None:
    """The study's README holds the tables its tables.py makes from the shipped compare.json and skill.json files."""
    import runpy

    folder = ROOT / "reports" / "target-dice-under-rule"
    tables = runpy.run_path(str(folder / "tables.py"))
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for make in (tables["comparison"], tables["skill"]):
        assert make() in readme, "reports/target-dice-under-rule/README.md is out of date: run tables.py"
    assert "sh reports/target-dice-under-rule/run.sh" in readme


def test_the_target_dice_study_ran_the_shipped_variants() -> None:
    """The shipped results are of the shipped variants (by name), with the settings run.sh gives."""
    import json

    from workbench.games import load_variant

    folder = ROOT / "reports" / "target-dice-under-rule"
    compared = json.loads((folder / "compare" / "compare.json").read_text())
    names = [load_variant(VARIANTS / f"{name}.yaml").variant.name for name in ("target-dice", "target-dice-miss")]
    assert [v["name"] for v in compared["variants"]] == names
    assert [run["games"] for run in compared["runs"]] == [20_000] * 3 and compared["bots"] == ["search"]


def test_the_chance_chess_deck_study_quotes_its_current_tables() -> None:
    """The deck study's README holds the tables its tables.py makes from the shipped sweep.json and compare.json."""
    import runpy

    folder = ROOT / "reports" / "chance-chess-deck"
    tables = runpy.run_path(str(folder / "tables.py"))
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for make in (tables["sweep"], tables["comparison"]):
        assert make() in readme, "reports/chance-chess-deck/README.md is out of date: run tables.py"
    assert "sh reports/chance-chess-deck/run.sh" in readme


def test_the_chance_chess_tuned_deck_is_the_sweeps_best() -> None:
    """decks/tuned.yaml is the split the shipped sweep found best, and the shipped results are of the shipped decks
    with the settings run.sh gives."""
    import json

    import yaml

    from workbench.games import load_variant

    folder = ROOT / "reports" / "chance-chess-deck"
    swept = json.loads((folder / "sweep" / "sweep.json").read_text())
    plan = yaml.safe_load((ROOT / "sweeps" / "chance-chess-deck.yaml").read_text())
    named = {point["id"]: point["name"] for point in swept["points"]}
    best = next(point for point in plan["points"] if point["name"] == named[swept["best"]["2"]["point"]])
    tuned = load_variant(folder / "decks" / "tuned.yaml").variant.deck.cards.copies()
    assert all(tuned[card] == n for card, n in best["overrides"]["deck"]["cards"].items())
    assert (swept["games"], swept["bots"], swept["seed"]) == (plan["games"], ["greedy"], 1)
    compared = json.loads((folder / "compare-search" / "compare.json").read_text())
    decks = (VARIANTS / "chance-chess.yaml", folder / "decks" / "proportional.yaml", folder / "decks" / "tuned.yaml")
    names = [load_variant(path).variant.name for path in decks]
    assert [v["name"] for v in compared["variants"]] == names
    assert [run["games"] for run in compared["runs"]] == [300] and compared["bots"] == ["search"]


@pytest.mark.slow
def test_the_site_figures_of_the_playtest_walk_through_reproduce() -> None:
    """The figures docs/how-to/playtests.md quotes come out of the current code and the shipped evening."""
    from workbench import calibrate, playtests

    logs = sorted((ROOT / "examples" / "playtests").glob("game-*.yaml"))
    assert len(logs) == 12
    found = playtests.playtests(VARIANTS / "chance-it.yaml", logs, games=2000, seed=1, backend=Local(2))
    (table,) = found.tables
    assert [f.name for f in table.differing] == [
        "guides.forced_in.rate", "guides.chance-it.rate", "components.coins.most_held_per_game.mean",
    ]  # fmt: skip
    chance_it = next(f for f in table.figures if f.name == "guides.chance-it.rate")
    assert [round(100 * x, 1) for x in (chance_it.people, chance_it.low, chance_it.high, chance_it.bots)] == [
        29.1,
        25.4,
        32.9,
        10.7,
    ]
    fitted = calibrate.calibrate(VARIANTS / "chance-it.yaml", logs)
    assert [(e.parameter.name, round(e.value, 3), round(e.low, 3), round(e.high, 3)) for e in fitted.estimates] == [
        ("chance_it", 0.838, 0.728, 0.885), ("danger", 2.449, 2.121, 2.746), ("temperature", 0.313, 0.275, 0.362),
    ]  # fmt: skip
    assert (fitted.decisions, round(fitted.fitted.likelihood, 3), round(fitted.start_check.likelihood, 3)) == (
        822,
        -0.618,
        -0.732,
    )
    shipped = (ROOT / "examples" / "playtests" / "our-group.yaml").read_text(encoding="utf-8")
    assert "danger: 2.4488  # 95 % interval 2.12 to 2.75" in shipped  # the shipped file is this fit's
