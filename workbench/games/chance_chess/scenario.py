"""Scripted games: a scenario file gives the deck's order, every card drawn and every move, pass and free move.

The replay runs the same engine as a simulation, with a :class:`ScriptedChance` for the shuffles and a
:class:`ScriptedDecider` per seat. A script that breaks the rules stops with a
:class:`~workbench.errors.ScenarioError` naming the ply, the side and the line.

``deck`` lists the cards from the top (the cards it does not list lie below, in the variant's order). Each entry
of ``plies`` is one of:

- ``{card: knight, move: g1f3}``: the turn's card (it must be the top of the deck) and its move (UCI);
- ``{card: rook, pass: true}``: the turn's card and a pass (chosen, or automatic when no rook can move);
- ``{free: e8f8}``: the free move out of check (UCI);
- ``{card: reshuffle, shuffled: [...]}``: the reshuffle card, and the new deck's order from the top (the cards it
  does not list lie below, in the variant's order); the same side then draws again, in the next entry.

A turn whose deck has run out carries ``shuffled`` too: the order of the new deck made from the discard pile.

A game entered at a table (``workbench record``) writes ``players: 2`` too, as every family's script names its
players; the cards it lists are those that came up, in order, which is the deck's order from the top.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Annotated, Any, Literal

import chess
from pydantic import BeforeValidator, Field, Strict, model_validator

from workbench.expect import Key, Replay, judged
from workbench.games.base import ScriptCursor, traced
from workbench.games.chance_chess.engine import Game, Rules, View, top
from workbench.games.chance_chess.schema import SIDES, Card
from workbench.games.chance_chess.text import describe
from workbench.loading import Document
from workbench.models import Model, ScenarioModel


def _uci(value: object) -> object:
    """A move as UCI names it, or the error saying what that is."""
    if isinstance(value, str) and not (re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", value) and value[:2] != value[2:4]):
        raise ValueError(f"{value!r} is not a move in UCI: from square and to square, like e2e4 (e7e8q promotes to a queen)")
    return value


#: A move in UCI notation: from square, to square, and the promotion piece if any (``e7e8q``).
Uci = Annotated[str, BeforeValidator(_uci), Field(json_schema_extra={"pattern": "^[a-h][1-8][a-h][1-8][qrbn]?$"})]


class Ply(Model):
    """One entry of the script: a turn (its card and a move or a pass), a free move, or a reshuffle card."""

    card: Card | None = Field(None, description="The card drawn (the top of the deck).")
    move: Uci | None = Field(None, description="The move made with the card, in UCI (g1f3, e7e8q).")
    pass_: Literal[True] | None = Field(None, alias="pass", description="true: the side passes (by choice, or forced).")
    free: Uci | None = Field(None, description="The free move out of check, in UCI.")
    shuffled: tuple[Card, ...] | None = Field(
        None,
        description="The new deck from the top: after a reshuffle card, or before this turn's draw when the deck ran out.",
    )

    @model_validator(mode="after")
    def one_kind(self) -> Ply:
        """A ply is a turn with a card, a free move, or a reshuffle card; never two of them."""
        if self.free is not None:
            if self.card is not None or self.move is not None or self.pass_ or self.shuffled is not None:
                raise ValueError("a free move is written alone: {free: e8f8} (no card: it needs none)")
            return self
        if self.card is None:
            raise ValueError(
                "a ply is {card: knight, move: g1f3}, {card: rook, pass: true}, {free: e8f8} or {card: reshuffle, shuffled: [...]}"
            )
        if self.card == "reshuffle":
            if self.move is not None or self.pass_:
                raise ValueError("the reshuffle card moves nothing: the same side draws again in the next ply")
            if self.shuffled is None:
                raise ValueError("a reshuffle gives the new deck's order from the top: shuffled: [pawn, any, ...]")
            return self
        if (self.move is None) == (self.pass_ is None):
            raise ValueError(f"a turn with a {self.card} card either moves (move: g1f3) or passes (pass: true)")
        return self


class Expect(Model):
    """Expected replay output (any subset)."""

    plies: int | None = Field(None, description="Plies played: turns (moves and passes) and free moves.")
    end_reason: Literal["checkmate", "stalemate", "insufficient_material", "fifty_moves", "repetition", "max_plies"] | None = (
        Field(None, description="Why the game ended; null while it goes on.")
    )
    winner: Literal["white", "black"] | None = Field(None, description="The side that won (null: none, or not yet).")
    winners: list[Annotated[int, Strict(), Field(ge=0, le=1)]] | None = Field(None, description="The winning seat, if any.")
    fen: str | None = Field(None, description="The final position (FEN).")
    moves: int | None = Field(None, description="Turns in which a piece moved.")
    passes: dict[Literal["chosen", "forced"], int] | None = Field(None, description="Turns passed, by choice and forced.")
    free_moves: int | None = Field(None, description="Free moves out of check.")
    captures: int | None = Field(None, description="Captures, on turns and free moves.")
    reshuffles: int | None = Field(None, description="Reshuffle cards drawn.")
    turnovers: int | None = Field(None, description="Times the deck ran out and the discard pile became the deck.")
    deck: list[Card] | None = Field(None, description="The cards left in the deck, top first.")
    discard: int | None = Field(None, description="How many cards the discard pile holds.")
    events: list[dict[str, Any]] | None = Field(None, description="Events that must appear, in this order (each a subset).")


class Scenario(ScenarioModel):
    """A scripted game of a Chance Chess variant, with optional expectations."""

    players: Literal[2] = Field(2, description="Number of players: two, white (seat 0) and black (seat 1).")
    deck: tuple[Card, ...] = Field((), description="The deck's cards from the top (the rest below, in the variant's order).")
    plies: tuple[Ply, ...] = Field((), description="The plies in order: turns, free moves and reshuffle cards.")
    expect: Expect | None = Field(None, description="Any subset of the replay output.")


class _Script(ScriptCursor[Scenario, Rules]):
    """The scenario being replayed: which entry comes next, shared by the shuffles and the deciders."""

    def __init__(self, scenario: Scenario, doc: Document, rules: Rules):
        super().__init__(scenario, doc, rules, ("plies",))
        self.next = 0  # the entry of plies to play next
        self.turned = False  # the deck ran out before this turn's draw (its entry gives `shuffled`)
        self.game: Game | None = None

    def entry(self, wanted: str) -> tuple[int, Ply]:
        """The next entry, which must be ``wanted`` (for the message: what the game asks for)."""
        if self.next >= len(self.scenario.plies):
            self.fail(("plies",), f"the script has no more plies, but the game goes on: {wanted}")
        index = self.next
        self.next += 1
        self.last_key = ("plies", index)
        return index, self.scenario.plies[index]

    def arrange(self, deck: list[str], listed: tuple[str, ...], key: Key) -> None:
        """Put ``listed`` on top of ``deck`` in order (each must be among its cards), the rest below in the variant's
        order."""
        rest = Counter(deck)
        for index, card in enumerate(listed):
            if not rest[card]:
                held = Counter(deck)[card]
                self.fail(
                    (*key, index),
                    f"{_a(card)} card is listed {Counter(listed[: index + 1])[card]} times, but the deck being ordered holds {held}",
                )
            rest[card] -= 1
        below = []
        for card in self.rules.deck:
            if rest[card]:
                rest[card] -= 1
                below.append(card)
        deck[:] = below[::-1] + list(listed)[::-1]


def _a(card: str) -> str:
    return f"an {card}" if card[0] in "aeiou" else f"a {card}"


def _side(seat: int) -> str:
    return SIDES[seat]


class ScriptedChance:
    """The shuffles from the script: the first deck, each reshuffle card's new deck and a deck that ran out."""

    def __init__(self, script: _Script):
        self.script = script

    def deal(self, deck: list[str]) -> None:
        self.script.arrange(deck, self.script.scenario.deck, ("deck",))

    def reshuffle(self, deck: list[str]) -> None:
        script = self.script
        game = script.game
        side = _side(game.next_seat) if game is not None else "the side to move"
        index, ply = script.entry(f"{side} draws the reshuffle card")
        if ply.card != "reshuffle":
            script.fail(
                _card_key(index, ply), f"{side} draws the reshuffle card (the top of the deck), but the script says {_said(ply)}"
            )
        script.arrange(deck, ply.shuffled or (), ("plies", index, "shuffled"))

    def turnover(self, deck: list[str]) -> None:
        script = self.script
        following = script.next
        plies = script.scenario.plies
        if following < len(plies) and plies[following].free is not None:
            side = _side(script.game.next_seat) if script.game is not None else "the side to move"
            script.fail(
                ("plies", following, "free"),
                f"{side} is not in check: this ply is a turn (its card comes from a new deck, the old one being empty)",
            )
        if following >= len(plies) or plies[following].shuffled is None or plies[following].card == "reshuffle":
            key = ("plies", following) if following < len(plies) else ("plies",)
            script.fail(
                key,
                f"the deck is empty before this draw: the discard pile ({len(deck)} cards) becomes the new deck; give its order with shuffled: [...]",
            )
        script.turned = True
        script.arrange(deck, plies[following].shuffled or (), ("plies", following, "shuffled"))

    def draw(self, deck: list[str]) -> str:
        """The top card of the deck (as the script stacked it)."""
        return top(deck)


def _card_key(index: int, ply: Ply) -> Key:
    return ("plies", index, "card") if ply.card is not None else ("plies", index)


def _said(ply: Ply) -> str:
    if ply.free is not None:
        return f"free: {ply.free}"
    return f"card: {ply.card}"


class ScriptedDecider:
    """The plies of one seat, read from the script in the order the engine asks."""

    def __init__(self, script: _Script, seat: int):
        self.script = script
        self.seat = seat

    def _turn_entry(self, card: str) -> tuple[int, Ply]:
        script = self.script
        side = _side(self.seat)
        index, ply = script.entry(f"{side} draws {_a(card)} card")
        if ply.free is not None:
            script.fail(("plies", index, "free"), f"{side} is not in check: this ply is a turn ({side} draws {_a(card)} card)")
        if ply.card != card:
            script.fail(
                ("plies", index, "card"), f"{side} draws {_a(card)} card (the top of the deck), but the script says {ply.card}"
            )
        if ply.shuffled is not None and not script.turned:
            script.fail(
                ("plies", index, "shuffled"),
                "shuffled belongs to a reshuffle card, or to a turn whose deck ran out (this one's did not)",
            )
        script.turned = False
        return index, ply

    def move(self, view: View, card: str, moves: Any) -> chess.Move | None:
        index, ply = self._turn_entry(card)
        if ply.pass_:
            self.script.last_key = ("plies", index, "pass")
            return None
        self.script.last_key = ("plies", index, "move")
        return chess.Move.from_uci(ply.move or "")

    def forced(self, card: str) -> None:
        """The engine passed for this seat (no legal move of the card's piece): the script must say so."""
        index, ply = self._turn_entry(card)
        if not ply.pass_:
            self.script.fail(
                ("plies", index, "move"), f"no {card} of {_side(self.seat)} can move: the pass is automatic (write pass: true)"
            )

    def free(self, view: View, moves: Any) -> chess.Move:
        script = self.script
        side = _side(self.seat)
        index, ply = script.entry(f"{side} is in check and makes its free move")
        if ply.free is None:
            script.fail(
                _card_key(index, ply),
                f"{side} is in check: this ply is its free move out of check ({{free: ...}}), made with no card",
            )
        script.last_key = ("plies", index, "free")
        return chess.Move.from_uci(ply.free)


def scripted_game(scenario: Scenario, doc: Document, rules: Rules) -> Game:
    """The game after the scripted plies of ``scenario`` (read from ``doc``) under ``rules``, with its event log."""
    script = _Script(scenario, doc, rules)
    deciders = [ScriptedDecider(script, seat) for seat in range(2)]
    game = script.game = Game(rules, ScriptedChance(script))
    with traced(game, describe):
        while script.next < len(scenario.plies):
            if game.is_over:
                left = len(scenario.plies) - script.next
                script.fail(
                    ("plies", script.next),
                    f"the game ended at ply {game.ply} ({game.end_reason}), but the script goes on with {left} more ply(ies)",
                )
            seen = len(game.events or ())
            with script.deciding("ply", _side):
                game.step(deciders)
            for event in (game.events or ())[seen:]:
                if event["type"] == "pass" and event["forced"]:
                    deciders[event["seat"]].forced(event["card"])
    return game


def replay(scenario: Scenario, doc: Document, rules: Rules) -> Replay:
    """Play the scripted plies of ``scenario`` (read from ``doc``) under ``rules`` and check ``expect``."""
    return judged(doc, scripted_game(scenario, doc, rules).snapshot())


__all__ = ["Expect", "Ply", "Scenario", "ScriptedChance", "ScriptedDecider", "replay", "scripted_game"]
