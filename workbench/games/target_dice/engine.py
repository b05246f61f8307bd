"""The target-dice rules interpreter: one round loop over an explicit game state.

Every random draw comes from a :class:`~workbench.games.target_dice.chance.ChanceSource`
and every choice from a :class:`Decider` per seat, both passed in. A replay is a scripted
chance source with scripted deciders, a simulation is seeded RNGs with bots: the same code.

The normative reading of the published rulebook:

1. Setup: the deck is shuffled; each player rolls one die, the highest starts (the tied
   players roll again). A scenario names the first starting player instead.
2. A round: the starting player draws the top card. A special card is kept and cards are
   drawn on until a number card appears (the round's target); further specials drawn
   meanwhile are discarded without effect. Yellow: a second number card is drawn the same way.
3. Turns run clockwise (seat + 1) from the starting player, each player at most once. A
   player passes or takes one or more dice from the stock and rolls them once. With P the
   sum kept on the table (0 at first) and r the roll: P + r equal to the target is a HIT
   (the player scores the target, the round ends at once); above it the player loses
   P + r - target points (scores may go negative) and the dice go back to the stock; below
   it, with ``under: keep`` the dice stay on the table (P grows) and the player holds the
   last valid roll, with ``under: miss`` the dice go back and nothing is kept.
4. The round also ends when every player has had a turn or the stock is empty; then the
   holder of the last valid roll, if any, scores P. The cards in play are discarded, the
   dice return to the stock and the next round starts with the next seat (starting player + 1).
   A card to draw from an empty deck comes after the discard pile is shuffled into a new deck.
5. Specials change only the starting player's own roll, after it and before it is judged
   (if it passes, the special goes unused). Red: return one rolled die to the stock (its face
   leaves the roll; a roll keeps at least one die) or add one more die from the stock. Orange:
   add or subtract 1, or not. Yellow: choose which of the two number cards the roll was for;
   the other is discarded (if the starting player passes, the first card drawn stays and the
   second is discarded). Purple: keep the roll or roll all those dice again, and the second
   roll stands.
6. The game ends once a player reaches ``goal`` points (checked when the round's points are
   scored: losing points never reaches it), or after round ``max_rounds``; the highest score
   wins, tied players share.

The rulebook's optional rule (a die falling off the table costs 6 points and the roll is
repeated) is left out: nothing in a simulation falls off a table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from workbench.errors import IllegalDecision
from workbench.games.base import Event, EventLog, TableView
from workbench.games.target_dice.chance import Card, ChanceSource
from workbench.games.target_dice.schema import SPECIALS, Variant

RED, ORANGE, YELLOW, PURPLE = SPECIALS
#: The red card's decision to roll one more die (the other decisions: a face to return, or None to keep the roll).
ADD: Final = "add"
#: A red decision: a rolled face to return to the stock, ``ADD`` or None (keep the roll as it is).
RedMove = int | Literal["add"] | None
#: Why a game ends: a player reached the goal, or the round limit.
END_REASONS = ("goal", "max_rounds")
#: Why a round ends: a HIT, every player had a turn, the stock ran out of dice.
ROUND_ENDS = ("hit", "all_played", "stock_empty")
#: Events that change a score; each carries the seat and its ``points`` (negative for a loss).
SCORING = ("hit", "over", "held")


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the engine needs from a variant, as plain values."""

    min_players: int
    max_players: int
    count: int  #: dice in the stock
    sides: int
    deck: tuple[Card, ...]  #: every card with its copies: number cards ascending, then specials in SPECIALS order
    goal: int
    keep: bool  #: ``under: keep`` (else ``miss``)
    max_rounds: int


def compile_variant(variant: Variant) -> Rules:
    """Compile a validated variant for the engine."""
    numbers = [number for number, copies in sorted(variant.deck.numbers.items()) for _ in range(copies)]
    specials = [colour for colour, copies in variant.deck.specials.copies().items() for _ in range(copies)]
    return Rules(
        variant.players.min,
        variant.players.max,
        variant.dice.count,
        variant.dice.sides,
        (*numbers, *specials),
        variant.goal,
        variant.under == "keep",
        variant.max_rounds,
    )


class Decider(Protocol):
    """Makes every choice for one seat from its :class:`View`; bots and scenario scripts both implement it.

    The engine checks every answer and raises :class:`~workbench.errors.IllegalDecision` for
    one the rules do not allow.
    """

    def dice(self, view: View) -> int:
        """How many dice to take from the stock and roll (1 to ``view.stock``), or 0 to pass."""

    def red(self, view: View, roll: tuple[int, ...]) -> RedMove:
        """Red: a rolled face to return to the stock (two or more dice rolled), ``ADD`` (a die left in the stock), or None."""

    def orange(self, view: View, roll: tuple[int, ...]) -> int:
        """Orange: -1, 0 or +1, added to the roll's result."""

    def yellow(self, view: View, roll: tuple[int, ...]) -> int:
        """Yellow: which of the two number cards (``view.targets``) the roll was for."""

    def purple(self, view: View, roll: tuple[int, ...]) -> bool:
        """Purple: True to roll all these dice again (the second roll stands)."""


class View(TableView["Game"]):
    """What one seat may see when it decides: the table, never the chance source or the deck's order."""

    __slots__ = ()

    @property
    def rules(self) -> Rules:
        """The compiled rules."""
        return self._game.rules

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's score."""
        return tuple(self._game.scores)

    @property
    def targets(self) -> tuple[int, ...]:
        """The number cards in play: two while the yellow card's choice is open, else one."""
        return tuple(self._game.targets)

    @property
    def target(self) -> int:
        """The round's target (the first number card while the yellow card's choice is open)."""
        return self._game.targets[0]

    @property
    def special(self) -> str | None:
        """The round's special card, if any (it changes only the starting player's first roll)."""
        return self._game.special

    @property
    def kept(self) -> int:
        """P: the sum kept on the table (``under: keep``)."""
        return self._game.kept

    @property
    def table(self) -> int:
        """Dice kept on the table."""
        return self._game.table

    @property
    def stock(self) -> int:
        """Dice in the stock."""
        return self._game.stock

    @property
    def holder(self) -> int | None:
        """The seat holding the last valid roll, if any."""
        return self._game.holder

    @property
    def after(self) -> int:
        """How many players still have a turn this round after the one deciding."""
        return len(self._game.scores) - 1 - self._game.position

    @property
    def deck_size(self) -> int:
        """Cards left in the deck."""
        return len(self._game.deck)


class Game(EventLog):
    """The explicit state of one game, its counters for the statistics, and its event log (when logging)."""

    def __init__(self, rules: Rules, players: int, chance: ChanceSource, *, log: bool = True, start: int | None = None):
        """Set the game up: shuffle the deck, then the roll-off for the first starting player (or seat ``start``)."""
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"this variant is for {rules.min_players} to {rules.max_players} players, not {players}")
        if start is not None and not 0 <= start < players:
            raise ValueError(f"no seat {start} at a table of {players}")
        self.rules = rules
        self.chance = chance
        self.scores = [0] * players
        self.deck: list[Card] = list(rules.deck)  # the top card is deck[-1]
        chance.deal(self.deck)
        self.discard: list[Card] = []
        self.round = 0
        self.end_reason: str | None = None
        self.winners: list[int] = []
        self.events: list[Event] | None = [] if log else None
        #: Called after every turn and every round's end with the game; a test hook, None in production runs.
        self.after_step: Callable[[Game], None] | None = None
        # this round
        self.targets: list[int] = []  # the number cards in play
        self.special: str | None = None  # the special card in play
        self.kept = 0  # P, the sum kept on the table
        self.table = 0  # dice on the table
        self.stock = rules.count  # dice in the stock
        self.holder: int | None = None  # the seat holding the last valid roll
        self.position = 0  # the turn being played: 0 for the starting player
        # counters for the statistics (cheap integers, kept whether or not the game logs)
        self.hits = 0  #: rounds ended by a HIT
        self.held = 0  #: rounds whose holder of the last valid roll scored
        self.scoreless = 0  #: rounds without a HIT or a holder
        self.points_scored = 0  #: points scored in all (HITs and holders)
        self.points_lost = 0  #: points lost to rolls over the target
        self.last_scored = 0  #: rounds in which the last seat in turn order (just before the starting player) scored
        self.lead_changes = 0  #: times the sole leader became another seat (the first sole leader is no change)
        self.leader: int | None = None  #: the last sole leader
        self.turns = 0  #: turns in which a player rolled
        self.passes = 0  #: turns passed
        self.reshuffles = 0  #: times the discard pile became a new deck
        self.specials_drawn = [0] * len(SPECIALS)  #: by colour: rounds with this special in play
        self.specials_offered = [0] * len(SPECIALS)  #: by colour: the starting player rolled with it
        self.specials_used = [0] * len(SPECIALS)  #: by colour: it changed the roll (yellow: a card chosen)
        self.specials_ignored = [0] * len(SPECIALS)  #: by colour: drawn while another special or a number card was due
        self.views = tuple(View(self, seat) for seat in range(players))
        self.starting_player = self._roll_off() if start is None else start
        self.first_player = self.starting_player  #: the seat that started the game
        self.log("start", seat=self.starting_player)

    def _roll_off(self) -> int:
        """Each player rolls one die; the highest starts, the tied players roll again."""
        seats = tuple(range(len(self.scores)))
        while True:
            faces = self.chance.rolloff(seats, self.rules.sides)
            self.log("rolloff", seats=list(seats), faces=list(faces))
            best = max(faces)
            seats = tuple(seat for seat, face in zip(seats, faces) if face == best)
            if len(seats) == 1:
                return seats[0]

    # --- queries --------------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.end_reason is not None

    def snapshot(self, *, events: bool = True) -> dict[str, Any]:
        """The state as plain data: the replay output format (``--json``)."""
        out: dict[str, Any] = {
            "rounds": self.round,
            "end_reason": self.end_reason,
            "winners": list(self.winners),
            "players": [{"seat": seat, "score": score} for seat, score in enumerate(self.scores)],
            "deck": self.deck[::-1],
            "discard": len(self.discard),
        }
        return self.with_events(out, events)

    # --- playing --------------------------------------------------------------------------------------------

    def play(self, deciders: Sequence[Decider]) -> None:
        """Play rounds until the game ends."""
        while self.end_reason is None:
            self.play_round(deciders)

    def play_round(self, deciders: Sequence[Decider]) -> None:
        """Play one round: draw the cards, the turns clockwise, the round's points, then the end check."""
        if self.end_reason is not None:
            raise RuntimeError("the game is over")
        self.round += 1
        starter = self.starting_player
        players = len(self.scores)
        logging = self.events is not None
        if logging:
            self.log("round", seat=starter)
        self.targets = [self._draw_number(first=True)]
        if self.special == YELLOW:
            self.targets.append(self._draw_number(first=False))
        reason = "all_played"
        scorer: int | None = None
        for position in range(players):
            if position and not self.stock:
                reason = "stock_empty"
                break
            self.position = position
            seat = (starter + position) % players
            if self._turn(seat, deciders[seat], position == 0):
                reason, scorer = "hit", seat
                break
        if scorer is None:
            holder = self.holder
            if holder is not None:
                points = self.kept
                self.scores[holder] += points
                self.points_scored += points
                self.held += 1
                scorer = holder
                self.log("held", seat=holder, points=points)
                self._lead()
            else:
                self.scoreless += 1
        if scorer is not None and scorer == (starter - 1) % players:
            self.last_scored += 1
        if logging:
            self.log("round_end", reason=reason)
        # the cards in play go to the discard pile, the dice back to the stock
        self.discard.extend(self.targets)
        if self.special is not None:
            self.discard.append(self.special)
        self.targets = []
        self.special = None
        self.kept = self.table = 0
        self.stock = self.rules.count
        self.holder = None
        self.position = 0
        best = max(self.scores)
        if best >= self.rules.goal:
            self._finish("goal", best)
        elif self.round >= self.rules.max_rounds:
            self._finish("max_rounds", best)
        else:
            self.starting_player = (starter + 1) % players
        if self.after_step is not None:
            self.after_step(self)

    def _draw_number(self, *, first: bool) -> int:
        """Draw until a number card appears; the first special of the round is kept, later ones are discarded."""
        deck, chance = self.deck, self.chance
        while True:
            if not deck:
                if not self.discard:  # validation rules it out: a number card is always outside play
                    raise RuntimeError("no card left to draw")
                deck = self.deck = self.discard
                self.discard = []
                chance.reshuffle(deck)
                self.reshuffles += 1
                self.log("reshuffle", cards=len(deck))
            card = chance.draw(deck)
            if type(card) is int:
                if self.events is not None:
                    self.log("card", seat=self.starting_player, card=card)
                return card
            colour = SPECIALS.index(str(card))
            if first and self.special is None:
                self.special = str(card)
                self.specials_drawn[colour] += 1
                self.log("special", seat=self.starting_player, card=card)
            else:
                self.discard.append(card)
                self.specials_ignored[colour] += 1
                self.log("ignored", card=card)

    def _turn(self, seat: int, decider: Decider, first: bool) -> bool:
        """One player's turn; True for a HIT (the round ends at once)."""
        view = self.views[seat]
        rules = self.rules
        logging = self.events is not None  # the hot loop builds no event when the game keeps no log
        taken = decider.dice(view)
        if type(taken) is not int or not 0 <= taken <= self.stock:
            raise IllegalDecision(self.round, seat, f"cannot take {taken!r} dice: the stock holds {self.stock}")
        if not taken:
            self.passes += 1
            if first and self.special is not None:
                self._unused(seat)
            if logging:
                self.log("pass", seat=seat)
            if self.after_step is not None:
                self.after_step(self)
            return False
        self.turns += 1
        self.stock -= taken
        roll = self.chance.roll(taken, rules.sides)
        if logging:
            self.log("roll", seat=seat, dice=list(roll))
        adjust = 0
        if first and self.special is not None:
            adjust = self._special(seat, decider, view, roll)
        target = self.targets[0]
        total = self.kept + sum(roll) + adjust
        hit = False
        if total == target:
            self.table += len(roll)
            self.scores[seat] += target
            self.points_scored += target
            self.hits += 1
            hit = True
            if logging:
                self.log("hit", seat=seat, total=total, target=target, points=target)
            self._lead()
        elif total > target:
            self.stock += len(roll)
            loss = total - target
            self.scores[seat] -= loss
            self.points_lost += loss
            if logging:
                self.log("over", seat=seat, total=total, target=target, points=-loss)
            self._lead()
        else:
            if rules.keep:
                self.table += len(roll)
                self.kept = total
                self.holder = seat
            else:
                self.stock += len(roll)
            if logging:
                self.log("under", seat=seat, total=total, target=target, kept=rules.keep)
        if self.after_step is not None:
            self.after_step(self)
        return hit

    def _special(self, seat: int, decider: Decider, view: View, roll: list[int]) -> int:
        """The starting player's special decision on its roll (changed in place); the orange adjustment."""
        special = self.special
        colour = SPECIALS.index(str(special))
        self.specials_offered[colour] += 1
        faces = tuple(roll)
        used = True
        adjust = 0
        if special == RED:
            move = decider.red(view, faces)
            if move is None:
                used = False
                self.log("red", seat=seat, action="keep")
            elif move == ADD:
                if not self.stock:
                    raise IllegalDecision(self.round, seat, "red: cannot add a die: the stock is empty")
                self.stock -= 1
                face = self.chance.add(self.rules.sides)
                roll.append(face)
                self.log("red", seat=seat, action="add", face=face)
            elif type(move) is int and move in roll and len(roll) > 1:
                roll.remove(move)
                self.stock += 1
                self.log("red", seat=seat, action="return", face=move)
            else:
                raise IllegalDecision(self.round, seat, _red_refusal(move, faces))
        elif special == ORANGE:
            adjust = decider.orange(view, faces)
            if type(adjust) is not int or adjust not in (-1, 0, 1):
                raise IllegalDecision(self.round, seat, f"orange: cannot adjust the result by {adjust!r}: choose -1, 0 or 1")
            used = adjust != 0
            self.log("orange", seat=seat, adjust=adjust)
        elif special == YELLOW:
            card = decider.yellow(view, faces)
            targets = self.targets
            if type(card) is not int or card not in targets:
                raise IllegalDecision(
                    self.round, seat, f"yellow: cannot choose {card!r}: the number cards are {targets[0]} and {targets[1]}"
                )
            other = targets[1] if card == targets[0] else targets[0]
            self.targets = [card]
            self.discard.append(other)
            self.log("yellow", seat=seat, card=card, discarded=other)
        else:
            again = decider.purple(view, faces)
            if type(again) is not bool:
                raise IllegalDecision(self.round, seat, f"purple: expected true or false (roll again), got {again!r}")
            used = again
            if again:
                roll[:] = self.chance.reroll(len(roll), self.rules.sides)
                self.log("purple", seat=seat, reroll=list(roll))
            else:
                self.log("purple", seat=seat, reroll=None)
        if used:
            self.specials_used[colour] += 1
        return adjust

    def _unused(self, seat: int) -> None:
        """The starting player passed: its special goes unused; yellow's second number card is discarded."""
        if self.special == YELLOW:
            other = self.targets.pop()
            self.discard.append(other)
            self.log("unused", seat=seat, card=self.special, discarded=other)
        else:
            self.log("unused", seat=seat, card=self.special)

    def _lead(self) -> None:
        """Count a change of the sole leader after a score changed."""
        scores = self.scores
        best = max(scores)
        if scores.count(best) == 1:
            leader = scores.index(best)
            if leader != self.leader:
                if self.leader is not None:
                    self.lead_changes += 1
                self.leader = leader

    def _finish(self, reason: str, best: int) -> None:
        """End the game: the highest score wins, tied players share."""
        self.end_reason = reason
        self.winners = [seat for seat, score in enumerate(self.scores) if score == best]
        self.log("end", reason=reason, winners=list(self.winners))


def _red_refusal(move: object, roll: tuple[int, ...]) -> str:
    """Why a red decision is not allowed, in the designer's words."""
    shown = " ".join(map(str, roll))
    if type(move) is not int:
        return f"red: expected a rolled face to return, add or nothing, got {move!r}"
    if move not in roll:
        return f"red: cannot return a {move}: no rolled die shows it (the roll is {shown})"
    return f"red: cannot return the only die rolled (the roll is {shown}): a roll keeps at least one die"


__all__ = [
    "ADD",
    "END_REASONS",
    "ORANGE",
    "PURPLE",
    "RED",
    "ROUND_ENDS",
    "SCORING",
    "YELLOW",
    "Decider",
    "Event",
    "Game",
    "RedMove",
    "Rules",
    "View",
    "compile_variant",
]
