"""Chance It in bulk: one seeded game per index, and the tally of what the rules did.

Game ``i`` of a run with seed ``S`` draws its dice and shuffles from the keyed streams of
``chance.game_streams(S, i, players)``, one stream per named point (deal, roll, reroll,
test, reshuffle), and each bot from a stream of its own: nothing else, so any split of the
run over workers plays the very same games, two arms of a paired run roll the same dice
round by round, and the batch engine, drawing from the same streams with the same
functions, plays the very same games as the interpreter. The tally keeps integer counts
only, so merging chunks in any order gives the same summary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from workbench.games.base import RunFrame
from workbench.games.chance_it.basics import COINS, RESOURCES
from workbench.games.chance_it.bots import HeuristicBot
from workbench.games.chance_it.chance import BOTS, ChanceSource, RandomChance, game_streams
from workbench.games.chance_it.engine import END_REASONS, Decider, Game, compile_variant
from workbench.games.chance_it.record import Recorder
from workbench.games.chance_it.schema import GUIDES, Persona, Variant
from workbench.policies import make_bot
from workbench.sim import outcome
from workbench.sim.outcome import Outcomes, add_histogram, add_moments, maybe, outcome_arrays, outcome_values, per
from workbench.sim.paired import Measure, Statistic, ratio
from workbench.sim.stats import Histogram, Moments, rate

if TYPE_CHECKING:
    from workbench.games.chance_it.batch import Block


@dataclass(frozen=True)
class Result:
    """One finished game: its record (one line of ``--records``), the game, its bots' choice gaps for the tally,
    and the game as a scenario script (file name, text) when recording."""

    record: dict[str, Any]
    game: Game
    gaps: Moments = field(default_factory=Moments)  #: none for a game played outside a run (a recorded one)
    script: tuple[str, str] | None = None


@dataclass(frozen=True)
class Recorded:
    """A game the batch engine played while recording: its line of ``--records`` and its script, if one was asked."""

    record: dict[str, Any]
    script: tuple[str, str] | None = None


@dataclass(frozen=True)
class Gift:
    """What one seat gets before the first round, for a study by intervention: a card, or some coins.

    The seat is ``index % players`` (so the gift rotates over the seats with the game
    index). A card is an extra copy (the pile is not changed, so the games with and
    without the gift deal the same cards): it goes into the seat's tableau, or, for a
    flash card, its effects are applied at once, as if bought before the first round.
    Coins come from the supply, as far as it goes.
    """

    card: str | None = None  #: the id of a card of the variant
    coins: int = 0

    def give(self, game: Game, seat: int, chance: ChanceSource, deciders: Sequence[Decider]) -> None:
        """Hand the gift to ``seat`` of a game that has not started."""
        player = game.players[seat]
        if self.coins:
            game.gain(player, COINS, self.coins)
        if self.card is not None:
            card = game.rules.by_id[self.card]
            if card.kind == "flash":
                game.apply_effects(card.effects, player, chance, deciders)
                game.check_end()
            else:
                player.tableau.append(card)


class _Run(RunFrame):
    """What a run's simulator holds on either engine: the compiled rules, the table, the seed, a seat's gift or
    visiting bot; and the empty tally of the run."""

    game = "chance-it"
    compile = staticmethod(compile_variant)

    def __init__(
        self,
        variant: Variant,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Persona],
        seed: int,
        visitor: Persona | None = None,
        record: tuple[Path, Path] | None = None,
        gift: Gift | None = None,
    ):
        super().__init__(variant, players, bots, personas, seed, visitor, record)
        self.gift = gift

    def new_tally(self) -> Tally:
        """An empty tally for this run."""
        return Tally(self.players, self.bots, tuple(card.id for card in self.rules.cards))

    def game_record(
        self,
        index: int,
        winners: Sequence[int],
        end_reason: str | None,
        rounds: int,
        final: Sequence[tuple[Sequence[int], bool]],
        bought: Sequence[Sequence[str]],
    ) -> dict[str, Any]:
        """Game ``index``'s line of ``--records``: how it ended, each seat's holdings and whether it is out, and what
        each seat bought, in order."""
        return {
            **outcome.record(index, self.seed, self.bots, winners, end_reason, rounds),
            "final": [{**{name: int(res[i]) for i, name in enumerate(RESOURCES)}, "eliminated": bool(out)} for res, out in final],
            "bought": [list(cards) for cards in bought],
        }

    def script(self, index: int, recorder: Recorder, expect: dict[str, Any]) -> tuple[str, str] | None:
        """Game ``index`` as a scenario script (file name, text), when the run records them; ``expect`` is its end."""
        return self.recorded(
            index, lambda path, description: recorder.script(expect, self.players, path, self.seed, description=description)
        )


class Simulator(_Run):
    """Plays game ``index`` of a run (with a seat's :class:`Gift` when given)."""

    def play(self, index: int) -> Result:
        """Play one game with its own chance and bot streams (and record it as a scenario when asked)."""
        streams = game_streams(self.seed, index, self.players)
        chance: ChanceSource = RandomChance(streams)
        bots = [make_bot(persona, streams.stream(BOTS + seat)) for seat, persona in enumerate(self.seated(index))]
        deciders: Sequence[Decider] = bots
        recorder = None
        if self.record is not None:
            recorder = Recorder(chance, deciders)
            chance, deciders = recorder.chance, recorder.deciders
        game = Game(self.rules, self.players, chance, log=False)
        if self.gift is not None:
            self.gift.give(game, index % self.players, chance, deciders)
        game.play(chance, deciders)
        script = self.script(index, recorder, game.snapshot(events=False)) if recorder is not None else None
        final = [(p.res, p.eliminated) for p in game.players]
        record = self.game_record(index, game.winners, game.end_reason, game.round, final, [p.bought for p in game.players])
        gaps = Moments()
        for bot in bots:
            if isinstance(bot, HeuristicBot):
                gaps.merge(bot.gaps)
        return Result(record, game, gaps, script)


class BatchSimulator(_Run):
    """Plays ranges of games with the batch engine: the rules of :class:`Simulator`, its bots' numeric form and the
    kernel's own seeded streams (game ``index`` is the same game in any range, on any worker)."""

    batch = True

    def __init__(
        self,
        variant: Variant,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Persona],
        seed: int,
        visitor: Persona | None = None,
        record: tuple[Path, Path] | None = None,
        gift: Gift | None = None,
    ):
        from workbench.games.chance_it.batch import Engine

        super().__init__(variant, players, bots, personas, seed, visitor, record, gift)
        self.engine = Engine(self.rules, players, self.personas, visitor)

    def play_block(self, start: int, end: int) -> Block:
        """Games ``start .. end - 1``, as the kernel leaves them."""
        gift = self.gift or Gift()
        return self.engine.play(self.seed, start, end - start, card=gift.card, coins=gift.coins)

    def play_range(self, start: int, end: int) -> Tally:
        """Games ``start .. end - 1``, tallied."""
        tally = self.new_tally()
        tally.add_block(self.play_block(start, end))
        return tally

    def record_range(self, start: int, end: int, stop: Callable[[], bool]) -> tuple[Tally, list[Recorded]]:
        """Games ``start .. end - 1`` one by one, tallied, each with its line of ``--records`` and, when the run records
        them, its scenario script: the interpreter's, byte for byte (until ``stop()``: the games so far, a prefix)."""
        from workbench.games.chance_it.batch import kernel as k
        from workbench.games.chance_it.batch import read_log, snapshot
        from workbench.games.chance_it.batch.layout import GAME_OUT, SEAT_OUT

        played: list[Recorded] = []
        gift = self.gift or Gift()
        engine, ids = self.engine, self.engine.program.card_ids
        block = engine.block(end - start)
        for row, index in enumerate(range(start, end)):
            if stop():
                break
            log = engine.record(self.seed, index, block, row, card=gift.card, coins=gift.coins)
            script = None
            if self.record is not None:  # read the log for a script only when the run writes them
                recorder = Recorder()
                read_log(engine.program, log, recorder)
                script = self.script(index, recorder, snapshot(engine.program, engine.logged))
            game, seat = block.game[row], block.seat[row]
            bought: list[list[str]] = [[] for _ in range(self.players)]
            for code, who, card in log.tolist():
                if code == k.L_BUY:
                    bought[who].append(ids[card])
            final = [
                (seat[p, SEAT_OUT.RES : SEAT_OUT.RES + len(RESOURCES)].tolist(), bool(seat[p, SEAT_OUT.ELIM]))
                for p in range(self.players)
            ]
            winners = [p for p in range(self.players) if seat[p, SEAT_OUT.WON]]
            end_reason = END_REASONS[int(game[GAME_OUT.END])]
            record = self.game_record(index, winners, end_reason, int(game[GAME_OUT.ROUNDS]), final, bought)
            played.append(Recorded(record, script))
        tally = self.new_tally()
        tally.add_block(block.head(len(played)))
        return tally, played


@dataclass
class _CardTally:
    rounds: Moments = field(default_factory=Moments)  # the round of each purchase
    bought: int = 0
    discarded: int = 0
    offered_games: int = 0  # games in which some seat could buy it at a market action
    bought_games: int = 0  # games in which some seat bought it
    owner_seats: int = 0  # seat-games in which the seat bought the card
    owner_wins: int = 0
    other_seats: int = 0
    other_wins: int = 0

    def merge(self, other: _CardTally) -> None:
        self.rounds.merge(other.rounds)
        for name in self.__dataclass_fields__:
            if name != "rounds":
                setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Tally:
    """Everything the summary reports, as mergeable integer counts."""

    players: int
    bots: tuple[str, ...]
    card_ids: tuple[str, ...]
    outcomes: Outcomes = field(init=False)  # wins, end reasons and game lengths
    eliminations: Histogram = field(default_factory=Histogram)  # eliminated players per game
    first_elimination: Histogram = field(default_factory=Histogram)  # round of a game's first elimination
    picks: list[int] = field(default_factory=lambda: [0, 0, 0])  # in, out, chance-it
    forced: int = 0
    stakes_paid: Moments = field(default_factory=Moments)  # coins paid per game, all players
    stakes_hearts: Moments = field(default_factory=Moments)  # hearts paid for want of coins, per game
    stakes_received: Moments = field(default_factory=Moments)  # coins taken by out-players, per game
    cards: dict[str, _CardTally] = field(default_factory=dict)
    peak: list[int] = field(default_factory=lambda: [0, 0, 0])  # most ever held at once, over all games
    peak_per_game: list[Moments] = field(default_factory=lambda: [Moments(), Moments(), Moments()])
    dry: list[int] = field(default_factory=lambda: [0, 0, 0])  # games in which the supply ran out
    trajectory: dict[int, list[int]] = field(default_factory=dict)  # round -> [coins, hearts, stars, living, games]
    gaps: Moments = field(default_factory=Moments)  # heuristic bots' |value(IN) - value(OUT)|, thousandths

    def __post_init__(self) -> None:
        self.outcomes = Outcomes(self.players, self.bots)
        self.cards = self.cards or {card_id: _CardTally() for card_id in self.card_ids}

    @property
    def games(self) -> int:
        """Games counted."""
        return self.outcomes.games

    def add(self, result: Result) -> None:
        """Count one game."""
        game = result.game
        winners = game.winners
        self.outcomes.add(winners, game.end_reason, game.round)
        self.gaps.merge(result.gaps)
        eliminated = [p.eliminated_round for p in game.players if p.eliminated_round is not None]
        self.eliminations.add(len(eliminated))
        if eliminated:
            self.first_elimination.add(min(eliminated))
        paid = hearts = received = 0
        for player in game.players:
            for i in range(len(GUIDES)):
                self.picks[i] += player.picks[i]
            self.forced += player.forced_rounds
            paid += player.stakes_paid
            hearts += player.stakes_hearts
            received += player.stakes_received
            won = player.seat in winners
            owned = set(player.bought)
            for card_id, tally in self.cards.items():
                if card_id in owned:
                    tally.owner_seats += 1
                    tally.owner_wins += won
                else:
                    tally.other_seats += 1
                    tally.other_wins += won
            for card_id, round_no in zip(player.bought, player.bought_rounds):
                self.cards[card_id].bought += 1
                self.cards[card_id].rounds.add(round_no)
            for card_id in player.discarded:
                self.cards[card_id].discarded += 1
        for card_id in game.offered:
            self.cards[card_id].offered_games += 1
        for card_id in {card_id for player in game.players for card_id in player.bought}:
            self.cards[card_id].bought_games += 1
        self.stakes_paid.add(paid)
        self.stakes_hearts.add(hearts)
        self.stakes_received.add(received)
        for r in range(len(RESOURCES)):
            self.peak[r] = max(self.peak[r], game.peak[r])
            self.peak_per_game[r].add(game.peak[r])
            self.dry[r] += game.dry[r]
        for round_no, (coins, hearts_, stars, living) in enumerate(game.trajectory, start=1):
            row = self.trajectory.setdefault(round_no, [0, 0, 0, 0, 0])
            row[0] += coins
            row[1] += hearts_
            row[2] += stars
            row[3] += living
            row[4] += 1

    def add_block(self, block: Block) -> None:
        """Count a block of games played by the batch engine: the same counts :meth:`add` makes, game by game."""
        from workbench.games.chance_it.batch.layout import GAME_OUT, SEAT_OUT

        n = len(block)
        if not n:
            return
        game, seat, bought = block.game, block.seat, block.bought
        won = seat[:, :, SEAT_OUT.WON]
        self.outcomes.add_arrays(won, game[:, GAME_OUT.END], END_REASONS, game[:, GAME_OUT.ROUNDS])
        self.gaps.add_sums(*block.gaps)
        eliminated = seat[:, :, SEAT_OUT.ELIM_ROUND]
        out = seat[:, :, SEAT_OUT.ELIM] == 1  # a seat may go out in round 0 (a gift's flash card)
        add_histogram(self.eliminations, out.sum(axis=1))
        first = np.where(out, eliminated, np.iinfo(np.int64).max).min(axis=1)
        add_histogram(self.first_elimination, first[out.any(axis=1)])
        for i in range(len(GUIDES)):
            self.picks[i] += int(seat[:, :, SEAT_OUT.PICKS + i].sum())
        self.forced += int(seat[:, :, SEAT_OUT.FORCED].sum())
        for moments, column in (
            (self.stakes_paid, SEAT_OUT.PAID),
            (self.stakes_hearts, SEAT_OUT.PAID_HEARTS),
            (self.stakes_received, SEAT_OUT.RECEIVED),
        ):
            add_moments(moments, seat[:, :, column].sum(axis=1))
        owned = bought > 0
        wins = won[:, :, None] == 1
        seats = n * self.players
        for c, card_id in enumerate(self.card_ids):
            tally = self.cards[card_id]
            owners = int(owned[:, :, c].sum())
            owner_wins = int((owned[:, :, c] & wins[:, :, 0]).sum())
            tally.owner_seats += owners
            tally.owner_wins += owner_wins
            tally.other_seats += seats - owners
            tally.other_wins += int(won.sum()) - owner_wins
            tally.bought += int(bought[:, :, c].sum())
            tally.rounds.add_sums(*(int(x) for x in block.card_rounds[c]))
            tally.discarded += int(block.discarded[c])
            tally.offered_games += int(block.offered[c])
            tally.bought_games += int((bought[:, :, c].sum(axis=1) > 0).sum())
        for r in range(len(RESOURCES)):
            peaks = game[:, GAME_OUT.PEAK + r]
            self.peak[r] = max(self.peak[r], int(peaks.max()))
            add_moments(self.peak_per_game[r], peaks)
            self.dry[r] += int(game[:, GAME_OUT.DRY + r].sum())
        for round_no in np.flatnonzero(block.trajectory[:, 4]):
            row = self.trajectory.setdefault(int(round_no), [0, 0, 0, 0, 0])
            for i, value in enumerate(block.trajectory[round_no]):
                row[i] += int(value)

    def merge(self, other: Tally) -> None:
        """Add another tally of the same run."""
        self.outcomes.merge(other.outcomes)
        self.gaps.merge(other.gaps)
        for histogram, more in (
            (self.eliminations, other.eliminations),
            (self.first_elimination, other.first_elimination),
        ):
            histogram.merge(more)
        self.picks = [a + b for a, b in zip(self.picks, other.picks)]
        self.forced += other.forced
        for moments, added in (
            (self.stakes_paid, other.stakes_paid),
            (self.stakes_hearts, other.stakes_hearts),
            (self.stakes_received, other.stakes_received),
        ):
            moments.merge(added)
        for card_id, tally in other.cards.items():
            self.cards[card_id].merge(tally)
        self.peak = [max(a, b) for a, b in zip(self.peak, other.peak)]
        for peaks, more_peaks in zip(self.peak_per_game, other.peak_per_game):
            peaks.merge(more_peaks)
        self.dry = [a + b for a, b in zip(self.dry, other.dry)]
        for round_no, row in other.trajectory.items():
            sums = self.trajectory.setdefault(round_no, [0, 0, 0, 0, 0])
            for i, value in enumerate(row):
                sums[i] += value

    def summary(self) -> dict[str, Any]:
        """Every figure, with its uncertainty, as plain data (the body of ``summary.json``)."""
        games = self.games
        total_picks = sum(self.picks)
        return {
            **self.outcomes.summary(),
            "eliminations": {
                "per_game": self.eliminations.report(),
                "games_with_elimination": rate(games - self.eliminations.counts[0], games),
                "first_round": self.first_elimination.report(),
            },
            "guides": {
                **{guide: rate(self.picks[i], total_picks) for i, guide in enumerate(GUIDES)},
                "forced_in": rate(self.forced, total_picks),
                "in_out_gap": self.gaps.report(scale=1000),
            },
            "stakes": {
                "coins_paid_per_game": self.stakes_paid.report(),
                "hearts_paid_per_game": self.stakes_hearts.report(),
                "coins_received_per_game": self.stakes_received.report(),
            },
            "cards": {
                card_id: {
                    "bought": t.bought,
                    "discarded": t.discarded,
                    "bought_per_game": maybe(t.bought / games if games else 0.0),
                    "round_bought": t.rounds.report(),
                    "offered_games": t.offered_games,
                    "bought_games": t.bought_games,
                    "owner_win_rate": rate(t.owner_wins, t.owner_seats),
                    "non_owner_win_rate": rate(t.other_wins, t.other_seats),
                }
                for card_id, t in self.cards.items()
            },
            "components": {
                name: {
                    "most_held_at_once": self.peak[i],
                    "most_held_per_game": self.peak_per_game[i].report(),
                    "supply_ran_dry": rate(self.dry[i], games),
                }
                for i, name in enumerate(RESOURCES)
            },
            "trajectory": {
                "round": sorted(self.trajectory),
                "games": [self.trajectory[r][4] for r in sorted(self.trajectory)],
                **{
                    name: [
                        maybe(row[i] / row[3]) if row[3] else None
                        for row in (self.trajectory[r] for r in sorted(self.trajectory))
                    ]
                    for i, name in enumerate(RESOURCES)
                },
            },
            "notes": self.notes(),
        }

    def notes(self) -> list[dict[str, Any]]:
        """The bots' blind spots among the cards: each card they never bought, or bought in under 1 % of the games in
        which some seat could (it was face up at a market action and the seat had the coins). An answer about these
        bots: a card they pass over may still be worth its price (the card study measures it)."""
        who = " and ".join(dict.fromkeys(self.bots))
        games = f"{self.games:,} game{'' if self.games == 1 else 's'}"
        notes = []
        for card_id, t in self.cards.items():
            if t.bought and t.bought_games * RARELY_BOUGHT >= t.offered_games:
                continue
            passed_over = ": its figures say little about it, and the bots may undervalue it"
            if not t.offered_games:  # the table never met it: nothing the bots chose
                said = f"no seat could buy {card_id} in {games} (never face up with the coins to pay for it)"
                passed_over = ": its figures say nothing about it"
            elif not t.bought:
                said = f"the {who} bots never bought {card_id}, though some seat could in {t.offered_games:,} of {games}"
            else:
                said = f"the {who} bots bought {card_id} in {t.bought_games:,} of the {t.offered_games:,} games in which some seat could (under 1 %)"
            notes.append(
                {
                    "kind": "never_bought",
                    "card": card_id,
                    "bots": list(dict.fromkeys(self.bots)),
                    "bought_games": t.bought_games,
                    "offered_games": t.offered_games,
                    "games": self.games,
                    "text": said + passed_over,
                }
            )
        return notes


#: A card bought in fewer than one in this many of the games in which it could be is said to be passed over.
RARELY_BOUGHT = 100


# --- what a game measures, for paired runs (compare, cards, skill) ---------------------------------------------


def table_values(result: Result, bots: tuple[str, ...]) -> dict[str, int]:
    """One game's values: the columns of :func:`table_measure` that are not zero (a card a variant lacks is absent)."""
    game = result.game
    values = outcome_values(game.winners, game.end_reason, game.round, bots)
    eliminated = [p.eliminated_round for p in game.players if p.eliminated_round is not None]
    values["eliminations"] = len(eliminated)
    values["eliminated"] = bool(eliminated)
    values["first_elimination"] = min(eliminated) if eliminated else 0
    for player in game.players:
        for i, guide in enumerate(GUIDES):
            values[f"picks.{guide}"] = values.get(f"picks.{guide}", 0) + player.picks[i]
        values["picks.forced_in"] = values.get("picks.forced_in", 0) + player.forced_rounds
        values["stakes.paid"] = values.get("stakes.paid", 0) + player.stakes_paid
        values["stakes.hearts"] = values.get("stakes.hearts", 0) + player.stakes_hearts
        values["stakes.received"] = values.get("stakes.received", 0) + player.stakes_received
        for card_id in player.bought:
            values[f"bought.{card_id}"] = values.get(f"bought.{card_id}", 0) + 1
    values["picks"] = sum(values[f"picks.{guide}"] for guide in GUIDES)
    for r, name in enumerate(RESOURCES):
        values[f"peak.{name}"] = game.peak[r]
        values[f"dry.{name}"] = game.dry[r]
    values["rounds.squared"] = game.round * game.round
    values["gaps"], values["gaps.sum"] = result.gaps.n, result.gaps.total
    return values


def block_values(block: Block, bots: tuple[str, ...]) -> dict[str, npt.NDArray[Any]]:
    """:func:`table_values` of every game of a batch engine's block, as arrays (one entry a game)."""
    from workbench.games.chance_it.batch.layout import GAME_OUT, SEAT_OUT

    game, seat = block.game, block.seat
    eliminated = seat[:, :, SEAT_OUT.ELIM_ROUND]
    out = seat[:, :, SEAT_OUT.ELIM] == 1  # a seat may go out in round 0 (a gift's flash card)
    any_out: npt.NDArray[np.bool_] = np.any(out, axis=1)
    return {
        **outcome_arrays(seat[:, :, SEAT_OUT.WON], game[:, GAME_OUT.END], END_REASONS, game[:, GAME_OUT.ROUNDS], bots),
        "eliminations": out.sum(axis=1),
        "eliminated": any_out,
        "first_elimination": np.where(any_out, np.where(out, eliminated, np.iinfo(np.int64).max).min(axis=1), 0),
        **{f"picks.{guide}": seat[:, :, SEAT_OUT.PICKS + i].sum(axis=1) for i, guide in enumerate(GUIDES)},
        "picks.forced_in": seat[:, :, SEAT_OUT.FORCED].sum(axis=1),
        "picks": seat[:, :, SEAT_OUT.PICKS : SEAT_OUT.PICKS + len(GUIDES)].sum(axis=(1, 2)),
        "stakes.paid": seat[:, :, SEAT_OUT.PAID].sum(axis=1),
        "stakes.hearts": seat[:, :, SEAT_OUT.PAID_HEARTS].sum(axis=1),
        "stakes.received": seat[:, :, SEAT_OUT.RECEIVED].sum(axis=1),
        **{f"bought.{card_id}": block.bought[:, :, c].sum(axis=1) for c, card_id in enumerate(block.card_ids)},
        **{f"peak.{name}": game[:, GAME_OUT.PEAK + r] for r, name in enumerate(RESOURCES)},
        **{f"dry.{name}": game[:, GAME_OUT.DRY + r] for r, name in enumerate(RESOURCES)},
        "rounds.squared": game[:, GAME_OUT.ROUNDS] ** 2,
        "gaps": game[:, GAME_OUT.GAPS],
        "gaps.sum": game[:, GAME_OUT.GAPS + 1],
    }


def table_measure(players: int, bots: tuple[str, ...], card_ids: Sequence[str]) -> Measure:
    """The figures of ``simulate`` that are per game, as paired statistics named by their ``summary.json`` paths.

    Left out: the trajectory (per round, not per game), the most held at once (a
    maximum), the bots' IN/OUT gap (their inner workings) and the card owners' win rates
    (owners are not chosen at random: ``cards`` measures a card by intervention). The
    columns hold more than the figures use: the squared rounds and the heuristic bots'
    IN/OUT gaps (how many, their sum in thousandths), from which the stakes tuner measures
    its own figures on paired games (:mod:`.tune`).
    """
    columns = (
        "eliminations", "eliminated", "first_elimination",
        *(f"picks.{guide}" for guide in (*GUIDES, "forced_in")), "picks",
        "stakes.paid", "stakes.hearts", "stakes.received",
        *(f"bought.{card_id}" for card_id in card_ids),
        *(f"{kind}.{name}" for name in RESOURCES for kind in ("peak", "dry")),
        "rounds.squared", "gaps", "gaps.sum",
    )  # fmt: skip

    def statistics(at: Mapping[str, int]) -> list[Statistic]:
        per_game = per(at)

        return [
            Statistic("eliminations.per_game.mean", per_game("eliminations")),
            Statistic("eliminations.games_with_elimination.rate", per_game("eliminated"), True),
            Statistic("eliminations.first_round.mean", ratio(at["first_elimination"], at["eliminated"])),
            *(Statistic(f"guides.{g}.rate", ratio(at[f"picks.{g}"], at["picks"]), True) for g in (*GUIDES, "forced_in")),
            Statistic("stakes.coins_paid_per_game.mean", per_game("stakes.paid")),
            Statistic("stakes.hearts_paid_per_game.mean", per_game("stakes.hearts")),
            Statistic("stakes.coins_received_per_game.mean", per_game("stakes.received")),
            *(Statistic(f"cards.{card_id}.bought_per_game", per_game(f"bought.{card_id}")) for card_id in card_ids),
            *(Statistic(f"components.{name}.most_held_per_game.mean", per_game(f"peak.{name}")) for name in RESOURCES),
            *(Statistic(f"components.{name}.supply_ran_dry.rate", per_game(f"dry.{name}"), True) for name in RESOURCES),
        ]

    return outcome.table_measure(players, bots, END_REASONS, columns, statistics, table_values, block_values, label)


#: The figures in words: how the start of a path reads (after the outcome's), and the figures whose words are not
#: their path's.
label = outcome.Labels(
    prefixes=(
        ("guides.", "guide "),
        ("eliminations.games_with_elimination", "games with an elimination"),
        ("eliminations.first_round", "round of the first elimination"),
        ("eliminations.per_game", "eliminations per game"),
        ("stakes.", "stakes: "),
        ("cards.", ""),
        ("components.", ""),
    ),
    labels={
        **{f"components.{name}.most_held_per_game.mean": f"most {name} held by all players together" for name in RESOURCES},
        **{f"components.{name}.supply_ran_dry.rate": f"{name} supply ran dry" for name in RESOURCES},
    },
)


def seat_measure(arm: int, result: Result, index: int) -> list[int]:
    """The seat a gift goes to in game ``index`` (``index % players``): whether it won (alone or tied) and what it
    holds at the end (nothing once eliminated)."""
    game = result.game
    seat = index % len(game.players)
    return [1, seat in game.winners, *game.players[seat].res]


def seat_rows(arm: int, block: Block, first: int) -> npt.NDArray[np.int64]:
    """:func:`seat_measure` of every game of a batch engine's block (game ``first + i`` in row ``i``)."""
    from workbench.games.chance_it.batch.layout import SEAT_OUT

    seat = block.seat
    at = (first + np.arange(len(block))) % seat.shape[1]
    mine = seat[np.arange(len(block)), at]
    return np.column_stack([np.ones(len(block), dtype=np.int64), mine[:, SEAT_OUT.WON], mine[:, SEAT_OUT.RES : SEAT_OUT.RES + 3]])


#: The gifted seat's result: its win rate (a tied win counts) and its holdings at the end.
SEAT_MEASURE = Measure(
    ("games", "won", *RESOURCES),
    seat_measure,
    (Statistic("win_rate", ratio(1, 0), True), *(Statistic(name, ratio(2 + i, 0)) for i, name in enumerate(RESOURCES))),
    seat_rows,
)
