"""The HTML report of ``workbench simulate`` and the SVG chart helpers it is drawn with."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from workbench.cli import app
from workbench.games.chance_it.report import FIGURES, TRAJECTORY_MIN_SHARE
from workbench.games.chance_it.sim import Tally
from workbench.render import report
from workbench.render.svg import Panel, Series, bar_chart, hbar_chart, histogram, line_chart

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
ONE = json.loads((DATA / "summary-4p.json").read_text())
MULTI = json.loads((DATA / "summary-multi.json").read_text())["runs"]
EXTERNAL = re.compile(r"""(?:src|href|xlink:href)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?\s*(?:https?:)?//|@import""", re.I)


def render(summaries: list[dict[str, Any]]) -> str:
    return report.render_report(summaries, "Chance It", FIGURES)


def svgs(html: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", html, re.S)


def assert_self_contained(html: str, *, charts: bool = True) -> None:
    assert html.lstrip().lower().startswith("<!doctype html>")
    assert html.count("<html") == 1 and html.rstrip().endswith("</html>")
    assert not EXTERNAL.search(html), EXTERNAL.search(html)
    assert "<script" not in html.lower() and "<link" not in html.lower()
    assert '<meta name="generator" content="chance-workbench">' in html[:2000]  # what the CLI looks for
    assert ("<svg" in html) is charts
    for svg in svgs(html):
        ET.fromstring(svg)  # every chart is well-formed XML: text in it was escaped


@pytest.mark.parametrize("summaries", [[ONE], MULTI], ids=["one-run", "several-player-counts"])
def test_report_is_one_self_contained_page_with_every_figure(summaries: list[dict[str, Any]]) -> None:
    html = render(summaries)
    assert_self_contained(html)
    assert ONE["variant"] in html
    for summary in summaries:
        assert f"{summary['players']} players" in html
        for card_id in summary["cards"]:
            assert f"<td>{card_id}</td>" in html
        for seat, figure in enumerate(summary["wins"]["by_seat"]):
            assert f"<td>seat {seat}</td><td>{100 * figure['rate']:.1f}%</td>" in html
            assert f"{100 * figure['low']:.1f}–{100 * figure['high']:.1f}%" in html
    # four charts per player count: rounds, seats, cards, resources
    assert len(svgs(html)) == 4 * len(summaries)


def test_report_header_and_footer() -> None:
    html = render([ONE])
    assert "variants/chance-it.yaml" in html and "2,000" in html and "heuristic on every seat" in html
    assert "Interrupted:" not in html
    body, footer = html.split("<footer>")
    assert "games/s" not in body and "2.21 s" in footer  # timings only in the footer
    interrupted = {**ONE, "interrupted": True}
    assert "Interrupted:</strong> the 4-player run was stopped early" in render([interrupted])


def test_fairness_figures_are_explained() -> None:
    html = render([ONE])
    assert "0.961" in html and "best and worst seat 3.9 points apart" in html  # 1 - (0.2255 - 0.186) = 0.9605
    assert "26.9%" in html  # seat 0's 0.186 plus half of the 0.165 no-winner games
    assert "equal seats: 29.1%" in html  # (1 - 0.165) / 4 + 0.165 / 2


def test_resource_plot_leaves_out_rounds_few_games_reach() -> None:
    html = render([ONE])
    trajectory = ONE["trajectory"]
    kept = [g for g in trajectory["games"] if g >= TRAJECTORY_MIN_SHARE * ONE["games"]]
    assert len(kept) < len(trajectory["round"])
    assert html.count('class="point"') == 3 * len(kept)
    assert f"Rounds after {len(kept)} (up to {trajectory['round'][-1]}) are left out" in html


def test_text_from_the_summary_is_escaped() -> None:
    hostile = copy.deepcopy(ONE)
    hostile["variant"] = '<script>alert("x")</script> & co'
    hostile["variant_file"] = "variants/<b>.yaml"
    hostile["bots"] = ["<i>bot</i>", *hostile["bots"][1:]]
    hostile["cards"] = {"<img src=x onerror=alert(1)>" if k == "dagger" else k: v for k, v in hostile["cards"].items()}
    html = render([hostile])
    assert_self_contained(html)
    assert "<script>alert" not in html and "&lt;script&gt;alert(" in html
    assert "&amp; co" in html
    assert "<b>" not in html and "<i>bot" not in html and "&lt;i&gt;bot&lt;/i&gt;" in html
    assert "<img" not in html and html.count("&lt;img src=x onerror=alert(1)&gt;") == 2  # table and chart


def test_the_bots_blind_spots_are_on_the_page_escaped_and_only_when_there_are_some() -> None:
    noted = copy.deepcopy(ONE)
    said = "the heuristic bots never bought <mugger>, though some seat could in 58 of 100 games"
    noted["notes"] = [{"kind": "never_bought", "card": "mugger", "bots": ["heuristic"], "text": said}]
    html = render([noted])
    assert_self_contained(html)
    assert "What these bots passed over" in html and "never bought &lt;mugger&gt;, though some seat could" in html
    assert "<mugger>" not in html
    assert "What these bots passed over" not in render([{**ONE, "notes": []}])


def test_a_run_interrupted_before_any_game_still_renders() -> None:
    tally = Tally(3, ("random", "heuristic", "random"), ("purse", "dagger"))
    empty = {
        **{k: ONE[k] for k in ("generator", "game", "variant", "variant_file", "seed", "timing")},
        "players": 3,
        "bots": list(tally.bots),
        **tally.summary(),
        "interrupted": True,
    }
    html = render([empty])
    assert_self_contained(html, charts=False)
    assert "stopped early" in html and "<td>purse</td>" in html and "seat 1: heuristic" in html


def test_template_ships_with_the_package() -> None:
    assert (files("workbench.render") / "templates" / "report.html.j2").is_file()
    assert (files("workbench.games.chance_it") / "templates" / "report_sections.html.j2").is_file()
    assert (files("workbench.studio") / "static" / "studio.js").is_file()
    assert '"*" = ["templates/*.j2", "static/*"]' in (ROOT / "pyproject.toml").read_text()


def test_simulate_writes_the_report_and_may_overwrite_it(tmp_path: Path) -> None:
    args = [
        "simulate",
        str(ROOT / "variants" / "chance-it.yaml"),
        "--games",
        "12",
        "--players",
        "3,4",
        "--workers",
        "1",
        "--bots",
        "random",
        "--out",
        str(tmp_path),
    ]
    runner = CliRunner()
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    html = (tmp_path / "report.html").read_text()
    assert_self_contained(html)
    assert "3 players" in html and "4 players" in html
    again = runner.invoke(app, args)  # the generator meta tells the CLI the file is its own
    assert again.exit_code == 0, again.output


# The chart helpers: one mark per value.


@pytest.mark.parametrize("n", [1, 3, 6])
def test_bar_chart_draws_a_bar_and_a_whisker_per_value(n: int) -> None:
    values = [0.1 * (i + 1) for i in range(n)]
    svg = bar_chart(
        [f"seat {i}" for i in range(n)],
        values,
        low=[v - 0.05 for v in values],
        high=[v + 0.05 for v in values],
        reference=1 / n,
        percent=True,
    )
    ET.fromstring(svg)
    assert svg.count('class="bar"') == n and svg.count('class="whisker"') == n
    assert svg.count('class="reference"') == 1
    assert bar_chart(["a", "b"], [1.0, 2.0]).count('class="whisker"') == 0


def test_histogram_draws_a_bar_per_value_that_occurred() -> None:
    svg = histogram({"2": 3, "3": 10, "5": 0, "7": 2}, share=True, band=(3, 7, "middle"), markers=[("median", 3)])
    ET.fromstring(svg)
    assert svg.count('class="bar"') == 3 and svg.count('class="marker"') == 1 and svg.count('class="band"') == 1
    assert histogram(ONE["rounds"]["histogram"]).count('class="bar"') == len(ONE["rounds"]["histogram"])
    assert "no data" in histogram({})


def test_hbar_chart_draws_paired_bars_with_intervals_and_marks_missing_ones() -> None:
    owners = Series("owners", [0.3, None, 0.2], [0.25, None, 0.1], [0.35, None, 0.3])
    others = Series("others", [0.2, 0.21, 0.19], [0.18, 0.19, 0.17], [0.22, 0.23, 0.21])
    svg = hbar_chart(
        ["a", "b", "c"],
        [
            Panel([Series("bought", [1.0, 0.0, 0.5])]),
            Panel([owners, others], percent=True, reference=0.2, missing="never bought"),
        ],
    )
    ET.fromstring(svg)
    assert svg.count('class="bar"') == 3 + 2 + 3
    assert svg.count('class="whisker"') == 2 + 3
    assert svg.count("never bought") == 1 and svg.count('class="reference"') == 1


def test_line_chart_draws_a_point_per_value_and_a_line_per_series() -> None:
    svg = line_chart(
        [1, 2, 3, 4], [Series("coins", [4, 3, 2, 2]), Series("hearts", [8, None, 6, 5]), Series("stars", [0, 1, 2, 3])]
    )
    ET.fromstring(svg)
    assert svg.count('class="point"') == 11 and svg.count('class="line"') == 3
    assert "no data" in line_chart([], [])


def test_chart_text_is_escaped() -> None:
    svg = bar_chart(["<a&b>"], [0.5], y_label='"quoted"', title="<t>")
    ET.fromstring(svg)
    assert "<a&b>" not in svg and "&lt;a&amp;b&gt;" in svg and "<t>" not in svg
