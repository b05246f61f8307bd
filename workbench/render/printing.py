"""Printing a playtest set, for any family: paper, options, card sheets with cut marks and backs, and the PDF.

A family lays out its set in a template that extends ``print_page.html.j2`` (the
document, the page and card-sheet style) and imports ``print_kit.j2`` (the ``sheets``
macro, which places up to 3 x 3 poker-size cards a page (as many as fit with the bleed:
:func:`layout`) with cut marks and mirrored backs and asks the family's ``caller`` for each
card's face, and the ``die`` macro); the shared pages add the rules summary and, when asked
for, the duplex alignment page (:func:`calibration`). The family's
Python builds the faces; :func:`sheets` pages them and :func:`render_pdf` prints the
HTML with WeasyPrint, byte for byte the same for the same input when
``SOURCE_DATE_EPOCH`` is set.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any

import jinja2
from pydantic import BaseModel

from workbench import GENERATOR  # in the HTML meta, the PDF Creator and ID
from workbench.errors import UsageError, players_span
from workbench.render import templates
from workbench.render.formats import FORMATS

#: Paper name -> (CSS page size, width mm, height mm).
PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("letter", 215.9, 279.4)}
CARD_W, CARD_H = 63.0, 88.0  #: poker size, mm
MOST_ACROSS, MOST_DOWN = 3, 3  #: cards a sheet holds at most
PRINTABLE = 4.0  #: mm at each edge of the paper that a home printer may leave blank: nothing is drawn there
MARK_GAP = 1.0  #: mm between a cut mark and the cards' bleed
MARK_LENGTH = 7.0  #: mm, at most
MARK_SHORTEST = 1.5  #: mm: a cut mark is at least this long, else the sheet holds a column or a row fewer
MOST_BLEED = 6.0  #: mm (print shops ask 3 mm, or 1/8 inch)
CARDS_PDF_BLEED = 3.5  #: mm: the most a card's PDF page sets as its BleedBox (WeasyPrint's limit: 10 points)
PARTS = ("calibration",)  #: the parts every family's set has besides its own, printed only when asked for
MOST_DPI = 1200  #: for images (a shop asks 300)
MOST_OFFSET = 20.0  #: mm the backs may be shifted either way


@dataclass(frozen=True)
class Shop:
    """What a print shop asks of card files, as its guide for poker-size cards says: the trim size, the bleed and the
    order of the pages (check the shop's current template before an order: shops change them)."""

    name: str
    card: tuple[float, float]  #: trim width and height, mm
    bleed: float  #: mm on every side
    alternating: bool  #: each card's front, then its back (else every front, then every back, per deck)
    order: str  #: the page order, in words


#: The shops whose card files ``--shop`` writes, by name.
SHOPS = {
    shop.name: shop
    for shop in (
        Shop("generic", (CARD_W, CARD_H), 3.0, False, "every front, then every back in the same order, per deck"),
        Shop("drivethrucards", (63.5, 88.9), 3.175, True, "each card's front, then its back"),
        Shop("gamecrafter", (63.5, 88.9), 3.175, False, "every front, then every back in the same order, per deck"),
    )
}
#: Pips of a die face drawn on a 24 x 24 square: face -> (x, y) centres (other faces are drawn as numbers).
PIPS = {
    1: [(12, 12)],
    2: [(17, 7), (7, 17)],
    3: [(17, 7), (12, 12), (7, 17)],
    4: [(7, 7), (17, 7), (7, 17), (17, 17)],
    5: [(7, 7), (17, 7), (12, 12), (7, 17), (17, 17)],
    6: [(7, 7), (17, 7), (7, 12), (17, 12), (7, 17), (17, 17)],
}


@dataclass(frozen=True)
class PrintOptions:
    """What to print and on what paper (checked against the variant by :func:`print_options`)."""

    paper: str = "a4"  #: a key of PAPERS
    players: int = 4  #: the set is for this many players (guide cards, sheets up to it)
    bleed: float = 0.0  #: mm of card background drawn beyond the trim on every side
    backs: bool = True  #: a page of card backs after each page of card fronts
    backs_offset: tuple[float, float] = (0.0, 0.0)  #: mm the backs are shifted (right, down) for a misaligned duplex
    only: tuple[str, ...] = ()  #: parts printed, in the family's order
    format: str = "sheets"  #: one of FORMATS
    shop: Shop = SHOPS["generic"]  #: whose card size, bleed and page order (formats other than sheets)
    dpi: int = 300  #: of images
    cards: frozenset[str] | None = None  #: the cards printed, as ``DECK:ID`` (None: every one; see :func:`card_key`)

    @property
    def one_a_page(self) -> bool:
        """Whether the cards are printed one a page, each page named by its card (no sheets, no cut marks)."""
        return FORMATS[self.format].one_a_page


def print_options(
    options: dict[str, Any], parts: Sequence[str], players: tuple[int, int], name: str, *, decks: Sequence[str]
) -> PrintOptions:
    """Check the command line's options against a variant (``name``, for ``players`` = (fewest, most), whose set
    has ``parts`` in the order printed, ``decks`` of them its cards); :class:`UsageError` names the bad one.

    ``options``: ``paper`` (a4|letter), ``players`` (None: the most), ``bleed`` (mm; None: 0 on sheets, the shop's
    otherwise), ``backs`` (bool), ``backs_offset`` ("DX,DY" in mm, or a pair), ``only`` (comma list or None),
    ``format`` (one of :data:`FORMATS`), ``shop`` (a key of :data:`SHOPS`), ``dpi`` (whole dots per inch), ``cards``
    (the ``DECK:ID`` of the cards to print, for a reprint of those that changed; None: every one).
    """
    build_date()  # a bad SOURCE_DATE_EPOCH is the user's to fix, found before any work
    paper = str(options.get("paper") or "a4").lower()
    if paper not in PAPERS:
        raise UsageError("paper", "unknown paper; choose a4 or letter", str(options.get("paper")))
    form = str(options.get("format") or "sheets")
    if form not in FORMATS:
        raise UsageError("format", f"unknown format; choose {', '.join(FORMATS)}", form)
    cards = FORMATS[form].cards_only
    shop = SHOPS.get(str(options.get("shop") or "generic"))
    if shop is None:
        raise UsageError("shop", f"unknown shop; choose {', '.join(SHOPS)}", str(options.get("shop")))
    dpi = options.get("dpi")
    dpi = 300 if dpi is None else dpi
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not 72 <= dpi <= MOST_DPI:
        raise UsageError("dpi", f"give whole dots per inch from 72 to {MOST_DPI}", str(dpi))
    if form == "tts" and options.get("backs") is False:
        raise UsageError("backs", "an online table's decks have backs: leave out --no-backs")
    count = options.get("players")
    low, high = players
    count = high if count is None else count
    if not low <= count <= high:
        raise UsageError("players", f"'{name}' is for {players_span(low, high)} players", str(count))
    given = options.get("bleed")
    bleed = float(given if given is not None else shop.bleed if cards else 0.0)
    if not math.isfinite(bleed) or bleed < 0:
        raise UsageError("bleed", "the bleed is a length in mm, 0 or more", f"{bleed:g}")
    if bleed > MOST_BLEED:
        raise UsageError("bleed", f"at most {MOST_BLEED:g} mm (print shops ask 3 mm, or 1/8 inch: 3.175)", f"{bleed:g}")
    if form == "cards-pdf" and bleed > CARDS_PDF_BLEED:
        raise UsageError("bleed", f"a card's PDF holds a bleed of at most {CARDS_PDF_BLEED:g} mm (10 points)", f"{bleed:g}")
    every = tuple(decks) if cards else (*parts, *PARTS) if form == "sheets" else tuple(parts)
    only = options.get("only")
    chosen: tuple[str, ...]
    if only is None or only == "":
        chosen = tuple(decks) if cards or options.get("cards") is not None else tuple(parts)  # a reprint: the cards
    else:
        asked = [part.strip() for part in (only.split(",") if isinstance(only, str) else only) if part.strip()]
        unknown = [part for part in asked if part not in every]
        if unknown or not asked:
            which = f"with --format {form}, the cards: choose" if cards else "unknown part; choose"
            raise UsageError("only", f"{which} from {', '.join(every)}", ",".join(unknown) or str(only))
        chosen = tuple(part for part in every if part in asked)
    offset = options.get("backs_offset") or (0.0, 0.0)
    if isinstance(offset, str):
        try:
            dx, dy = (float(part) for part in offset.split(","))
            if not (math.isfinite(dx) and math.isfinite(dy)):
                raise ValueError
        except ValueError:
            raise UsageError("backs_offset", "expected two lengths in mm, right and down, such as 1,-0.5", offset) from None
        offset = (dx, dy)
    if any(abs(shift) > MOST_OFFSET for shift in offset):
        shown = ",".join(f"{shift:g}" for shift in offset)
        raise UsageError("backs_offset", f"at most {MOST_OFFSET:g} mm either way: a printer is off by a few", shown)
    printed = options.get("cards")
    return PrintOptions(
        paper, count, bleed, bool(options.get("backs", True)), tuple(offset), chosen, form, shop, dpi,
        frozenset(printed) if printed is not None else None,
    )  # fmt: skip


def layout(paper: str, bleed: float) -> tuple[int, int]:
    """How many cards a sheet holds across and down: at most 3 x 3, as many as fit with their bleed and with cut marks
    at least :data:`MARK_SHORTEST` long that stay out of the edge a printer leaves blank (:data:`PRINTABLE`).

    >>> layout("a4", 0), layout("letter", 0), layout("a4", 3.2), layout("letter", 3.2)
    ((3, 3), (3, 3), (2, 3), (2, 2))
    """
    _, width, height = PAPERS[paper]
    room = 2 * (PRINTABLE + MARK_GAP + MARK_SHORTEST)
    across = int((width - room) // (CARD_W + 2 * bleed))
    down = int((height - room) // (CARD_H + 2 * bleed))
    return min(across, MOST_ACROSS), min(down, MOST_DOWN)


def layout_note(paper: str, bleed: float) -> str | None:
    """What a set printed with this bleed says about its sheets, when they hold fewer than 3 x 3 cards (else None)."""
    across, down = layout(paper, bleed)
    if (across, down) == (MOST_ACROSS, MOST_DOWN):
        return None
    return (
        f"with a bleed of {bleed:g} mm on {paper}, a sheet holds {across * down} cards ({across} across, {down} down), "
        "so that the cut marks stay where a printer prints"
    )


def shop_note(shop: str, bleed: float | None, *, images: bool, backs: bool) -> str:
    """What a print shop's files are (``shop`` a key of :data:`SHOPS`, checked): size, bleed, page order (or, for
    ``images``, their names; without ``backs``, fronts only), colours."""
    chosen = SHOPS[shop]
    width, height = chosen.card
    order = "images named by card, copy and side" if images else f"pages in the order {chosen.order}"
    if not backs:
        order = f"{order}, fronts only"
    return (
        f"{chosen.name}: cards of {width:g} x {height:g} mm with {chosen.bleed if bleed is None else bleed:g} mm of bleed, "
        f"{order}; the colours are RGB, as designed (the shop converts them for its press: order a proof)"
    )


@dataclass
class Sheet:
    """One page of card fronts (or backs): per slot its left/top in mm and the card there, or None."""

    kind: str  #: "front" or "back"
    slots: list[tuple[float, float, dict[str, Any] | None]] = field(default_factory=list)
    name: str = ""  #: a page of one card: ``DECK:ID-COPY-front`` or ``-back`` (the page's anchor; see :func:`card_pages`)


def geometry(options: PrintOptions) -> dict[str, Any]:
    """Where the cards sit on the page and where the cut marks go, in mm."""
    if options.one_a_page:
        return _card_pages(options)
    size, width, height = PAPERS[options.paper]
    bleed = options.bleed
    across, down = layout(options.paper, bleed)
    cell_w, cell_h = CARD_W + 2 * bleed, CARD_H + 2 * bleed
    left, top = (width - across * cell_w) / 2, (height - down * cell_h) / 2
    right, bottom = left + across * cell_w, top + down * cell_h
    xs = sorted({round(left + c * cell_w + bleed + edge, 3) for c in range(across) for edge in (0, CARD_W)})
    ys = sorted({round(top + r * cell_h + bleed + edge, 3) for r in range(down) for edge in (0, CARD_H)})
    marks = []
    for x in xs:
        marks.append((x, max(PRINTABLE, top - MARK_GAP - MARK_LENGTH), x, top - MARK_GAP))
        marks.append((x, bottom + MARK_GAP, x, min(height - PRINTABLE, bottom + MARK_GAP + MARK_LENGTH)))
    for y in ys:
        marks.append((max(PRINTABLE, left - MARK_GAP - MARK_LENGTH), y, left - MARK_GAP, y))
        marks.append((right + MARK_GAP, y, min(width - PRINTABLE, right + MARK_GAP + MARK_LENGTH), y))
    return {
        "size": size,
        "paper_size": size,
        "width": width,
        "height": height,
        "bleed": bleed,
        "page_bleed": 0.0,
        "card_w": CARD_W,
        "card_h": CARD_H,
        "across": across,
        "down": down,
        "cell_w": cell_w,
        "cell_h": cell_h,
        "left": left,
        "top": top,
        "marks": [tuple(round(v, 3) for v in m) for m in marks],
    }


def _card_pages(options: PrintOptions) -> dict[str, Any]:
    """One card a page, the page the card's trim and its bleed beyond it (the PDF's TrimBox and BleedBox)."""
    width, height = options.shop.card
    bleed = options.bleed
    return {
        "size": f"{width}mm {height}mm",
        "paper_size": PAPERS[options.paper][0],  # the pages that are not cards (an online table's)
        "width": width,
        "height": height,
        "bleed": bleed,
        "page_bleed": bleed,
        "card_w": width,
        "card_h": height,
        "across": 1,
        "down": 1,
        "cell_w": width + 2 * bleed,
        "cell_h": height + 2 * bleed,
        "left": -bleed,
        "top": -bleed,
        "marks": [],
    }


def card_key(deck: str, card: dict[str, Any]) -> str:
    """A card of a set, as its record and ``--changed-since`` name it: ``DECK:ID``."""
    return f"{deck}:{card['id']}"


def card_version(card: dict[str, Any]) -> str:
    """A card face's own version: the sha256 of everything printed on it (its text, cost and art) but the small print
    (which holds the whole variant's version), first 8 hex digits."""
    printed = {key: value for key, value in card.items() if key not in ("small", "version")}
    return hashlib.sha256(json.dumps(printed, sort_keys=True, default=str).encode()).hexdigest()[:8]


def sheets(cards: list[dict[str, Any]], options: PrintOptions, deck: str) -> list[Sheet]:
    """Pages of fronts (as many as :func:`layout` fits), each followed (with backs on) by its backs, columns reversed
    for long-edge duplex; for a print shop or an online table, one card a page in the shop's order, each page named
    by the ``deck`` (the part's name), the card's ``id`` (every face a family prints has one, with a ``title`` and a
    ``description`` for an online table) and its copy. Each card is given its ``key`` and ``version`` (the set's
    record: :func:`card_record`); with ``options.cards``, only those cards are printed."""
    cards = [{**card, "key": card_key(deck, card), "version": card_version(card)} for card in cards]
    if options.cards is not None:
        cards = [card for card in cards if card["key"] in options.cards]
    if not options.one_a_page:
        return list(_sheets(cards, geometry(options), options))
    geo, copies = geometry(options), Counter[str]()
    fronts, backs = [], []
    for card in cards:
        copies[card["id"]] += 1
        name = f"{deck}:{card['id']}-{copies[card['id']]}"
        fronts.append(Sheet("front", [(geo["left"], geo["top"], card)], f"{name}-front"))
        backs.append(Sheet("back", [(geo["left"], geo["top"], card)], f"{name}-back"))
    if not options.backs:
        return fronts
    if options.shop.alternating:
        return [page for pair in zip(fronts, backs, strict=True) for page in pair]
    return fronts + backs


def _sheets(cards: list[dict[str, Any]], geo: dict[str, Any], options: PrintOptions) -> Iterator[Sheet]:
    across, per_page = geo["across"], geo["across"] * geo["down"]
    dx, dy = options.backs_offset
    for start in range(0, len(cards), per_page):
        page = cards[start : start + per_page]
        front, back = Sheet("front"), Sheet("back")
        for slot in range(per_page):
            row, col = divmod(slot, across)
            card = page[slot] if slot < len(page) else None
            front.slots.append((geo["left"] + col * geo["cell_w"], geo["top"] + row * geo["cell_h"], card))
            mirrored = row * across + (across - 1 - col)
            twin = page[mirrored] if mirrored < len(page) else None
            back.slots.append((geo["left"] + col * geo["cell_w"] + dx, geo["top"] + row * geo["cell_h"] + dy, twin))
        yield front
        if options.backs:
            yield back


#: The duplex alignment page: where its targets are (mm from the paper's centre), how far its scales reach either way,
#: and the step between two of their ticks (every other one numbered).
TARGETS = ((-50.0, -80.0), (0.0, 0.0), (50.0, 80.0))
SCALE_REACH, SCALE_STEP = 6.0, 0.5


def calibration(options: PrintOptions) -> dict[str, Any]:
    """The duplex alignment page, front and back, in mm: each target's scales on the front and its cross on the back.

    Printed on both sides of one sheet (long-edge flip: the back is mirrored left to right), a cross on the back
    lands on its target when the printer puts the back where it means to. Held to the light, where it lands is read
    on the front's scales, numbered with the offset to print with: across, the back's shift shows mirrored, so the
    number is the current X plus what the eye sees to the right; down, it shows as it is, so the number is the
    current Y less what the eye sees downwards.
    """
    _, width, height = PAPERS[options.paper]
    dx, dy = options.backs_offset
    steps = round(SCALE_REACH / SCALE_STEP)
    ticks = [i * SCALE_STEP for i in range(-steps, steps + 1)]
    targets, crosses = [], []
    for tx, ty in TARGETS:
        x, y = width / 2 + tx, height / 2 + ty
        # a long tick every mm and a number every 2 mm, but none at the centre (the offset printed with, said above
        # the targets) and the down scale's only from 4 mm (the across scale's numbers are beside its centre)
        across = [
            (round(x + seen, 3), i % 2 == 0, f"{dx + seen:g}" if i % 4 == 0 and seen else "")
            for i, seen in enumerate(ticks, -steps)
        ]
        down = [
            (round(y + seen, 3), i % 2 == 0, f"{dy - seen:g}" if i % 4 == 0 and abs(seen) >= 4 else "")
            for i, seen in enumerate(ticks, -steps)
        ]
        targets.append({"x": round(x, 3), "y": round(y, 3), "across": across, "down": down})
        crosses.append((round(width - x + dx, 3), round(y + dy, 3)))
    return {"targets": targets, "crosses": crosses, "reach": SCALE_REACH, "offset": f"{dx:g},{dy:g}"}


def content_hash(variant: BaseModel) -> str:
    """The variant's version for the small print: sha256 of its canonical JSON, first 8 hex digits."""
    canonical = json.dumps(variant.model_dump(mode="json", by_alias=True), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:8]


def build_date() -> str:
    """The document's date (W3C format): SOURCE_DATE_EPOCH when set, so builds are reproducible, else now.

    A SOURCE_DATE_EPOCH that is not whole seconds raises :class:`UsageError` (WeasyPrint's font tools read it too).
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if not epoch.strip().isdigit() or int(epoch) > 253_402_300_799:  # beyond 9999-12-31
        raise UsageError(None, f"SOURCE_DATE_EPOCH={epoch!r}: expected whole seconds since 1970-01-01 (or leave it unset)")
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def page_context(variant: BaseModel, options: PrintOptions) -> dict[str, Any]:
    """What the shared page templates need: the variant and its version, the options, the page geometry, the
    generator and the date."""
    return {
        "variant": variant,
        "version": content_hash(variant),
        "options": options,
        "geo": geometry(options),
        "calibration": calibration(options),
        "parts": options.only,
        "generator": GENERATOR,
        "date": build_date(),
        "pips": PIPS,
    }


def environment(package: str) -> jinja2.Environment:
    """The Jinja2 environment of a family's print templates: its own ``templates/`` folder, then the shared pages'."""
    return templates(package, "workbench.render")


def render_pdf(html: str, version: str) -> bytes:
    """The HTML of a playtest set as PDF bytes; the same HTML and date give the same bytes."""
    import weasyprint

    # A fixed identifier (the ID is otherwise left out or random): it carries the generator's
    # name in plain text at the end of the file, where compressed metadata cannot hide it.
    identifier = f"{GENERATOR} {version} {hashlib.sha256(html.encode()).hexdigest()[:16]}"
    pdf: bytes = weasyprint.HTML(string=html, base_url=None).write_pdf(pdf_identifier=identifier.encode())  # no target: the bytes
    return pdf


@dataclass(frozen=True)
class Piece:
    """A component of the set besides its cards and pages, as an online table lays it out: ``count`` dice of
    ``sides`` sides, or ``count`` tokens (``sides`` 0; ``count`` 0: as many as wanted, an unlimited supply)."""

    name: str
    count: int
    sides: int = 0
    plural: str = ""  #: when not the name and an s
    colour: str = ""  #: a token's, as ``#rrggbb`` (the table's own colour when empty)

    @property
    def many(self) -> str:
        """``count`` of them, in words: ``5 dice``, ``1 coin``."""
        return f"{self.count} {self.name if self.count == 1 else self.plural or f'{self.name}s'}"


@dataclass(frozen=True)
class Page:
    """A printed page as an image: a card's face (``deck`` and ``name`` of its card), or another page of the set
    (``deck`` and ``name`` empty)."""

    deck: str
    name: str  #: ``ID-COPY-front`` or ``-back``
    image: bytes  #: PNG


def render_images(html: str, dpi: int) -> list[Page]:
    """The pages of a set printed one card a page (from :func:`sheets` with a format other than sheets) as PNG images
    at ``dpi``, the card's trim and bleed: each card's named by its anchor, any other page as it comes; the same HTML
    gives the same bytes."""
    import io

    import pypdfium2
    import weasyprint

    document = weasyprint.HTML(string=html, base_url=None).render()
    anchors = [[name for name in page.anchors if ":" in name] for page in document.pages]
    if any(len(found) > 1 for found in anchors):
        raise ValueError("a page holds more than one card: not a set of one card a page")
    pdf = pypdfium2.PdfDocument(document.write_pdf())
    pages = []
    for found, page in zip(anchors, pdf, strict=True):
        width, height = (round(points * dpi / 72) for points in page.get_size())  # PDFium may round a pixel up
        buffer = io.BytesIO()
        page.render(scale=dpi / 72).to_pil().crop((0, 0, width, height)).save(buffer, format="PNG", dpi=(dpi, dpi))
        deck, _, name = found[0].partition(":") if found else ("", "", "")
        pages.append(Page(deck, name, buffer.getvalue()))
    return pages


class _Slots(HTMLParser):
    """The data of every card printed in a set's HTML (its slot's ``data-`` attributes, by name without the prefix)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {name[5:]: value or "" for name, value in attrs if name.startswith("data-")}
        if "card" in given:
            self.cards.append(given)


def printed_cards(html: str) -> list[dict[str, str]]:
    """Every card a set's HTML prints, front or back, in order: its ``card`` (``DECK:ID``), ``version``, ``side``,
    ``title``, ``description`` and ``page`` (the anchor of a page of one card; empty on a sheet)."""
    parser = _Slots()
    parser.feed(html)
    return parser.cards


def card_record(html: str, variant: BaseModel) -> dict[str, Any]:
    """The record of the cards a set's HTML prints, written beside the set: each card's version and copies, by
    ``DECK:ID`` (what ``--changed-since`` compares)."""
    cards: dict[str, dict[str, Any]] = {}
    for card in printed_cards(html):
        if card["side"] == "front":
            entry = cards.setdefault(card["card"], {"version": card["version"], "copies": 0, "title": card["title"]})
            entry["copies"] += 1
    return {
        "generator": GENERATOR,
        "game": str(getattr(variant, "game", "")),
        "variant": str(getattr(variant, "name", "")),
        "version": content_hash(variant),
        "cards": dict(sorted(cards.items())),
    }
