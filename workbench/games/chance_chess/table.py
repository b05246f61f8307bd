"""A Chance Chess game played by people with a real board and deck, entered as it happens (``workbench record``).

The engine plays the game as always; at each draw the :class:`TableChance` asks the person recording which card
came up (its ``draw``), and both seats are a :class:`~.person.Person` whose moves
are asked the same way (the legal moves the card allows, or a pass: an impossible move cannot be entered). The
game's event log is written down by :func:`.record.script` as a scenario script, so ``replay`` checks it: the cards
in the order they came up (``deck:``, and after a reshuffle card or a deck that ran out the new deck's cards in
``shuffled:``), every move, pass and free move.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from workbench.games.base import Entered, TableSource, entered
from workbench.games.chance_chess.engine import Game, Rules, compile_variant
from workbench.games.chance_chess.person import Person
from workbench.games.chance_chess.record import script as event_script
from workbench.games.chance_chess.scenario import Scenario, scripted_game
from workbench.games.chance_chess.schema import SIDES, Variant
from workbench.games.chance_chess.text import describe
from workbench.loading import Document
from workbench.play import Table

#: Players at a Chance Chess table: white (seat 0) and black (seat 1).
PLAYERS = 2


def card_words(card: str) -> str:
    """A card as the person recording names it.

    >>> card_words("any"), card_words("knight")
    ('any piece', 'knight')
    """
    return "any piece" if card == "any" else card


class TableChance(TableSource[Game]):
    """Chance as the person recording enters it: each card as it comes up (asked only when more than one kind of
    card may come up, the kinds in the variant's order); the shuffles ask nothing."""

    def __init__(self, table: Table, rules: Rules):
        super().__init__(table, describe)
        self.order = {card: place for place, card in enumerate(dict.fromkeys(rules.deck))}  #: the variant's order
        self.again = False  #: a reshuffle card came up: the same side draws again

    def deal(self, deck: list[str]) -> None:
        """Nothing asked: the deck's order is whatever comes up, asked card by card."""

    def reshuffle(self, deck: list[str]) -> None:
        """Nothing asked: the new deck's order is whatever comes up, asked card by card."""
        self.again = True

    def turnover(self, deck: list[str]) -> None:
        """Nothing asked: the new deck's order is whatever comes up, asked card by card."""

    def draw(self, deck: list[str]) -> str:
        """The card that comes up, taken out of the deck."""
        left = Counter(deck)
        game = self.game
        ply, side = (game.ply, SIDES[game.next_seat]) if game is not None else (0, SIDES[0])
        draws = "draws again after the reshuffle" if self.again else "draws a card"
        prompt = f"Ply {ply}: {side} {draws}: which one comes up?"
        kinds = {kind: left[kind] for kind in sorted(left, key=self.order.__getitem__)}
        card = self.table.card(ply, prompt, kinds, lambda kind: tuple(dict.fromkeys((card_words(kind), kind))), news=self.news())
        self.again = False
        deck.remove(card)
        return card


def record(variant: Variant, players: int, table: Table, resumed: tuple[Scenario, Document] | None = None) -> Entered:
    """A game of Chance Chess entered at a table, a ply at a time (see :data:`~workbench.games.base.Entered`)."""
    if players != PLAYERS:
        raise ValueError(f"Chance Chess is for {PLAYERS} players, not {players}")
    rules = compile_variant(variant)
    chance = TableChance(table, rules)
    if resumed is None:
        game = Game(rules, chance)
    else:
        game = scripted_game(*resumed, rules)
        game.chance = chance
    people = [Person(seat, game, table.asked) for seat in range(PLAYERS)]

    def script() -> dict[str, Any]:
        body = event_script(game, "", description="")
        state = game.snapshot(events=False)  # all of it, but for the deck's order (never known at a table)
        body["expect"] = {key: value for key, value in state.items() if key != "deck"}
        return {"players": PLAYERS, **{key: value for key, value in body.items() if key not in ("description", "variant")}}

    return entered(game, chance, people, script, lambda: game.step(people), resumed=resumed is not None)
