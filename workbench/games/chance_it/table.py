"""A Chance It game played by people with real dice and cards, entered as it happens (``workbench record``).

The engine plays the game as always; where it would draw, the :class:`TableChance` asks the person recording what
the dice showed and which card came up, and every seat is a :class:`~.person.Person` whose decisions are asked the
same way (the legal options only: an impossible entry cannot be made). A :class:`TableRecorder` writes it all down
as a scenario script, so ``replay`` checks it: the cards in the order they came up (``market:``, and for a
reshuffled discard the new pile's top cards in ``reshuffles:``), the dice, the guides and the choices.
"""

from __future__ import annotations

from typing import Any

from workbench.games.base import Entered, TableSource, entered
from workbench.games.chance_it.engine import Game, compile_variant
from workbench.games.chance_it.person import Person
from workbench.games.chance_it.record import Recorder
from workbench.games.chance_it.rules import CardDef
from workbench.games.chance_it.scenario import Scenario, scripted_game
from workbench.games.chance_it.schema import Variant
from workbench.games.chance_it.text import describe
from workbench.loading import Document
from workbench.play import Table


class TableChance(TableSource[Game]):
    """Chance as the person recording enters it: the dice as they fell, the cards as they came up (a card is asked
    only when more than one kind of card may come up)."""

    def __init__(self, table: Table, variant: Variant):
        super().__init__(table, describe)
        self.names = {card.id: card.name for card in variant.cards}

    def deal(self, pile: list[CardDef]) -> None:
        """Nothing: the pile's order is whatever comes up, asked card by card."""

    def reshuffle(self, pile: list[CardDef]) -> None:
        """Nothing: the new pile's order is whatever comes up, asked card by card."""

    def lay_out(self, pile: list[CardDef], count: int) -> list[CardDef]:
        """The cards that come up, one by one, each taken out of the pile."""
        cards = []
        for turned in range(count):
            kinds = sorted(dict.fromkeys(card.id for card in pile), key=lambda card_id: (self.names[card_id], card_id))
            card_id = kinds[0]
            if len(pile) > count - turned:  # not all of them come up: which one did?
                left = {card_id: sum(1 for card in pile if card.id == card_id) for card_id in kinds}
                when = f"round {self.round}" if self.round else "setup"
                prompt = f"{when.capitalize()}: which card comes up ({turned + 1} of {count})?"
                card_id = self.table.card(
                    self.round, prompt, left, lambda card_id: (self.names[card_id], card_id), held="the pile", news=self.news()
                )
            at = max(i for i, card in enumerate(pile) if card.id == card_id)
            cards.append(pile.pop(at))
        return cards

    def roll(self, count: int, sides: int) -> list[int]:
        seat = self.game.starting_player if self.game is not None else 0
        return self.dice("roll", f"Round {self.round}: seat {seat} rolls {count} dice; enter them", count, sides)

    def reroll(self, sides: int) -> int:
        (face,) = self.dice("reroll", "A die showing 1 is rolled again; enter it", 1, sides)
        return face

    def test(self, sides: int) -> int:
        (face,) = self.dice("test", "A chance test: one die is rolled; enter it", 1, sides)
        return face


class TableRecorder(Recorder):
    """A :class:`Recorder` of a game at a table: the cards are written down as they come up (the script's ``market:``
    from the top, then after a reshuffle of the discard that round's ``reshuffles:``), not as a dealt pile; a resumed
    game starts from its script's rounds."""

    def __init__(self, chance: TableChance, deciders: list[Person], scenario: Scenario | None = None):
        super().__init__(chance, deciders)
        self.revealed = self.market  #: where the next card that comes up is written
        if scenario is not None:
            self.market = self.revealed = list(scenario.market)
            for scripted in scenario.rounds:
                entry = scripted.model_dump(exclude_none=True)
                entry["guides"] = dict(enumerate(scripted.guides))
                entry["reshuffles"] = [list(pile) for pile in scripted.reshuffles]
                self.rounds.append(entry)
                if entry["reshuffles"]:
                    self.revealed = entry["reshuffles"][-1]

    def dealt(self, market: list[str]) -> None:
        """Nothing: the cards are written as they come up."""

    def laid_out(self, cards: list[str]) -> None:
        self.revealed.extend(cards)

    def reshuffled(self, pile: list[str]) -> None:
        self.revealed = []
        self.current["reshuffles"].append(self.revealed)


def record(variant: Variant, players: int, table: Table, resumed: tuple[Scenario, Document] | None = None) -> Entered:
    """A game of Chance It entered at a table, a round at a time (see :data:`~workbench.games.base.Entered`)."""
    rules = compile_variant(variant)
    chance = TableChance(table, variant)
    if resumed is None:
        game = Game(rules, players, chance)
        scenario = None
    else:
        scenario, doc = resumed
        game = scripted_game(scenario, doc, rules)
    people = [Person(seat, game, table.asked, variant) for seat in range(players)]
    recorder = TableRecorder(chance, people, scenario)
    if resumed is None:  # the market laid out at the setup came up at the table: written down
        recorder.market[:] = [card.id for card in game.market]
        recorder.revealed = recorder.market

    def script() -> dict[str, Any]:
        body = recorder.script(game.snapshot(events=False), players, "", 0, description="")
        return {key: value for key, value in body.items() if key not in ("description", "variant")}

    return entered(
        game, chance, people, script, lambda: game.play_round(recorder.chance, recorder.deciders), resumed=resumed is not None
    )
