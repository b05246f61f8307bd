"""The batch engine: Chance It's rules compiled with Numba, for mass simulation with the same rules.

:func:`compile_program` turns compiled rules into arrays (each effect kind writes its own
row); :class:`Engine` plays blocks of seeded games with random, heuristic, search and equilibrium bots on them
(:mod:`.kernel`), and :func:`.replay.replay_batch` plays a scenario script from its tapes,
so the two engines can be checked against each other on any scripted game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.batch import kernel as k
from workbench.games.chance_it.batch.layout import CARD_SUMS, FLOATS, GAME, GAME_OUT, MAXP, ROW, SEAT, SEAT_OUT, joint_room
from workbench.games.chance_it.batch.model import model_arrays
from workbench.games.chance_it.batch.program import Program, compile_program
from workbench.games.chance_it.batchable import NoBatchForm
from workbench.games.chance_it.compiled import BATCH, SEARCH
from workbench.games.chance_it.engine import BUY, DISCARD, END_REASONS, GUIDES
from workbench.games.chance_it.policies import GAME as FAMILY
from workbench.games.chance_it.record import Recorder
from workbench.games.chance_it.rules import Rules
from workbench.games.chance_it.schema import Persona
from workbench.policies import policies
from workbench.sim.compiled import CompileFailed
from workbench.sim.seeding import run_key

__all__ = ["Block", "Engine", "NoBatchForm", "Program", "compile_program", "policy_code"]

Ints = npt.NDArray[np.int64]


def policy_code(persona: Persona) -> int:
    """The kernel's number for the persona's policy (its registered batch form); refused for a policy that plays
    only in the interpreter."""
    form = policies(FAMILY)[persona.policy].batch
    if form is None:
        raise NoBatchForm(f"the {persona.policy} bot plays only in the interpreter")
    return int(getattr(k, form))


@dataclass
class Block:
    """What a block of games left: per game (``game``: rounds, end reason, winners, peaks, dry supplies), per game and
    seat (``seat``: won, elimination round, picks, stakes, holdings...), cards bought per game and seat, and the sums
    over the block (``sums``, the kernel's ``A``: each card's purchase rounds and discards, the trajectory by
    round)."""

    game: Ints
    seat: Ints
    bought: Ints
    squares: npt.NDArray[np.float64]  #: per game: the heuristic bots' squared IN/OUT gaps, added as floats
    sums: Ints
    card_ids: tuple[str, ...]  #: the variant's cards, in the order of the ``bought`` columns and the sums' rows

    def __len__(self) -> int:
        return int(self.game.shape[0])

    def head(self, count: int) -> Block:
        """The block's first ``count`` games (with its sums: they hold only the games played)."""
        return replace(
            self, game=self.game[:count], seat=self.seat[:count], bought=self.bought[:count], squares=self.squares[:count]
        )

    @property
    def card_rounds(self) -> Ints:
        """Per card: purchases, the sum of their rounds, the sum of their squares."""
        return self.sums[: len(self.card_ids), CARD_SUMS.BOUGHT : CARD_SUMS.SQUARES + 1]

    @property
    def discarded(self) -> Ints:
        """Per card: market discards."""
        return self.sums[: len(self.card_ids), CARD_SUMS.DISCARDED]

    @property
    def offered(self) -> Ints:
        """Per card: the games in which some seat could buy it (it was face up and the seat had the coins)."""
        return self.sums[: len(self.card_ids), CARD_SUMS.OFFERED]

    @property
    def gaps(self) -> tuple[int, int, int]:
        """The heuristic bots' free IN/OUT choices: count, sum and sum of squares of |value(IN) - value(OUT)|, in
        thousandths (added game by game in Python's integers: a block's squares could pass 64 bits)."""
        n, total = (int(self.game[:, GAME_OUT.GAPS + i].astype(object).sum()) for i in range(2))
        return n, total, sum(int(square) for square in self.squares.tolist())  # exact: the same for any split

    @property
    def trajectory(self) -> Ints:
        """Per round from 0: coins, hearts and stars of the living players, their number, and games that had the round."""
        return self.sums[len(self.card_ids) :]


def stream_seed(seed: int) -> np.uint64:
    """The run's seed as the kernel's 64-bit key of its streams: the interpreter's key (``seeding.run_key``)."""
    return np.uint64(run_key(seed))


class Engine:
    """The batch engine for one variant and table size: its arrays, a game state to reuse, the bots' models.

    ``bots`` gives each seat's persona, ``visitor`` one that takes seat ``index % players``
    of game ``index`` (a study's rotating seat). A table with a search or equilibrium bot
    plays at the kernel's search level, compiled as an engine of its own the first time one
    plays.
    """

    def __init__(self, rules: Rules, players: int, bots: Sequence[Persona] = (), visitor: Persona | None = None):
        # the kernel checks no bounds: a table it was not sized for must never reach it
        if not rules.min_players <= players <= min(rules.max_players, MAXP):
            raise ValueError(f"this variant is for {rules.min_players} to {rules.max_players} players, not {players}")
        if bots and len(bots) != players:
            raise ValueError(f"{len(bots)} bots for {players} seats")
        self.program = compile_program(rules)
        BATCH.wait()  # the compiled code, from the cache (compiled there in the background the first time)
        if k.compiled_forms() != k.FORMS_KEY:
            raise CompileFailed(
                BATCH.name,
                f"its cache {BATCH.folder} was compiled for other effect kinds than this process has registered "
                "(a kind registered in one process only?)",
            )
        self.players = players
        chosen = [*bots, *([visitor] if visitor is not None else [])]
        codes = {persona: policy_code(persona) for persona in chosen}
        valued = list(dict.fromkeys(p for p in chosen if codes[p] != k.RANDOM_BOT))  # the personas the kernel values by
        self.bots = np.array([codes[p] for p in bots] or [k.RANDOM_BOT] * players, dtype=np.int64)
        self.personas = np.array([valued.index(p) if p in valued else 0 for p in bots] or [0] * players, dtype=np.int64)
        self.visitor = (-1, 0) if visitor is None else (codes[visitor], valued.index(visitor) if visitor in valued else 0)
        self.models = model_arrays(rules, valued)
        #: a table with a search bot plays at the kernel's search level (:mod:`.search`), with room for its futures
        self.searching = any(code in k.SEARCHERS for code in codes.values())
        if self.searching:
            SEARCH.wait()
        joint = k.EQUILIBRIUM_BOT in codes.values()
        self.state = new_state(self.program, players, lookahead=self.searching, joint=joint)
        self.logged = self.with_log(1 + 3 * 1024)
        self.tape = empty_tape(players, rules.dice_count)

    def play(self, seed: int, first: int, count: int, *, card: str | None = None, coins: int = 0) -> Block:
        """Games ``first .. first + count - 1`` of a run with ``seed`` (with a gift of ``card`` or ``coins`` for the
        rotating seat)."""
        block = self.block(count)
        gift = self.program.card_ids.index(card) if card is not None else -1
        self._play_games(
            self.state, self.program.arrays, self.models, self.tape, block.sums, self.players, stream_seed(seed), first,
            count, self.bots, self.personas, *self.visitor, gift, coins, block.game, block.seat, block.bought, block.squares,
        )  # fmt: skip
        return block

    def record(self, seed: int, index: int, block: Block, row: int, *, card: str | None = None, coins: int = 0) -> Ints:
        """Play game ``index`` of a run with ``seed`` alone into ``row`` of ``block`` and return its log: one row
        ``code, a, b`` for each draw and decision, in the order they happened (``kernel.L_*``; :func:`read_log` reads
        it). The state then holds the game's end (:func:`snapshot`)."""
        gift = self.program.card_ids.index(card) if card is not None else -1
        one = slice(row, row + 1)
        while True:
            sums = block.sums.copy()
            try:
                self._play_games(
                    self.logged, self.program.arrays, self.models, self.tape, block.sums, self.players, stream_seed(seed),
                    index, 1, self.bots, self.personas, *self.visitor, gift, coins, block.game[one], block.seat[one],
                    block.bought[one], block.squares[one],
                )  # fmt: skip
            except k.LogFull:  # a long game: the same game again, with twice the room
                block.sums[:] = sums
                self.logged = self.with_log(2 * len(self.logged[3]))
                continue
            log: Ints = self.logged[3]
            return log[1 : 1 + log[0]].reshape(-1, 3).copy()

    def with_log(self, room: int) -> tuple[Any, ...]:
        """The engine's state with a log of ``room`` numbers (see :meth:`record`)."""
        ints, floats, streams, _, joint = self.state
        return ints, floats, streams, np.zeros(room, dtype=np.int64), joint

    @property
    def _play_games(self) -> Any:
        """The kernel's games: at its search level for a table with a search bot."""
        if not self.searching:
            return k.play_games
        from workbench.games.chance_it.batch.search import play_searching  # its own compiled engine, loaded when used

        return play_searching

    def block(self, count: int) -> Block:
        """An empty block for ``count`` games at this table."""
        program, players = self.program, self.players
        cards = len(program.card_ids)
        return Block(
            np.zeros((count, GAME_OUT.SIZE), dtype=np.int64),
            np.zeros((count, players, SEAT_OUT.SIZE), dtype=np.int64),
            np.zeros((count, players, cards), dtype=np.int64),
            np.zeros(count),
            np.zeros((sums_rows(program), max(CARD_SUMS.SIZE, 5)), dtype=np.int64),  # 5: the trajectory
            program.card_ids,
        )


def sums_rows(program: Program) -> int:
    """The rows of the sums over a block of games (the kernel's ``A``): a row per card, then per round from 0."""
    return len(program.card_ids) + program.rules.max_rounds + 1


def new_state(program: Program, players: int, *, lookahead: bool = False, joint: bool = False) -> tuple[Any, ...]:
    """A game state for the kernel (its ``S``): the integer rows, the float rows, the random streams, a log too
    short to note anything (a recorded game's log is longer: see :meth:`Engine.record`) and the equilibrium bot's
    room, as big as ``joint`` (a table with one) asks (``layout.JOINT``). With ``lookahead`` (a table with a search
    bot), each of the first three has room for the state of a sampled future after the game's, and the integer rows
    for its sums after both (the kernel's ``_lookahead``)."""
    rules = program.rules
    held = len(rules.deck) + players + 2  # every card of the pile, and a gift's extra copy
    width = max(held, 2 * len(rules.cards) + 2, MAXP + 2, GAME.SIZE, SEAT.SIZE, rules.dice_count, rules.face_up, 8)
    states = 2 if lookahead else 1
    return (
        np.zeros((states * ROW.SIZE + (sums_rows(program) if lookahead else 0), width), dtype=np.int64),
        np.zeros((states * (FLOATS.SIZE + max(1, program.lists)), width)),
        np.zeros(states * (k.S_BOTS + players), dtype=np.uint64),
        np.zeros(1, dtype=np.int64),
        np.zeros(joint_room(players) if joint else (1, 1)),
    )


def empty_tape(players: int, dice: int) -> Ints:
    """A tape with nothing on it (a simulation reads none)."""
    return tape_arrays([], [[0] * dice], [[]], [[]], [[-1] * players], [[]], [[]], [])


def tape_arrays(
    deal: list[int],
    rolls: list[list[int]],
    rerolls: list[list[int]],
    tests: list[list[int]],
    guides: list[list[int]],
    choices: list[list[tuple[int, int, int]]],
    shuffles: list[list[list[int]]],
    extra: list[list[int]],
) -> Ints:
    """The kernel's ``T``: a header of (start, length) for each of its 14 sections, then the sections (per-round
    entries flattened, with the offsets at which each round's start; tables row after row)."""

    def offsets(per_round: list[list[Any]]) -> list[int]:
        return [0, *np.cumsum([len(entries) for entries in per_round]).tolist()]

    def orders(lists: list[list[int]]) -> tuple[list[int], list[int]]:
        starts = offsets(lists)
        return [c for order in lists for c in order], [x for i, order in enumerate(lists) for x in (starts[i], len(order))]

    round_orders = [order for entries in shuffles for order in entries]
    shuffle, shuffle_item = orders(round_orders)
    extra_flat, extra_item = orders(extra)
    sections = [
        deal,
        [face for roll in rolls for face in roll],
        [face for entries in rerolls for face in entries],
        offsets(rerolls),
        [face for entries in tests for face in entries],
        offsets(tests),
        [guide for row in guides for guide in row],
        [x for entries in choices for choice in entries for x in choice],
        offsets(choices),
        shuffle,
        shuffle_item,
        offsets(shuffles),
        extra_flat,
        extra_item,
    ]
    assert len(sections) == k.TAPE_SECTIONS
    header, start = [], 2 * len(sections)
    for section in sections:
        header += [start, len(section)]
        start += len(section)
    return np.array(header + [x for section in sections for x in section], dtype=np.int64)


def read_log(program: Program, log: Ints, recorder: Recorder) -> None:
    """Tell ``recorder`` every draw and decision of a game's log, as the interpreter's recording chance and deciders
    tell it (:mod:`workbench.games.chance_it.record`)."""
    ids, rows = program.card_ids, log.tolist()
    at = 0
    while at < len(rows) and rows[at][0] == k.L_DEAL:  # the deal comes first, bottom card first
        at += 1
    recorder.dealt([ids[a] for _, a, _ in reversed(rows[:at])])
    dice = program.rules.dice_count
    while at < len(rows):
        code, a, b = rows[at]
        at += 1
        if code == k.L_ROUND:  # the round's dice follow, as they fell
            recorder.rolled([face for _, face, _ in rows[at : at + dice]])
            at += dice
        elif code == k.L_RESHUFFLE:  # the new pile's ``a`` cards follow, bottom card first
            recorder.reshuffled([ids[c] for _, c, _ in reversed(rows[at : at + a])])
            at += a
        elif code == k.L_REROLL:
            recorder.rerolled(a)
        elif code == k.L_TEST:
            recorder.tested(a)
        elif code == k.L_GUIDE:
            recorder.guided(a, GUIDES[b])
        else:
            recorder.chose(a, _CHOICES[code], ids[b] if code in (k.L_BUY, k.L_DISCARD, k.L_USE) else b)


#: The log's codes of the seats' choices, and how a script names each.
_CHOICES = {k.L_BUY: BUY, k.L_DISCARD: DISCARD, k.L_USE: "use", k.L_CHOOSE: "choose", k.L_TARGET: "target"}


def snapshot(program: Program, state: tuple[Any, ...]) -> dict[str, Any]:
    """The final state of the game just played, as ``Game.snapshot(events=False)`` writes it."""
    rows = state[0]
    g, res, ps, tab, market, supply = (
        rows[ROW.G],
        rows[ROW.RES :],
        rows[ROW.PS :],
        rows[ROW.TAB :],
        rows[ROW.MARKET],
        rows[ROW.SUPPLY],
    )
    ids, rules = program.card_ids, program.rules
    players = int(g[GAME.PLAYERS])
    end = int(g[GAME.END])
    return {
        "rounds": int(g[GAME.ROUND]),
        "end_reason": END_REASONS[end] if end >= 0 else None,
        "winners": [p for p in range(players) if ps[p, SEAT.WON]] if end >= 0 else [],
        "players": [
            {
                "seat": p,
                **{name: int(res[p, r]) for r, name in enumerate(RESOURCES)},
                "cards": [ids[c] for c in tab[p, : ps[p, SEAT.TAB]]],
                "eliminated": bool(ps[p, SEAT.ELIM]),
                "forced_in": bool(ps[p, SEAT.FORCED_IN]),
            }
            for p in range(players)
        ],
        "supply": {name: None if rules.supply[r] is None else int(supply[r]) for r, name in enumerate(RESOURCES)},
        "market": [ids[c] for c in market[: g[GAME.MARKET]]],
        "pile": int(g[GAME.PILE]),
        "discard": int(g[GAME.DISCARD]),
    }
