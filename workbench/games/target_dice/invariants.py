"""What must hold after every step of every target-dice game, checked from the state and the event log.

A test hook, off in production runs: ``game.after_step = Invariants(game)`` (the game must
keep its event log). A step is a turn or a round's end. Each check raises
:class:`InvariantError` naming the rule.
"""

from __future__ import annotations

from collections import Counter
from typing import NoReturn

from workbench.games.base import InvariantError, LogChecker
from workbench.games.target_dice.engine import SCORING, Event, Game


class Invariants(LogChecker["Game"]):
    """Checks a game after each step; keeps what it needs from earlier steps (the round's turns, the scores' events)."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.earned = [0] * len(game.scores)  # each seat's points, summed from its events
        self.starter: int | None = None  # this round's starting player
        self.previous: int | None = None  # the last round's starting player
        self.acted: list[int] = []  # seats that had their turn this round, in order
        self.round_over = True  # between rounds
        self.empty = False  # the stock was empty when the last step ended, in the middle of a round
        self.steps = 0
        self.check()

    def __call__(self, game: Game) -> None:
        self.steps += 1
        self.check()

    def fail(self, rule: str, message: str) -> NoReturn:
        """Raise for a broken rule, saying where in the game it happened."""
        raise InvariantError(f"round {self.game.round}: {rule}: {message}")

    def check(self) -> None:
        """Run every check on the current state and on the events since the last check."""
        for event in self.events[self.seen :]:
            self._event(event)
        self.seen = len(self.events)
        self.dice()
        self.cards()
        self.scores()
        self.termination()
        self.empty = not self.round_over and not self.game.stock

    # --- state ---------------------------------------------------------------------------------------------

    def dice(self) -> None:
        """Dice conservation: stock + table = the variant's dice at all times; nothing on the table between rounds."""
        game = self.game
        if game.stock < 0 or game.table < 0 or game.stock + game.table != game.rules.count:
            self.fail("dice conservation", f"stock {game.stock} + table {game.table} is not {game.rules.count}")
        if self.round_over and (game.table or game.kept or game.holder is not None):
            self.fail("dice conservation", f"between rounds the table holds {game.table} dice, P = {game.kept}")
        if not game.rules.keep and (game.table != 0 and not self._hit_this_round()):
            self.fail("under: miss", f"{game.table} dice stay on the table without a HIT")

    def cards(self) -> None:
        """Card conservation: deck, discard pile and the cards in play are the variant's deck."""
        game = self.game
        in_play = [*game.targets, *([game.special] if game.special is not None else [])]
        if Counter([*game.deck, *game.discard, *in_play]) != Counter(game.rules.deck):
            self.fail("card conservation", "the deck, the discard pile and the cards in play are not the variant's deck")

    def scores(self) -> None:
        """Score bookkeeping: each score equals the sum of the points of its events."""
        for seat, (score, earned) in enumerate(zip(self.game.scores, self.earned)):
            if score != earned:
                self.fail("score bookkeeping", f"seat {seat} has {score} points, its events add up to {earned}")

    def termination(self) -> None:
        """The game ends by the goal or max_rounds, with the highest scores as its winners; it never goes past either."""
        game, rules = self.game, self.game.rules
        if game.round > rules.max_rounds:
            self.fail("termination", f"round {game.round} of at most {rules.max_rounds}")
        best = max(game.scores)
        if not game.is_over:
            if self.round_over and game.round and best >= rules.goal:
                self.fail("termination", f"a score of {best} reaches the goal ({rules.goal}) but the game goes on")
            if self.round_over and game.round >= rules.max_rounds:
                self.fail("termination", f"round {game.round} was the last (max_rounds) but the game goes on")
            return
        if game.end_reason == "goal" and best < rules.goal:
            self.fail("termination", f"ended by the goal, but the best score is {best} (goal {rules.goal})")
        if game.end_reason == "max_rounds" and (game.round != rules.max_rounds or best >= rules.goal):
            self.fail("termination", f"ended by max_rounds in round {game.round} with a best score of {best}")
        expected = [seat for seat, score in enumerate(game.scores) if score == best]
        if game.winners != expected:
            self.fail("termination", f"winners {game.winners}, but the highest scores are seats {expected}")

    # --- events --------------------------------------------------------------------------------------------

    def _hit_this_round(self) -> bool:
        for event in reversed(self.events):
            if event["type"] == "round":
                return False
            if event["type"] == "hit":
                return True
        return False

    def _event(self, event: Event) -> None:
        kind = event["type"]
        if kind in SCORING:
            self.earned[event["seat"]] += event["points"]
            if kind == "hit" and event["points"] != event["target"]:
                self.fail("scoring", f"a HIT of {event['target']} scores {event['points']}")
            if kind == "over" and event["points"] != event["target"] - event["total"]:
                self.fail("scoring", f"{event['total']} for {event['target']} loses {-event['points']}")
        if kind == "start":
            self.previous = None
            self.starter = event["seat"]
        elif kind == "round":
            self._round_starts(event["seat"])
        elif kind in ("pass", "roll"):
            self._turn(event["seat"])
        elif kind == "round_end":
            self.round_over = True
            if event["reason"] == "all_played" and len(self.acted) != len(self.game.scores):
                self.fail("turn order", f"the round ends with every player's turn, but only seats {self.acted} played")
        elif kind in ("red", "orange", "yellow", "purple", "unused") and event["seat"] != self.starter:
            self.fail("specials", f"seat {event['seat']} plays the {kind} card, but seat {self.starter} started the round")

    def _round_starts(self, seat: int) -> None:
        """The starting seat rotates clockwise, one seat a round, from the first starting player."""
        players = len(self.game.scores)
        if not self.round_over:
            self.fail("turn order", "a round starts before the last one ended")
        expected = self.starter if self.previous is None else (self.previous + 1) % players
        if seat != expected:
            self.fail("turn order", f"seat {seat} starts the round, but seat {expected} should")
        self.previous = self.starter = seat
        self.acted = []
        self.round_over = False

    def _turn(self, seat: int) -> None:
        """Turns go clockwise from the starting player, each seat at most once a round, never with the stock empty."""
        players = len(self.game.scores)
        if self.starter is None or self.round_over:
            self.fail("turn order", f"seat {seat} plays outside a round")
        expected = (self.starter + len(self.acted)) % players
        if seat in self.acted:
            self.fail("turn order", f"seat {seat} has a second turn this round")
        if seat != expected:
            self.fail("turn order", f"seat {seat} plays, but it is seat {expected}'s turn")
        if self.empty:
            self.fail("stock empty", f"seat {seat} has a turn, but the stock is empty: the round should have ended")
        self.acted.append(seat)


__all__ = ["InvariantError", "Invariants"]
