"""The batch engine: Chance It's rules compiled with Numba, playing many games on plain arrays.

This is a port of :mod:`workbench.games.chance_it.engine` (rule for rule, in the same
order, so that ``replay --engine batch`` ends every scenario in the interpreter's final
state) and of the random and heuristic bots of :mod:`workbench.games.chance_it.bots`
(the same arithmetic in the same order, so the heuristic's choices are the Python
heuristic's). Nothing here knows a variant: the rules come as arrays from
:mod:`workbench.games.chance_it.batch.program`, the bots' value model from
:mod:`workbench.games.chance_it.batch.model`. Nor an effect kind: each kind's batch form,
in its own module, is compiled in through dispatches generated from the registry, and the
arrays are laid out by name in :mod:`workbench.games.chance_it.batch.layout`.

Effect lists run on an explicit stack of frames rather than by recursion (Numba's
cache cannot hold a recursive function), and ``choose`` options are valued bottom-up
(a nested list always has a smaller id than the list holding it).

Chance comes from the keyed SplitMix64 streams of :mod:`workbench.sim.seeding` (one
stream per run seed, game index and chance point), the very integer arithmetic the
interpreter runs: for a seed both engines deal, roll, test, reshuffle and decide alike,
so they play the same games; game ``i`` of a run is the same wherever and in whichever
chunk it is played, and the arms of a paired run roll the same dice round by round. In tape mode (a replay) every die, reroll, test, reshuffle
and decision is read from arrays instead. A state with room for a log (``S[3]``) notes
every draw and decision (``L_*``), from which ``--records`` and ``--record-scenarios``
are written as the interpreter writes them.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
from numba import njit
from numba.extending import register_jitable

from workbench.games.chance_it.basics import COINS, HEARTS, STARS
from workbench.games.chance_it.batch.layout import (
    CARD,
    CARD_SUMS,
    FLOATS,
    GAME,
    GAME_OUT,
    INTS,
    JOINT,
    JOINT_PAID,
    MAXP,
    PERSONA,
    REGION,
    ROW,
    RULE,
    SEAT,
    SEAT_OUT,
    STACK,
)
from workbench.games.chance_it.chance import BOTS, DEAL, REROLL, RESHUFFLE, ROLL, TEST
from workbench.games.chance_it.compiled import BATCH
from workbench.games.chance_it.effects import (
    REGISTRY,
    BatchForm,
    DieEffect,
    EffectKind,
    Kernel,
    PassiveEffect,
    PlayerEffect,
)
from workbench.sim import seeding

BATCH.use()  # before any function is compiled: Numba takes its cache folder when a function is defined

# --- constants shared with program.py and model.py (plain module globals: Numba freezes them) -------------------

IN, OUT, CHANCE_IT = 0, 1, 2
FLASH, DIE, CHANCE_CARD, PASSIVE = 0, 1, 2, 3
KINDS = ("flash", "die", "chance-it", "passive")
#: End reasons, in the order of ``engine.END_REASONS``.
ENDED_STARS, ENDED_LAST, ENDED_ALL, ENDED_MAX = 0, 1, 2, 3
#: Bots: how a seat decides (TAPE: as a scenario script says; FIRST_GUIDE: a seat of a sampled future that plays
#: ``SEAT.FIRST`` as its first guide, then as the heuristic).
RANDOM_BOT, HEURISTIC_BOT, TAPE, SEARCH_BOT, FIRST_GUIDE, EQUILIBRIUM_BOT = 0, 1, 2, 3, 4, 5
#: The bots whose decisions play sampled futures, made at the search level (an equilibrium bot's are the search bot's
#: but for its guide): the forms ``policies.SEARCH_LEVEL`` names (tests/test_batch.py checks it; not imported, so
#: that a persona's wording never changes the compiled code).
SEARCHERS = (SEARCH_BOT, EQUILIBRIUM_BOT)
#: Scripted choices in tape mode: the action of each.
T_BUY, T_DISCARD, T_USE, T_CHOOSE, T_TARGET = 0, 1, 2, 3, 4
#: What the log of a recorded game holds (one entry ``code, a, b`` each, in the order they happen; see :func:`_log`).
(L_DEAL, L_ROUND, L_ROLL, L_REROLL, L_TEST, L_RESHUFFLE, L_CARD, L_GUIDE, L_BUY, L_DISCARD, L_USE, L_CHOOSE,
 L_TARGET) = range(13)  # fmt: skip
#: A flash card's market actions chain at most this many times (engine.MAX_CHAINED_MARKETS).
MAX_CHAINED = 20
#: Chance streams, numbered as chance.POINTS (the seats' bot streams follow, from chance.BOTS).
S_DEAL, S_ROLL, S_REROLL, S_TEST, S_RESHUFFLE, S_BOTS = DEAL, ROLL, REROLL, TEST, RESHUFFLE, BOTS

# frame kinds
F_PLAIN, F_REPEAT, F_FLASH = 0, 1, 2
#: ``_run`` for every participant still in the game, in turn order
EACH = -1

#: How every function is compiled: cached on disk (see :mod:`workbench.sim.compiled`), and without Numba's reference counting. The kernel allocates
#: nothing (its arrays come in from Python), and counting references to the ~70 arrays passed on every call cost
#: ~0.2 us a call, more than the rules themselves (measured: 235 ns a call with 40 arrays, 2.5 ns without).
_COMPILED: dict[str, Any] = {"cache": True, "_nrt": False}
_INLINED: dict[str, Any] = {**_COMPILED, "inline": "always"}


def compile_options(function: Any) -> dict[str, Any]:
    """How a compiled function of the kernel was compiled (for the search level's copy of it)."""
    return _INLINED if function.targetoptions.get("inline") == "always" else _COMPILED


class TapeError(Exception):
    """A scripted game asks for something its script does not give (the interpreter words it, located)."""


class LogFull(Exception):
    """A recorded game's log ran out of room: the caller plays it again with a longer one."""


class NeedReshuffle(Exception):
    """A scripted game reshuffles without a scripted order: the caller supplies the seeded order and plays it again."""


# --- chance -----------------------------------------------------------------------------------------------------


# The streams are seeding's functions, compiled here as they are written there (the interpreter runs the same ones).
for _shared in (seeding.mix, seeding.seed_streams, seeding.draw, seeding.below, seeding.shuffle):
    register_jitable(_nrt=False)(_shared)


@njit(**_INLINED)
def _below(rs, k, n):
    return seeding.below(rs, k, n)


@njit(**_INLINED)
def _random_pick(S, p, n):
    """The random bot's pick among ``n`` options for seat ``p`` (bots.RandomBot: it draws only when it has a choice)."""
    return 0 if n < 2 else seeding.below(S[2], S_BOTS + p, n)


@njit(**_INLINED)
def _log(S, code, a, b):
    """Note ``code, a, b`` in the log of a recorded game (a log of one entry, a run's, notes nothing): ``L[0]`` counts
    what is used, the entries follow; a full log raises LogFull."""
    log = S[3]
    if log.shape[0] > 1:
        at = log[0] + 1
        if at + 3 > log.shape[0]:
            raise LogFull()
        log[at], log[at + 1], log[at + 2] = code, a, b
        log[0] += 3


@njit(**_INLINED)
def _sort(a, n):
    """Insertion sort of ``a[:n]`` (a handful of dice; Numba's sort needs the reference counting left out here)."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(**_COMPILED)
def _shuffle(rs, k, a, n):
    seeding.shuffle(rs, k, a, n)


# --- the layout: five arrays --------------------------------------------------------------------------------------
# Every kernel function takes the same few arrays (one call costs about 2 ns per array passed, so the state, rules,
# bots' model, tape and sums are each one array, with fixed regions, rather than dozens):
# S = (state: int64 rows, scratch and list values: float64 rows, random streams: uint64, the log: int64, see _log)
# R = the rules: row 0 the scalars (layout.RULE), row 1 where each region starts and how many rows it has, then the regions
# M = the bots' value models: one block of rows per persona (see model_offsets)
# T = a replay's tape: 14 sections of one flat int64 array, each found through the header (see _tsec)
# A = sums over a block of games: a row per card (layout.CARD_SUMS: purchases, their rounds and squared rounds, discards,
#     the games in which it could be bought), then a row per
#     round (the trajectory: coins, hearts, stars, living, games)

#: Sections of the tape.
TAPE_SECTIONS = 14


@njit(**_INLINED)
def _g(S):
    return S[0][ROW.G]


@njit(**_INLINED)
def _res(S):
    return S[0][ROW.RES : ROW.RES + MAXP]


@njit(**_INLINED)
def _ps(S):
    return S[0][ROW.PS : ROW.PS + MAXP]


@njit(**_INLINED)
def _tab(S):
    return S[0][ROW.TAB : ROW.TAB + MAXP]


@njit(**_INLINED)
def _used(S):
    return S[0][ROW.USED : ROW.USED + MAXP]


@njit(**_INLINED)
def _bought(S):
    return S[0][ROW.BOUGHT : ROW.BOUGHT + MAXP]


@njit(**_INLINED)
def _pile(S):
    return S[0][ROW.PILE]


@njit(**_INLINED)
def _market(S):
    return S[0][ROW.MARKET]


@njit(**_INLINED)
def _discard(S):
    return S[0][ROW.DISCARD]


@njit(**_INLINED)
def _supply(S):
    return S[0][ROW.SUPPLY]


@njit(**_INLINED)
def _peak(S):
    return S[0][ROW.PEAK]


@njit(**_INLINED)
def _dry(S):
    return S[0][ROW.DRY]


@njit(**_INLINED)
def _dice(S):
    return S[0][ROW.DICE]


@njit(**_INLINED)
def _pending(S):
    return S[0][ROW.PENDING]


@njit(**_INLINED)
def _part(S):
    return S[0][ROW.PART]


@njit(**_INLINED)
def _offered(S):
    return S[0][ROW.OFFERED]


@njit(**_INLINED)
def _ints(S):
    return S[0][ROW.INTS : ROW.INTS + INTS.SIZE]


@njit(**_INLINED)
def _stack(S):
    return S[0][ROW.STACK : ROW.SIZE]


@njit(**_INLINED)
def _floats(S):
    return S[1][0 : FLOATS.SIZE]


@njit(**_INLINED)
def _vals(S):
    return S[1][FLOATS.SIZE :]


@njit(**_INLINED)
def _region(R, k):
    return R[R[1, 2 * k] : R[1, 2 * k] + R[1, 2 * k + 1]]


@njit(**_INLINED)
def _start(R):
    return _region(R, REGION.START)[0]


@njit(**_INLINED)
def _total(R):
    return _region(R, REGION.TOTAL)[0]


@njit(**_INLINED)
def _out_sheet(R):
    return _region(R, REGION.OUT)


@njit(**_INLINED)
def _in_sheet(R):
    return _region(R, REGION.IN)


@njit(**_INLINED)
def _tiebreak(R):
    return _region(R, REGION.TIEBREAK)[0, : R[0, RULE.TIES]]


@njit(**_INLINED)
def _board(R):
    return _region(R, REGION.FACES)[0]


@njit(**_INLINED)
def _die_steps(R):
    return _region(R, REGION.FACES)[1]


@njit(**_INLINED)
def _items(R):
    return _region(R, REGION.ITEMS)


@njit(**_INLINED)
def _pairs(R):
    return _region(R, REGION.PAIRS)


@njit(**_INLINED)
def _lists(R):
    return _region(R, REGION.LISTS)


@njit(**_INLINED)
def _options(R):
    return _region(R, REGION.OPTIONS)[:, 0]


@njit(**_INLINED)
def _conds(R):
    return _region(R, REGION.CONDS)


@njit(**_INLINED)
def _kind(R):
    return _region(R, REGION.CARDS)[:, CARD.KIND]


@njit(**_INLINED)
def _face(R):
    return _region(R, REGION.CARDS)[:, CARD.FACE]


@njit(**_INLINED)
def _cost(R):
    return _region(R, REGION.CARDS)[:, CARD.COST]


@njit(**_INLINED)
def _list(R):
    return _region(R, REGION.CARDS)[:, CARD.LIST]


@njit(**_INLINED)
def _bonus(R):
    return _region(R, REGION.CARDS)[:, CARD.BONUS]


@njit(**_INLINED)
def _passive(R):
    return _region(R, REGION.CARDS)[:, CARD.PASSIVE]


@njit(**_INLINED)
def _deck(R):
    return _region(R, REGION.DECK)[:, 0]


@njit(**_INLINED)
def model_offsets(sides, cards):
    """Where a persona's regions start in its block of the model array, and the block's rows: the persona's scalars
    (row 0), each face (worth, hearts, knives, dice rerolled), the heart changes of a rerolled die, each card (worth,
    hearts, knives, worth now, worth over the horizon, how often it fires), the cost of being forced IN by table size,
    and the valued lists (CHANCE IT, each face, each card) at each chance bonus from -sides to sides."""
    face = 1
    hearts = face + sides + 1
    card = hearts + 1
    forced = card + cards
    valued = forced + 1
    return face, hearts, card, forced, valued, valued + (1 + sides + cards) * (2 * sides + 1)


@njit(**_INLINED)
def _mblock(R, M, h):
    return M[h * model_offsets(R[0, RULE.SIDES], R[0, RULE.CARDS])[5] :]


@njit(**_INLINED)
def _mp(R, M, h):
    return _mblock(R, M, h)[0]


@njit(**_INLINED)
def _mface(R, M, h):
    face = model_offsets(R[0, RULE.SIDES], R[0, RULE.CARDS])[0]
    return _mblock(R, M, h)[face : face + R[0, RULE.SIDES] + 1]


@njit(**_INLINED)
def _mhearts(R, M, h):
    return _mblock(R, M, h)[model_offsets(R[0, RULE.SIDES], R[0, RULE.CARDS])[1], : R[0, RULE.SIDES] - 1]


@njit(**_INLINED)
def _mcard(R, M, h):
    card = model_offsets(R[0, RULE.SIDES], R[0, RULE.CARDS])[2]
    return _mblock(R, M, h)[card : card + R[0, RULE.CARDS]]


@njit(**_INLINED)
def _mforced(R, M, h):
    return _mblock(R, M, h)[model_offsets(R[0, RULE.SIDES], R[0, RULE.CARDS])[3]]


@njit(**_INLINED)
def _mval(R, M, h):
    return _mblock(R, M, h)[model_offsets(R[0, RULE.SIDES], R[0, RULE.CARDS])[4] :]


@njit(**_INLINED)
def _tsec(T, k):
    return T[T[2 * k] : T[2 * k] + T[2 * k + 1]]


@njit(**_INLINED)
def _gain(S, R, p, r, amount):
    g, res, supply, dry = _g(S), _res(S), _supply(S), _dry(S)
    if supply[r] >= 0:
        left = supply[r]
        if amount >= left:
            amount = left
            dry[r] = 1
        supply[r] = left - amount
    res[p, r] += amount
    if r == STARS and res[p, r] >= R[0][RULE.END_STARS]:
        g[GAME.STARS_REACHED] = 1
    return amount


@njit(**_INLINED)
def _lose(S, p, r, amount):
    res, supply = _res(S), _supply(S)
    have = res[p, r]
    if amount > have:
        amount = have
    res[p, r] = have - amount
    if supply[r] >= 0:
        supply[r] += amount
    return amount


@njit(**_INLINED)
def _transfer(S, R, giver, taker, r, amount):
    g, res = _g(S), _res(S)
    if amount > res[giver, r]:
        amount = res[giver, r]
    res[giver, r] -= amount
    res[taker, r] += amount
    if r == STARS and res[taker, r] >= R[0][RULE.END_STARS]:
        g[GAME.STARS_REACHED] = 1
    return amount


@njit(**_COMPILED)
def _eliminate(S, p):
    g, res, ps, tab, discard, supply = _g(S), _res(S), _ps(S), _tab(S), _discard(S), _supply(S)
    for r in range(3):
        if supply[r] >= 0:
            supply[r] += res[p, r]
        res[p, r] = 0
    ps[p, SEAT.ELIM] = 1
    g[GAME.LIVING] -= 1
    ps[p, SEAT.ELIM_ROUND] = g[GAME.ROUND]
    ps[p, SEAT.FORCED_IN] = 0
    for i in range(ps[p, SEAT.TAB]):
        discard[g[GAME.DISCARD]] = tab[p, i]
        g[GAME.DISCARD] += 1
    ps[p, SEAT.TAB] = 0


@njit(**_INLINED)
def _settle(S, p):
    if _res(S)[p, HEARTS] == 0 and not _ps(S)[p, SEAT.ELIM]:
        _eliminate(S, p)


@njit(**_COMPILED)
def _rob(S, R, victim, p, first, count):
    """``victim`` gives ``p`` each pair ``first .. first + count - 1`` (what it has) while it has hearts, in order; left
    without hearts it is out (effects.steal.rob)."""
    res, pairs = _res(S), _pairs(R)
    for i in range(first, first + count):
        if res[victim, HEARTS]:
            _transfer(S, R, victim, p, pairs[i, 0], pairs[i, 1])
    _settle(S, victim)


@njit(**_COMPILED)
def _finish(S, R, reason):
    g, res, ps, tiebreak = _g(S), _res(S), _ps(S), _tiebreak(R)
    n = g[GAME.PLAYERS]
    best = -1
    for p in range(n):
        if ps[p, SEAT.ELIM]:
            continue
        if best < 0:
            best = p
            continue
        for r in tiebreak:
            if res[p, r] != res[best, r]:
                if res[p, r] > res[best, r]:
                    best = p
                break
    for p in range(n):
        ps[p, SEAT.WON] = 0
        if best >= 0 and not ps[p, SEAT.ELIM]:
            same = True
            for r in tiebreak:
                if res[p, r] != res[best, r]:
                    same = False
            ps[p, SEAT.WON] = 1 if same else 0
    g[GAME.END] = reason


@njit(**_INLINED)
def _check_end(S, R):
    g, res, ps = _g(S), _res(S), _ps(S)
    if not g[GAME.STARS_REACHED] and g[GAME.LIVING] > 1:
        return False
    for p in range(g[GAME.PLAYERS]):
        if not ps[p, SEAT.ELIM] and res[p, STARS] >= R[0][RULE.END_STARS]:
            _finish(S, R, ENDED_STARS)
            return True
    if g[GAME.LIVING] == 1:
        _finish(S, R, ENDED_LAST)
    elif g[GAME.LIVING] == 0:
        _finish(S, R, ENDED_ALL)
    return g[GAME.END] >= 0


@njit(**_INLINED)
def _step_done(S, R):
    """End of a step (rule 13) and the peak of each resource held; True when play goes on."""
    g, res, supply, peak = _g(S), _res(S), _supply(S), _peak(S)
    _check_end(S, R)
    total = _total(R)
    for r in range(3):
        if total[r] >= 0:
            held = total[r] - supply[r]
        else:
            held = 0
            for p in range(g[GAME.PLAYERS]):
                held += res[p, r]
        if held > peak[r]:
            peak[r] = held
    return g[GAME.END] < 0


@njit(**_INLINED)
def _lay_out(S, R):
    g, pile, market = _g(S), _pile(S), _market(S)
    n = min(R[0][RULE.FACE_UP], g[GAME.PILE])
    for i in range(n):
        g[GAME.PILE] -= 1
        market[i] = pile[g[GAME.PILE]]
    g[GAME.MARKET] = n


@njit(**_COMPILED)
def _refill(S, R, T, tape):
    g, pile, discard = _g(S), _pile(S), _discard(S)
    if g[GAME.MARKET]:
        return
    if g[GAME.PILE] == 0 and R[0][RULE.RESHUFFLE] and g[GAME.DISCARD]:
        n = g[GAME.DISCARD]
        for i in range(n):
            pile[i] = discard[i]
        g[GAME.PILE] = n
        g[GAME.DISCARD] = 0
        if tape:
            _scripted_reshuffle(S, T)
        else:
            _shuffle(S[2], S_RESHUFFLE, pile, n)
        _log(S, L_RESHUFFLE, n, 0)
        for i in range(n):
            _log(S, L_CARD, pile[i], 0)
    if g[GAME.PILE]:
        _lay_out(S, R)


@njit(**_COMPILED)
def _scripted_reshuffle(S, T):
    """The round's next scripted order (card ids from the top), else the next seeded one the caller supplied."""
    g, pile = _g(S), _pile(S)
    n = g[GAME.PILE]
    shuffles, item, at = _tsec(T, 9), _tsec(T, 10), _tsec(T, 11)
    k = g[GAME.T_RESHUFFLE]
    if k < at[g[GAME.T_ROUND] + 1]:
        g[GAME.T_RESHUFFLE] += 1
        order, extra_item = shuffles, item
    else:
        k = g[GAME.T_EXTRA]
        if k >= len(_tsec(T, 13)) // 2:
            raise NeedReshuffle()
        g[GAME.T_EXTRA] += 1
        order, extra_item = _tsec(T, 12), _tsec(T, 13)
    first, count = extra_item[2 * k], extra_item[2 * k + 1]
    if count != n:
        raise TapeError()
    for i in range(n):  # the same cards as the old discard pile, as many of each
        c = order[first + i]
        listed, held = 0, 0
        for j in range(n):
            listed += order[first + j] == c
            held += pile[j] == c
        if listed != held:
            raise TapeError()
    for i in range(n):  # listed from the top: the top card is pile[n - 1]
        pile[n - 1 - i] = order[first + i]


# --- chance draws, random or scripted ---------------------------------------------------------------------------


@njit(**_INLINED)
def _reroll(S, R, T, tape):
    g = _g(S)
    if not tape:
        face = _below(S[2], S_REROLL, R[0][RULE.SIDES]) + 1
        _log(S, L_REROLL, face, 0)
        return face
    k = g[GAME.T_REROLL]
    if k >= _tsec(T, 3)[g[GAME.T_ROUND] + 1]:
        raise TapeError()
    g[GAME.T_REROLL] += 1
    return _tsec(T, 2)[k]


@njit(**_INLINED)
def _test(S, R, T, tape):
    g = _g(S)
    if not tape:
        face = _below(S[2], S_TEST, R[0][RULE.SIDES]) + 1
        _log(S, L_TEST, face, 0)
        return face
    k = g[GAME.T_TEST]
    if k >= _tsec(T, 5)[g[GAME.T_ROUND] + 1]:
        raise TapeError()
    g[GAME.T_TEST] += 1
    return _tsec(T, 4)[k]


@njit(**_COMPILED)
def _scripted(S, T, seat, action):
    """The value of the next scripted choice, which must be ``action`` by ``seat``."""
    g, choices = _g(S), _tsec(T, 7)
    k = g[GAME.T_CHOICE]
    if k >= _tsec(T, 8)[g[GAME.T_ROUND] + 1] or choices[3 * k] != seat or choices[3 * k + 1] != action:
        raise TapeError()
    g[GAME.T_CHOICE] += 1
    return choices[3 * k + 2]


# --- the heuristic bot's value model (bots._Model, ported) --------------------------------------------------------


@njit(**_INLINED)
def _round_half_even(x):
    low = np.floor(x)
    rest = x - low
    if rest > 0.5 or (rest == 0.5 and low % 2 != 0):
        return int(low) + 1
    return int(low)


@njit(**_INLINED)
def _pull(lead):
    return 1 / (1 + np.exp(-max(-50.0, min(50.0, lead))))


@njit(**_INLINED)
def _hearts_worth(mp, hearts, holding):
    if hearts <= 0:
        return -holding - 10 * mp[PERSONA.STAR]
    short = mp[PERSONA.MIN_HEARTS] - hearts
    return mp[PERSONA.HEART] * hearts - (mp[PERSONA.DANGER] * short if short > 0 else 0.0)


@njit(**_INLINED)
def _ending(mp, hearts, holding, gains):
    return _hearts_worth(mp, hearts, holding) + (gains if hearts > 0 else 0.0)


@njit(**_COMPILED)
def _over_rerolls(mp, changes, hearts, rerolls, holding, gains):
    if not rerolls:
        return _ending(mp, hearts, holding, gains)
    hearts += (rerolls - 1) * mp[PERSONA.REROLL_MEAN]
    total = 0.0
    for change in changes:
        total += _ending(mp, hearts + change, holding, gains)
    return total / len(changes)


@njit(**_COMPILED)
def _guide_values(S, R, M, h, owner, coins, hearts, stars, alive, chances, out):
    """bots._Model.guide_values: IN, OUT and CHANCE IT worth to a seat holding ``owner``'s tableau (-1: none)."""
    mp, mface, changes, mcard = _mp(R, M, h), _mface(R, M, h), _mhearts(R, M, h), _mcard(R, M, h)
    mcard_now = mcard[:, 3]
    tab, ps, scratch = _tab(S), _ps(S), _ints(S)[INTS.COUNTED]
    card_kind, card_face = _kind(R), _face(R)
    total = 0.0
    everybody_out = 1.0
    for i in range(alive - 1):
        total += chances[i]
        everybody_out *= 1 - chances[i]
    others_in = _round_half_even(total)
    holding = mp[PERSONA.STAR] * stars + mp[PERSONA.COIN] * coins
    knife = mp[PERSONA.KNIFE] * others_in
    out_sheet, in_sheet = _out_sheet(R)[alive], _in_sheet(R)[alive]
    take = out_sheet[min(alive - 2, alive - 1 - others_in)]
    value_out = everybody_out * (mp[PERSONA.AO_W] + _hearts_worth(mp, hearts + mp[PERSONA.AO_H], holding)) + (
        1 - everybody_out
    ) * (mp[PERSONA.COIN] * take + _hearts_worth(mp, hearts, holding))
    pay = in_sheet[others_in]
    worth = -mp[PERSONA.COIN] * min(pay, coins)
    change = float(-max(0, pay - coins))
    knives = 0.0
    rerolls = 0
    n = ps[owner, SEAT.TAB] if owner >= 0 else 0
    for i in range(n):  # die cards not yet counted: each is used once, on one die, the best first
        scratch[i] = 0
    dice = _dice(S)
    for d in range(R[0][RULE.DICE]):
        face = dice[d]
        worth, change, knives = worth + mface[face, 0], change + mface[face, 1], knives + mface[face, 2]
        best = -1
        for i in range(n):
            c = tab[owner, i]
            fits = not scratch[i] and card_kind[c] == DIE and card_face[c] == face
            if fits and (best < 0 or mcard_now[c] > mcard_now[tab[owner, best]]):
                best = i
        if best >= 0:
            scratch[best] = 1
            c = tab[owner, best]
            worth, change, knives = worth + mcard[c, 0], change + mcard[c, 1], knives + mcard[c, 2]
        if mface[face, 3]:
            rerolls += int(mface[face, 3])
            worth, knives = worth + mp[PERSONA.REROLL_WORTH], knives + mp[PERSONA.REROLL_KNIVES]
    value_in = knife * knives + _over_rerolls(mp, changes, hearts + change, rerolls, holding, worth)
    w, hh, k = mp[PERSONA.CI_W], mp[PERSONA.CI_H], mp[PERSONA.CI_K]
    for i in range(n):
        c = tab[owner, i]
        if card_kind[c] == CHANCE_CARD and mcard[c, 0] + mp[PERSONA.HEART] * mcard[c, 1] > 0:
            w, hh, k = w + mcard[c, 0], hh + mcard[c, 1], k + mcard[c, 2]
            break
    value_chance = (
        knife * (knives + k)
        + _over_rerolls(mp, changes, hearts + change + hh, rerolls, holding, worth + w)
        + mp[PERSONA.CHANCE_IT]
        - _mforced(R, M, h)[alive]
    )
    out[IN], out[OUT], out[CHANCE_IT] = value_in, value_out, value_chance


@njit(**_COMPILED)
def _others_play_in(S, R, M, h, alive, values):
    chances = _floats(S)[FLOATS.LEVEL0]
    for i in range(alive - 1):
        chances[i] = 0.6
    _guide_values(S, R, M, h, -1, 5, 6, 0, alive, chances, values)
    return _pull(values[IN] - values[OUT])


@njit(**_COMPILED)
def _heuristic_guide(S, R, M, A, p):
    """HeuristicBot.guide for a free choice: level-1 reading of the others, then the best guide (the first of equals)."""
    ps, res = _ps(S), _res(S)
    h = ps[p, SEAT.PERSONA]
    fs = _floats(S)
    values, chances, level = fs[FLOATS.VALUES], fs[FLOATS.CHANCES], fs[FLOATS.LEVEL]
    n = _g(S)[GAME.PLAYERS]
    alive = 0
    for q in range(n):
        if not ps[q, SEAT.ELIM]:
            alive += 1
    level0 = -1.0
    k = 0
    for q in range(n):
        if ps[q, SEAT.ELIM] or q == p:
            continue
        if ps[q, SEAT.FORCED_IN]:
            chances[k] = 1.0
        else:
            if level0 < 0:
                level0 = _others_play_in(S, R, M, h, alive, values)
                for i in range(alive - 1):
                    level[i] = level0
            _guide_values(S, R, M, h, q, res[q, COINS], res[q, HEARTS], res[q, STARS], alive, level, values)
            chances[k] = _pull(max(values[IN], values[CHANCE_IT]) - values[OUT])
        k += 1
    _guide_values(S, R, M, h, p, res[p, COINS], res[p, HEARTS], res[p, STARS], alive, chances, values)
    gap = _round_half_even(1000 * abs(values[IN] - values[OUT]))
    g = _g(S)  # per game (the squares of a block could pass int64 with extreme personas; a game's cannot)
    g[GAME.GAPS] += 1
    g[GAME.GAPS + 1] += gap
    # squares as a float, per game: with extreme stakes and weights one square passes 64 bits; Python then adds the
    # games' floats as exact integers, so the sum is the same however the games are split into blocks
    _floats(S)[FLOATS.GAME, 0] += float(gap) * float(gap)
    best = IN
    if values[OUT] > values[best]:
        best = OUT
    if values[CHANCE_IT] > values[best]:
        best = CHANCE_IT
    return best


@njit(**_INLINED)
def _bonus_of(S, R, p):
    tab, bonus = _tab(S), _bonus(R)
    total = 0
    for i in range(_ps(S)[p, SEAT.TAB]):
        total += bonus[tab[p, i]]
    return total


@njit(**_INLINED)
def _valued(R, M, h, key, bonus, sides):
    """The expected outcome of a valued list (0 CHANCE IT, 1.. board faces, then cards) with a chance bonus."""
    return _mval(R, M, h)[key * (2 * sides + 1) + min(2 * sides, max(0, bonus + sides))]


@njit(**_COMPILED)
def _bonus_gain(S, R, M, h, p, bonus, out):
    """bots._Model.bonus_gain: what a chance bonus adds per round to seat ``p``'s tableau (6 numbers in ``out``)."""
    sides, dice = R[0][RULE.SIDES], R[0][RULE.DICE]
    have = _bonus_of(S, R, p)
    mp, moften = _mp(R, M, h), _mcard(R, M, h)[:, 5]
    tab, card_kind = _tab(S), _kind(R)
    more_ = _valued(R, M, h, 0, have + bonus, sides)
    less = _valued(R, M, h, 0, have, sides)
    for i in range(6):
        out[i] = 0.0 + (more_[i] + less[i] * -1.0) * 0.3
    for f in range(1, sides + 1):
        more_ = _valued(R, M, h, f, have + bonus, sides)
        less = _valued(R, M, h, f, have, sides)
        for i in range(6):
            out[i] = out[i] + (more_[i] + less[i] * -1.0) * (dice / sides)
    for j in range(_ps(S)[p, SEAT.TAB]):
        c = tab[p, j]
        if card_kind[c] != PASSIVE:
            more_ = _valued(R, M, h, sides + 1 + c, have + bonus, sides)
            less = _valued(R, M, h, sides + 1 + c, have, sides)
            for i in range(6):
                out[i] = out[i] + (more_[i] + less[i] * -1.0) * (moften[c] / mp[PERSONA.HORIZON])


@njit(**_INLINED)
def _split(mp, v0, v2, v3):
    return mp[PERSONA.COIN] * v0 + mp[PERSONA.STAR] * v2 + mp[PERSONA.MARKET] * v3


@njit(**_COMPILED)
def _move_value(S, R, M, p, action, c):
    """HeuristicBot.move_value: a buy's worth to the seat now, less its price; a discard denies the card."""
    g, res, ps = _g(S), _res(S), _ps(S)
    h = ps[p, SEAT.PERSONA]
    mp, mcard = _mp(R, M, h), _mcard(R, M, h)
    moften = mcard[:, 5]
    if action != 0:
        return 0.01 * mcard[c, 4]
    cost, kind = _cost(R)[c], _kind(R)[c]
    if res[p, COINS] - cost < mp[PERSONA.RESERVE]:
        return -1e9
    if kind == PASSIVE:
        total, v = _floats(S)[FLOATS.TOTAL], _floats(S)[FLOATS.V]
        total[:6] = 0.0
        items, lists = _items(R), _lists(R)
        passive = _passive(R)[c]
        for k in range(lists[passive, 0], lists[passive, 0] + lists[passive, 1]):
            _value_passive(items[k, 0], S, R, M, h, p, v, items[k, 1], items[k, 2], items[k, 3], items[k, 4], items[k, 5])
            for i in range(6):
                total[i] = total[i] + v[i]
        worth, hearts, knives = _split(mp, total[0], total[2], total[3]), total[1], total[4]
    else:
        worth, hearts, knives = mcard[c, 0], mcard[c, 1], mcard[c, 2]
    heart = mp[PERSONA.HEART] + (mp[PERSONA.DANGER] if res[p, HEARTS] <= mp[PERSONA.MIN_HEARTS] else 0.0)
    knife = 0.0
    if knives:
        for q in range(g[GAME.PLAYERS]):
            guide = ps[q, SEAT.GUIDE]
            in_reach = kind != FLASH or (not g[GAME.CHOOSING] and not ps[q, SEAT.ELIM] and guide >= 0 and guide != OUT)
            if q != p and not ps[q, SEAT.ELIM] and in_reach:
                knife += mp[PERSONA.KNIFE] + (2.0 * mp[PERSONA.STAR] if res[q, HEARTS] <= knives else 0.0)
        knife *= 1.0 if kind == FLASH else 0.6
    return (worth + heart * hearts + knife * knives) * moften[c] - mp[PERSONA.COIN] * cost


@njit(**_INLINED)
def _taken(R, first, count, holder, out):
    pairs = _pairs(R)
    out[0], out[1], out[2] = 0.0, 0.0, 0.0
    for k in range(first, first + count):
        r, n = pairs[k, 0], pairs[k, 1]
        out[r] += min(n, holder[r])


@njit(**_COMPILED)
def _worth6(mp, v):
    return _split(mp, v[0], v[2], v[3]) + mp[PERSONA.HEART] * v[1] + mp[PERSONA.KNIFE] * v[4]


@njit(**_COMPILED)
def _value_lists(S, R, M, h, p, others, n_others, bonus, upto):
    """Every list's expected outcome as it would apply now for seat ``p`` (a Valuer with a Position), bottom-up:
    a nested list's id is always below its parent's, so lists ``0..upto`` are valued in id order. Each effect adds
    its own by its kind's batch form."""
    vals, items, lists = _vals(S), _items(R), _lists(R)
    for lst in range(upto + 1):
        v = vals[lst]
        for i in range(6):
            v[i] = 0.0
        for k in range(lists[lst, 0], lists[lst, 0] + lists[lst, 1]):
            _value(
                items[k, 0], S, R, M, h, p, others, n_others, bonus, v,
                items[k, 1], items[k, 2], items[k, 3], items[k, 4], items[k, 5],
            )  # fmt: skip


# --- decisions ----------------------------------------------------------------------------------------------------
# The SEARCHERS' decisions are made at the search level only (:mod:`.search`, with the functions of "the
# search bot" below): here, where every game without a search bot and every sampled future is played, they are refused.


@njit(**_COMPILED)
def _search_guide(S, R, M, T, A, p):
    if p >= 0:
        raise RuntimeError("a search bot plays only at the search level")
    return IN


@njit(**_COMPILED)
def _search_market(S, R, M, T, p, acts, cards, n):
    if p >= 0:
        raise RuntimeError("a search bot plays only at the search level")
    return 0


@njit(**_COMPILED)
def _search_choice(S, R, M, T, p, first, count):
    if p >= 0:
        raise RuntimeError("a search bot plays only at the search level")
    return 0


@njit(**_COMPILED)
def _search_target(S, R, M, T, p, candidates, n, first, count):
    if p >= 0:
        raise RuntimeError("a search bot plays only at the search level")
    return candidates[0]


@njit(**_INLINED)
def _decide_guide(S, R, M, T, A, p, forced):
    g, ps = _g(S), _ps(S)
    bot = ps[p, SEAT.BOT]
    if bot == RANDOM_BOT:
        return IN if forced else _random_pick(S, p, 3)
    if bot == HEURISTIC_BOT:
        return IN if forced else _heuristic_guide(S, R, M, A, p)
    if bot in SEARCHERS:
        return IN if forced else _search_guide(S, R, M, T, A, p)
    if bot == FIRST_GUIDE:
        ps[p, SEAT.BOT] = HEURISTIC_BOT
        return ps[p, SEAT.FIRST]
    guide = _tsec(T, 6)[g[GAME.T_ROUND] * g[GAME.PLAYERS] + p]
    if guide < 0 or (forced and guide != IN):
        raise TapeError()
    return guide


@njit(**_COMPILED)
def _decide_market(S, R, M, T, p, acts, cards, n):
    bot = _ps(S)[p, SEAT.BOT]
    if bot == RANDOM_BOT:
        return _random_pick(S, p, n)
    if bot == HEURISTIC_BOT:
        best, mine = 0.0, -1
        for i in range(n):
            value = _move_value(S, R, M, p, acts[i], cards[i])
            if mine < 0 or value > best:
                best, mine = value, i
        return mine
    if bot in SEARCHERS:
        return _search_market(S, R, M, T, p, acts, cards, n)
    k = _g(S)[GAME.T_CHOICE]
    choices = _tsec(T, 7)
    if k >= _tsec(T, 8)[_g(S)[GAME.T_ROUND] + 1] or choices[3 * k] != p or choices[3 * k + 1] > T_DISCARD:
        raise TapeError()
    _g(S)[GAME.T_CHOICE] += 1
    for i in range(n):
        if acts[i] == choices[3 * k + 1] and cards[i] == choices[3 * k + 2]:
            return i
    raise TapeError()


@njit(**_COMPILED)
def _decide_use(S, R, M, T, p, options, n):
    """Which of ``n`` distinct eligible cards (card indices) to use: its position in ``options``."""
    bot = _ps(S)[p, SEAT.BOT]
    if bot == RANDOM_BOT:
        return _random_pick(S, p, n)
    if bot == HEURISTIC_BOT or bot in SEARCHERS:  # a search bot uses them as its heuristic
        card_now = _mcard(R, M, _ps(S)[p, SEAT.PERSONA])[:, 3]
        mine = 0
        for i in range(1, n):
            if card_now[options[i]] > card_now[options[mine]]:
                mine = i
        return mine
    card = _scripted(S, T, p, T_USE)
    for i in range(n):
        if options[i] == card:
            return i
    raise TapeError()


@njit(**_COMPILED)
def _decide_choice(S, R, M, T, p, first, count):
    bot = _ps(S)[p, SEAT.BOT]
    if bot == RANDOM_BOT:
        return _random_pick(S, p, count)
    if bot == HEURISTIC_BOT:
        return _heuristic_choice(S, R, M, p, first, count)
    if bot in SEARCHERS:
        return _search_choice(S, R, M, T, p, first, count)
    index = _scripted(S, T, p, T_CHOOSE)
    if not 0 <= index < count:
        raise TapeError()
    return index


@njit(**_COMPILED)
def _heuristic_choice(S, R, M, p, first, count):
    """HeuristicBot.choose: the option worth most as it would apply now (the first of equals)."""
    g, ps, res = _g(S), _ps(S), _res(S)
    h = ps[p, SEAT.PERSONA]
    mp = _mp(R, M, h)
    n = g[GAME.PLAYERS]
    others = _ints(S)[INTS.OTHERS]
    k = 0
    if not g[GAME.CHOOSING]:
        for step in range(1, n):
            q = (p + step) % n
            guide = ps[q, SEAT.GUIDE]
            if not ps[q, SEAT.ELIM] and guide >= 0 and guide != OUT:
                others[k] = q
                k += 1
    options = _options(R)
    upto = 0
    for o in range(first, first + count):
        upto = max(upto, options[o])
    _value_lists(S, R, M, h, p, others, k, _bonus_of(S, R, p), upto)
    holding = mp[PERSONA.STAR] * res[p, STARS] + mp[PERSONA.COIN] * res[p, COINS]
    vals = _vals(S)
    best, best_at = 0.0, -1
    for i in range(count):
        v = vals[options[first + i]]
        value = _split(mp, v[0], v[2], v[3]) + _hearts_worth(mp, res[p, HEARTS] + v[1], holding) + mp[PERSONA.KNIFE] * v[4]
        if best_at < 0 or value > best:
            best, best_at = value, i
    return best_at


@njit(**_COMPILED)
def _decide_target(S, R, M, T, p, candidates, n, first, count):
    bot = _ps(S)[p, SEAT.BOT]
    if bot == RANDOM_BOT:
        return candidates[_random_pick(S, p, n)]
    if bot == HEURISTIC_BOT:
        return _heuristic_target(S, R, M, p, candidates, n, first, count)
    if bot in SEARCHERS:
        return _search_target(S, R, M, T, p, candidates, n, first, count)
    seat = _scripted(S, T, p, T_TARGET)
    for i in range(n):
        if candidates[i] == seat:
            return seat
    raise TapeError()


@njit(**_COMPILED)
def _heuristic_target(S, R, M, p, candidates, n, first, count):
    """HeuristicBot.target: the victim giving most, more for knocking it out or for a leader (the first of equals)."""
    mp = _mp(R, M, _ps(S)[p, SEAT.PERSONA])
    res, pairs = _res(S), _pairs(R)
    best, best_seat = 0.0, -1
    for i in range(n):
        q = candidates[i]
        value = 0.0
        knocked = False
        for k in range(first, first + count):
            r, amount = pairs[k, 0], pairs[k, 1]
            weight = mp[PERSONA.COIN] if r == COINS else mp[PERSONA.HEART] if r == HEARTS else mp[PERSONA.STAR]
            value = value + weight * min(amount, res[q, r])
            if r == HEARTS and amount >= res[q, HEARTS]:
                knocked = True
        value = value + (2.0 * mp[PERSONA.STAR] if knocked else 0.0) + 0.1 * mp[PERSONA.STAR] * res[q, STARS]
        if best_seat < 0 or value > best:
            best, best_seat = value, q
    return best_seat


# --- the round ------------------------------------------------------------------------------------------------------


@njit(**_COMPILED)
def _market_action(S, R, M, T, A, p, tape):
    """Buy one face-up card or discard one (rules 8 and 9); the flash card bought, whose effects are due, or -1."""
    g, market = _g(S), _market(S)
    if g[GAME.DEPTH]:
        if g[GAME.CHAINED] >= MAX_CHAINED:
            return -1
        g[GAME.CHAINED] += 1
    _refill(S, R, T, tape)
    if not g[GAME.MARKET]:
        return -1
    acts, cards, offered = _ints(S)[INTS.ACTS], _ints(S)[INTS.CARDS], _offered(S)
    n = 0
    coins = _res(S)[p, COINS]
    cost = _cost(R)
    for action in range(2):
        for i in range(g[GAME.MARKET]):
            c = market[i]
            seen = False
            for j in range(i):
                if market[j] == c:
                    seen = True
            if seen or (action == 0 and cost[c] > coins):
                continue
            if action == 0 and not offered[c]:  # the first time in this game some seat could buy it
                offered[c] = 1
                A[c, CARD_SUMS.OFFERED] += 1
            acts[n], cards[n] = action, c
            n += 1
    pick = _decide_market(S, R, M, T, p, acts, cards, n)
    return _take(S, R, T, A, p, acts[pick], cards[pick], tape)


@njit(**_COMPILED)
def _take(S, R, T, A, p, action, c, tape):
    """Carry out a market move (engine.Game.take): ``action`` 0 buys card ``c``, 1 discards it; the flash card bought,
    whose effects are due, or -1."""
    g, market, cost = _g(S), _market(S), _cost(R)
    _log(S, L_BUY if action == 0 else L_DISCARD, p, c)
    at = 0
    while market[at] != c:
        at += 1
    for i in range(at, g[GAME.MARKET] - 1):
        market[i] = market[i + 1]
    g[GAME.MARKET] -= 1
    discard = _discard(S)
    if action == 1:
        discard[g[GAME.DISCARD]] = c
        g[GAME.DISCARD] += 1
        A[c, CARD_SUMS.DISCARDED] += 1
        _refill(S, R, T, tape)
        return -1
    _lose(S, p, COINS, cost[c])
    _bought(S)[p, c] += 1
    A[c, CARD_SUMS.BOUGHT] += 1
    A[c, CARD_SUMS.ROUNDS] += g[GAME.ROUND]
    A[c, CARD_SUMS.SQUARES] += g[GAME.ROUND] * g[GAME.ROUND]
    if _kind(R)[c] == FLASH:
        discard[g[GAME.DISCARD]] = c
        g[GAME.DISCARD] += 1
    else:
        ps, tab = _ps(S), _tab(S)
        tab[p, ps[p, SEAT.TAB]] = c
        ps[p, SEAT.TAB] += 1
    _refill(S, R, T, tape)
    return c if _kind(R)[c] == FLASH else -1


@njit(**_INLINED)
def _push(S, lst, p, kind, saved, repeat):
    g, stack = _g(S), _stack(S)
    f = g[GAME.SP]
    if f >= STACK:
        raise RuntimeError("effects nested too deeply for the batch engine")
    stack[f, 0], stack[f, 1], stack[f, 2], stack[f, 3], stack[f, 4], stack[f, 5] = lst, 0, p, kind, saved, repeat
    g[GAME.SP] = f + 1


@njit(**_COMPILED)
def _others_after(S, p, out):
    """The other participants still in the game, in turn order from ``p``'s left."""
    g, ps, part = _g(S), _ps(S), _part(S)
    n = g[GAME.PLAYERS]
    k = 0
    for step in range(1, n):
        q = (p + step) % n
        if ps[q, SEAT.ELIM]:
            continue
        for i in range(g[GAME.PART]):
            if part[i] == q:
                out[k] = q
                k += 1
                break
    return k


# --- the effect kinds' batch forms -----------------------------------------------------------------------------
# Each kind with a batch form writes it in its own module (EffectKind.batch_form) from the parts below; the four
# dispatches that call them by a row's first number are generated here from the registry, so no kind is named here
# and none can have a row without its branch.


def _compiled(function):
    """A batch form's function (or a helper of one), compiled as a function of its own and called from the kernel
    functions that use it (LLVM does not inline it across Numba's libraries: the random bots pay about 8 % for the
    call, see ``benchmarks/README.md``). Not with Numba's own inlining (``inline="always"``): inlining these closures
    made the batch engine play other games than the interpreter (the ``if`` form's ``apply`` never pushed its branch
    once its ``held`` helper was inlined into it)."""
    return register_jitable(_nrt=False)(function)


#: What a batch form may use (see :class:`~workbench.games.chance_it.effects.Kernel`).
PARTS = Kernel(
    GAME=GAME, SEAT=SEAT, RULE=RULE, PERSONA=PERSONA, INTS=INTS, FLOATS=FLOATS,
    game=_g, res=_res, seats=_ps, participants=_part, dice=_dice, pending=_pending, ints=_ints, floats=_floats,
    values=_vals, pairs=_pairs, options=_options, conditions=_conds, card_list=_list, persona=_mp,
    gain=_gain, lose=_lose, settle=_settle, transfer=_transfer, others_after=_others_after,
    push=_push, FRAME_PLAIN=F_PLAIN, FRAME_REPEAT=F_REPEAT, FRAME_FLASH=F_FLASH, market_action=_market_action,
    test=_test, reroll=_reroll, bonus_of=_bonus_of, sort=_sort, log=_log, LOG_CHOICE=L_CHOOSE, LOG_TARGET=L_TARGET,
    decide_choice=_decide_choice, decide_target=_decide_target, rob=_rob,
    taken=_taken, split=_split, worth=_worth6, bonus_gain=_bonus_gain, compiled=_compiled,
)  # fmt: skip


def batch_forms(parts: Kernel = PARTS) -> dict[str, tuple[EffectKind, BatchForm]]:
    """Every registered kind's batch form over ``parts``, by tag in the registry's order, each with every function its
    placement asks (a form that lacks one is refused, naming the kind)."""
    forms = {}
    for tag, kind in REGISTRY.items():
        form = kind.batch_form(parts)
        if form is None:
            continue
        missing = [part for part in kind.batch_parts if getattr(form, part) is None]
        if missing:
            raise TypeError(f"the batch form of the effect kind '{tag}' has no {' or '.join(missing)}")
        forms[tag] = (kind, form)
    return forms


#: The kinds the kernel plays, by tag, with their forms: the registry's when the kernel was loaded.
FORMS = batch_forms()
#: Each kind's number: the first number of its rows (``program.py`` writes them).
OPS = {tag: op for op, tag in enumerate(FORMS)}
#: What the dispatches below are made of (each kind's number, tag and module), as a number the compiled code keeps.
_MADE_OF = "\n".join(f"{OPS[tag]} {tag} {type(kind).__module__}" for tag, (kind, _) in FORMS.items())
FORMS_KEY = int.from_bytes(hashlib.sha256(_MADE_OF.encode()).digest()[:7])


@njit(**_COMPILED)
def compiled_forms():
    """The :data:`FORMS_KEY` this machine code was compiled with. Numba's cache does not see the registry: a cache
    compiled by a process that registered other kinds (a kind registered in one process only) answers another key."""
    return FORMS_KEY


_DISPATCH = """
def dispatch(op, {params}):
{branches}
    if not 0 <= op < {kinds}:
        raise RuntimeError("an effect row of no kind")
"""


def _dispatch(params, functions):
    """One compiled function calling ``functions[op]`` (by a row's first number) with ``params``: an ``if`` a kind,
    written out (Numba calls a function only by name). A kind of another placement does nothing there: a die effect
    in a list being valued, for instance (the bots value it with its face)."""
    branches = "".join(f"    if op == {op}:\n        form_{op}({params})\n        return\n" for op in functions)
    scope = {f"form_{op}": _compiled(function) for op, function in functions.items()}
    exec(_DISPATCH.format(params=params, branches=branches, kinds=len(OPS)), scope)  # source made above, of numbers
    return register_jitable(inline="always", _nrt=False)(scope["dispatch"])  # inlined: a call an effect costs 20 %


def _by_number(part, placement, forms=FORMS):
    """The function ``part`` of every form whose kind is of ``placement`` (a :class:`PlayerEffect`, ...), by number."""
    return {OPS[tag]: getattr(form, part) for tag, (kind, form) in forms.items() if isinstance(kind, placement)}


#: What an ``apply`` is called with (``who``: a seat, or for a die effect the face being resolved).
_APPLY = "S, R, M, T, A, who, a, b, c, d, e, tape"


def apply_dispatches(forms: dict[str, tuple[EffectKind, BatchForm]]) -> tuple[Any, Any]:
    """The two apply dispatches of ``forms``: a player effect's and a die effect's."""
    return _dispatch(_APPLY, _by_number("apply", PlayerEffect, forms)), _dispatch(_APPLY, _by_number("apply", DieEffect, forms))


_apply, _apply_die = apply_dispatches(FORMS)
_value = _dispatch("S, R, M, h, p, others, n_others, bonus, v, a, b, c, d, e", _by_number("value", PlayerEffect))
_value_passive = _dispatch("S, R, M, h, p, out, a, b, c, d, e", _by_number("value", PassiveEffect))


@njit(**_COMPILED)
def _run(S, R, M, T, A, top, who, tape):
    """Apply effect list ``top`` (engine.Round.apply) for seat ``who``, or with ``EACH`` for every participant still
    in the game, in turn order (each checked when its turn comes, as the board is applied); nested lists run on the
    frame stack."""
    lists = _lists(R)
    if not lists[top, 1]:
        return
    g, ps, stack, part, items = _g(S), _ps(S), _stack(S), _part(S), _items(R)
    for turn in range(g[GAME.PART] if who == EACH else 1):
        player = part[turn] if who == EACH else who
        if who == EACH and ps[player, SEAT.ELIM]:
            continue
        base = g[GAME.SP]
        _push(S, top, player, F_PLAIN, 0, 0)
        while g[GAME.SP] > base:
            f = g[GAME.SP] - 1
            cur, pos, p = stack[f, 0], stack[f, 1], stack[f, 2]
            if pos >= lists[cur, 1] or ps[p, SEAT.ELIM]:
                if stack[f, 3] == F_REPEAT and stack[f, 5] > 1 and not ps[p, SEAT.ELIM]:
                    stack[f, 5] -= 1
                    stack[f, 1] = 0
                    continue
                g[GAME.SP] = f
                if stack[f, 3] == F_FLASH:
                    g[GAME.KEPT] = stack[f, 4]
                    g[GAME.DEPTH] -= 1
                    if not g[GAME.DEPTH]:
                        g[GAME.CHAINED] = 0
                continue
            stack[f, 1] = pos + 1
            k = lists[cur, 0] + pos
            _apply(
                items[k, 0], S, R, M, T, A, p, items[k, 1], items[k, 2], items[k, 3], items[k, 4], items[k, 5], tape
            )  # fmt: skip


@njit(**_COMPILED)
def _use(S, R, M, T, A, p, c, tape):
    """Use card ``c``; True when it stays unused this round (a failed chance test said ``on_fail: keep``)."""
    _g(S)[GAME.KEPT] = 0
    _run(S, R, M, T, A, _list(R)[c], p, tape)
    return _g(S)[GAME.KEPT] != 0


@njit(**_COMPILED)
def _pick_card(S, R, M, T, p, eligible, n):
    """The tableau position of the card to use among ``n`` eligible positions; the player chooses between ids."""
    tab = _tab(S)
    distinct = _ints(S)[INTS.DISTINCT]
    at = _ints(S)[INTS.AT]
    k = 0
    for i in range(n):
        c = tab[p, eligible[i]]
        seen = False
        for j in range(k):
            if distinct[j] == c:
                seen = True
        if not seen:
            distinct[k], at[k] = c, eligible[i]
            k += 1
    if k == 1:
        return eligible[0]
    pick = _decide_use(S, R, M, T, p, distinct, k)
    _log(S, L_USE, p, distinct[pick])
    return at[pick]


@njit(**_INLINED)
def _roll(S, R, T, tape):
    g, dice = _g(S), _dice(S)
    count = R[0][RULE.DICE]
    if g[GAME.ROLLED]:  # a search bot's sampled future replays the round being played: its dice are rolled
        g[GAME.ROLLED] = 0
    elif tape:
        rolls = _tsec(T, 1)
        for i in range(count):
            dice[i] = rolls[g[GAME.T_ROUND] * count + i]
    else:
        for i in range(count):
            dice[i] = _below(S[2], S_ROLL, R[0][RULE.SIDES]) + 1
    _log(S, L_ROUND, g[GAME.ROUND], 0)
    for i in range(count):
        _log(S, L_ROLL, dice[i], 0)
    _sort(dice, count)


@njit(**_INLINED)
def _turn_order(S, out):
    """The living seats clockwise from the starting player."""
    g, ps = _g(S), _ps(S)
    n = g[GAME.PLAYERS]
    k = 0
    for step in range(n):
        q = (g[GAME.START] + step) % n
        if not ps[q, SEAT.ELIM]:
            out[k] = q
            k += 1
    return k


@njit(**_COMPILED)
def _play_round(S, R, M, T, A, tape):
    g, res, ps = _g(S), _res(S), _ps(S)
    ri = R[0]
    n = g[GAME.PLAYERS]
    g[GAME.ROUND] += 1
    _roll(S, R, T, tape)
    # rules 2 and 3: guides
    g[GAME.CHOOSING] = 1
    for p in range(n):
        if not ps[p, SEAT.ELIM]:
            ps[p, SEAT.GUIDE] = _decide_guide(S, R, M, T, A, p, ps[p, SEAT.FORCED_IN] != 0)
            _log(S, L_GUIDE, p, ps[p, SEAT.GUIDE])
    g[GAME.CHOOSING] = 0
    chancers = 0
    for p in range(n):
        if not ps[p, SEAT.ELIM] and ps[p, SEAT.GUIDE] == CHANCE_IT:
            chancers += 1
    forced = chancers >= ri[RULE.FORCED_AFTER]
    for p in range(n):
        if ps[p, SEAT.ELIM]:
            continue
        ps[p, SEAT.PICKS + ps[p, SEAT.GUIDE]] += 1
        if ps[p, SEAT.FORCED_IN]:
            ps[p, SEAT.FORCED_ROUNDS] += 1
        ps[p, SEAT.FORCED_IN] = 1 if forced and ps[p, SEAT.GUIDE] == CHANCE_IT else 0
    if _stakes(S, R, M, T, A, tape) and _action_round(S, R, M, T, A, tape):
        _chance_it_action(S, R, M, T, A, tape)
    trajectory = A[R[0][RULE.CARDS] :]
    r = g[GAME.ROUND]
    if r < trajectory.shape[0]:
        for p in range(n):
            if not ps[p, SEAT.ELIM]:
                trajectory[r, 0] += res[p, 0]
                trajectory[r, 1] += res[p, 1]
                trajectory[r, 2] += res[p, 2]
                trajectory[r, 3] += 1
        trajectory[r, 4] += 1
    if g[GAME.END] < 0:
        if g[GAME.ROUND] >= ri[RULE.MAX_ROUNDS]:
            _finish(S, R, ENDED_MAX)
        else:
            for step in range(1, n + 1):
                q = (g[GAME.START] + step) % n
                if not ps[q, SEAT.ELIM]:
                    g[GAME.START] = q
                    break


@njit(**_COMPILED)
def _stakes(S, R, M, T, A, tape):
    """Pay and collect the stakes (rule 4); True when an action round follows."""
    g, ps, part = _g(S), _ps(S), _part(S)
    order = _ints(S)[INTS.ORDER]
    alive = _turn_order(S, order)
    outs = 0
    for i in range(alive):
        if ps[order[i], SEAT.GUIDE] == OUT:
            outs += 1
    ins = alive - outs
    if not ins:
        for i in range(alive):
            part[i] = order[i]
        g[GAME.PART] = alive
        for i in range(alive):
            _run(S, R, M, T, A, R[0][RULE.ALL_OUT], order[i], tape)
        _step_done(S, R)
        return False
    if outs:
        take = _out_sheet(R)[alive][outs - 1]
        for i in range(alive):
            p = order[i]
            if ps[p, SEAT.GUIDE] == OUT:
                ps[p, SEAT.RECEIVED] += _gain(S, R, p, COINS, take)
    pay = _in_sheet(R)[alive][ins - 1]
    k = 0
    for i in range(alive):
        p = order[i]
        if ps[p, SEAT.GUIDE] == OUT:
            continue
        coins = _lose(S, p, COINS, pay)
        hearts = _lose(S, p, HEARTS, pay - coins) if pay > coins else 0
        ps[p, SEAT.PAID] += coins
        ps[p, SEAT.PAID_HEARTS] += hearts
        _settle(S, p)
    for i in range(alive):
        p = order[i]
        if ps[p, SEAT.GUIDE] != OUT and not ps[p, SEAT.ELIM]:
            part[k] = p
            k += 1
    g[GAME.PART] = k
    return _step_done(S, R)


@njit(**_COMPILED)
def _action_round(S, R, M, T, A, tape):
    """Resolve the dice in ascending face order (rules 5 to 9); True when play goes on."""
    g, ps, tab, used, part, dice, pending = _g(S), _ps(S), _tab(S), _used(S), _part(S), _dice(S), _pending(S)
    items, lists = _items(R), _lists(R)
    count = R[0][RULE.DICE]
    n = g[GAME.PLAYERS]
    for j in range(g[GAME.PART]):
        p = part[j]
        used[p, :] = 0
        ps[p, SEAT.OWNED] = ps[p, SEAT.TAB]
    for i in range(count):
        pending[i] = dice[i]
    g[GAME.PENDING] = count
    eligible = _ints(S)[INTS.ELIGIBLE]
    card_face = _face(R)
    while g[GAME.PENDING]:
        if g[GAME.LIVING] < n:
            out = True
            for j in range(g[GAME.PART]):
                if not ps[part[j], SEAT.ELIM]:
                    out = False
            if out:
                break
        face = pending[0]
        for i in range(g[GAME.PENDING] - 1):
            pending[i] = pending[i + 1]
        g[GAME.PENDING] -= 1
        _run(S, R, M, T, A, _board(R)[face], EACH, tape)
        # rule 7: each participant uses at most one eligible die card
        for j in range(g[GAME.PART]):
            p = part[j]
            if ps[p, SEAT.ELIM] or not ps[p, SEAT.TAB]:
                continue
            m = 0
            for i in range(ps[p, SEAT.OWNED]):
                if card_face[tab[p, i]] == face and not used[p, i]:
                    eligible[m] = i
                    m += 1
            if m:
                index = _pick_card(S, R, M, T, p, eligible, m)
                used[p, index] = 1
                if _use(S, R, M, T, A, p, tab[p, index], tape):
                    used[p, index] = 0
        steps = _die_steps(R)[face]
        for k in range(lists[steps, 0], lists[steps, 0] + lists[steps, 1]):  # the face's die effects
            _apply_die(
                items[k, 0], S, R, M, T, A, face, items[k, 1], items[k, 2], items[k, 3], items[k, 4], items[k, 5], tape
            )  # fmt: skip
        if not _step_done(S, R):
            return False
    return True


@njit(**_COMPILED)
def _chance_it_action(S, R, M, T, A, tape):
    """Rule 10: each CHANCE IT player takes the action, then may use one CHANCE IT card."""
    g, ps, tab, part = _g(S), _ps(S), _tab(S), _part(S)
    eligible = _ints(S)[INTS.ELIGIBLE]
    for j in range(g[GAME.PART]):
        p = part[j]
        if ps[p, SEAT.ELIM] or ps[p, SEAT.GUIDE] != CHANCE_IT:
            continue
        _run(S, R, M, T, A, R[0][RULE.CHANCE_IT], p, tape)
        if ps[p, SEAT.ELIM]:
            continue
        m = 0
        for i in range(ps[p, SEAT.TAB]):
            if _kind(R)[tab[p, i]] == CHANCE_CARD:
                eligible[m] = i
                m += 1
        if m:
            index = _pick_card(S, R, M, T, p, eligible, m)
            _use(S, R, M, T, A, p, tab[p, index], tape)
    _step_done(S, R)


# --- games --------------------------------------------------------------------------------------------------------


@njit(**_COMPILED)
def _setup(S, R, T, players, seed, index, tape):
    g, res, ps, pile, supply, peak, dry, bought = _g(S), _res(S), _ps(S), _pile(S), _supply(S), _peak(S), _dry(S), _bought(S)
    ri, start, total, deck = R[0], _start(R), _total(R), _deck(R)
    g[:] = 0
    g[GAME.END] = -1
    g[GAME.PLAYERS] = players
    g[GAME.LIVING] = players
    ps[:] = 0
    bought[:] = 0
    _offered(S)[:] = 0
    _dice(S)[:] = 0  # no dice before round 1 (a gift's effects may count them): never the last game's
    _pending(S)[:] = 0
    _floats(S)[FLOATS.GAME, 0] = 0.0
    for p in range(players):
        ps[p, SEAT.GUIDE] = -1
        for r in range(3):
            res[p, r] = start[r]
    for r in range(3):
        supply[r] = total[r] - players * start[r] if total[r] >= 0 else -1
        peak[r] = players * start[r]
        dry[r] = 0
    seeding.seed_streams(S[2], seed, np.uint64(index))  # type: ignore[arg-type]  # Numba's 64-bit words, not int
    if tape:
        for i in range(ri[RULE.DECK]):
            pile[i] = _tsec(T, 0)[i]
    else:
        for i in range(ri[RULE.DECK]):
            pile[i] = deck[i]
        _shuffle(S[2], S_DEAL, pile, ri[RULE.DECK])
    g[GAME.PILE] = ri[RULE.DECK]
    if S[3].shape[0] > 1:
        S[3][0] = 0
    for i in range(ri[RULE.DECK]):
        _log(S, L_DEAL, pile[i], 0)
    _lay_out(S, R)


@njit(**_COMPILED)
def _give(S, R, M, T, A, seat, card, coins, tape):
    """A study's gift to ``seat`` before round 1 (sim.Gift.give): coins, an extra copy of a card in its tableau, or a
    flash card's effects at once."""
    g, ps, tab, part = _g(S), _ps(S), _tab(S), _part(S)
    if coins:
        _gain(S, R, seat, COINS, coins)
    if card < 0:
        return
    if _kind(R)[card] == FLASH:
        g[GAME.PART] = _turn_order(S, part)
        _run(S, R, M, T, A, _list(R)[card], seat, tape)
        _check_end(S, R)
    else:
        tab[seat, ps[seat, SEAT.TAB]] = card
        ps[seat, SEAT.TAB] += 1


@njit(**_COMPILED)
def _record(S, R, game, og, os, ob, squares):
    g, res, ps, peak, dry, bought = _g(S), _res(S), _ps(S), _peak(S), _dry(S), _bought(S)
    og[game, GAME_OUT.ROUNDS] = g[GAME.ROUND]
    og[game, GAME_OUT.END] = g[GAME.END]
    winners = 0
    for p in range(g[GAME.PLAYERS]):
        winners += ps[p, SEAT.WON]
        os[game, p, SEAT_OUT.WON] = ps[p, SEAT.WON]
        os[game, p, SEAT_OUT.ELIM_ROUND] = ps[p, SEAT.ELIM_ROUND] if ps[p, SEAT.ELIM] else 0
        for i in range(3):
            os[game, p, SEAT_OUT.PICKS + i] = ps[p, SEAT.PICKS + i]
            os[game, p, SEAT_OUT.RES + i] = res[p, i]
        os[game, p, SEAT_OUT.FORCED] = ps[p, SEAT.FORCED_ROUNDS]
        os[game, p, SEAT_OUT.PAID] = ps[p, SEAT.PAID]
        os[game, p, SEAT_OUT.PAID_HEARTS] = ps[p, SEAT.PAID_HEARTS]
        os[game, p, SEAT_OUT.RECEIVED] = ps[p, SEAT.RECEIVED]
        os[game, p, SEAT_OUT.ELIM] = ps[p, SEAT.ELIM]
        os[game, p, SEAT_OUT.FORCED_IN] = ps[p, SEAT.FORCED_IN]
        for c in range(R[0][RULE.CARDS]):
            ob[game, p, c] = bought[p, c]
    og[game, GAME_OUT.WINNERS] = winners
    for r in range(3):
        og[game, GAME_OUT.PEAK + r] = peak[r]
        og[game, GAME_OUT.DRY + r] = dry[r]
    og[game, GAME_OUT.GAPS] = g[GAME.GAPS]
    og[game, GAME_OUT.GAPS + 1] = g[GAME.GAPS + 1]
    squares[game] = _floats(S)[FLOATS.GAME, 0]


@njit(**_COMPILED)
def play_games(
    S,
    R,
    M,
    T,
    A,
    players,
    seed,
    first,
    count,
    bots,
    personas,
    visitor_bot,
    visitor_persona,
    gift_card,
    gift_coins,
    og,
    os,
    ob,
    squares,
):
    """Play games ``first .. first + count - 1`` with the seats' ``bots`` and ``personas``; row ``i`` of the outputs is
    game ``first + i``. The visitor (``visitor_bot`` >= 0) and the gift (a card >= 0, coins) go to seat ``index % players``."""
    ps = _ps(S)
    # False, but not a constant: the round's functions are compiled once for both entry points (a constant would
    # make Numba compile every one of them again for a replay, a minute more on a first replay)
    tape = count < 0
    for i in range(count):
        index = first + i
        _setup(S, R, T, players, seed, index, tape)
        for p in range(players):
            ps[p, SEAT.BOT] = bots[p]
            ps[p, SEAT.PERSONA] = personas[p]
        seat = index % players
        if visitor_bot >= 0:
            ps[seat, SEAT.BOT] = visitor_bot
            ps[seat, SEAT.PERSONA] = visitor_persona
        if gift_card >= 0 or gift_coins:
            _give(S, R, M, T, A, seat, gift_card, gift_coins, tape)
        while _g(S)[GAME.END] < 0:
            _play_round(S, R, M, T, A, tape)
        _record(S, R, i, og, os, ob, squares)


@njit(**_COMPILED)
def replay_tape(S, R, M, T, A, players, rounds, bots, personas, og, os, ob, squares):
    """Play a scripted game of ``rounds`` rounds from the tape (every seat deciding from it, TAPE); raises TapeError
    when the script does not fit the game, and NeedReshuffle for a reshuffle it leaves to the seed."""
    g, ps = _g(S), _ps(S)
    tape = rounds >= 0  # True, but not a constant (see play_games)
    _setup(S, R, T, players, np.uint64(0), rounds - rounds, tape)
    for p in range(players):
        ps[p, SEAT.BOT] = bots[p]
        ps[p, SEAT.PERSONA] = personas[p]
    for r in range(rounds):
        if g[GAME.END] >= 0:
            raise TapeError()
        g[GAME.T_ROUND] = r
        for p in range(players):
            if (_tsec(T, 6)[r * players + p] < 0) != (ps[p, SEAT.ELIM] != 0):
                raise TapeError()
        _play_round(S, R, M, T, A, tape)
        if (
            g[GAME.T_REROLL] != _tsec(T, 3)[r + 1]
            or g[GAME.T_TEST] != _tsec(T, 5)[r + 1]
            or g[GAME.T_CHOICE] != _tsec(T, 8)[r + 1]
            or g[GAME.T_RESHUFFLE] != _tsec(T, 11)[r + 1]
        ):
            raise TapeError()
    _record(S, R, 0, og, os, ob, squares)


# --- the search bot (bots.SearchBot, ported) ----------------------------------------------------------------------
# A search bot weighs each option of a decision on ``playouts`` sampled futures, the same for every option: copies of
# the game in the lookahead state, each keyed by a number the bot draws from its stream, the face-down pile dealt anew,
# a heuristic bot of its persona in every seat, played ``depth`` rounds on, then scored. A game with a search bot has
# room for a lookahead state after its own (``batch.new_state``): views of the same arrays, so that the state of a
# future has the very type of a game's state and the functions that play it are compiled once for both. These
# functions are compiled at the search level only (:mod:`.search`), where they replace the refusals above.

#: The search bot's functions below by name, each with how it is compiled (at the search level).
SEARCHING: dict[str, tuple[Any, dict[str, Any]]] = {}
#: The refusals above by name, each with the search bot's decision that replaces it at the search level.
SEARCH_DECISIONS = {
    "_search_guide": "_lookahead_guide",
    "_search_market": "_lookahead_market",
    "_search_choice": "_lookahead_choice",
    "_search_target": "_lookahead_target",
}


def _searching(options):
    """Mark a function of the search bot's, to be compiled with ``options`` at the search level (see above)."""

    def mark(function):
        SEARCHING[function.__name__] = (function, options)
        return function

    return mark


@_searching(_INLINED)
def _lookahead(S):
    """The lookahead state in the room after a game's state (the second half of its rows and streams, a log that notes
    nothing), and its sums (the integer rows after both states)."""
    floats, streams = S[1].shape[0] // 2, S[2].shape[0] // 2
    return (S[0][ROW.SIZE : 2 * ROW.SIZE], S[1][floats:], S[2][streams:], S[3][:1], S[4]), S[0][2 * ROW.SIZE :]


@_searching(_COMPILED)
def _future(S, p, key):
    """The sampled future keyed ``key`` for seat ``p`` (engine.View.sample, SearchBot._future): the game copied into
    the lookahead state, outside any round (rewound to the round's start while guides are chosen), every seat taking
    part and played by the heuristic of ``p``'s persona, its chance keyed ``key`` and its face-down pile dealt anew."""
    F = _lookahead(S)[0]
    have, copy = S[0], F[0]
    for i in range(ROW.STACK):  # everything but the effect stack, which a future starts empty
        for j in range(have.shape[1]):
            copy[i, j] = have[i, j]
    g, ps = _g(F), _ps(F)
    g[GAME.SP], g[GAME.KEPT], g[GAME.DEPTH], g[GAME.CHAINED], g[GAME.PENDING] = 0, 0, 0, 0, 0
    if g[GAME.CHOOSING]:
        g[GAME.ROUND] -= 1
        g[GAME.CHOOSING] = 0
    h = ps[p, SEAT.PERSONA]
    for q in range(g[GAME.PLAYERS]):
        ps[q, SEAT.GUIDE] = -1
        ps[q, SEAT.BOT] = HEURISTIC_BOT
        ps[q, SEAT.PERSONA] = h
    g[GAME.PART] = _turn_order(F, _part(F))
    seeding.seed_streams(F[2], key, np.uint64(0))  # type: ignore[arg-type]  # Numba's 64-bit words, not int
    _shuffle(F[2], S_DEAL, _pile(F), g[GAME.PILE])
    return F


@_searching(_INLINED)
def _lead(res, q):
    """A living seat's lead on stars, hearts and coins, as bots.score weighs it."""
    return 0.5 * (res[q, STARS] + 0.3 * min(res[q, HEARTS], 6) + 0.05 * res[q, COINS])


@_searching(_COMPILED)
def _score(S, p):
    """bots.score: ``p``'s share of the win (1/k among k winners), or of a softmax of the living's leads when the game
    goes on (added in seat order)."""
    g, ps, res = _g(S), _ps(S), _res(S)
    n = g[GAME.PLAYERS]
    if g[GAME.END] >= 0:
        if not ps[p, SEAT.WON]:
            return 0.0
        winners = 0
        for q in range(n):
            winners += ps[q, SEAT.WON]
        return 1 / winners
    if ps[p, SEAT.ELIM]:
        return 0.0
    top = _lead(res, p)
    for q in range(n):
        if not ps[q, SEAT.ELIM] and _lead(res, q) > top:
            top = _lead(res, q)
    total, mine = 0.0, 0.0
    for q in range(n):
        if not ps[q, SEAT.ELIM]:
            strength = np.exp(_lead(res, q) - top)
            total += strength
            if q == p:
                mine = strength
    return mine / total


@_searching(_COMPILED)
def _play_on(S, R, M, T, p):
    """The future in the lookahead state played ``depth`` rounds on (SearchBot._play_on, the depth of ``p``'s
    persona)."""
    F, sums = _lookahead(S)
    for _ in range(int(_mp(R, M, _ps(S)[p, SEAT.PERSONA])[PERSONA.DEPTH])):
        if _g(F)[GAME.END] >= 0:
            break
        _play_round(F, R, M, T, sums, p < 0)
    return F


@_searching(_INLINED)
def _this_round(S, F, R, M, T, p):
    """The future ``F`` plays the round being chosen from its start, with its dice (its seats' first guides set)."""
    _g(F)[GAME.ROLLED] = 1
    _play_round(F, R, M, T, _lookahead(S)[1], p < 0)


#: What a search bot weighs: a guide, a market move, an effect choice's option, a victim.
W_GUIDE, W_MARKET, W_CHOICE, W_TARGET = range(4)
#: No choice's first option or robbery's pairs: a typed 0, not a literal one. A literal argument would have the
#: kernel's own functions (``_rob``) compiled again for its type, at the search level, into the batch engine's cache,
#: which then no longer matches its manifest and is compiled again (tests/test_batch.py checks it does not).
NONE = np.int64(0)


@_searching(_INLINED)
def _try(S, F, R, M, T, p, weighing, i, a, b, first, count):
    """Option ``i`` of a decision of ``p``'s, taken in the future ``F`` (``a``, ``b``: the market moves' actions and
    cards, ``a`` the victims; ``first``: the choice's first option, or the robbery's ``count`` pairs' first)."""
    sums = _lookahead(S)[1]
    if weighing == W_GUIDE:  # the round played from its start with its dice, ``p`` playing guide ``i``
        _ps(F)[p, SEAT.BOT], _ps(F)[p, SEAT.FIRST] = FIRST_GUIDE, i
        _this_round(S, F, R, M, T, p)
        return
    if weighing == W_MARKET:
        flash = _take(F, R, T, sums, p, a[i], b[i], p < 0)
        if flash >= 0:
            _run(F, R, M, T, sums, _list(R)[flash], p, p < 0)
    elif weighing == W_CHOICE:
        _run(F, R, M, T, sums, _options(R)[first + i], p, p < 0)
    else:
        _rob(F, R, a[i], p, first, count)
    _check_end(F, R)


@_searching(_COMPILED)
def _weigh(S, R, M, T, p, weighing, n, a, b, first, count):
    """SearchBot._best: the option of ``n`` whose futures score most for ``p`` (the first of equals), each option
    tried (:func:`_try`) on the same ``playouts`` futures: their keys drawn again from the bot's stream for each."""
    if n == 1:
        return 0
    k = S_BOTS + p
    start = S[2][k]
    best, most = 0, 0.0
    for i in range(n):
        S[2][k] = start
        total = 0.0
        for _ in range(int(_mp(R, M, _ps(S)[p, SEAT.PERSONA])[PERSONA.PLAYOUTS])):
            F = _future(S, p, seeding.draw(S[2], k))
            _try(S, F, R, M, T, p, weighing, i, a, b, first, count)
            total += _score(_play_on(S, R, M, T, p), p)
        if not i or total > most:
            best, most = i, total
    return best


@_searching(_COMPILED)
def _lookahead_guide(S, R, M, T, A, p):
    """SearchBot.guide: each guide played from the start of this round (its dice) on the same futures; an equilibrium
    bot's guide is drawn from its mixed strategy (:func:`_equilibrium_guide`)."""
    if _ps(S)[p, SEAT.BOT] == EQUILIBRIUM_BOT:
        return _equilibrium_guide(S, R, M, T, p)
    ints = _ints(S)
    return _weigh(S, R, M, T, p, W_GUIDE, 3, ints[INTS.ACTS], ints[INTS.CARDS], NONE, NONE)


@_searching(_COMPILED)
def _lookahead_market(S, R, M, T, p, acts, cards, n):
    """SearchBot.market: every legal move made on the same futures (a bought flash card's effects applied)."""
    return _weigh(S, R, M, T, p, W_MARKET, n, acts, cards, NONE, NONE)


@_searching(_COMPILED)
def _lookahead_choice(S, R, M, T, p, first, count):
    """SearchBot.choose: each option's effects applied on the same futures."""
    ints = _ints(S)
    return _weigh(S, R, M, T, p, W_CHOICE, count, ints[INTS.ACTS], ints[INTS.CARDS], first, NONE)


@_searching(_COMPILED)
def _lookahead_target(S, R, M, T, p, candidates, n, first, count):
    """SearchBot.target: each candidate robbed on the same futures."""
    return candidates[_weigh(S, R, M, T, p, W_TARGET, n, candidates, candidates, first, count)]


# --- the equilibrium bot (bots.EquilibriumBot, ported) ------------------------------------------------------------
# Its guide: every joint choice of the living seats played from the round's start on the same ``samples`` futures,
# each seat's scores added up (the room ``S[4]``, laid out by ``layout.JOINT``), then regret matching over them.


@_searching(_INLINED)
def _picked(picked, choices, m, j):
    """Joint choice ``j`` as each living seat's pick (itertools.product's order: the last seat's changes fastest)."""
    rest = j
    for i in range(m - 1, -1, -1):
        picked[i] = rest % choices[i]
        rest //= choices[i]


@_searching(_COMPILED)
def _joint_payoffs(S, R, M, T, p, living, choices, m, joints):
    """EquilibriumBot.payoffs: each joint choice's row of the room gets each living seat's scores, added over the
    sampled futures (keyed by numbers drawn once from ``p``'s stream)."""
    E, picked = S[4], _ints(S)[INTS.PICKED]
    for j in range(joints):
        for i in range(m):
            E[JOINT_PAID + j, i] = 0.0
    for _ in range(int(_mp(R, M, _ps(S)[p, SEAT.PERSONA])[PERSONA.SAMPLES])):
        key = seeding.draw(S[2], S_BOTS + p)
        for j in range(joints):
            F = _future(S, p, key)
            _picked(picked, choices, m, j)
            for i in range(m):
                _ps(F)[living[i], SEAT.BOT], _ps(F)[living[i], SEAT.FIRST] = FIRST_GUIDE, picked[i]
            _this_round(S, F, R, M, T, p)
            F = _play_on(S, R, M, T, p)
            for i in range(m):
                E[JOINT_PAID + j, i] += _score(F, living[i])


@_searching(_COMPILED)
def _regret_matching(S, choices, m, joints, iterations):
    """bots.regret_matching over the room's payoffs, operation for operation: each living seat's summed strategy is
    left in its ``JOINT.SUM`` row."""
    E, picked = S[4], _ints(S)[INTS.PICKED]
    for i in range(m):
        for a in range(3):
            E[JOINT.SIZE * i + JOINT.REGRET, a] = 0.0
            E[JOINT.SIZE * i + JOINT.SUM, a] = 0.0
    for _ in range(iterations):
        for i in range(m):
            regret, strategy = E[JOINT.SIZE * i + JOINT.REGRET], E[JOINT.SIZE * i + JOINT.STRATEGY]
            positive = 0.0
            for a in range(choices[i]):
                positive += regret[a] if regret[a] > 0.0 else 0.0
            for a in range(choices[i]):
                strategy[a] = (regret[a] if regret[a] > 0.0 else 0.0) / positive if positive > 0.0 else 1.0 / choices[i]
                E[JOINT.SIZE * i + JOINT.VALUE, a] = 0.0
        for j in range(joints):
            _picked(picked, choices, m, j)
            for i in range(m):
                weight = 1.0
                for o in range(m):
                    if o != i:
                        weight *= E[JOINT.SIZE * o + JOINT.STRATEGY, picked[o]]
                E[JOINT.SIZE * i + JOINT.VALUE, picked[i]] += weight * E[JOINT_PAID + j, i]
        for i in range(m):
            block = JOINT.SIZE * i
            got = 0.0
            for a in range(choices[i]):
                got += E[block + JOINT.STRATEGY, a] * E[block + JOINT.VALUE, a]
            for a in range(choices[i]):
                E[block + JOINT.REGRET, a] += E[block + JOINT.VALUE, a] - got
                E[block + JOINT.SUM, a] += E[block + JOINT.STRATEGY, a]


@_searching(_COMPILED)
def _equilibrium_guide(S, R, M, T, p):
    """EquilibriumBot.guide: ``p``'s average strategy of regret matching over the joint choices' payoffs, a guide drawn
    from it with one number from ``p``'s stream (bots.drawn)."""
    g, ps, ints = _g(S), _ps(S), _ints(S)
    living, choices = ints[INTS.LIVING], ints[INTS.CHOICES]
    m, joints, me = 0, 1, 0
    for q in range(g[GAME.PLAYERS]):
        if not ps[q, SEAT.ELIM]:
            if q == p:
                me = m
            living[m], choices[m] = q, 1 if ps[q, SEAT.FORCED_IN] else 3
            joints *= choices[m]
            m += 1
    _joint_payoffs(S, R, M, T, p, living, choices, m, joints)
    iterations = int(_mp(R, M, ps[p, SEAT.PERSONA])[PERSONA.ITERATIONS])
    _regret_matching(S, choices, m, joints, iterations)
    u = (seeding.draw(S[2], S_BOTS + p) >> np.uint64(11)) * 2.0**-53
    running, last = 0.0, 0
    for a in range(3):
        share = S[4][JOINT.SIZE * me + JOINT.SUM, a] / iterations
        if share > 0.0:
            last = a
            running += share
            if u < running:
                return a
    return last
