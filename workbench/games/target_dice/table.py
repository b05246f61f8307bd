"""A target-dice game played by people with real dice and cards, entered as it happens (``workbench record``).

The engine plays the game as always; where it would draw, the :class:`TableChance` asks the person recording what
the dice showed and which card came up, and every seat is a :class:`~.person.Person` whose decisions are asked the
same way (the legal options only: an impossible entry cannot be made). The game's event log is written down by
:func:`.record.script` as a scenario script, so ``replay`` checks it: the roll-off's winner (``start:``), the cards
in the order they came up (``deck:``, going on past a reshuffle of the discard), each turn's dice and decisions.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from workbench.games.base import Entered, TableSource, entered
from workbench.games.target_dice.chance import Card
from workbench.games.target_dice.engine import Game, Rules, compile_variant
from workbench.games.target_dice.person import Person
from workbench.games.target_dice.record import script as event_script
from workbench.games.target_dice.scenario import Scenario, scripted_game
from workbench.games.target_dice.schema import Variant
from workbench.games.target_dice.text import describe
from workbench.loading import Document
from workbench.play import Table
from workbench.policies import said


def card_words(card: Card) -> str:
    """A card as the person recording names it: ``card 7`` (a number card), ``red`` (a special).

    >>> card_words(7), card_words("red")
    ('card 7', 'red')
    """
    return f"card {card}" if isinstance(card, int) else str(card)


class TableChance(TableSource[Game]):
    """Chance as the person recording enters it: the roll-off, each turn's dice, red's added die and purple's second
    roll as they fell, and each card as it comes up (asked only when more than one kind of card may come up, the
    kinds in the variant's order); the shuffles ask nothing."""

    def __init__(self, table: Table, rules: Rules):
        super().__init__(table, describe)
        self.order = {card: place for place, card in enumerate(dict.fromkeys(rules.deck))}  #: the variant's order
        self.rolled_off = False  #: the roll-off has been entered once (a tie is rolled again)

    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        game = self.game
        if game is None:
            raise RuntimeError("no turn is played at the setup")
        return (game.starting_player + game.position) % len(game.scores)

    def rolloff(self, seats: tuple[int, ...], sides: int) -> list[int]:
        """Each of ``seats`` rolls one die, entered in seat order."""
        named = said([str(seat) for seat in seats], "and")
        if self.rolled_off:
            prompt = f"Setup: seats {named} tied and roll again; enter their dice in seat order"
        else:
            prompt = f"Setup: each player rolls one die, the highest starts; enter the dice of seats {named} in seat order"
        self.rolled_off = True
        return self.dice("rolloff", prompt, len(seats), sides)

    def deal(self, deck: list[Card]) -> None:
        """Nothing asked: the deck's order is whatever comes up, asked card by card."""

    def draw(self, deck: list[Card]) -> Card:
        """The card that comes up, taken out of the deck."""
        left = Counter(deck)
        seat = self.game.starting_player if self.game is not None else 0
        prompt = f"Round {self.round}: seat {seat} draws a card: which one comes up? (its number, or red, ...)"
        kinds = {kind: left[kind] for kind in sorted(left, key=self.order.__getitem__)}
        card = self.table.card(
            self.round, prompt, kinds, lambda kind: (card_words(kind), str(kind)), numbered=False, news=self.news()
        )
        deck.remove(card)
        return card

    def roll(self, count: int, sides: int) -> list[int]:
        """The turn's roll."""
        dice = "1 die; enter it" if count == 1 else f"{count} dice; enter them"
        return self.dice("roll", f"Round {self.round}: seat {self.seat} rolls {dice}", count, sides)

    def add(self, sides: int) -> int:
        """Red's added die."""
        (face,) = self.dice("add", f"Red card: seat {self.seat} adds a die from the stock; enter it", 1, sides)
        return face

    def reroll(self, count: int, sides: int) -> list[int]:
        """Purple's second roll of the same dice."""
        dice = "the die again; enter it" if count == 1 else f"the {count} dice again; enter them"
        return self.dice("reroll", f"Purple card: seat {self.seat} rolls {dice}", count, sides)

    def reshuffle(self, deck: list[Card]) -> None:
        """Nothing asked: the new deck's order is whatever comes up, asked card by card."""


def record(variant: Variant, players: int, table: Table, resumed: tuple[Scenario, Document] | None = None) -> Entered:
    """A game of target dice entered at a table, a round at a time (see :data:`~workbench.games.base.Entered`)."""
    rules = compile_variant(variant)
    chance = TableChance(table, rules)
    if resumed is None:
        game = Game(rules, players, chance)
    else:
        game = scripted_game(*resumed, rules)
        game.chance = chance
    people = [Person(seat, game, table.asked) for seat in range(players)]

    def script() -> dict[str, Any]:  # its expect: the state, but for the deck's order (never known at a table)
        body = event_script(game, "", description="")
        return {key: value for key, value in body.items() if key not in ("description", "variant")}

    return entered(game, chance, people, script, lambda: game.play_round(people), resumed=resumed is not None)
