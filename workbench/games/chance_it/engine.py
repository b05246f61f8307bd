"""The Chance It rules interpreter: one round loop over an explicit game state.

Every random draw comes from a :class:`~workbench.games.chance_it.chance.ChanceSource`
and every choice from a :class:`Decider` per seat, both passed in; the state holds
neither. A replay is a scripted chance source with scripted deciders, a simulation is
an RNG with bots: the same code path.

The normative reading of the rulebook this follows is written out in
docs/explanation/rules-chance-it.md; the comments below cite its rule numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from workbench.errors import IllegalDecision
from workbench.games.base import Event, EventLog, TableView
from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.chance import ChanceSource
from workbench.games.chance_it.effects import EffectEvent, join
from workbench.games.chance_it.rules import COINS, HEARTS, STARS, CardDef, Effects, Rules, compile_rules, modifier
from workbench.games.chance_it.schema import GUIDES, Variant

IN, OUT, CHANCE_IT = GUIDES
FORCED = (IN,)
BUY, DISCARD = "buy", "discard"
#: Flash cards that grant market actions could chain forever (each bought again after a reshuffle);
#: past this many market actions granted by one chain, it stops with a ``market_limit`` event.
MAX_CHAINED_MARKETS = 20

#: A market decision: ("buy" or "discard", card id).
MarketMove = tuple[str, str]


class Decider(Protocol):
    """Makes every choice for one seat. Each method gets the seat's view and the legal options, and returns one.

    Bots and scenario scripts both implement it. The engine still checks every answer and
    raises :class:`~workbench.errors.IllegalDecision` for one that is not among the options;
    a decider that cannot answer with an option (a script naming another card) raises it itself.
    """

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        """Pick a guide card: ``in``, ``out`` or ``chance-it`` (only ``in`` when forced)."""

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        """Buy or discard one face-up card."""

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        """Pick which of several eligible cards (of different ids) to use."""

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        """Pick one option of a ``choose`` effect: its index, from 0 (``texts``: each option as the card words it)."""

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        """Pick the seat a ``steal`` with ``from: choose`` takes ``taking`` ((resource, amount) pairs) from."""


class Player:
    """One seat's state, and what it did this game (for the statistics)."""

    __slots__ = (
        "bought",
        "bought_rounds",
        "discarded",
        "eliminated",
        "eliminated_round",
        "forced_in",
        "forced_rounds",
        "guide",
        "picks",
        "res",
        "seat",
        "stakes_hearts",
        "stakes_paid",
        "stakes_received",
        "tableau",
    )

    def __init__(self, seat: int, start: tuple[int, ...]):
        self.seat = seat
        self.res = list(start)  # coins, hearts, stars
        self.tableau: list[CardDef] = []
        self.eliminated = False
        self.forced_in = False  # must play IN this coming round
        self.guide: str | None = None  # the guide played this round
        self.picks = [0, 0, 0]  # rounds played in, out, chance-it
        self.forced_rounds = 0  # rounds in which the seat was forced to play in
        self.stakes_paid = 0  # coins paid as stakes
        self.stakes_hearts = 0  # hearts paid as stakes for want of coins
        self.stakes_received = 0  # coins taken as an out-player
        self.bought: list[str] = []  # ids of the cards bought, in order
        self.bought_rounds: list[int] = []  # the round of each purchase
        self.discarded: list[str] = []  # ids of the market cards discarded, in order
        self.eliminated_round: int | None = None

    @property
    def coins(self) -> int:
        """Coins held."""
        return self.res[COINS]

    @property
    def hearts(self) -> int:
        """Hearts held."""
        return self.res[HEARTS]

    @property
    def stars(self) -> int:
        """Stars held."""
        return self.res[STARS]

    def modifier(self, name: str) -> int:
        """The sum of a modifier (such as ``chance_bonus``) over the passive cards in the tableau."""
        return modifier(self.tableau, name)

    def copy(self) -> Player:
        """An independent copy (for lookahead)."""
        other = Player.__new__(Player)
        for name in Player.__slots__:
            setattr(other, name, getattr(self, name))
        other.res = list(self.res)
        other.tableau = list(self.tableau)
        other.picks = list(self.picks)
        other.bought = list(self.bought)
        other.bought_rounds = list(self.bought_rounds)
        other.discarded = list(self.discarded)
        other.guide = None
        return other


class PlayerView:
    """Read-only public state of one seat."""

    __slots__ = ("_player",)

    def __init__(self, player: Player):
        self._player = player

    @property
    def seat(self) -> int:
        """The seat."""
        return self._player.seat

    @property
    def coins(self) -> int:
        """Coins held."""
        return self._player.res[COINS]

    @property
    def hearts(self) -> int:
        """Hearts held."""
        return self._player.res[HEARTS]

    @property
    def stars(self) -> int:
        """Stars held."""
        return self._player.res[STARS]

    @property
    def eliminated(self) -> bool:
        """Out of the game."""
        return self._player.eliminated

    @property
    def forced_in(self) -> bool:
        """Must play IN this round."""
        return self._player.forced_in

    @property
    def tableau(self) -> tuple[CardDef, ...]:
        """The cards in front of the seat (face up)."""
        return tuple(self._player.tableau)

    @property
    def position(self) -> tuple[int, int, int, tuple[CardDef, ...]]:
        """Coins, hearts, stars and the tableau at once (what a bot reads of every seat at every decision)."""
        player = self._player
        coins, hearts, stars = player.res
        return coins, hearts, stars, tuple(player.tableau)


class View(TableView["Game"]):
    """What one seat may see when it decides: public state, its own state and the dice, never the chance source.

    Guides chosen by others this round stay hidden until revealed, and the order of the
    face-down pile is not shown (:meth:`sample` reshuffles it).
    """

    __slots__ = ("players",)

    def __init__(self, game: Game, seat: int, players: tuple[PlayerView, ...]):
        super().__init__(game, seat)
        self.players = players

    @property
    def rules(self) -> Rules:
        """The compiled rules."""
        return self._game.rules

    @property
    def me(self) -> PlayerView:
        """The deciding seat's own state."""
        return self.players[self.seat]

    @property
    def dice(self) -> tuple[int, ...]:
        """This round's dice as they show now (a rerolled 1 at its new face), sorted."""
        return self._game.dice

    @property
    def pile_size(self) -> int:
        """Cards left in the face-down pile."""
        return len(self._game.pile)

    @property
    def guides(self) -> tuple[str | None, ...] | None:
        """This round's guides once revealed (None for a seat out of the game); None while they are chosen."""
        game = self._game
        if game.choosing:
            return None
        return tuple(None if p.eliminated else p.guide for p in game.players)

    @property
    def market(self) -> tuple[CardDef, ...]:
        """The face-up market cards."""
        return tuple(self._game.market)

    def kept(self) -> View:
        """This seat's view of a copy of the game as it stands, to value the decision again later (``calibrate``):
        what the seat sees does not change as the game goes on. (During a guide choice the copy is rewound to the
        round's start, as :meth:`sample`'s is; the dice and the holdings are the same.)"""
        return self._game.copy().views[self.seat]

    def sample(self, chance: ChanceSource) -> Game:
        """A copy of the game for lookahead, its face-down pile dealt anew by ``chance`` (no peeking at its order).

        During a guide choice the copy is rewound to the start of this round (same dice),
        so ``copy.play_round(chance, deciders, roll=copy.dice)`` plays the round out.
        """
        game = self._game.copy()
        chance.deal(game.pile)
        return game


#: Why a game ends: a star goal reached, one player left, nobody left, the round limit.
END_REASONS = ("stars", "last_standing", "all_eliminated", "max_rounds")


class Game(EventLog):
    """The explicit state of one game: players, supply, cards, round, result and event log."""

    def __init__(self, rules: Rules, players: int, chance: ChanceSource, *, log: bool = True):
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"this variant is for {rules.min_players} to {rules.max_players} players, not {players}")
        self.rules = rules
        self.players = [Player(seat, rules.start) for seat in range(players)]
        self.supply: list[int | None] = [
            None if total is None else total - players * start for total, start in zip(rules.supply, rules.start)
        ]
        self.pile: list[CardDef] = list(rules.deck)  # the top card is pile[-1]
        chance.deal(self.pile)
        self.market: list[CardDef] = []
        self.discard: list[CardDef] = []
        self.offered: set[str] = set()  # the cards some seat could buy at a market action in this game
        self.round = 0
        self.starting_player = 0
        self.end_reason: str | None = None
        self.winners: list[int] = []
        self.events: list[Event] | None = [] if log else None
        #: Called after every step with the game; a test hook, None in production runs.
        self.after_step: Callable[[Game], None] | None = None
        self.living = players  # players still in the game
        self.stars_reached = False  # somebody has had end.stars (the end check then looks closer)
        self.dice: tuple[int, ...] = ()  # this round's dice as they show now, sorted
        self.choosing = False  # guides are being chosen: a copy rewinds to the round's start
        self.peak = [players * start for start in rules.start]  # most of each resource held by the players together
        self.dry = [False] * len(RESOURCES)  # whether each limited supply ever ran out
        self.trajectory: list[tuple[int, ...]] = []  # per round: coins, hearts, stars of the living, and their number
        self.views = self._make_views()
        self._lay_out(chance)

    def _make_views(self) -> tuple[View, ...]:
        players = tuple(PlayerView(p) for p in self.players)
        return tuple(View(self, seat, players) for seat in range(len(self.players)))

    def copy(self) -> Game:
        """An independent copy without log or hook.

        A copy taken while guides are chosen is rewound to the start of the round.
        """
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.players = [p.copy() for p in self.players]
        other.supply = list(self.supply)
        other.pile = list(self.pile)
        other.market = list(self.market)
        other.discard = list(self.discard)
        other.offered = set(self.offered)
        other.winners = list(self.winners)
        other.events = None
        other.after_step = None
        other.peak = list(self.peak)
        other.dry = list(self.dry)
        other.trajectory = list(self.trajectory)
        other.views = other._make_views()
        if self.choosing:
            other.round -= 1
            other.choosing = False
        return other

    # --- queries --------------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.end_reason is not None

    def alive(self) -> list[Player]:
        """Players still in the game, in seat order."""
        return [p for p in self.players if not p.eliminated]

    def turn_order(self, players: Sequence[Player]) -> list[Player]:
        """``players`` (in seat order, as :meth:`alive` lists them) clockwise from the starting player: the seats from
        the starting player's on, then those before it."""
        start = self.starting_player
        return [p for p in players if p.seat >= start] + [p for p in players if p.seat < start]

    def snapshot(self, *, events: bool = True) -> dict[str, Any]:
        """The state as plain data: the replay output format (``--json``)."""
        out: dict[str, Any] = {
            "rounds": self.round,
            "end_reason": self.end_reason,
            "winners": list(self.winners),
            "players": [
                {
                    "seat": p.seat,
                    **{name: p.res[i] for i, name in enumerate(RESOURCES)},
                    "cards": [card.id for card in p.tableau],
                    "eliminated": p.eliminated,
                    "forced_in": p.forced_in,
                }
                for p in self.players
            ],
            "supply": dict(zip(RESOURCES, self.supply)),
            "market": [card.id for card in self.market],
            "pile": len(self.pile),
            "discard": len(self.discard),
        }
        return self.with_events(out, events)

    def emit(self, event: EffectEvent) -> None:
        """Append an effect's typed event to the log (when logging)."""
        if self.events is not None:
            self.events.append({"round": self.round, "type": event.type, **event.fields()})

    # --- playing --------------------------------------------------------------------------------------------

    def play_round(self, chance: ChanceSource, deciders: Sequence[Decider], *, roll: Sequence[int] | None = None) -> None:
        """Play one round: roll, guides, stakes, action round, then pass the starting player.

        ``roll`` replaces the starting player's roll (a lookahead replaying a known round).
        """
        if self.is_over:
            raise RuntimeError("the game is over")
        Round(self, chance, deciders).play(roll)

    def play(self, chance: ChanceSource, deciders: Sequence[Decider]) -> None:
        """Play rounds until the game ends."""
        while not self.is_over:
            self.play_round(chance, deciders)

    # --- state changes used by the round and its effects ----------------------------------------------------

    def gain(self, player: Player, resource: int, amount: int) -> int:
        """Take from the supply; a limited supply gives only what is left (rule 11)."""
        left = self.supply[resource]
        if left is not None:
            if amount >= left:
                amount = left
                self.dry[resource] = True
            self.supply[resource] = left - amount
        have = player.res[resource] = player.res[resource] + amount
        if resource == STARS and have >= self.rules.end_stars:
            self.stars_reached = True
        return amount

    def lose(self, player: Player, resource: int, amount: int) -> int:
        """Return to the supply what the player has, up to ``amount`` (rule 11)."""
        have = player.res[resource]
        if amount > have:
            amount = have
        player.res[resource] = have - amount
        if self.supply[resource] is not None:
            # Not None here, but mypy does not narrow an index by a variable; a local (as in `gain`)
            # would, yet tests/test_invariants.py mutates this very line to break conservation.
            self.supply[resource] += amount  # type: ignore[operator]
        return amount

    def transfer(self, giver: Player, taker: Player, resource: int, amount: int) -> int:
        """Move what ``giver`` has of a resource, up to ``amount``, to ``taker`` (never through the supply)."""
        amount = min(amount, giver.res[resource])
        giver.res[resource] -= amount
        have = taker.res[resource] = taker.res[resource] + amount
        if resource == STARS and have >= self.rules.end_stars:
            self.stars_reached = True
        return amount

    def settle(self, player: Player) -> None:
        """Eliminate a player left without hearts (call after logging what they lost)."""
        if not player.res[HEARTS] and not player.eliminated:
            self.eliminate(player)

    def eliminate(self, player: Player) -> None:
        """A player without hearts is out at once: tokens to the supply, cards to the discard (rule 12)."""
        supply = self.supply
        for resource, amount in enumerate(player.res):
            left = supply[resource]
            if left is not None:
                supply[resource] = left + amount
            player.res[resource] = 0
        player.eliminated = True
        self.living -= 1
        player.eliminated_round = self.round
        player.forced_in = False
        self.discard.extend(player.tableau)
        player.tableau = []
        self.log("eliminated", seat=player.seat)

    def check_end(self) -> bool:
        """Decide whether the game ends now (rule 13); sets the end reason and winners."""
        if not self.stars_reached and self.living > 1:  # the common case, without a look at every player
            return False
        alive = self.alive()
        threshold = self.rules.end_stars
        if any(p.res[STARS] >= threshold for p in alive):
            self.finish("stars", alive)
        elif len(alive) == 1:
            self.finish("last_standing", alive)
        elif not alive:
            self.finish("all_eliminated", alive)
        return self.is_over

    def finish(self, reason: str, alive: list[Player]) -> None:
        """End the game; winners are the living players best by the tiebreak (all tied ones)."""
        order = self.rules.tiebreak
        if alive:
            best = max(tuple(p.res[i] for i in order) for p in alive)
            self.winners = [p.seat for p in alive if tuple(p.res[i] for i in order) == best]
        self.end_reason = reason
        self.log("end", reason=reason, winners=list(self.winners))

    def refill(self, chance: ChanceSource) -> None:
        """Lay out new cards once the market is empty, reshuffling the discard if allowed (rule 8)."""
        if not self.market:
            if not self.pile and self.rules.reshuffle_discard and self.discard:
                self.pile, self.discard = self.discard, []
                chance.reshuffle(self.pile)
                self.log("reshuffle", cards=len(self.pile))
            if self.pile:
                self._lay_out(chance)

    def market_moves(self, player: Player) -> tuple[MarketMove, ...]:
        """The legal market moves: buy what the player can afford, or discard any face-up card."""
        kinds = dict.fromkeys(self.market)  # copies of a card are one compiled object
        coins = player.res[COINS]
        moves = [(BUY, card.id) for card in kinds if card.cost <= coins]
        moves += [(DISCARD, card.id) for card in kinds]
        return tuple(moves)

    def take(self, player: Player, move: MarketMove, chance: ChanceSource) -> CardDef | None:
        """Carry out a legal market move (rules 8 and 9); returns a bought flash card, whose effects are due."""
        action, card_id = move
        market = self.market
        for card in market:
            if card.id == card_id:
                break
        else:
            raise LookupError(f"{card_id} is not in the market")  # a move checked against market_moves always is
        market.remove(card)
        if action == DISCARD:
            self.discard.append(card)
            player.discarded.append(card.id)
            self.log("discard", seat=player.seat, card=card.id)
            self.refill(chance)
            return None
        self.lose(player, COINS, card.cost)
        player.bought.append(card.id)
        player.bought_rounds.append(self.round)
        self.log("buy", seat=player.seat, card=card.id, cost=card.cost)
        (self.discard if card.kind == "flash" else player.tableau).append(card)
        self.refill(chance)
        return card if card.kind == "flash" else None

    def apply_effects(self, effects: Effects, player: Player, chance: ChanceSource, deciders: Sequence[Decider]) -> None:
        """Apply effects outside a round in progress (a lookahead's bought flash card or effect choice).

        Called during an action round: its participants (the living players who did not play OUT) take part.
        """
        rnd = Round(self, chance, deciders)
        rnd.participants = [p for p in self.turn_order(self.alive()) if p.guide != OUT]
        rnd.apply(effects, player)

    def _lay_out(self, chance: ChanceSource) -> None:
        self.market = chance.lay_out(self.pile, min(self.rules.face_up, len(self.pile)))
        if self.events is not None:
            self.log("market", cards=[card.id for card in self.market])


class Round:
    """One round in progress: the game plus this round's chance source, deciders and bookkeeping."""

    __slots__ = (
        "chained",
        "chance",
        "deciders",
        "depth",
        "game",
        "kept",
        "owned_before",
        "participants",
        "pending",
        "rules",
        "used",
    )

    def __init__(self, game: Game, chance: ChanceSource, deciders: Sequence[Decider]):
        self.game = game
        self.rules = game.rules
        self.chance = chance
        self.deciders = deciders
        self.participants: list[Player] = []
        self.used: dict[int, set[int]] = {}  # seat -> tableau positions used this round
        self.owned_before: dict[int, int] = {}  # seat -> tableau size at round start
        self.depth = 0  # market actions under way, inside flash cards bought in market actions
        self.chained = 0  # market actions granted so far by the current chain of flash cards
        self.pending: list[int] = []  # dice still to resolve, lowest first
        self.kept = False  # the card being used stays unused this round (a failed chance test with on_fail: keep)

    def play(self, roll: Sequence[int] | None) -> None:
        game, rules = self.game, self.rules
        game.round += 1
        alive = game.alive()
        dice = sorted(self.chance.roll(rules.dice_count, rules.sides) if roll is None else roll)
        game.dice = tuple(dice)
        game.log("roll", seat=game.starting_player, dice=dice)
        self.choose_guides(alive)
        if self.stakes(alive) and self.action_round(dice):
            self.chance_it_action()
        living = game.alive()
        held = tuple(map(sum, zip(*[p.res for p in living]))) if living else (0,) * len(RESOURCES)
        game.trajectory.append((*held, len(living)))
        if not game.is_over:
            if game.round >= rules.max_rounds:
                game.finish("max_rounds", living)
                if game.after_step is not None:
                    game.after_step(game)
            else:
                self.pass_starting_player()

    def step_done(self) -> bool:
        """End of a step: check the end (rule 13), run the test hook; True when play goes on."""
        game = self.game
        game.check_end()
        peak, supply = game.peak, game.supply
        for r, total in enumerate(self.rules.supply):
            left = supply[r]  # None exactly when total is
            held = total - left if total is not None and left is not None else sum(p.res[r] for p in game.players)
            if held > peak[r]:
                peak[r] = held
        if game.after_step is not None:
            game.after_step(game)
        return not game.is_over

    # --- rules 2 and 3: guides ------------------------------------------------------------------------------

    def choose_guides(self, alive: list[Player]) -> None:
        game = self.game
        game.choosing = True
        for player in alive:
            options = FORCED if player.forced_in else GUIDES
            guide = self.deciders[player.seat].guide(game.views[player.seat], options)
            if guide not in options:
                why = "is forced to play in" if player.forced_in else f"must pick one of {', '.join(GUIDES)}"
                raise IllegalDecision(game.round, player.seat, f"cannot play {guide!r}: the seat {why}")
            player.guide = guide
        game.choosing = False
        chancers = sum(1 for p in alive if p.guide == CHANCE_IT)
        forced = chancers >= self.rules.forced_in_after
        for player in alive:
            player.picks[GUIDES.index(player.guide)] += 1
            if player.forced_in:
                player.forced_rounds += 1
            player.forced_in = forced and player.guide == CHANCE_IT
        if game.events is not None:
            game.log(
                "guides",
                guides=[None if p.eliminated else p.guide for p in game.players],
                forced_in=[p.seat for p in alive if p.forced_in],
            )

    # --- rule 4: stakes -------------------------------------------------------------------------------------

    def stakes(self, alive: list[Player]) -> bool:
        """Pay and collect the stakes; True when an action round follows."""
        game, rules = self.game, self.rules
        order = game.turn_order(alive)
        outs = [p for p in order if p.guide == OUT]
        ins = [p for p in order if p.guide != OUT]
        out_sheet, in_sheet = rules.stakes[len(alive)]
        if not ins:
            game.log("all_out")
            self.participants = order
            for player in order:
                self.apply(rules.all_out, player)
            self.step_done()
            return False
        if outs:
            take = out_sheet[len(outs) - 1]
            for player in outs:
                got = game.gain(player, COINS, take)
                player.stakes_received += got
                game.log("stakes", seat=player.seat, coins=got, hearts=0)
        pay = in_sheet[len(ins) - 1]
        for player in ins:
            coins = game.lose(player, COINS, pay)
            hearts = game.lose(player, HEARTS, pay - coins) if pay > coins else 0
            player.stakes_paid += coins
            player.stakes_hearts += hearts
            game.log("stakes", seat=player.seat, coins=-coins, hearts=-hearts)
            game.settle(player)
        self.participants = [p for p in ins if not p.eliminated]
        return self.step_done()

    # --- rules 5 to 9: the action round ---------------------------------------------------------------------

    def action_round(self, roll: list[int]) -> bool:
        """Resolve the dice in ascending face order; True when play goes on."""
        game, rules = self.game, self.rules
        for player in self.participants:
            self.used[player.seat] = set()
            self.owned_before[player.seat] = len(player.tableau)
        pending = self.pending = list(roll)
        logging = game.events is not None
        while pending:
            if game.living < len(game.players) and all(p.eliminated for p in self.participants):
                break
            face = pending.pop(0)
            if logging:
                game.log("die", face=face)
            effects = rules.board[face]
            for player in self.participants:
                if not player.eliminated:
                    self.apply(effects, player)
            self.use_cards(face)
            for step, argument, _ in rules.die_steps[face]:
                step(self, face, argument)
            if not self.step_done():
                return False
        return True

    def use_cards(self, face: int) -> None:
        """Each participant in turn order uses at most one eligible die card (rule 7)."""
        for player in self.participants:
            if player.eliminated or not player.tableau:
                continue
            used, tableau = self.used[player.seat], player.tableau
            eligible = [i for i in range(self.owned_before[player.seat]) if tableau[i].face == face and i not in used]
            if eligible:
                index = self.pick_card(player, eligible)
                used.add(index)
                if self.use(player, player.tableau[index]):
                    used.discard(index)

    def pick_card(self, player: Player, eligible: list[int]) -> int:
        """The tableau position of the card to use; the player chooses between different ids."""
        tableau = player.tableau
        distinct: dict[str, int] = {}
        for i in eligible:
            distinct.setdefault(tableau[i].id, i)
        if len(distinct) == 1:
            return eligible[0]
        options = tuple(tableau[i] for i in distinct.values())
        choice = self.deciders[player.seat].use(self.game.views[player.seat], options)
        if choice not in options:
            names = ", ".join(card.id for card in options)
            raise IllegalDecision(self.game.round, player.seat, f"cannot use {_card_id(choice)}: the eligible cards are {names}")
        return distinct[choice.id]

    def use(self, player: Player, card: CardDef) -> bool:
        """Use a card; True when it stays unused this round (a failed chance test said ``on_fail: keep``)."""
        self.game.log("use", seat=player.seat, card=card.id)
        self.kept = False
        self.apply(card.effects, player)
        if self.kept and not player.eliminated:  # an eliminated player's cards are in the discard pile
            self.game.log("kept", seat=player.seat, card=card.id)
        return self.kept

    # --- rule 10: the CHANCE IT action ----------------------------------------------------------------------

    def chance_it_action(self) -> None:
        rules = self.rules
        for player in self.participants:
            if player.eliminated or player.guide != CHANCE_IT:
                continue
            self.game.log("chance_it", seat=player.seat)
            self.apply(rules.chance_it, player)
            if player.eliminated:
                continue
            eligible = [i for i, card in enumerate(player.tableau) if card.kind == CHANCE_IT]
            if eligible:
                self.use(player, player.tableau[self.pick_card(player, eligible)])
        self.step_done()

    # --- rule 14 ---------------------------------------------------------------------------------------------

    def pass_starting_player(self) -> None:
        game = self.game
        count = len(game.players)
        for step in range(1, count + 1):
            candidate = game.players[(game.starting_player + step) % count]
            if not candidate.eliminated:
                game.starting_player = candidate.seat
                return

    # --- effects ---------------------------------------------------------------------------------------------

    def apply(self, effects: Effects, player: Player) -> None:
        """Apply effects in order for one player, stopping if the player is eliminated."""
        for handler, argument, _ in effects:
            if player.eliminated:
                return
            handler(self, player, argument)

    # --- what effects ask of the round ----------------------------------------------------------------------

    def keep_card(self) -> None:
        """The card being used does not count as used this round (see ``chance.on_fail: keep``)."""
        self.kept = True

    def turn_die(self, face: int, new: int) -> None:
        """A die showing ``face`` now shows ``new`` (a reroll): it is resolved again in its turn."""
        game = self.game
        dice = list(game.dice)
        dice.remove(face)
        dice.append(new)
        game.dice = tuple(sorted(dice))
        self.pending.append(new)
        self.pending.sort()

    def others_after(self, player: Player) -> list[Player]:
        """The other participants still in the game, in turn order from the player's left."""
        count = len(self.game.players)
        others = [p for p in self.participants if p is not player and not p.eliminated]
        return sorted(others, key=lambda p: (p.seat - player.seat) % count)

    def decide_choice(self, player: Player, options: tuple[Effects, ...], texts: tuple[str, ...]) -> int:
        """The option of a ``choose`` effect the player picks (asked even when there is one); ``texts`` word them."""
        game = self.game
        choice = self.deciders[player.seat].choose(game.views[player.seat], options, texts)
        if not (isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(options)):
            last = len(options) - 1
            raise IllegalDecision(
                game.round, player.seat, f"cannot choose option {choice!r}: the options are numbered 0 to {last}"
            )
        return choice

    def decide_target(self, player: Player, candidates: list[Player], taking: tuple[tuple[int, int], ...]) -> Player:
        """The victim the player picks among ``candidates`` (asked even when there is one)."""
        game = self.game
        seats = tuple(p.seat for p in candidates)
        seat = self.deciders[player.seat].target(game.views[player.seat], seats, taking)
        if seat not in seats or isinstance(seat, bool):
            may = (
                f"the only seat it may target is {seats[0]}"
                if len(seats) == 1
                else f"it may target seats {join([str(s) for s in seats], 'or')}"
            )
            raise IllegalDecision(
                game.round,
                player.seat,
                f"cannot target seat {seat!r}: {may} (the other players taking part, still in the game)",
            )
        return game.players[seat]

    def market_action(self, player: Player) -> None:
        """Buy one face-up card or discard one (rules 8 and 9)."""
        game = self.game
        if self.depth:  # a market action granted by a flash card bought in another one
            if self.chained >= MAX_CHAINED_MARKETS:
                game.log("market_limit", seat=player.seat)
                return
            self.chained += 1
        game.refill(self.chance)
        if not game.market:
            game.log("market_empty", seat=player.seat)
            return
        options = game.market_moves(player)
        game.offered.update(card_id for action, card_id in options if action == BUY)
        move = self.deciders[player.seat].market(game.views[player.seat], options)
        if move not in options:
            raise IllegalDecision(game.round, player.seat, self.explain_market(player, move))
        flash = game.take(player, move, self.chance)
        if flash is not None:
            self.depth += 1
            kept = self.kept  # a flash card's own tests do not keep the card that granted the market action
            self.apply(flash.effects, player)
            self.kept = kept
            self.depth -= 1
            if not self.depth:
                self.chained = 0

    def explain_market(self, player: Player, move: object) -> str:
        """Why a market move is not allowed, in the designer's words."""
        market = ", ".join(card.id for card in self.game.market)
        if not (isinstance(move, tuple) and len(move) == 2 and move[0] in (BUY, DISCARD)):
            return f"a market choice is buy or discard one card, got {move!r}"
        action, card_id = move
        card = next((card for card in self.game.market if card.id == card_id), None)
        if card is None:
            return f"cannot {action} {card_id}: it is not in the market (market: {market})"
        return f"cannot buy {card_id}: it costs {card.cost} coins and the seat has {player.res[COINS]}"


def _card_id(card: object) -> str:
    return getattr(card, "id", repr(card))


def compile_variant(variant: Variant) -> Rules:
    """Compile a validated variant for this engine."""
    return compile_rules(variant)


__all__ = [
    "BUY",
    "CHANCE_IT",
    "DISCARD",
    "GUIDES",
    "IN",
    "OUT",
    "Decider",
    "Event",
    "Game",
    "MarketMove",
    "Player",
    "View",
    "compile_variant",
]
