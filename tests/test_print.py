"""`workbench print`: the playtest set as PDF, read back with pypdf and rendered with pypdfium2."""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

import pypdf
import pypdfium2
import pytest
from PIL import Image
from typer.testing import CliRunner

from workbench.cli import app
from workbench.errors import display_path
from workbench.games import load_variant
from workbench.render import tts
from workbench.render.formats import FORMATS
from workbench.render.printing import Page, Piece, PrintOptions, calibration, content_hash

ROOT = Path(__file__).parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
runner = CliRunner()
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def _print(*args: str) -> None:
    result = runner.invoke(app, ["print", str(BASE), *args])
    assert result.exit_code == 0, result.output


def _text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def _sizes(path: Path) -> set[tuple[float, float]]:
    return {(float(page.mediabox.width), float(page.mediabox.height)) for page in pypdf.PdfReader(path).pages}


def _is_size(sizes: set[tuple[float, float]], paper: tuple[float, float]) -> bool:
    return all(abs(w - paper[0]) <= 0.5 and abs(h - paper[1]) <= 0.5 for w, h in sizes)


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole set for 6 players on A4, with the HTML beside it."""
    target = tmp_path_factory.mktemp("print") / "set.pdf"
    _print("--players", "6", "--out", str(target), "--html")
    return target


@pytest.fixture(scope="module")
def variant():
    return load_variant(BASE).variant


def _word(name: str) -> re.Pattern[str]:
    """A card name as printed: words may wrap onto the next line; no letter may touch either end."""
    return re.compile(r"(?<![A-Za-z])" + r"\s+".join(map(re.escape, name.split())) + r"(?![A-Za-z])")


@pytest.mark.slow
def test_every_page_is_exactly_a4(six: Path) -> None:
    assert _is_size(_sizes(six), A4), _sizes(six)


@pytest.mark.slow
def test_page_count_follows_the_card_count(six: Path, variant, tmp_path: Path) -> None:
    pile = sum(card.copies for card in variant.cards)
    assert pile == 30
    fronts = math.ceil(pile / 9)  # 4 pages of 3 x 3
    guides = math.ceil(3 * 6 / 9)  # 18 guide cards
    # fronts and backs of cards and guides, then one page each of stakes, board and rules
    assert len(pypdf.PdfReader(six).pages) == 2 * fronts + 2 * guides + 3
    _print("--only", "cards", "--no-backs", "--out", str(tmp_path / "fronts.pdf"))
    assert len(pypdf.PdfReader(tmp_path / "fronts.pdf").pages) == fronts


@pytest.mark.slow
def test_every_card_name_is_printed_once_per_copy(six: Path, variant) -> None:
    text = _text(six)
    for card in variant.cards:
        found = len(_word(card.name).findall(text))
        # a name inside a longer name ("Star" in "Shooting Star") is found there too
        inside = sum(o.copies * len(_word(card.name).findall(o.name)) for o in variant.cards if o.name != card.name)
        assert found - inside == card.copies, (card.name, found, inside, card.copies)
        assert text.count(f"{card.id} · {variant.name} · {content_hash(variant)}") == card.copies, card.id


@pytest.mark.slow
def test_stakes_sheets_guides_and_rules_are_printed(six: Path, variant) -> None:
    text = _text(six)
    for n in range(2, 7):
        match = re.search(rf"Stakes sheet for {n} players\s+(printed|proposed|tuned)", text, re.IGNORECASE)
        assert match, n
        assert match.group(1).lower() == variant.stakes[n].source
    for guide in ("in", "out", "chance-it"):
        assert text.count(f"guide-{guide} · ") == 6, guide
    assert "Rules summary" in text
    rules = pypdf.PdfReader(six).pages[-1].extract_text()
    assert rules.startswith("Rules summary")  # the whole summary on the last page
    for words in (
        "Setup",
        "The round",
        "Stakes",
        "The action round",
        "CHANCE IT",
        "Elimination",
        "End",
        "1: the starting player rerolls",
        "3: -2 hearts",
        "6: buy or discard one market card",
        "20 stars",
        "Everybody OUT: each player: lose 1 heart",
        "+2 coins",
    ):
        assert words in re.sub(r"\s+", " ", rules), words


@pytest.mark.slow
def test_the_html_is_self_contained_and_names_its_font(six: Path) -> None:
    page = six.with_suffix(".html").read_text()
    assert '<meta name="generator" content="chance-workbench">' in page
    assert '"DejaVu Sans", sans-serif' in page and "@page { size: A4;" in page
    assert not re.search(r"<link|<img|<script|url\(|@import|src=", page)


@pytest.mark.slow
def test_letter_pages_are_exactly_letter(tmp_path: Path) -> None:
    target = tmp_path / "letter.pdf"
    _print("--paper", "letter", "--players", "3", "--bleed", "1", "--out", str(target))
    assert _is_size(_sizes(target), LETTER), _sizes(target)


@pytest.mark.slow
def test_a_page_renders_with_ink(six: Path) -> None:
    page = pypdfium2.PdfDocument(six)[0]
    image = page.render(scale=30 / 72).to_pil().convert("L")
    histogram = image.histogram()  # pixels per grey level, 0 (black) to 255 (white)
    dark = sum(histogram[:200]) / sum(histogram)
    assert dark > 0.1, dark  # the card frames are coloured: far from a blank page
    assert image.getextrema()[0] < 60  # text and pips are near black


@pytest.mark.slow
def test_the_same_input_gives_the_same_bytes(tmp_path: Path) -> None:
    def run(name: str, hash_seed: str) -> bytes:
        env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "PYTHONHASHSEED": hash_seed}
        target = tmp_path / name
        subprocess.run(
            [sys.executable, "-m", "workbench", "print", str(BASE), "--only", "cards,stakes,rules", "--out", str(target)],
            check=True,
            env=env,
            capture_output=True,
        )
        return target.read_bytes()

    first, second = run("a.pdf", "1"), run("b.pdf", "2")
    assert first == second
    info = pypdf.PdfReader(tmp_path / "a.pdf").metadata
    assert info["/Creator"] == "chance-workbench"
    assert info["/CreationDate"].startswith("D:20231114221320")


@pytest.mark.slow
def test_a_changed_rule_prints_changed(tmp_path: Path) -> None:
    changed = tmp_path / "costly-three.yaml"
    changed.write_text(f"extends: {BASE}\nname: Costly three\nboard: {{3: [{{lose: {{hearts: 3}}}}]}}\n")
    target = tmp_path / "changed.pdf"
    result = runner.invoke(app, ["print", str(changed), "--only", "board,rules", "--out", str(target)])
    assert result.exit_code == 0, result.output
    text = re.sub(r"\s+", " ", _text(target))
    assert "3: -3 hearts" in text and "3: -2 hearts" not in text
    assert "Costly three" in text


@pytest.mark.slow
def test_own_files_are_replaced_others_kept(tmp_path: Path) -> None:
    foreign = tmp_path / "mine.pdf"
    foreign.write_bytes(b"%PDF-1.4 somebody else's file")
    result = runner.invoke(app, ["print", str(BASE), "--only", "rules", "--out", str(foreign)])
    assert result.exit_code == 1 and "not written by the workbench" in result.output
    assert foreign.read_bytes().startswith(b"%PDF-1.4 somebody")
    own = tmp_path / "own.pdf"
    _print("--only", "rules", "--out", str(own), "--html")
    _print("--only", "rules", "--out", str(own), "--html")  # a re-run replaces its own PDF and HTML


@pytest.mark.parametrize(
    "args, message",
    [
        (["--only", "cards,tokens"], "--only tokens: unknown part; choose from cards, guides, stakes, board, rules"),
        (["--players", "7"], "--players 7: 'Chance It (base game)' is for 3 to 6 players"),
        (["--players", "2"], "is for 3 to 6 players"),
        (["--paper", "a3"], "--paper a3: unknown paper; choose a4 or letter"),
        (["--bleed", "-1"], "--bleed -1: the bleed is a length in mm, 0 or more"),
        (["--bleed", "nan"], "--bleed nan: the bleed is a length in mm, 0 or more"),
        (["--backs-offset", "nan,0"], "--backs-offset nan,0: expected two lengths in mm"),
        (["--bleed", "7", "--paper", "letter"], "--bleed 7: at most 6 mm"),
        (["--only", "calibrate"], "choose from cards, guides, stakes, board, rules, calibration"),
        (["--backs-offset", "2"], "--backs-offset 2: expected two lengths in mm"),
        (["--backs-offset", "1e9,-1e9"], "--backs-offset 1e+09,-1e+09: at most 20 mm either way"),
    ],
)
def test_bad_options_exit_1(tmp_path: Path, args: list[str], message: str) -> None:
    target = tmp_path / "x.pdf"
    result = runner.invoke(app, ["print", str(BASE), "--out", str(target), *args])
    assert result.exit_code == 1 and message in result.output, result.output
    assert not target.exists()


def test_a_bad_source_date_epoch_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "abc")
    target = tmp_path / "x.pdf"
    result = runner.invoke(app, ["print", str(BASE), "--only", "rules", "--out", str(target)])
    assert result.exit_code == 1 and "SOURCE_DATE_EPOCH='abc': expected whole seconds" in result.output
    assert not target.exists()


class _Headers(HTMLParser):
    """The text of every table header and page title of a printed set's HTML, each as one string."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: list[str] = []
        self._open: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("th", "h1"):
            self._open = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "h1") and self._open is not None:
            text = " ".join("".join(self._open).split())
            if text:
                self.headers.append(text)
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["chance-it", "target-dice", "chance-chess"])
def test_the_printed_words_read_at_the_table(tmp_path: Path, name: str) -> None:
    """Every family's whole set: no signed amount after a verb ('each of them pays -3 coins', 'all OUT: each player
    -1 heart' read either way round),
    and every header and title on one line of its page (a stakes sheet's header wrapped to a lone 'IT')."""
    target = tmp_path / "set.pdf"
    result = runner.invoke(app, ["print", str(ROOT / "variants" / f"{name}.yaml"), "--out", str(target), "--html"])
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for page in pypdf.PdfReader(target).pages for line in page.extract_text().splitlines()]
    text = "\n".join(lines)
    signed = re.compile(r".*\b(?:pays|takes|gets|loses|gains|player:?) [-+−]\d.*")
    assert not signed.search(text), signed.findall(text)
    parser = _Headers()
    parser.feed(target.with_suffix(".html").read_text())
    assert parser.headers, "the set has headers"
    for header in parser.headers:
        assert any(header in line for line in lines), f"{header!r} is not on one line"


#: Pixels a mm when a page is rendered for its marks.
PX = 10


def _page_pixels(path: Path, index: int = 0) -> Any:
    """A page as RGB pixels, :data:`PX` a mm."""
    return pypdfium2.PdfDocument(path)[index].render(scale=PX * 25.4 / 72).to_pil().convert("RGB")


def _inked(image: Any, box_mm: tuple[float, float, float, float]) -> bool:
    """Whether anything is drawn (darker than near-white) in the box (left, top, right, bottom) in mm."""
    left, top, right, bottom = (round(v * PX) for v in box_mm)
    extrema = image.crop((left, top, right, bottom)).convert("L").getextrema()
    return bool(extrema[0] < 200)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("paper", "size", "across", "down", "holds"),
    [("a4", (210.0, 297.0), 2, 3, 6), ("letter", (215.9, 279.4), 2, 2, 4)],
)
def test_a_shops_bleed_fits_with_cut_marks_a_printer_prints(
    tmp_path: Path, paper: str, size: tuple[float, float], across: int, down: int, holds: int
) -> None:
    """--bleed 3.2 (1/8 inch, what print shops ask): the sheet holds fewer cards, says how many, and its cut marks lie
    outside the bleed and inside the 4 mm a home printer may leave blank at each edge (they sat at the page's edge)."""
    target = tmp_path / "set.pdf"
    result = runner.invoke(app, ["print", str(BASE), "--paper", paper, "--bleed", "3.2", "--only", "cards", "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert f"a sheet holds {holds} cards ({across} across, {down} down)" in result.output
    width, height = size
    cell_w, cell_h = 63 + 2 * 3.2, 88 + 2 * 3.2
    left, top = (width - across * cell_w) / 2, (height - down * cell_h) / 2
    right, bottom = left + across * cell_w, top + down * cell_h
    image = _page_pixels(target)
    assert all(abs(got - round(mm * PX)) <= 1 for got, mm in zip(image.size, size, strict=True)), image.size
    blank = 4 - 1 / PX  # a pixel's tolerance: a mark may end on the line 4 mm from the edge
    for edge in (
        (0, 0, width, blank),
        (0, height - blank, width, height),
        (0, 0, blank, height),
        (width - blank, 0, width, height),
    ):
        assert not _inked(image, edge), f"ink within 4 mm of the paper's edge: {edge}"
    cuts_x = [left + 3.2 + c * cell_w + edge for c in range(across) for edge in (0, 63)]
    cuts_y = [top + 3.2 + r * cell_h + edge for r in range(down) for edge in (0, 88)]
    for x in cuts_x:  # a mark above and below the cards on each cut, not touching the bleed
        assert _inked(image, (x - 0.3, 4, x + 0.3, top - 1)), f"no mark above the cut at x = {x:.1f} mm"
        assert _inked(image, (x - 0.3, bottom + 1, x + 0.3, height - 4)), f"no mark below the cut at x = {x:.1f} mm"
    for y in cuts_y:
        assert _inked(image, (4, y - 0.3, left - 1, y + 0.3)), f"no mark left of the cut at y = {y:.1f} mm"
        assert _inked(image, (right + 1, y - 0.3, width - 4, y + 0.3)), f"no mark right of the cut at y = {y:.1f} mm"
    for gap in ((left, top - 0.7, right, top - 0.2), (left - 0.7, top, left - 0.2, bottom)):
        assert not _inked(image, gap), "a mark runs into the bleed"
    bleed = image.getpixel((round((left + 0.5) * PX), round((top + 0.5) * PX)))
    assert bleed[2] > 150 and bleed[0] < 120, f"the card's colour fills its bleed: {bleed}"


def test_the_alignment_page_reads_the_offset_that_puts_the_back_on_its_target() -> None:
    """A printer that shifts the back by (sx, sy) mm: read where the back's cross falls on the front's scales (long-edge
    flip: mirrored left to right), print again with those numbers, and the cross lands on its target."""
    width = 210.0
    for printed in ((0.0, 0.0), (1.0, -0.5)):
        page = calibration(PrintOptions(paper="a4", backs_offset=printed))
        for shift in ((2.0, 0.0), (0.0, -3.0), (-1.5, 2.5), (-4.0, -4.0)):
            read = []
            for target, (x, y) in zip(page["targets"], page["crosses"], strict=True):
                seen_x, seen_y = width - (x + shift[0]), y + shift[1]  # where the cross shows, seen from the front
                across = {round(at, 3): value for at, value in _numbers(target["across"], printed[0], sign=1)}
                down = {round(at, 3): value for at, value in _numbers(target["down"], printed[1], sign=-1)}
                read.append((across[round(seen_x, 3)], down[round(seen_y, 3)]))
            assert len(set(read)) == 1, "every target reads the same"
            again = calibration(PrintOptions(paper="a4", backs_offset=read[0]))
            for target, (x, y) in zip(again["targets"], again["crosses"], strict=True):
                assert (round(width - (x + shift[0]), 3), round(y + shift[1], 3)) == (target["x"], target["y"])


def _numbers(ticks: list[tuple[float, bool, str]], printed: float, *, sign: int) -> list[tuple[float, float]]:
    """Every tick of a scale with the number it stands for: the printed numbers where there is one, and between them
    counted on from the centre (the offset printed with) by the tick's distance, as a reader would."""
    centre = ticks[len(ticks) // 2][0]
    numbered = [(at, float(label)) for at, _, label in ticks if label]
    assert all(value == pytest.approx(printed + sign * (at - centre)) for at, value in numbered), "the printed numbers"
    return [(at, printed + sign * round(at - centre, 3)) for at, _, _ in ticks]


@pytest.mark.slow
def test_the_alignment_page_prints_front_and_back(tmp_path: Path) -> None:
    target = tmp_path / "align.pdf"
    result = runner.invoke(app, ["print", str(BASE), "--only", "calibration", "--backs-offset", "1,-0.5", "--out", str(target)])
    assert result.exit_code == 0, result.output
    pages = pypdf.PdfReader(target).pages
    assert len(pages) == 2 and _is_size(_sizes(target), A4)
    assert "This sheet was printed with --backs-offset 1,-0.5" in " ".join(pages[0].extract_text().split())
    back = _page_pixels(target, 1)
    red = back.getpixel((round((105 + 1) * PX), round((148.5 - 0.5 - 2.5) * PX)))  # on the centre cross's upright
    assert red[0] > 150 and red[1] < 100, red


#: Points in a mm (PDF boxes are in points).
PT = 72 / 25.4


def _box_mm(box: Any) -> tuple[float, float]:
    return (round(float(box.width) / PT, 2), round(float(box.height) / PT, 2))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shop", "trim", "bleed", "alternating"),
    [("generic", (63.0, 88.0), 3.0, False), ("drivethrucards", (63.5, 88.9), 3.175, True)],
)
def test_a_print_shops_pdf_is_one_card_a_page_with_its_trim_and_bleed_boxes(
    tmp_path: Path, variant, shop: str, trim: tuple[float, float], bleed: float, alternating: bool
) -> None:
    target = tmp_path / "cards.pdf"
    args = ["print", str(BASE), "--format", "cards-pdf", "--shop", shop, "--players", "3", "--out", str(target)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "the colours are RGB, as designed" in result.output
    pages = pypdf.PdfReader(target).pages
    market, guides = sum(card.copies for card in variant.cards), 3 * 3
    assert len(pages) == 2 * (market + guides), "a front and a back for every card, no other page"
    for page in pages:
        assert _box_mm(page.trimbox) == trim
        assert _box_mm(page.bleedbox) == _box_mm(page.mediabox) == (round(trim[0] + 2 * bleed, 2), round(trim[1] + 2 * bleed, 2))
        assert float(page.trimbox.left) - float(page.mediabox.left) == pytest.approx(bleed * PT, abs=0.01)
    first = variant.cards[0]
    texts = [" ".join(page.extract_text().split()) for page in pages]
    assert f"{first.id} · " in texts[0] and "MARKET" not in texts[0]
    back = 1 if alternating else market  # the first card's back: next, or after every market front
    assert "MARKET" in texts[back] and f"{first.id} · " not in texts[back]


@pytest.mark.slow
def test_a_shop_that_takes_images_gets_one_a_card_face_at_its_size(tmp_path: Path) -> None:
    """The Game Crafter's poker cards: 2.5 x 3.5 inches and 1/8 inch of bleed at 300 dpi are 825 x 1125 pixels."""
    folder = tmp_path / "images"
    args = ["print", str(BASE), "--format", "png", "--shop", "gamecrafter", "--only", "guides", "--players", "4"]
    result = runner.invoke(app, [*args, "--out", str(folder)])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in folder.iterdir() if p.suffix == ".png")
    assert folder.with_suffix(".cards.json").is_file(), "the record of the set's cards, beside its folder"
    expected = sorted(
        f"guide-{g}-{copy}-{side}.png" for g in ("in", "out", "chance-it") for copy in (1, 2, 3, 4) for side in ("front", "back")
    )
    assert names == expected
    with Image.open(folder / "guide-in-1-front.png") as image:
        assert image.size == (825, 1125)
        assert image.getpixel((5, 5))[:3] == image.getpixel((819, 1119))[:3], "the card's colour fills its bleed"
    again = runner.invoke(app, [*args[:-2], "--players", "3", "--out", str(folder)])  # a smaller set replaces its own
    assert again.exit_code == 0, again.output
    assert len([p for p in folder.iterdir() if p.suffix == ".png"]) == 2 * 3 * 3, "the fourth copies went with the run"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "tiff"], "--format tiff: unknown format; choose sheets, cards-pdf, png, tts"),
        (["--shop", "kinkos"], "--shop kinkos: unknown shop; choose generic, drivethrucards, gamecrafter"),
        (["--format", "png", "--dpi", "50"], "--dpi 50: give whole dots per inch from 72 to 1200"),
        (["--format", "png", "--html"], "--html: with --format png the folder is the set"),
        (
            ["--format", "cards-pdf", "--only", "stakes"],
            "--only stakes: with --format cards-pdf, the cards: choose from cards, guides",
        ),
        (["--format", "cards-pdf", "--bleed", "4"], "--bleed 4: a card's PDF holds a bleed of at most 3.5 mm"),
        (
            ["--base-url", "https://example.org"],
            "--base-url https://example.org: only with --format tts (where the images of an online table are)",
        ),
        (
            ["--format", "tts", "--base-url", "ftp://example.org"],
            "--base-url ftp://example.org: expected the https:// (or http://) address",
        ),
        (["--format", "tts", "--html"], "--html: with --format tts the folder is the set"),
        (["--format", "tts", "--changed-since", "old.pdf"], "--changed-since old.pdf: an online table takes the whole set"),
        (["--format", "png", "--dpi", "0"], "--dpi 0: give whole dots per inch from 72 to 1200"),
        (["--format", "tts", "--no-backs"], "--backs: an online table's decks have backs"),
        (["--format", "tts", "--base-url", "https://"], "--base-url https://: expected the https:// (or http://) address"),
        (["--format", "tts", "--base-url", "https://h/?a=1#f"], "--base-url https://h/?a=1#f: the address of a folder"),
        (["--format", "tts", "--base-url", "https://h/a b/"], "--base-url https://h/a b/: expected the https://"),
    ],
)
def test_bad_shop_options_exit_1(tmp_path: Path, args: list[str], message: str) -> None:
    target = tmp_path / "out"
    result = runner.invoke(app, ["print", str(BASE), "--out", str(target), *args])
    assert result.exit_code == 1 and message in result.output, result.output
    assert not target.exists()


@pytest.mark.slow
def test_the_images_default_folder_is_made_under_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["print", str(BASE), "--format", "png", "--dpi", "72", "--only", "guides", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "wrote reports/chance-it-cards" in result.output
    assert len(list((tmp_path / "reports" / "chance-it-cards").glob("guide-*-front.png"))) == 9


def _png(colour: str, size: tuple[int, int] = (4, 6)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_deck_past_69_cards_takes_a_second_sheet_and_every_copy_is_a_card() -> None:
    """Tabletop Simulator's deck sheet is at most 10 x 7 with the last place kept for a hidden card: 75 cards are a
    full sheet of 69 and a sheet of 6, and each card names its sheet's place (CardID = sheet key x 100 + place)."""
    faces = [Page("cards", f"c{i}-1-front", _png("red" if i < 69 else "blue")) for i in range(75)]
    html = "".join(
        f'<div class="slot" data-card="cards:c{i}" data-version="v" data-side="front" data-title="C{i}" '
        f'data-description="does {i}" data-page="cards:c{i}-1-front"></div>'
        for i in range(75)
    )
    pages = [*faces, Page("cards", "c0-1-back", _png("black")), Page("", "", _png("white"))]
    pieces = [Piece("die", 2, 6, plural="dice"), Piece("die", 1, 7, plural="dice"), Piece("coin", 0)]
    exported = tts.export(html, pages, pieces, "Set", str)
    decks = [o for o in exported.saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(decks) == 1
    deck = decks[0]
    sheets = {key: (entry["NumWidth"], entry["NumHeight"], entry["FaceURL"]) for key, entry in deck["CustomDeck"].items()}
    assert sheets == {"1": (10, 7, "cards-sheet-1.png"), "2": (6, 1, "cards-sheet-2.png")}
    assert deck["DeckIDs"] == [100 + i for i in range(69)] + [200 + i for i in range(6)]
    assert [(c["Name"], c["Nickname"], c["Description"], c["CardID"]) for c in deck["ContainedObjects"]][68:70] == [
        ("Card", "C68", "does 68", 168),
        ("Card", "C69", "does 69", 200),
    ]
    with Image.open(io.BytesIO(exported.images["cards-sheet-1.png"])) as sheet:
        assert sheet.size == (40, 42) and sheet.getpixel((39, 41)) == (255, 255, 255), "the 70th place is left empty"
        assert sheet.getpixel((35, 41)) == (255, 0, 0)
    with Image.open(io.BytesIO(exported.images["cards-sheet-2.png"])) as sheet:
        assert sheet.size == (24, 6) and sheet.getpixel((0, 0)) == (0, 0, 255)
    objects = exported.saved["ObjectStates"]
    assert [o["Name"] for o in objects] == ["DeckCustom", "Custom_Tile", "Bag", "Infinite_Bag"]
    assert objects[1]["CustomImage"]["ImageURL"] == "page-1.png"
    assert [die["Name"] for die in objects[2]["ContainedObjects"]] == ["Die_6", "Die_6"]
    assert objects[3]["Nickname"] == "Set: coins (any number)" and len(objects[3]["ContainedObjects"]) == 1
    assert exported.left_out == ["1 die of 7 sides"], "Tabletop Simulator has no die of 7 sides: said, not faked"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["chance-it", "target-dice", "chance-chess"])
def test_an_online_tables_set_loads_as_tabletop_simulator_reads_it(tmp_path: Path, name: str) -> None:
    """--format tts: one DeckCustom a deck with one card a copy, deck sheets of the grid they state at 150 dpi (a card
    63 x 88 mm is 372 x 520 pixels), one back a deck, the other pages as tiles, every image where its URL says."""
    folder = tmp_path / "online"
    result = runner.invoke(app, ["print", str(ROOT / "variants" / f"{name}.yaml"), "--format", "tts", "--out", str(folder)])
    assert result.exit_code == 0, result.output
    saved = json.loads((folder / "online.json").read_text())
    objects = saved["ObjectStates"]
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    loaded = load_variant(ROOT / "variants" / f"{name}.yaml").variant
    assert [len(deck["DeckIDs"]) for deck in decks] == _deck_sizes(name, loaded)
    for deck in decks:
        assert [card["CardID"] for card in deck["ContainedObjects"]] == deck["DeckIDs"]
        assert all(card["Name"] == "Card" and card["Nickname"] for card in deck["ContainedObjects"])
        for entry in deck["CustomDeck"].values():
            face = Path(url2pathname(urlparse(entry["FaceURL"]).path))
            back = Path(url2pathname(urlparse(entry["BackURL"]).path))
            assert face.parent == back.parent == folder.resolve()
            with Image.open(face) as image:
                assert image.size == (372 * entry["NumWidth"], 520 * entry["NumHeight"])
            with Image.open(back) as image:
                assert image.size == (372, 520)
    bags = {o["Nickname"].split(": ", 1)[1]: [c["Name"] for c in o["ContainedObjects"]] for o in objects if o["Name"] == "Bag"}
    if name == "chance-chess":
        assert bags == {}, "the chess set is the table's own"
    else:
        assert bags[f"{loaded.dice.count} dice"] == [f"Die_{loaded.dice.sides}"] * loaded.dice.count
    if name == "chance-it":
        coins = loaded.supply.coins
        assert bags[f"{coins.small} coins"] == ["Chip_10"] * coins.small
        assert bags[f"{coins.big} tokens worth {coins.big_value} coins"] == ["Chip_10"] * coins.big
        colours = {o["Nickname"]: o["ContainedObjects"][0].get("ColorDiffuse") for o in objects if o["Name"] == "Bag"}
        hearts = loaded.supply.hearts.small
        coin, heart = colours[f"Chance It (base game): {coins.small} coins"], colours[f"Chance It (base game): {hearts} hearts"]
        assert coin and heart and coin != heart, "a coin and a heart look different"
    tiles = [o for o in objects if o["Name"] == "Custom_Tile"]
    assert tiles and all(Path(url2pathname(urlparse(t["CustomImage"]["ImageURL"]).path)).is_file() for t in tiles)
    hosted = runner.invoke(
        app,
        [
            "print",
            str(ROOT / "variants" / f"{name}.yaml"),
            "--format",
            "tts",
            "--out",
            str(folder),
            "--base-url",
            "https://example.org/set/",
        ],
    )
    assert hosted.exit_code == 0, hosted.output
    urls = [
        e["FaceURL"]
        for d in json.loads((folder / "online.json").read_text())["ObjectStates"]
        for e in d.get("CustomDeck", {}).values()
    ]
    assert urls and all(url.startswith("https://example.org/set/") and "//" not in url[8:] for url in urls)


def _deck_sizes(name: str, variant: Any) -> list[int]:
    """The copies in each deck of a family's set, from the variant itself (the guide cards: 3 a player, 6 players)."""
    if name == "chance-it":
        return [sum(card.copies for card in variant.cards), 3 * variant.players.max]
    if name == "target-dice":
        return [sum(variant.deck.numbers.values()) + sum(variant.deck.specials.copies().values())]
    return [variant.deck.size]


@pytest.mark.slow
@pytest.mark.parametrize("form", FORMATS)
@pytest.mark.parametrize("name", ["chance-it", "target-dice", "chance-chess"])
def test_every_format_prints_every_family(tmp_path: Path, form: str, name: str) -> None:
    """The formats are one list (printing.FORMATS): each prints each family's set, to a file or a folder."""
    target = tmp_path / ("set" if form in ("png", "tts") else "set.pdf")
    args = ["print", str(ROOT / "variants" / f"{name}.yaml"), "--format", form, "--out", str(target)]
    result = runner.invoke(app, [*args, *(["--dpi", "72"] if form in ("png", "tts") else [])])
    assert result.exit_code == 0, result.output
    record = target.with_suffix(".cards.json")
    assert f"wrote {display_path(target)}, " in result.output and result.output.rstrip().endswith(display_path(record))
    assert json.loads(record.read_text())["cards"], "the record of the set's cards"
    written = [p for p in target.iterdir() if p.suffix == ".png"] if target.is_dir() else [target]
    assert written and all(p.stat().st_size > 0 for p in written)


@pytest.mark.slow
def test_a_reprint_after_a_cost_change_prints_exactly_that_card_and_its_copies(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "variants", tmp_path / "variants")
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    variant = tmp_path / "variants" / "chance-it.yaml"
    first = runner.invoke(app, ["print", str(variant), "--out", str(tmp_path / "old.pdf")])
    assert first.exit_code == 0, first.output
    record = json.loads((tmp_path / "old.cards.json").read_text())
    assert record["cards"]["cards:lucky-find"]["copies"] == 2 and record["cards"]["guides:guide-in"]["copies"] == 6
    market = tmp_path / "cards" / "chance-it-market.yaml"
    market.write_text(
        market.read_text().replace(
            "{id: lucky-find, name: Lucky Find, when: die-1, cost: 2,", "{id: lucky-find, name: Lucky Find, when: die-1, cost: 3,"
        )
    )

    again = runner.invoke(
        app, ["print", str(variant), "--out", str(tmp_path / "new.pdf"), "--changed-since", str(tmp_path / "old.pdf")]
    )

    assert again.exit_code == 0, again.output
    assert "Lucky Find (changed): 1 card(s), 2 copies to print" in again.output
    pages = [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(tmp_path / "new.pdf").pages]
    ids = re.findall(r"(\S+) · Chance It \(base game\) · ", " ".join(pages))
    assert ids == ["lucky-find", "lucky-find"], "its two copies, and no other card (on a sheet, and its backs)"
    assert len(pages) == 2 and "Stakes sheet" not in " ".join(pages)
    same = runner.invoke(
        app, ["print", str(variant), "--out", str(tmp_path / "old.pdf"), "--changed-since", str(tmp_path / "old.pdf")]
    )
    assert same.exit_code == 1 and "a reprint would replace the set it compares with" in same.output, same.output
    assert len(pypdf.PdfReader(tmp_path / "old.pdf").pages) > 2, "the set compared with stands whole"
    mending = "{id: mending, name: Mending, when: die-2, cost: 2, copies: "
    market.write_text(market.read_text().replace(mending + "2,", mending + "3,"))
    more = runner.invoke(
        app, ["print", str(variant), "--out", str(tmp_path / "more.pdf"), "--changed-since", str(tmp_path / "new.pdf")]
    )
    assert more.exit_code == 0 and "Mending (copies 2 -> 3): 1 card(s), 3 copies to print" in more.output, more.output
    unchanged = runner.invoke(
        app, ["print", str(variant), "--out", str(tmp_path / "same.pdf"), "--changed-since", str(tmp_path / "more.cards.json")]
    )
    assert unchanged.exit_code == 0 and "no card changed, nothing to print" in unchanged.output, unchanged.output
    assert not (tmp_path / "same.pdf").exists()


@pytest.mark.parametrize(
    ("record", "said"),
    [
        ('{"cards": {"gone": {"version": "x", "title": 5}}}', "is not a record of printed cards"),
        ('{"cards": ["a"]}', "is not a record of printed cards"),
        (
            '{"game": "target-dice", "cards": {"cards:x": {"version": "x", "copies": 1, "title": "X"}}}',
            "a record of target-dice cards",
        ),
        (None, "is not a record of printed cards"),  # a FIFO: read, it would hold the command forever
    ],
)
def test_a_record_that_is_not_one_of_this_games_cards_is_refused(tmp_path: Path, record: str | None, said: str) -> None:
    path = tmp_path / "old.json"
    if record is None:
        os.mkfifo(path)
    else:
        path.write_text(record)
    result = runner.invoke(app, ["print", str(BASE), "--out", str(tmp_path / "new.pdf"), "--changed-since", str(path)])
    assert result.exit_code == 1 and said in result.output, result.output
    assert not (tmp_path / "new.pdf").exists()


def test_a_reprint_of_parts_without_cards_and_images_of_no_cards_are_refused(tmp_path: Path) -> None:
    (tmp_path / "old.cards.json").write_text('{"cards": {"cards:x": {"version": "x", "copies": 1, "title": "X"}}}')
    args = [
        "print",
        str(BASE),
        "--out",
        str(tmp_path / "new.pdf"),
        "--only",
        "rules",
        "--changed-since",
        str(tmp_path / "old.pdf"),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and "--only rules: no cards to print: the parts chosen have none" in result.output
    bare = tmp_path / "bare.yaml"
    bare.write_text(f"extends: {BASE}\nname: no cards\ncards: []\n")
    result = runner.invoke(app, ["print", str(bare), "--format", "png", "--only", "cards", "--out", str(tmp_path / "images")])
    assert result.exit_code == 1 and "no cards to print" in result.output, result.output
    assert not (tmp_path / "images").exists()


@pytest.mark.slow
def test_the_record_goes_where_the_set_really_is_and_a_dot_folder_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link.pdf").symlink_to(tmp_path / "real" / "set.pdf")
    result = runner.invoke(app, ["print", str(BASE), "--only", "guides", "--out", str(tmp_path / "link.pdf")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "real" / "set.cards.json").is_file() and not (tmp_path / "link.cards.json").exists()
    online = tmp_path / "online"
    online.mkdir()
    monkeypatch.chdir(online)
    result = runner.invoke(app, ["print", str(BASE), "--format", "tts", "--dpi", "72", "--out", "."])
    assert result.exit_code == 0, result.output
    assert (online / "online.json").is_file() and (tmp_path / "online.cards.json").is_file()


def test_a_users_image_named_like_the_sets_is_kept_and_said_so(tmp_path: Path) -> None:
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "mycard-1-front.png").write_bytes(b"mine")
    result = runner.invoke(app, ["print", str(BASE), "--format", "png", "--out", str(folder)])
    assert result.exit_code == 1 and "mycard-1-front.png: this file is named like those the command writes" in result.output
    assert "move or rename it" in result.output and (folder / "mycard-1-front.png").read_bytes() == b"mine"
