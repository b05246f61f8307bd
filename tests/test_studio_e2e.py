"""The studio in a real browser (``workbench studio``, driven by Playwright on Debian's chromium): the issue's "done when".

Each test copies the variants it opens into its own folder, starts its own studio there (a
subprocess, as a designer would: ``workbench studio VARIANT --no-browser --port 0``) and
stops it with Ctrl-C afterwards; the repository's variant files are never opened for
writing. What a page shows is checked against what the rules (or the library, given the
same file, seed and answers) say it must show.

Needs chromium (``apt-get install chromium``) and the ``playwright`` package (the test
extra); without them the module is skipped. Slow: run with ``--slow`` (CI always does).
"""

from __future__ import annotations

import html
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("the studio's browser tests need playwright: .venv/bin/pip install -e '.[test]'", allow_module_level=True)

from workbench import api
from workbench.render.report import render_report

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).is_file():  # pragma: no cover - depends on the machine
    pytest.skip(
        f"the studio's browser tests need Debian's chromium ({CHROMIUM} not found): apt-get install chromium",
        allow_module_level=True,
    )

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
#: What the copies need: the card lab extends the base game, whose market lives in a card file beside the variants.
FILES = ("variants/chance-it.yaml", "variants/card-lab.yaml", "cards/chance-it-market.yaml")
#: Milliseconds any one thing the page does may take (a check, a preview, a bot's turn) on a loaded machine.
WAIT = 30_000
#: Milliseconds a 2,000-game run may take, including the batch engine's one-time compile on a slow machine.
RUN_WAIT = 300_000
#: Seconds the studio may take to start (Python, Starlette, the variant's first load) and to stop.
START_SECONDS = 60.0

expect.set_options(timeout=WAIT)


@dataclass(frozen=True)
class Served:
    """A running studio: the address it printed (with its token) and the variant file it opened."""

    url: str
    path: Path


def copy_variants(folder: Path) -> Path:
    """Copy the base game, the card lab and the market's card file into ``folder`` (same layout); the folder."""
    for name in FILES:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, target)
    return folder


@pytest.fixture
def start_studio(tmp_path: Path) -> Iterator[Callable[[str], Served]]:
    """Starts ``workbench studio`` on a copy of ``variants/<name>`` (working directory: the copy's root, so the page
    names the file ``variants/<name>``), one per call; stops each with Ctrl-C afterwards and checks it stopped."""
    started: list[tuple[subprocess.Popen[bytes], Path, Path]] = []
    copy_variants(tmp_path)

    def start(name: str) -> Served:
        path = tmp_path / "variants" / name
        out, err = tmp_path / f"studio-{len(started)}.out", tmp_path / f"studio-{len(started)}.err"
        command = [sys.executable, "-m", "workbench", "studio", str(path), "--no-browser", "--port", "0"]
        with out.open("wb") as stdout, err.open("wb") as stderr:
            process = subprocess.Popen(
                command, stdout=stdout, stderr=stderr, cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "1"}
            )
        started.append((process, out, err))
        deadline = time.monotonic() + START_SECONDS
        while True:
            first = out.read_text().partition("\n")
            if first[1]:  # a whole first line
                break
            assert process.poll() is None, f"the studio exited ({process.returncode}): {err.read_text()}"
            assert time.monotonic() < deadline, f"the studio printed no address: {err.read_text()}"
            time.sleep(0.1)
        match = re.fullmatch(r"studio for (.+) at (http://127\.0\.0\.1:\d+/\?token=[\w-]+)", first[0])
        assert match, first[0]
        assert match[1] == f"variants/{name}"  # shown relative to the working directory
        return Served(match[2], path)

    yield start

    for process, _out, err in started:
        process.send_signal(signal.SIGINT)  # Ctrl-C
        try:
            process.wait(timeout=START_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            pytest.fail(f"the studio did not stop on Ctrl-C: {err.read_text()}")
        # Ctrl-C ends the studio as it ends any command: "interrupted", exit 130.
        assert (process.returncode, err.read_text().splitlines()[-1:]) == (130, ["interrupted"]), err.read_text()
        assert "Traceback" not in err.read_text()


@pytest.fixture
def studio(start_studio: Callable[[str], Served]) -> Served:
    """A studio on a copy of the card lab (its eight cards are written in the variant itself)."""
    return start_studio("card-lab.yaml")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, start_studio: Callable[[str], Served]) -> Iterator[Page]:
    """A fresh page (its own storage) at 1280x800; fails the test on any script error of the page. (It is closed
    before the studios of the test are stopped: ``start_studio`` is set up first.)"""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    opened.set_default_timeout(WAIT)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], f"the page's scripts failed: {errors}"


def open_page(page: Page, served: Served) -> str:
    """Open the studio's page and wait until the file is loaded and checked valid; the file's text."""
    page.goto(served.url)
    text = served.path.read_text()
    expect(page.locator("#editor")).to_have_value(text)
    expect(page.locator("#valid")).to_be_visible()
    return text


def edit(page: Page, text: str) -> None:
    """Replace the editor's text (an input event, as typing gives)."""
    page.locator("#editor").fill(text)
    expect(page.locator("#editor")).to_have_value(text)


def type_at_the_end(page: Page, text: str, typed: str) -> None:
    """Type ``typed`` at the end of the editor (which holds ``text``), key by key as a person would."""
    editor = page.locator("#editor")
    editor.click()
    editor.press("Control+End")
    page.keyboard.type(typed)
    expect(editor).to_have_value(text + typed)


def cost_badges(page: Page, card: str) -> Any:
    """The cost badges of every printed copy of the card named ``card`` in the preview."""
    faces = (
        page.frame_locator("#preview")
        .locator(".panel")
        .filter(has=page.frame_locator("#preview").locator(".name", has_text=re.compile(f"^{re.escape(card)}$")))
    )
    return faces.locator("svg.cost text")


# --- the editor and the preview --------------------------------------------------------------------------------


def test_a_card_cost_changed_in_the_editor_shows_in_the_preview(page: Page, studio: Served) -> None:
    text = open_page(page, studio)
    line = "  - {id: pickpocket, name: Pickpocket, when: die-5, cost: 2, copies: 2, effects: [{steal: {coins: 1}}]}\n"
    assert line in text
    expect(cost_badges(page, "Pickpocket")).to_have_text(["2", "2"])  # two copies, each with its cost
    expect(cost_badges(page, "Mugger")).to_have_text(["3"])

    edit(page, text.replace(line, line.replace("cost: 2", "cost: 5")))

    expect(cost_badges(page, "Pickpocket")).to_have_text(["5", "5"])
    expect(cost_badges(page, "Mugger")).to_have_text(["3"])  # the other cards are as they were
    expect(page.locator("#modified")).to_be_visible()
    assert studio.path.read_text() == text  # the preview follows the editor, the file waits for Save


def test_an_unknown_key_is_marked_at_its_line(page: Page, studio: Served) -> None:
    text = open_page(page, studio)
    assert text.splitlines()[6] == "name: Card lab"
    editor = page.locator("#editor")
    editor.click()
    editor.evaluate("(e) => { const at = e.value.split('\\n').slice(0, 7).join('\\n').length; e.setSelectionRange(at, at); }")
    page.keyboard.type("\ncolour: blue")  # typed at the end of line 7: the key is on line 8
    lines = text.splitlines(keepends=True)
    expect(editor).to_have_value("".join([*lines[:7], "colour: blue\n", *lines[7:]]))

    problem = page.locator("li.problem")
    expect(problem).to_have_count(1)
    expect(problem).to_have_attribute("data-line", "8")
    expect(problem).to_contain_text("card-lab.yaml:8: colour: unknown key 'colour'; allowed keys: ")
    expect(page.locator("#gutter > div.bad")).to_have_count(1)
    expect(page.locator("#gutter > div:nth-child(8)")).to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#gutter > div:nth-child(8)")).to_have_attribute("title", re.compile("^unknown key 'colour'"))
    expect(page.locator("#valid")).to_be_hidden()
    expect(page.locator("#preview-stale")).to_be_visible()  # the preview still shows the last valid version: said

    edit(page, text)  # taken out again: nothing is marked
    expect(page.locator("#valid")).to_be_visible()
    expect(page.locator("#preview-stale")).to_be_hidden()
    expect(page.locator("li.problem")).to_have_count(0)
    expect(page.locator("#gutter > div.bad")).to_have_count(0)


def test_an_invalid_file_opens_with_its_problems(page: Page, start_studio: Callable[[str], Served], tmp_path: Path) -> None:
    """app.py: "an invalid file opens too: the editor says what is wrong"."""
    path = tmp_path / "variants" / "card-lab.yaml"
    text = path.read_text().replace("name: Card lab\n", "name: Card lab\ncolour: blue\n")
    path.write_text(text)
    served = start_studio("card-lab.yaml")
    page.goto(served.url)

    expect(page.locator("li.problem").or_(page.locator("#status.error"))).to_be_visible()  # whichever comes first
    assert page.locator("#status").text_content() == ""
    expect(page.locator("#editor")).to_have_value(text)
    expect(page.locator("li.problem")).to_have_attribute("data-line", "8")
    expect(page.locator("li.problem")).to_contain_text("colour: unknown key 'colour'")
    expect(page.locator("#gutter > div:nth-child(8)")).to_have_class(re.compile(r"\bbad\b"))


# --- playing ----------------------------------------------------------------------------------------------------


def test_a_person_plays_a_whole_game_against_three_bots(page: Page, studio: Served) -> None:
    open_page(page, studio)
    asked: list[str] = []

    def first_option(question: Any) -> int:
        asked.append(question.prompt)
        return 0

    loaded = api.load_variant(studio.path)
    expected = api.play(loaded, 4, 1, bots="heuristic", people={0: first_option})

    page.locator("#tab-play").click()
    page.locator("#play-players").fill("4")
    page.locator("#play-bots").select_option("heuristic")
    page.locator("#play-seed").fill("1")
    page.locator("#play-seat").fill("0")
    page.locator("#play-start").click()

    result = page.locator("#play-result").filter(has_text="Game over")
    option = page.locator("#play-options button:enabled").first
    prompts: list[str] = []
    while True:
        expect(option.or_(result)).to_be_visible()
        if result.is_visible():
            break
        prompts.append(page.locator("#play-question").inner_text())
        option.click()  # the first option, as the library's person above answered
        assert len(prompts) <= len(asked), f"the page asked more than the library's game did: {prompts}"

    assert prompts == asked  # the same questions, in the same order
    seats = ", ".join(f"seat {seat}" for seat in expected["winners"]) or "nobody"
    verdict = "You won!" if 0 in expected["winners"] else "You lost"
    expect(page.locator("#play-result")).to_have_text(
        f"Game over after {expected['rounds']} rounds: {loaded.family.figures.end_reasons[expected['end_reason']]}. "
        f"Winner(s): {seats}. {verdict}"
    )
    expect(page.locator("#play-options button")).to_have_count(0)
    log = [loaded.family.describe(event) for event in expected["events"]]
    assert len(log) > 100
    assert page.locator("#play-log > div").all_text_contents() == log
    headers, rows = loaded.family.state_table(expected)
    assert page.locator("#play-table th").all_text_contents() == [str(h) for h in headers]
    assert [row.locator("td").all_text_contents() for row in page.locator("#play-table tbody tr").all()] == [
        [str(cell) for cell in row] for row in rows
    ]
    expect(page.locator("#play-table tr.you td").first).to_have_text("0")  # the person's seat is marked


# --- a playtest at the table -----------------------------------------------------------------------------------


def enter_rounds(page: Page, rounds: int, rng: random.Random) -> None:
    """Enter the game at the table until ``rounds`` rounds are saved: dice from ``rng`` (the first roll refused once as
    impossible, with the reason shown), the first card or option every time."""
    entry, option = page.locator("#playtest-entry:visible"), page.locator("#playtest-options button:enabled").first
    saved = page.locator("#playtest-saved")
    refused = False
    while f"with {rounds} rounds" not in saved.inner_text():
        expect(entry.or_(option).first).to_be_visible()
        if entry.is_visible():
            label = page.locator("#playtest-entry-label").inner_text()
            count = 1 if label.startswith("The die") else int(label.split()[0])
            if not refused:
                page.locator("#playtest-faces").fill(" ".join(["7"] * count))
                page.locator("#playtest-enter").click()
                expect(page.locator("#playtest-message")).to_have_text("7 is not a face of a 6-sided die")
                refused = True
            page.locator("#playtest-faces").fill(" ".join(str(rng.randint(1, 6)) for _ in range(count)))
            page.locator("#playtest-enter").click()
        else:
            option.click()
        page.wait_for_function("() => !document.querySelector('#playtest-enter').disabled")


def saved_rows(page: Page) -> list[list[str]]:
    return [row.locator("td").all_text_contents() for row in page.locator("#playtest-saved-table tbody tr").all()]


def test_a_playtest_entered_in_the_page_replays_to_the_state_it_showed(page: Page, studio: Served) -> None:
    open_page(page, studio)
    page.locator("#tab-playtest").click()
    page.locator("#playtest-players").fill("3")
    page.locator("#playtest-names").fill("Ann, Bo, Cy")
    page.locator("#playtest-start").click()
    expect(page.locator("#playtest-question")).to_contain_text("Setup: which card comes up (1 of 4)?")
    enter_rounds(page, 2, random.Random(3))
    page.locator("#playtest-stop").click()
    expect(page.locator("#playtest-message")).to_contain_text("kept unfinished in")
    expect(page.locator("#playtest-saved-table tbody tr")).to_have_count(3)
    shown = saved_rows(page)

    (recorded,) = (studio.path.parent / "playtests").glob(f"{studio.path.stem}-*.yaml")
    found = api.replay(recorded)
    assert found is not None
    family, result = found
    assert result.passed and result.output["rounds"] == 2 and result.output["end_reason"] is None
    _, rows = family.state_table(result.output)
    assert shown == [[str(cell) for cell in row] for row in rows]  # replay ends where the page showed the game
    script = recorded.read_text()
    assert "table: [Ann, Bo, Cy]" in script and "unfinished: true" in script

    # the unfinished game is offered, and resumed where it stopped
    expect(page.locator("#playtest-resume option")).to_have_count(1)
    page.locator("#playtest-resume-start").click()
    expect(page.locator("#playtest-question")).to_contain_text("Round 3: seat 2 rolls 5 dice")
    enter_rounds(page, 3, random.Random(4))
    page.locator("#playtest-stop").click()
    expect(page.locator("#playtest-message")).to_contain_text("3 rounds entered")
    again = api.replay(recorded)
    assert again is not None and again[1].passed and again[1].output["rounds"] == 3


# --- simulating -------------------------------------------------------------------------------------------------


def chart_text(report: str, label: str) -> str:
    """The text of the report's chart whose aria-label is ``label`` (its title, axes and figures), as a browser reads it."""
    match = re.search(rf'<svg[^>]*aria-label="{re.escape(label)}".*?</svg>', report, re.DOTALL)
    assert match, label
    return html.unescape(re.sub(r"<[^>]+>", "", match[0]))


def test_a_2000_game_simulation_shows_its_report_with_charts(page: Page, studio: Served) -> None:
    open_page(page, studio)
    page.locator("#tab-run").click()
    page.locator("#run-kind").select_option("simulate")
    page.locator("#run-games").fill("2000")
    page.locator("#run-players").fill("4")
    page.locator("#run-seed").fill("1")
    page.locator("#run-bots").select_option("heuristic")
    page.locator("#run-start").click()

    expect(page.locator("#run-status")).to_have_text("2,000 of 2,000 games, 4 players (finished)", timeout=RUN_WAIT)
    expect(page.locator("#run-lines")).to_have_text(
        re.compile(r"^2,000 games at 4 players in \d+\.\d s \(seed 1, bots heuristic\)(\n.+)*$")  # then what it said
    )
    expect(page.locator("#run-start")).to_be_enabled()
    expect(page.locator("#run-cancel")).to_be_disabled()
    expect(page.locator("#run-report")).to_be_visible()

    report = page.frame_locator("#run-report")
    expect(report.locator("svg").first).to_be_visible()
    simulation = api.simulate(studio.path, players=4, games=2000, seed=1, bots="heuristic")
    expected = render_report([run.to_dict() for run in simulation.runs], simulation.family.title, simulation.family.figures)
    for label in ("Game length, 4 players", "Win rate by seat, 4 players"):
        chart = report.locator(f'svg[aria-label="{label}"]')
        expect(chart).to_have_count(1)
        assert chart.text_content() == chart_text(expected, label)  # the same games as the library's run
    expect(report.locator("dd", has_text=re.compile("^2,000$")).first).to_be_visible()


# --- saving -----------------------------------------------------------------------------------------------------


def test_save_writes_the_editor_text_with_its_comments(page: Page, studio: Served) -> None:
    text = open_page(page, studio)
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert len(comments) == 5
    before = sorted(p.name for p in studio.path.parent.iterdir())
    mugger = "cost: 3, copies: 1, effects: [{steal: {coins: 2, from: richest}}]"
    assert text.count(mugger) == 1
    edited = text.replace(mugger, mugger.replace("cost: 3", "cost: 4"))
    edit(page, edited)
    expect(page.locator("#save")).to_be_enabled()

    page.locator("#save").click()

    expect(page.locator("#status")).to_have_text("Saved to variants/card-lab.yaml")
    expect(page.locator("#save")).to_be_disabled()
    expect(page.locator("#modified")).to_be_hidden()
    assert studio.path.read_bytes() == edited.encode()  # byte for byte: comments, spacing and order kept
    assert [line for line in studio.path.read_text().splitlines() if line.startswith("#")] == comments
    assert sorted(p.name for p in studio.path.parent.iterdir()) == before  # written in place, no temporary left

    again = edited.replace("name: Card lab", "name: Card lab two")
    edit(page, again)
    page.locator("#editor").press("Control+s")  # the keyboard saves too
    expect(page.locator("#save")).to_be_disabled()
    expect(page.locator("#status")).to_have_text("Saved to variants/card-lab.yaml")
    assert studio.path.read_bytes() == again.encode()


def test_a_file_changed_on_disk_is_not_overwritten_without_asking(page: Page, studio: Served) -> None:
    text = open_page(page, studio)
    theirs = text + "# changed on disk by another program\n"
    studio.path.write_text(theirs)
    mine = text.replace("name: Card lab", "name: My card lab")
    edit(page, mine)

    page.locator("#save").click()

    dialog = page.locator("#conflict")
    expect(dialog).to_be_visible()
    diff = page.locator("#conflict-diff > span")
    expect(diff.filter(has_text=re.compile(r"^-# changed on disk by another program$"))).to_have_class("del")
    expect(diff.filter(has_text=re.compile(r"^\+name: My card lab$"))).to_have_class("add")
    expect(diff.filter(has_text=re.compile(r"^-name: Card lab$"))).to_have_class("del")
    expect(page.locator("#status")).to_have_text("The file changed on disk since you opened it.")
    assert studio.path.read_text() == theirs  # not overwritten
    expect(page.locator("#editor")).to_have_value(mine)  # and the edit is still there

    page.locator("#conflict-overwrite").click()

    expect(dialog).to_be_hidden()
    expect(page.locator("#status")).to_have_text("Saved to variants/card-lab.yaml")
    expect(page.locator("#save")).to_be_disabled()
    assert studio.path.read_bytes() == mine.encode()


def test_unsaved_edits_survive_a_reload(page: Page, studio: Served) -> None:
    text = open_page(page, studio)
    editor = page.locator("#editor")
    type_at_the_end(page, text, "# an idea to try\n")
    expect(page.locator("#restored")).to_be_hidden()

    page.reload()

    expect(editor).to_have_value(text + "# an idea to try\n")
    expect(page.locator("#restored")).to_be_visible()
    expect(page.locator("#modified")).to_be_visible()
    expect(page.locator("#save")).to_be_enabled()
    assert studio.path.read_text() == text  # kept in the browser only

    page.locator("#discard-restored").click()  # dropped: the saved file again, and nothing comes back on a reload
    expect(editor).to_have_value(text)
    page.reload()
    expect(editor).to_have_value(text)
    expect(page.locator("#restored")).to_be_hidden()


def test_unsaved_edits_of_a_file_changed_on_disk_since_come_back_and_never_overwrite_it(page: Page, studio: Served) -> None:
    """Edits kept in the browser were made on one version of the file; changed on disk since, the reload offers them
    back, says so, and saving shows both (nothing is written until asked)."""
    text = open_page(page, studio)
    editor = page.locator("#editor")
    type_at_the_end(page, text, "# my idea\n")
    theirs = text + "# another editor's line\n"
    studio.path.write_text(theirs)

    page.reload()

    expect(editor).to_have_value(text + "# my idea\n")
    expect(page.locator("#restored")).to_be_visible()
    expect(page.locator("#restored-changed")).to_be_visible()
    page.locator("#save").click()
    expect(page.locator("#conflict")).to_be_visible()
    expect(page.locator("#conflict-diff")).to_contain_text("# another editor's line")
    assert studio.path.read_text() == theirs
    page.locator("#conflict-overwrite").click()
    expect(page.locator("#conflict")).to_be_hidden()
    expect(page.locator("#modified")).to_be_hidden()
    assert studio.path.read_text() == text + "# my idea\n"


# --- the studio guide's picture -----------------------------------------------------------------------------------------


def test_the_readme_screenshot(page: Page, start_studio: Callable[[str], Served]) -> None:
    """The studio on the base game as ``workbench studio`` opens it: the file, its summary and the printed set."""
    served = start_studio("chance-it.yaml")
    open_page(page, served)
    expect(page.locator("#variant-title")).to_have_text("Chance It (base game)")  # the variant's name, its file beside it
    expect(page.locator("#variant-file")).to_have_text("variants/chance-it.yaml")
    expect(page.locator("#summary dt")).to_have_text(["players", "cards", "stakes"])
    expect(page.frame_locator("#preview").locator(".card").first).to_be_visible()
    page.evaluate("() => document.fonts.ready")

    docs = ROOT / "docs"
    docs.mkdir(exist_ok=True)
    picture = page.screenshot(type="png", animations="disabled", caret="hide")
    assert picture[:8] == b"\x89PNG\r\n\x1a\n"
    partial = docs / f"studio.png.{os.getpid()}.partial"  # written whole, then put in place: never a half picture in docs/
    partial.write_bytes(picture)
    os.replace(partial, docs / "studio.png")
