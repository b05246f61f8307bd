"""Scripted games: a scenario file supplies every card drawn, every die rolled and every decision.

The replay runs the same engine as a simulation, with a :class:`ScriptedChance` for chance
and a :class:`ScriptedDecider` per seat. A script that breaks the rules stops with a
:class:`~workbench.errors.ScenarioError` naming the round, the seat and the line.

The script's ``deck`` lists the cards in the order they are drawn, from the top, going on
past a reshuffle with the new deck's cards (the cards it does not list lie below, in the
variant's order, and a replay never draws them). Each round's ``turns`` are in turn order; a
turn passes or rolls the dice it takes, and the starting player's turn carries the
decision of the round's special card, if any.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Literal, NoReturn

from pydantic import Discriminator, Field, Strict, Tag, model_validator

from workbench.errors import ScenarioError
from workbench.expect import Key, Replay, judged
from workbench.games.base import ScriptCursor, traced
from workbench.games.target_dice.chance import Card
from workbench.games.target_dice.engine import ADD, ORANGE, PURPLE, RED, YELLOW, Game, RedMove, Rules, View
from workbench.games.target_dice.schema import Number, Special
from workbench.games.target_dice.text import describe
from workbench.loading import Document
from workbench.models import Model, ScenarioModel

Face = Annotated[int, Strict(), Field(ge=1, le=100)]
Seat = Annotated[int, Strict(), Field(ge=0, le=11)]


def _card_kind(value: Any) -> str | None:
    """Tag a scripted card by its YAML kind: a number card or a special's name."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return "number"
    if isinstance(value, str):
        return "word"
    return None


#: A card as a script writes it: a number card's number or a special's colour.
ScriptCard = Annotated[
    Annotated[Number, Tag("number")] | Annotated[Special, Tag("word")],
    Discriminator(
        _card_kind, custom_error_type="card", custom_error_message="expected a number card or red, orange, yellow or purple"
    ),
]

#: The decisions of the special cards, each the key a turn writes it with, and its card.
DECISIONS: dict[str, str] = {"add": RED, "return": RED, "adjust": ORANGE, "card": YELLOW, "reroll": PURPLE}


class Turn(Model):
    """One player's turn: a pass, or the dice it rolls (and, for the starting player, its special's decision)."""

    seat: Seat = Field(description="The seat whose turn it is (turns go clockwise from the starting player).")
    pass_: bool | None = Field(None, alias="pass", description="true: the player passes.")
    roll: tuple[Face, ...] | None = Field(
        None, description="The faces rolled: the dice taken from the stock are the dice rolled."
    )
    add: Face | None = Field(None, description="Red: roll one more die from the stock; its face.")
    return_: Face | None = Field(None, alias="return", description="Red: return the rolled die showing this face to the stock.")
    adjust: Annotated[int, Strict(), Field(ge=-1, le=1)] | None = Field(
        None, description="Orange: add 1, subtract 1 (-1) or leave the result (0)."
    )
    card: Number | None = Field(None, description="Yellow: the number card the roll was for.")
    reroll: tuple[Face, ...] | None = Field(
        None, description="Purple: roll all those dice again; the new faces (the second roll stands)."
    )

    @model_validator(mode="after")
    def pass_or_roll(self) -> Turn:
        """A turn passes or rolls; decisions come with a roll, at most one."""
        if self.pass_ is False:
            raise ValueError("pass: false says nothing: a turn passes (pass: true) or rolls (roll: [faces])")
        if (self.pass_ is None) == (self.roll is None):
            raise ValueError("a turn either passes (pass: true) or rolls (roll: [faces])")
        if self.roll == () or self.reroll == ():
            raise ValueError("a roll takes at least one die: list its faces, or pass (pass: true)")
        decided = self.decisions()
        if decided and self.roll is None:
            raise ValueError(f"a player who passes makes no decision ({', '.join(decided)})")
        if len(decided) > 1:
            raise ValueError(f"one special decision per turn, got {', '.join(decided)}")
        return self

    def decisions(self) -> list[str]:
        """The decision keys this turn gives, as the file writes them."""
        values = {"add": self.add, "return": self.return_, "adjust": self.adjust, "card": self.card, "reroll": self.reroll}
        return [key for key, value in values.items() if value is not None]


class ScriptRound(Model):
    """What happens in one round: its turns in order."""

    turns: tuple[Turn, ...] = Field(description="The turns in order, from the starting player; a HIT ends the round at once.")

    @model_validator(mode="after")
    def has_turns(self) -> ScriptRound:
        """A round has at least the starting player's turn."""
        if not self.turns:
            raise ValueError("a round has at least one turn: the starting player's")
        return self


class PlayerExpect(Model):
    """Expected state of one seat (any subset)."""

    seat: Seat | None = Field(None, description="The seat.")
    score: Annotated[int, Strict()] | None = Field(None, description="Its score (negative after rolls over the target).")


class Expect(Model):
    """Expected replay output (any subset)."""

    rounds: int | None = Field(None, description="Rounds played.")
    end_reason: Literal["goal", "max_rounds"] | None = Field(None, description="Why the game ended; null while it goes on.")
    winners: list[Seat] | None = Field(None, description="The seats with the highest score once the game ended.")
    players: list[PlayerExpect] | dict[Annotated[int, Strict()], PlayerExpect] | None = Field(
        None, description="Every seat in a list, or some seats by number."
    )
    deck: list[ScriptCard] | None = Field(None, description="The cards left in the deck, top first.")
    discard: int | None = Field(None, description="How many cards the discard pile holds.")
    events: list[dict[str, Any]] | None = Field(None, description="Events that must appear, in this order (each a subset).")


class Scenario(ScenarioModel):
    """A scripted game of a target-dice variant, with optional expectations."""

    players: Annotated[int, Strict(), Field(ge=2, le=12)] = Field(description="Number of players.")
    start: Seat = Field(description="The seat of the first starting player (the roll-off is skipped).")
    deck: tuple[ScriptCard, ...] = Field(
        description="The cards in the order they are drawn, from the top, going on past a reshuffle with the new deck."
    )
    rounds: tuple[ScriptRound, ...] = Field((), description="The scripted rounds.")
    expect: Expect | None = Field(None, description="Any subset of the replay output.")


class _Script(ScriptCursor[Scenario, Rules]):
    """The scenario being replayed: where in the script we are, shared by chance and deciders."""

    def __init__(self, scenario: Scenario, doc: Document, rules: Rules):
        super().__init__(scenario, doc, rules, ("rounds",))
        self.index = -1  # the round being played, in the script
        self.turns: list[tuple[int, Turn]] = []  # this round's turns still to play, with their places
        self.turn: tuple[int, Turn] | None = None  # the turn being played
        self.drawn = 0  # deck entries drawn so far
        self.game: Game | None = None

    def begin(self, index: int) -> None:
        """Start replaying the script's round ``index``."""
        self.index = index
        self.turns = list(enumerate(self.scenario.rounds[index].turns))
        self.turn = None
        self.last_key = ("rounds", index)

    def key(self, *parts: object) -> Key:
        """A key path inside the turn being played."""
        if self.turn is None:
            return ("rounds", self.index, "turns", *parts)
        return ("rounds", self.index, "turns", self.turn[0], *parts)

    def fail(self, key: Key, message: str) -> NoReturn:
        """Stop the replay with a problem at ``key``, naming the round."""
        where = f"round {self.index + 1}: " if self.index >= 0 else ""
        raise ScenarioError([self.doc.problem(key, f"{where}{message}")])

    def face(self, value: int, key: Key) -> int:
        """A scripted face, checked against the dice."""
        if value > self.rules.sides:
            self.fail(key, f"{value} is not a face of a {self.rules.sides}-sided die")
        return value

    def current(self) -> Turn:
        """The turn being played."""
        if self.turn is None:
            raise RuntimeError("no turn is being played")
        return self.turn[1]

    def arrange(self, deck: list[Card]) -> None:
        """Put the next scripted cards on top of ``deck`` in order, as far as it holds them; the rest below."""
        rest = Counter(deck)
        top: list[Card] = []
        for card in self.scenario.deck[self.drawn :]:
            if not rest[card]:
                break
            rest[card] -= 1
            top.append(card)
        below: list[Card] = []  # in the variant's order, top first
        for kept in self.rules.deck:
            if rest[kept]:
                rest[kept] -= 1
                below.append(kept)
        deck[:] = below[::-1] + top[::-1]

    def leftovers(self) -> None:
        """Complain about turns scripted after the round ended."""
        if self.turns:
            position, _ = self.turns[0]
            game = self.game
            reason = next((e["reason"] for e in reversed(game.events or ()) if e["type"] == "round_end"), "") if game else ""
            self.fail(
                ("rounds", self.index, "turns", position),
                f"the round is over ({_REASONS.get(reason, reason)}), but the script goes on with {len(self.turns)} more turn(s)",
            )


_REASONS = {"hit": "a HIT ended it", "all_played": "every player had a turn", "stock_empty": "the stock is empty"}


class ScriptedChance:
    """Chance from the script: the cards drawn, each turn's roll, red's added die and purple's second roll."""

    def __init__(self, script: _Script):
        self.script = script

    def rolloff(self, seats: tuple[int, ...], sides: int) -> list[int]:
        """Never asked: a script names the first starting player."""
        raise RuntimeError("a scenario names the first starting player (start:); there is no roll-off to script")

    def deal(self, deck: list[Card]) -> None:
        """Check that every scripted card is a card of the variant, then put the script's first cards on top."""
        script = self.script
        kinds = set(script.rules.deck)
        for index, card in enumerate(script.scenario.deck):
            if card not in kinds:
                raise ScenarioError([script.doc.problem(("deck", index), _no_such_card(card, script.rules))])
        script.arrange(deck)

    def draw(self, deck: list[Card]) -> Card:
        """The script's next card, which must be the top of the deck."""
        script = self.script
        game = script.game
        seat = f"seat {game.starting_player} (the starting player)" if game is not None else "the starting player"
        listed = script.scenario.deck
        if script.drawn >= len(listed):
            script.fail(("deck",), f"{seat} draws a card, but the script's deck has no more (it lists {len(listed)})")
        card = listed[script.drawn]
        if deck[-1] != card:
            script.fail(("deck", script.drawn), f"{seat} draws {card}, but {_whereabouts(card, script)}")
        script.drawn += 1
        return deck.pop()

    def reshuffle(self, deck: list[Card]) -> None:
        """The new deck: the script's next cards on top, as far as the old discard pile holds them."""
        self.script.arrange(deck)

    def roll(self, count: int, sides: int) -> list[int]:
        """The turn's ``roll``."""
        script = self.script
        faces = script.current().roll or ()
        return [script.face(value, script.key("roll", i)) for i, value in enumerate(faces)]

    def add(self, sides: int) -> int:
        """The turn's ``add``: red's extra die."""
        script = self.script
        return script.face(script.current().add or 0, script.key("add"))

    def reroll(self, count: int, sides: int) -> list[int]:
        """The turn's ``reroll``: purple's second roll, as many dice as the first."""
        script = self.script
        faces = script.current().reroll or ()
        if len(faces) != count:
            script.fail(script.key("reroll"), f"purple rolls the {count} dice again: the script gives {len(faces)} face(s)")
        return [script.face(value, script.key("reroll", i)) for i, value in enumerate(faces)]


def _whereabouts(card: Card, script: _Script) -> str:
    """Why ``card`` cannot be drawn now: where the variant's copies of it are."""
    game = script.game
    copies = script.rules.deck.count(card)
    discarded = game.discard.count(card) if game is not None else 0
    in_play = copies - discarded - (game.deck.count(card) if game is not None else 0)
    places = [f"{discarded} in the discard pile"] if discarded else []
    places += [f"{in_play} in play"] if in_play else []
    return (
        f"no {card} is left in the deck (the variant has {copies}: {', '.join(places) or 'none drawn'}); "
        "the discard pile becomes a new deck only once the deck runs out"
    )


def _no_such_card(card: Card, rules: Rules) -> str:
    if isinstance(card, str):
        return f"the variant's deck holds no {card} card"
    numbers = sorted({c for c in rules.deck if isinstance(c, int)})
    return f"no number card {card} in the variant's deck (its number cards: {', '.join(map(str, numbers))})"


class ScriptedDecider:
    """The turns of one seat, read from the script in the order the engine asks."""

    def __init__(self, script: _Script, seat: int):
        self.script = script
        self.seat = seat

    def dice(self, view: View) -> int:
        """The next scripted turn, checked: its seat, its dice against the stock, its decision against the special."""
        script = self.script
        starter = view.starting_player
        if not script.turns:
            script.turn = None
            script.fail(
                ("rounds", script.index, "turns"),
                f"it is seat {self.seat}'s turn, but the script has no more turns this round (a missing turn)",
            )
        script.turn = script.turns.pop(0)
        turn = script.current()
        if turn.seat != self.seat:
            script.fail(
                script.key("seat"),
                f"it is seat {self.seat}'s turn (clockwise from the starting player, seat {starter}), "
                f"but the script gives seat {turn.seat}",
            )
        if turn.roll is None:
            script.last_key = script.key("pass")
            return 0
        script.last_key = script.key("roll")
        if len(turn.roll) > view.stock:
            script.fail(script.key("roll"), f"seat {self.seat} takes {len(turn.roll)} dice, but the stock holds {view.stock}")
        special = view.special if self.seat == starter else None
        for name in turn.decisions():
            wanted = DECISIONS[name]
            if self.seat != starter:
                why = f"only the starting player's roll (seat {starter}) uses a special card"
            elif special is None:
                why = "no special card is in play this round"
            elif special != wanted:
                why = f"the round's special card is {special}"
            else:
                continue
            script.fail(script.key(name), f"seat {self.seat}: {name} is the {wanted} card's decision, but {why}")
        if special == YELLOW and turn.card is None:
            first, second = view.targets
            script.fail(
                script.key(),
                f"seat {self.seat} rolls with the yellow card in play: say which number card the roll was for "
                f"(card: {first} or card: {second})",
            )
        return len(turn.roll)

    def red(self, view: View, roll: tuple[int, ...]) -> RedMove:
        """``add`` or ``return``, or keep the roll."""
        script = self.script
        turn = script.current()
        if turn.add is not None:
            script.last_key = script.key("add")
            if not view.stock:
                script.fail(script.last_key, f"seat {self.seat}: red: cannot add a die: the stock is empty")
            return ADD
        if turn.return_ is not None:
            script.last_key = script.key("return")
            return turn.return_
        return None

    def orange(self, view: View, roll: tuple[int, ...]) -> int:
        """``adjust``, or 0."""
        self.script.last_key = self.script.key("adjust")
        return self.script.current().adjust or 0

    def yellow(self, view: View, roll: tuple[int, ...]) -> int:
        """``card``."""
        self.script.last_key = self.script.key("card")
        return self.script.current().card or 0

    def purple(self, view: View, roll: tuple[int, ...]) -> bool:
        """Whether the turn gives a ``reroll``."""
        self.script.last_key = self.script.key("reroll")
        return self.script.current().reroll is not None


def scripted_game(scenario: Scenario, doc: Document, rules: Rules) -> Game:
    """The game after the scripted rounds of ``scenario`` (read from ``doc``) under ``rules``, with its event log."""
    if not rules.min_players <= scenario.players <= rules.max_players:
        message = f"the variant is for {rules.min_players} to {rules.max_players} players, not {scenario.players}"
        raise ScenarioError([doc.problem(("players",), message)])
    if scenario.start >= scenario.players:
        message = f"seat {scenario.start} does not exist with {scenario.players} players (seats 0 to {scenario.players - 1})"
        raise ScenarioError([doc.problem(("start",), message)])
    script = _Script(scenario, doc, rules)
    chance = ScriptedChance(script)
    deciders = [ScriptedDecider(script, seat) for seat in range(scenario.players)]
    game = script.game = Game(rules, scenario.players, chance, start=scenario.start)
    with traced(game, describe):
        for index in range(len(scenario.rounds)):
            script.going_on(game, index, len(scenario.rounds))
            script.begin(index)
            with script.deciding():
                game.play_round(deciders)
            script.leftovers()
    return game


def replay(scenario: Scenario, doc: Document, rules: Rules) -> Replay:
    """Play the scripted rounds of ``scenario`` (read from ``doc``) under ``rules`` and check ``expect``."""
    return judged(doc, scripted_game(scenario, doc, rules).snapshot())


__all__ = ["Expect", "Scenario", "ScriptRound", "ScriptedChance", "ScriptedDecider", "Turn", "replay", "scripted_game"]
