"""A person's seat at a Chance It game: each decision of the engine put as a question (see :mod:`workbench.play`)."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.effects.base import amount, resources_text
from workbench.games.chance_it.engine import BUY, CHANCE_IT, IN, OUT, Game, MarketMove, View
from workbench.games.chance_it.printing import effects_text, timing
from workbench.games.chance_it.rules import CardDef, Effects
from workbench.games.chance_it.schema import Card, Variant
from workbench.games.chance_it.text import describe
from workbench.play import Answer, Asking


def guide_words(variant: Variant) -> dict[str, str]:
    """Each guide card in words, the CHANCE IT action's effects said."""
    action = effects_text(variant.chance_it, variant.dice.sides, "chance_it")
    return {
        IN: "IN: take part in the round (and its stakes)",
        OUT: "OUT: sit the round out",
        CHANCE_IT: f"CHANCE IT: take part, and take the CHANCE IT action ({action})",
    }


def card_words(card: Card, sides: int) -> str:
    """A card as the market offers it to a person: name, when it is used and what it does (as its face says)."""
    label, _ = timing(card)
    said = effects_text(card.effects, sides, card.where)
    return f"{card.name} [{label}: {said}{f'; {card.text}' if card.text else ''}]"


def holdings(game: Game, names: dict[str, str]) -> tuple[list[str], list[list[str]]]:
    """Every player's holdings and cards (by ``names``), as a table (headers, rows): what the whole table sees."""
    headers = ["seat", *RESOURCES, "cards", "status"]
    rows = []
    for p in game.players:
        status = "eliminated" if p.eliminated else "forced in" if p.forced_in else ""
        cards = ", ".join(names.get(card.id, card.id) for card in p.tableau)
        rows.append([str(p.seat), *(str(p.res[i]) for i in range(len(RESOURCES))), cards, status])
    return headers, rows


class Person:
    """The decider of a person's seat: every decision asked through ``answer``, in the card's and the rules' words."""

    def __init__(self, seat: int, game: Game, answer: Answer, variant: Variant):
        self.game = game
        self.asking = Asking(seat, answer, describe)
        self.names = {card.id: card.name for card in variant.cards}
        self.offers = {card.id: card_words(card, variant.dice.sides) for card in variant.cards}
        self.guides = guide_words(variant)

    def _ask(self, view: View, kind: str, prompt: str, options: Sequence[str]) -> int:
        return self.asking.ask(
            self.game.events or (), view.round, kind, prompt, options, view.dice, holdings(self.game, self.names)
        )

    def _card(self, card_id: str) -> str:
        return self.names.get(card_id, card_id)

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        forced = " (you are forced IN)" if options == (IN,) else ""
        prompt = f"Round {view.round}: choose your guide card{forced}"
        return options[self._ask(view, "guide", prompt, [self.guides[o] for o in options])]

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        costs = {card.id: card.cost for card in view.market}
        words = [
            f"buy {self.offers[card]} for {amount(costs.get(card, 0), 'coins')}"
            if move == BUY
            else f"discard {self.offers[card]}"
            for move, card in options
        ]
        prompt = f"Market: buy or discard one face-up card (you have {amount(view.me.coins, 'coins')})"
        return options[self._ask(view, "market", prompt, words)]

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        words = [f"use {self._card(card.id)}" for card in options]
        return options[self._ask(view, "use", "Which of your cards do you use?", words)]

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        words = texts or tuple(f"option {i + 1}" for i in range(len(options)))
        return self._ask(view, "choose", "Choose one", words)

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        taken = resources_text([(RESOURCES[resource], amount) for resource, amount in taking])
        players = view.players
        words = [f"seat {seat} ({', '.join(f'{getattr(players[seat], name)} {name}' for name in RESOURCES)})" for seat in options]
        return options[self._ask(view, "target", f"Take {taken} from whom?", words)]
