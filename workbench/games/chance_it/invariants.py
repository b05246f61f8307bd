"""What must hold after every step of every Chance It game, checked from the state and the event log.

A test hook, off in production runs: ``game.after_step = Invariants(game)`` (the game
must keep its event log). Each check raises :class:`InvariantError` naming the rule.
"""

from __future__ import annotations

from collections import Counter
from typing import NoReturn

from workbench.games.base import InvariantError, LogChecker
from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.effects import EVENTS
from workbench.games.chance_it.engine import CHANCE_IT, IN, OUT, Event, Game
from workbench.games.chance_it.rules import COINS, HEARTS, STARS

#: Events of a player taking part in the action round (an OUT player has none, outside an all-OUT round):
#: the engine's, and every effect's but the starting player's reroll.
ENGINE_ACTIONS = frozenset({"use", "buy", "discard", "market_empty", "market_limit", "chance_it"})


class Invariants(LogChecker["Game"]):
    """Checks a game after each step; keeps what it needs from earlier steps (who was out, who was forced)."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.out_since: dict[int, int] = {}  # seat -> index of its elimination event
        self.forced: set[int] = set()  # seats forced to play IN this round
        self.starting: int | None = None  # the previous round's starting player
        self.guides: list[str | None] = []  # this round's guides
        self.settled: Counter[int] = Counter()  # seat -> stakes events this round
        self.short: set[int] = set()  # IN seats that paid less than the sheet
        self.stakes_due = False  # the stakes step of this round is still to be checked
        self.all_out = False  # this round everybody played OUT
        self.order: list[int] = []  # seats in the order they settled the stakes
        self.short_out = 0  # -1 when an OUT player got less than the sheet this round
        self.out_takes: list[int] = []  # coins each OUT player took this round
        self.in_hearts: set[int] = set()  # IN seats that paid stakes in hearts
        self.supply_before: list[int | None] = list(game.supply)  # the supply when the last step ended
        self.steps = 0
        self.check()

    def __call__(self, game: Game) -> None:
        self.steps += 1
        self.check()

    def check(self) -> None:
        """Run every check on the current state and on the events since the last check."""
        game = self.game
        new = self.events[self.seen :]
        for offset, event in enumerate(new):
            self._event(self.seen + offset, event)
        self.seen = len(self.events)
        if self.stakes_due:
            self._stakes_settled()
        self.conservation()
        self.nothing_negative()
        self.eliminated_hold_nothing()
        self.rounds_and_end()
        self.supply_before = list(game.supply)

    def fail(self, rule: str, message: str) -> NoReturn:
        """Raise for a broken rule, saying where in the game it happened."""
        raise InvariantError(f"round {self.game.round}: {rule}: {message}")

    # --- state ---------------------------------------------------------------------------------------------

    def conservation(self) -> None:
        """Rule 15: players plus a limited supply hold the supply's total; every card is in exactly one place."""
        game = self.game
        for r, total in enumerate(game.rules.supply):
            if total is not None:
                left = game.supply[r]
                if left is None:
                    self.fail("conservation", f"{RESOURCES[r]}: the supply holds {total} in all but has become unlimited")
                held = sum(p.res[r] for p in game.players) + left
                if held != total:
                    self.fail("conservation", f"{RESOURCES[r]}: players and supply hold {held}, the supply's total is {total}")
        places = game.pile + game.market + game.discard + [card for p in game.players for card in p.tableau]
        if Counter(card.id for card in places) != Counter(card.id for card in game.rules.deck):
            self.fail("conservation", "the cards in pile, market, discard and tableaux are not the deck")

    def nothing_negative(self) -> None:
        """No player or supply holds a negative amount."""
        game = self.game
        for p in game.players:
            if min(p.res) < 0:
                self.fail("nothing negative", f"seat {p.seat} holds {p.res}")
        if any(left is not None and left < 0 for left in game.supply):
            self.fail("nothing negative", f"the supply holds {game.supply}")

    def eliminated_hold_nothing(self) -> None:
        """Rule 12: an eliminated player holds no tokens and no cards, and is not forced in."""
        for p in self.game.players:
            if p.eliminated and (any(p.res) or p.tableau or p.forced_in):
                self.fail("eliminated hold nothing", f"seat {p.seat} is out but holds {p.res}, {len(p.tableau)} card(s)")
            if not p.eliminated and p.res[HEARTS] <= 0:
                self.fail("eliminated hold nothing", f"seat {p.seat} has no hearts but is still in the game")

    def rounds_and_end(self) -> None:
        """Rules 13 and 14: the game ends by max_rounds, and its end reason agrees with the final state."""
        game, rules = self.game, self.game.rules
        if game.round > rules.max_rounds:
            self.fail("ends within max_rounds", f"round {game.round} of at most {rules.max_rounds}")
        alive = [p for p in game.players if not p.eliminated]
        starred = [p for p in alive if p.res[STARS] >= rules.end_stars]
        if not game.is_over:
            if starred or len(alive) <= 1:
                self.fail("end check", "the game should have ended after this step")
            return
        reason = game.end_reason
        if reason == "stars" and not starred:
            self.fail("end reason", "ended by stars, but nobody in the game has enough")
        if reason == "last_standing" and (len(alive) != 1 or game.winners != [alive[0].seat]):
            self.fail("end reason", f"last standing, but {len(alive)} left and winners {game.winners}")
        if reason == "all_eliminated" and (alive or game.winners):
            self.fail("end reason", "all eliminated, but somebody is left or won")
        if reason == "max_rounds" and game.round != rules.max_rounds:
            self.fail("end reason", f"max_rounds in round {game.round}, the limit is {rules.max_rounds}")
        if reason in ("stars", "max_rounds"):
            best = max(tuple(p.res[i] for i in rules.tiebreak) for p in alive)
            expected = [p.seat for p in alive if tuple(p.res[i] for i in rules.tiebreak) == best]
            if game.winners != expected:
                self.fail("end reason", f"winners {game.winners}, but the best by the tiebreak are {expected}")

    # --- events --------------------------------------------------------------------------------------------

    def _event(self, index: int, event: Event) -> None:
        kind, seat = event["type"], event.get("seat")
        if kind == "eliminated":
            self.out_since[event["seat"]] = index
            return
        if kind == "roll":
            self._round_starts(event["seat"])
        elif kind == "guides":
            self._guides(event)
        elif kind == "all_out":
            if any(guide not in (None, OUT) for guide in self.guides):
                self.fail("stakes", "an all-OUT round, but somebody played IN or CHANCE IT")
            self.stakes_due = False
            self.all_out = True
        elif kind == "stakes":
            if seat in self.out_since:
                self.fail("eliminated act no more", f"seat {seat} pays or takes stakes after its elimination")
            self._stakes(event)
        elif seat is not None and seat in self.out_since and kind not in ("roll", "reroll"):
            self.fail("eliminated act no more", f"seat {seat} has a {kind!r} event after its elimination")
        elif self._acts(kind) and not self.all_out and self.guides and self.guides[event["seat"]] in (None, OUT):
            self.fail("participants", f"seat {seat} played OUT but has a {kind!r} event in the action round")
        if kind == "steal":
            self._steal(event)

    @staticmethod
    def _acts(kind: str) -> bool:
        return kind in ENGINE_ACTIONS or (kind in EVENTS and kind != "reroll")

    def _steal(self, event: Event) -> None:
        """A steal takes from another player still in the game who takes part (everybody in an all-OUT round)."""
        seat, victim = event["seat"], event["victim"]
        if victim == seat:
            self.fail("steal", f"seat {seat} steals from itself")
        if victim in self.out_since:
            self.fail("steal", f"seat {seat} steals from seat {victim}, who is out of the game")
        if not self.all_out and self.guides and self.guides[victim] in (None, OUT):
            self.fail("steal", f"seat {seat} steals from seat {victim}, who played OUT")
        if any(event.get(r, 0) < 0 for r in RESOURCES):
            self.fail("steal", f"seat {seat} steals a negative amount: {event}")

    def _round_starts(self, seat: int) -> None:
        """Rule 14: the starting player is in the game, the next one clockwise from the last still in it."""
        game = self.game
        if seat in self.out_since:
            self.fail("turn order", f"seat {seat} starts the round but is out of the game")
        if self.starting is None and seat != 0:
            self.fail("turn order", f"seat {seat} starts the first round; seat 0 does (rule 1)")
        if self.starting is not None:
            count = len(game.players)
            expected = next(
                (self.starting + step) % count
                for step in range(1, count + 1)
                if (self.starting + step) % count not in self.out_since
            )
            if seat != expected:
                self.fail(
                    "turn order", f"seat {seat} starts, but the next player in the game after {self.starting} is {expected}"
                )
        self.starting = seat

    def _guides(self, event: Event) -> None:
        """Rules 2 and 3: only players in the game pick; a forced player played IN; stakes follow the sheet."""
        guides = event["guides"]
        for seat, guide in enumerate(guides):
            if (guide is None) != (seat in self.out_since):
                self.fail(
                    "guides",
                    f"seat {seat} {'picks' if guide else 'has no guide'} but is {'out' if seat in self.out_since else 'in the game'}",
                )
            if seat in self.forced and guide is not None and guide != IN:
                self.fail("forced in", f"seat {seat} was forced to play IN but played {guide}")
        self.forced = set(event["forced_in"])
        self.guides, self.settled, self.short, self.stakes_due = guides, Counter(), set(), True
        self.all_out, self.order, self.short_out, self.in_hearts, self.out_takes = False, [], 0, set(), []
        chancers = [seat for seat, guide in enumerate(guides) if guide == CHANCE_IT]
        expected_forced = set(chancers) if len(chancers) >= self.game.rules.forced_in_after else set()
        if self.forced != expected_forced:
            self.fail("forced in", f"forced next round: {sorted(self.forced)}, the rules force {sorted(expected_forced)}")

    def _stakes(self, event: Event) -> None:
        """Rule 4: an OUT player takes out[k-1] (less only from a short supply), an IN player pays in[m-1]."""
        seat, guides = event["seat"], self.guides
        playing = [s for s, guide in enumerate(guides) if guide is not None]
        outs = [s for s in playing if guides[s] == OUT]
        out_sheet, in_sheet = self.game.rules.stakes[len(playing)]
        self.settled[seat] += 1
        self.order.append(seat)
        if self.settled[seat] > 1:
            self.fail("stakes", f"seat {seat} settles the stakes twice")
        if guides[seat] == OUT:
            take = out_sheet[len(outs) - 1] if len(outs) < len(playing) else None  # everybody OUT: no stakes
            if take is None or not 0 <= event["coins"] <= take or event["hearts"]:
                self.fail(
                    "stakes",
                    f"OUT seat {seat} took {event['coins']} coins and {event['hearts']} hearts, the sheet says {take} coins",
                )
            self.out_takes.append(event["coins"])
            if event["coins"] < take:
                self.short_out = -1  # checked once the step is over: only an empty supply gives less
        else:
            pay, paid = in_sheet[len(playing) - len(outs) - 1], -(event["coins"] + event["hearts"])
            if paid > pay or paid < 0:
                self.fail("stakes", f"IN seat {seat} paid {paid}, the sheet says {pay}")
            if paid < pay:
                self.short.add(seat)  # only a player who ran out of hearts pays less
            if event["hearts"]:
                self.in_hearts.add(seat)  # only a player who ran out of coins pays in hearts

    def _stakes_settled(self) -> None:
        """After the stakes step: every player in the game settled once, and only the eliminated paid less."""
        playing = {s for s, guide in enumerate(self.guides) if guide is not None}
        if set(self.settled) != playing:
            self.fail("stakes", f"seats {sorted(self.settled)} settled the stakes, the players are {sorted(playing)}")
        game = self.game
        for seat in self.short:
            if not game.players[seat].eliminated:
                self.fail("stakes", f"IN seat {seat} paid less than the sheet and is still in the game")
        for seat in self.in_hearts:
            if game.players[seat].res[COINS]:
                self.fail("stakes", f"IN seat {seat} paid stakes in hearts while holding coins")
        outs = [seat for seat in self.order if self.guides[seat] == OUT]
        ins = [seat for seat in self.order if self.guides[seat] != OUT]
        start = self.starting
        if start is None:
            self.fail("turn order", "stakes settled before anybody rolled")
        turn = sorted(self.order, key=lambda seat: (seat - start) % len(game.players))
        if self.order != outs + ins or outs + ins != [s for s in turn if s in outs] + [s for s in turn if s in ins]:
            self.fail(
                "turn order",
                f"stakes settled in the order {self.order}; OUT then IN players, each clockwise from {self.starting}",
            )
        if self.short_out and self.supply_before[COINS] is not None and sum(self.out_takes) != self.supply_before[COINS]:
            self.fail("stakes", f"an OUT player took less than the sheet though the supply held {self.supply_before[COINS]}")
        self.stakes_due = False


__all__ = ["InvariantError", "Invariants"]
