"""The batch engine: Chance It's rules compiled with Numba, for mass simulation with the same rules.

:func:`compile_program` turns compiled rules into arrays (each effect kind writes its own
row); :class:`Engine` plays blocks of seeded games with random and heuristic bots on them
(:mod:`.kernel`), and :func:`replay_script` plays a scenario script from its tapes, so the
two engines can be checked against each other on any scripted game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.batch import kernel as k
from workbench.games.chance_it.batch.model import model_arrays
from workbench.games.chance_it.batch.program import NoBatchForm, Program, compile_program
from workbench.games.chance_it.engine import END_REASONS
from workbench.games.chance_it.rules import Rules
from workbench.games.chance_it.schema import Persona

__all__ = ["Block", "Engine", "NoBatchForm", "Program", "compile_program", "policies", "warm"]

Ints = npt.NDArray[np.int64]
#: The policies the batch engine plays (by their ``policy``), and the kernel's number for each.
policies = {"random": k.RANDOM_BOT, "heuristic": k.HEURISTIC_BOT}


@dataclass
class Block:
    """What a block of games left: per game (``game``: rounds, end reason, winners, peaks, dry supplies), per game and
    seat (``seat``: won, elimination round, picks, stakes, holdings...), cards bought per game and seat, and the sums
    over the block (card purchase rounds, discards, the trajectory by round, the heuristic bots' IN/OUT gaps)."""

    game: Ints
    seat: Ints
    bought: Ints
    card_rounds: Ints
    discarded: Ints
    trajectory: Ints
    gaps: Ints
    card_ids: tuple[str, ...]  #: the variant's cards, in the order of the ``bought``, ``card_rounds`` and ``discarded`` columns

    def __len__(self) -> int:
        return int(self.game.shape[0])

    @property
    def sums(self) -> tuple[Ints, Ints, Ints, Ints]:
        """The sums over the block, as the kernel adds to them (its ``A`` tuple)."""
        return self.card_rounds, self.discarded, self.trajectory, self.gaps


def stream_seed(seed: int) -> np.uint64:
    """The run's seed as the kernel's 64-bit key (any integer, the same on every machine)."""
    digest = hashlib.blake2b(f"{seed}:batch".encode(), digest_size=8).digest()
    return np.uint64(int.from_bytes(digest, "big"))


class Engine:
    """The batch engine for one variant and table size: its arrays, a game state to reuse, the bots' models.

    ``bots`` gives each seat's persona, ``visitor`` one that takes seat ``index % players``
    of game ``index`` (a study's rotating seat); only random and heuristic policies play here.
    """

    def __init__(self, rules: Rules, players: int, bots: Sequence[Persona] = (), visitor: Persona | None = None):
        self.program = compile_program(rules)
        self.players = players
        chosen = [*bots, *([visitor] if visitor is not None else [])]
        for persona in chosen:
            if persona.policy not in policies:
                raise NoBatchForm(f"the {persona.policy} bot plays only in the interpreter")
        heuristic = list(dict.fromkeys(p for p in chosen if p.policy == "heuristic"))
        self.bots = np.array([policies[p.policy] for p in bots] or [k.RANDOM_BOT] * players, dtype=np.int64)
        self.personas = np.array([heuristic.index(p) if p in heuristic else 0 for p in bots] or [0] * players, dtype=np.int64)
        self.visitor = (
            (-1, 0) if visitor is None else (policies[visitor.policy], heuristic.index(visitor) if visitor in heuristic else 0)
        )
        self.models = model_arrays(rules, heuristic)
        self.state = new_state(self.program, players)
        self.tape = empty_tape(players, rules.dice_count)

    def play(self, seed: int, first: int, count: int, *, card: str | None = None, coins: int = 0) -> Block:
        """Games ``first .. first + count - 1`` of a run with ``seed`` (with a gift of ``card`` or ``coins`` for the
        rotating seat)."""
        block = self.block(count)
        gift = self.program.card_ids.index(card) if card is not None else -1
        k.play_games(
            self.state, self.program.arrays, self.models, self.tape, block.sums, self.players, stream_seed(seed), first,
            count, self.bots, self.personas, *self.visitor, gift, coins, block.game, block.seat, block.bought,
        )  # fmt: skip
        return block

    def block(self, count: int) -> Block:
        """An empty block for ``count`` games at this table."""
        program, players = self.program, self.players
        cards = len(program.card_ids)
        return Block(
            np.zeros((count, k.O_SIZE), dtype=np.int64),
            np.zeros((count, players, k.OS_SIZE), dtype=np.int64),
            np.zeros((count, players, cards), dtype=np.int64),
            np.zeros((cards, 3), dtype=np.int64),
            np.zeros(cards, dtype=np.int64),
            np.zeros((program.rules.max_rounds + 1, 5), dtype=np.int64),
            np.zeros(3, dtype=np.int64),
            program.card_ids,
        )


def new_state(program: Program, players: int) -> tuple[Any, ...]:
    """A game state for the kernel (the ``S`` tuple), sized for the variant and table."""
    rules = program.rules
    cards, deck = len(rules.cards), len(rules.deck)
    held = deck + players + 2  # every card of the pile, and a gift's extra copy
    width = max(held, 2 * cards + 2, players + 2, 8)
    zeros = np.zeros
    return (
        zeros(k.G_SIZE, dtype=np.int64),
        zeros((players, 3), dtype=np.int64),
        zeros((players, k.P_SIZE), dtype=np.int64),
        zeros((players, held), dtype=np.int64),
        zeros((players, held), dtype=np.int64),
        zeros(held, dtype=np.int64),
        zeros(max(1, rules.face_up), dtype=np.int64),
        zeros(held, dtype=np.int64),
        zeros(3, dtype=np.int64),
        zeros(3, dtype=np.int64),
        zeros(3, dtype=np.int64),
        zeros(rules.dice_count, dtype=np.int64),
        zeros(rules.dice_count, dtype=np.int64),
        zeros(players, dtype=np.int64),
        zeros(k.S_BOTS + players, dtype=np.uint64),
        zeros((k.STACK, 6), dtype=np.int64),
        zeros((players, cards), dtype=np.int64),
        zeros((k.I_ROWS, width), dtype=np.int64),
        zeros((k.F_ROWS, width)),
        zeros((max(1, program.lists), 6)),
    )


def empty_tape(players: int, dice: int) -> tuple[Any, ...]:
    """A tape with nothing on it (a simulation reads none), of the types a replay's tape has: one compiled kernel."""
    return tape_arrays([], [[0] * dice], [[]], [[]], [[-1] * players], [[]], [[]], [], dice)


def tape_arrays(
    deal: list[int],
    rolls: list[list[int]],
    rerolls: list[list[int]],
    tests: list[list[int]],
    guides: list[list[int]],
    choices: list[list[tuple[int, int, int]]],
    shuffles: list[list[list[int]]],
    extra: list[list[int]],
    dice: int,
) -> tuple[Any, ...]:
    """The kernel's ``T`` tuple: per-round entries flattened, with the offsets at which each round's start."""

    def flat(per_round: list[list[Any]]) -> tuple[Ints, Ints]:
        at = np.zeros(len(per_round) + 1, dtype=np.int64)
        at[1:] = np.cumsum([len(entries) for entries in per_round])
        return np.array([x for entries in per_round for x in entries], dtype=np.int64), at

    def orders(lists: list[list[int]]) -> tuple[Ints, Ints]:
        item = np.zeros((len(lists), 2), dtype=np.int64)
        first = 0
        for i, order in enumerate(lists):
            item[i] = first, len(order)
            first += len(order)
        return np.array([c for order in lists for c in order], dtype=np.int64), item

    reroll, reroll_at = flat(rerolls)
    test, test_at = flat(tests)
    choice_flat, choice_at = flat(choices)
    round_orders = [order for entries in shuffles for order in entries]
    shuffle, shuffle_item = orders(round_orders)
    shuffle_at = np.zeros(len(shuffles) + 1, dtype=np.int64)
    shuffle_at[1:] = np.cumsum([len(entries) for entries in shuffles])
    extra_flat, extra_item = orders(extra)
    return (
        np.array(deal, dtype=np.int64),
        np.array(rolls, dtype=np.int64).reshape(len(rolls), dice),
        reroll,
        reroll_at,
        test,
        test_at,
        np.array(guides, dtype=np.int64).reshape(len(guides), len(guides[0]) if guides else 0),
        choice_flat.reshape(-1, 3),
        choice_at,
        shuffle,
        shuffle_item,
        shuffle_at,
        extra_flat,
        extra_item,
    )


def warm(rules: Rules) -> bool:
    """Compile the kernel now, or load it from Numba's disk cache: True when it had to be compiled."""
    misses = sum(k.play_games.stats.cache_misses.values())
    Engine(rules, rules.min_players).play(0, 0, 1)
    return bool(sum(k.play_games.stats.cache_misses.values()) > misses)


def snapshot(program: Program, state: tuple[Any, ...]) -> dict[str, Any]:
    """The final state of the game just played, as ``Game.snapshot(events=False)`` writes it."""
    g, res, ps, tab, market, supply = state[0], state[1], state[2], state[3], state[6], state[8]
    ids, rules = program.card_ids, program.rules
    players = int(g[k.G_PLAYERS])
    end = int(g[k.G_END])
    return {
        "rounds": int(g[k.G_ROUND]),
        "end_reason": END_REASONS[end] if end >= 0 else None,
        "winners": [p for p in range(players) if ps[p, k.P_WON]] if end >= 0 else [],
        "players": [
            {
                "seat": p,
                **{name: int(res[p, r]) for r, name in enumerate(RESOURCES)},
                "cards": [ids[c] for c in tab[p, : ps[p, k.P_TAB]]],
                "eliminated": bool(ps[p, k.P_ELIM]),
                "forced_in": bool(ps[p, k.P_FORCED_IN]),
            }
            for p in range(players)
        ],
        "supply": {name: None if rules.supply[r] is None else int(supply[r]) for r, name in enumerate(RESOURCES)},
        "market": [ids[c] for c in market[: g[k.G_MARKET]]],
        "pile": int(g[k.G_PILE]),
        "discard": int(g[k.G_DISCARD]),
    }
