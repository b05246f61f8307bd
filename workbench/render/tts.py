"""Tabletop Simulator: a printed set as a saved object that an online table loads. Family-agnostic.

From the pages of a set printed one card a page (``print --format tts``): each deck's faces
put together in deck sheets of at most 10 x 7 with 69 cards (as Tabletop Simulator's deck
builder makes them), one back image a deck (also what the others see of a card in a hand:
``BackIsHidden``), and the set's other pages
(stakes sheets, the board, the rules) as tiles. The saved object holds one ``DeckCustom`` a
deck, one ``Card`` in it for every copy, named and described by the card's own text, one
``Custom_Tile`` a page, and the family's dice (Tabletop Simulator's own, in a bag) and tokens
(chips in a bag; a bag that never empties for an unlimited supply), every image named by its
URL: a ``file:///`` path into the folder, or the address the images are put at (``--base-url``).
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workbench.render.printing import Page, Piece, printed_cards

#: Cards in a deck sheet: across, down, and how many (the last place left free, as Tabletop Simulator's deck builder
#: leaves it).
ACROSS, DOWN = 10, 7
PER_SHEET = ACROSS * DOWN - 1


#: The dice Tabletop Simulator has, by their sides.
DICE = (4, 6, 8, 10, 12, 20)


@dataclass
class Export:
    """A set for Tabletop Simulator: the images by file name, the saved object (JSON) that names them by URL, and the
    pieces it could not hold (dice with sides Tabletop Simulator has no die for)."""

    images: dict[str, bytes]
    saved: dict[str, Any]
    left_out: list[str]

    def json(self) -> str:
        return json.dumps(self.saved, indent=2) + "\n"


def export(html: str, pages: list[Page], pieces: list[Piece], name: str, url: Callable[[str], str]) -> Export:
    """The saved object of a set (``html`` printed one card a page, ``pages`` its pages as images, from
    :func:`workbench.render.printing.render_images`, ``pieces`` its dice and tokens), called ``name``; ``url`` gives
    an image file's address."""
    cards = {card["page"]: (card["title"], card["description"]) for card in printed_cards(html) if card["page"]}
    fronts: dict[str, list[Page]] = {}
    backs: dict[str, Page] = {}
    tiles: list[Page] = []
    for page in pages:
        if not page.deck:
            tiles.append(page)
        elif page.name.endswith("-front"):
            fronts.setdefault(page.deck, []).append(page)
        else:
            backs.setdefault(page.deck, page)  # a deck's cards share their back
    images: dict[str, bytes] = {}
    objects: list[dict[str, Any]] = []
    key = 1
    for place, (deck, faces) in enumerate(fronts.items()):
        back = f"{deck}-back.png"
        images[back] = backs[deck].image
        ids: list[int] = []
        contained: list[dict[str, Any]] = []
        custom: dict[str, dict[str, Any]] = {}
        for number, start in enumerate(range(0, len(faces), PER_SHEET), 1):
            chunk = faces[start : start + PER_SHEET]
            across = min(ACROSS, len(chunk))
            down = math.ceil(len(chunk) / across)
            sheet = f"{deck}-sheet-{number}.png"
            images[sheet] = _grid([face.image for face in chunk], across, down)
            entry = {
                "FaceURL": url(sheet),
                "BackURL": url(back),
                "NumWidth": across,
                "NumHeight": down,
                "BackIsHidden": True,
                "UniqueBack": False,
                "Type": 0,
            }
            custom[str(key)] = entry
            for index, face in enumerate(chunk):
                title, description = cards[f"{deck}:{face.name}"]
                card = key * 100 + index
                ids.append(card)
                contained.append(
                    {
                        "Name": "Card",
                        "Nickname": title,
                        "Description": description,
                        "CardID": card,
                        "CustomDeck": {str(key): entry},
                        "Transform": _placed(3.0 * place, 0.0),
                    }
                )
            key += 1
        objects.append(
            {
                "Name": "DeckCustom",
                "Nickname": f"{name}: {deck}",
                "Transform": _placed(3.0 * place, 0.0, face_down=True),
                "DeckIDs": ids,
                "CustomDeck": custom,
                "ContainedObjects": contained,
            }
        )
    for number, page in enumerate(tiles, 1):
        file = f"page-{number}.png"
        images[file] = page.image
        objects.append(
            {
                "Name": "Custom_Tile",
                "Nickname": f"{name}: page {number}",
                "Transform": _placed(9.0 * (number - 1), -12.0, scale=5.0),
                "CustomImage": {
                    "ImageURL": url(file),
                    "ImageSecondaryURL": "",
                    "ImageScalar": 1.0,
                    "WidthScale": 0.0,
                    "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True},
                },
            }
        )
    left_out = []
    for row, piece in enumerate(pieces):
        if piece.sides and piece.sides not in DICE:
            left_out.append(f"{piece.many} of {piece.sides} sides")
            continue
        objects.append(_piece(piece, name, _placed(-6.0, 3.0 * row)))
    saved: dict[str, Any] = {"SaveName": name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": ""}
    saved |= {"XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}}
    return Export(images, saved, left_out)


def _piece(piece: Piece, name: str, where: dict[str, float]) -> dict[str, Any]:
    """Dice as Tabletop Simulator's own, tokens as chips in a bag (an unlimited supply: a bag that never empties)."""
    if piece.sides:
        die = {"Name": f"Die_{piece.sides}", "Nickname": f"{name}: {piece.name}", "Transform": where}
        return {
            "Name": "Bag",
            "Nickname": f"{name}: {piece.many}",
            "Transform": where,
            "ContainedObjects": [die] * piece.count,
        }
    chip: dict[str, Any] = {"Name": "Chip_10", "Nickname": piece.name, "Transform": where}
    if piece.colour:
        red, green, blue = (int(piece.colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        chip["ColorDiffuse"] = {"r": round(red, 4), "g": round(green, 4), "b": round(blue, 4)}
    if not piece.count:
        return {
            "Name": "Infinite_Bag",
            "Nickname": f"{name}: {piece.plural or piece.name + 's'} (any number)",
            "Transform": where,
            "ContainedObjects": [chip],
        }
    return {
        "Name": "Bag",
        "Nickname": f"{name}: {piece.many}",
        "Transform": where,
        "ContainedObjects": [chip] * piece.count,
    }


def _placed(x: float, z: float, *, face_down: bool = False, scale: float = 1.0) -> dict[str, float]:
    """Where an object lies on the table (Tabletop Simulator's units), a deck face down."""
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": z,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": scale,
        "scaleY": 1.0,
        "scaleZ": scale,
    }


def _grid(faces: list[bytes], across: int, down: int) -> bytes:
    """The faces (PNG, all one size) in a grid of ``across`` x ``down``, row by row, as one PNG."""
    from PIL import Image

    opened = [Image.open(io.BytesIO(face)) for face in faces]
    width, height = opened[0].size
    sheet = Image.new("RGB", (across * width, down * height), "white")
    for index, face in enumerate(opened):
        row, column = divmod(index, across)
        sheet.paste(face.convert("RGB"), (column * width, row * height))
    buffer = io.BytesIO()
    sheet.save(buffer, format="PNG")
    return buffer.getvalue()


__all__ = ["ACROSS", "DICE", "DOWN", "PER_SHEET", "Export", "export"]
