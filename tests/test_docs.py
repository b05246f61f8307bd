"""The documentation says what the code does: tables the code can make are checked against it."""

from __future__ import annotations

from pathlib import Path

from workbench.games.chance_it import effects as kinds

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_holds_the_current_effect_table() -> None:
    """Every registered kind, in registry order, with its meaning, example and card text (regenerate with reference_table)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = kinds.reference_table()
    assert table in readme, "README.md's effect table is out of date: paste workbench.games.chance_it.effects.reference_table()"
    assert table.count("\n| `") == len(kinds.REGISTRY)


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
