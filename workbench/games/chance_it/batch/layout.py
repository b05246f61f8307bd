"""Where everything is in the batch engine's arrays: each region's fields, declared once by name (and width).

A layout is a named tuple of offsets (``GAME.ROUND``, ``SEAT.PICKS``) ending with ``SIZE``,
read the same way by the kernel (Numba folds a global named tuple's fields into constants)
and by the Python that fills and reads the arrays. A field wider than one number says so
(``PICKS:3``) and the next field starts after it. Nothing here imports Numba: an effect
kind's batch form reads these through the kernel's parts (:class:`..effects.Kernel`).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any, cast

#: Seats at most (the schema's ``players.max``): the state's regions per seat have this many rows.
MAXP = 12
#: Frames of the effect stack (nested lists in progress).
STACK = 1024


def fields(name: str, spec: str) -> Any:
    """The offsets of ``spec``'s fields, in order, each as wide as it says (one when it does not), and ``SIZE``.

    >>> fields("Seat", "ELIM PICKS:3 PAID")
    Seat(ELIM=0, PICKS=1, PAID=4, SIZE=5)
    """
    names, offsets, at = [], [], 0
    for item in spec.split():
        field, _, width = item.partition(":")
        names.append(field)
        offsets.append(at)
        at += int(width or 1)
    made: Any = cast(Any, namedtuple)(name, [*names, "SIZE"])  # a class per layout, its fields from the spec
    return made(*offsets, at)


#: The rules' scalars (the rules array's row 0).
RULE = fields("Rule", "DICE SIDES FORCED_AFTER FACE_UP RESHUFFLE END_STARS MAX_ROUNDS DECK CARDS ALL_OUT CHANCE_IT TIES")
#: The regions of the rules array (its row 1 says where each starts and how many rows it has).
REGION = fields("Region", "START TOTAL OUT IN TIEBREAK FACES ITEMS PAIRS LISTS OPTIONS CONDS CARDS DECK")
#: A card's row in the rules' ``CARDS`` region.
CARD = fields("Card", "KIND FACE COST LIST BONUS PASSIVE")
#: A game's scalars (the state's ``ROW.G``); the ``T_*`` fields are where a replay's tape is read up to; ``ROLLED``
#: says that a search bot's sampled future replays the round being played (its dice are rolled).
GAME = fields(
    "Game",
    "ROUND START LIVING STARS_REACHED END KEPT DEPTH CHAINED PILE MARKET DISCARD CHOOSING PART PENDING SP PLAYERS "
    "T_ROUND T_REROLL T_TEST T_CHOICE T_RESHUFFLE T_EXTRA GAPS:2 ROLLED",
)
#: A seat's fields (a row of the state's ``ROW.PS``); ``FIRST``: the guide a seat of a sampled future plays first.
SEAT = fields(
    "Seat", "ELIM FORCED_IN GUIDE PICKS:3 FORCED_ROUNDS PAID PAID_HEARTS RECEIVED ELIM_ROUND TAB OWNED BOT PERSONA WON FIRST"
)
#: A persona's scalars in the bots' value models (as ``model.model_arrays`` fills them; a search bot's playouts and
#: depth, an equilibrium bot's samples and iterations).
PERSONA = fields(
    "Persona",
    "STAR HEART COIN MIN_HEARTS DANGER CHANCE_IT HORIZON RESERVE MARKET KNIFE REROLL_WORTH REROLL_KNIVES REROLL_MEAN "
    "CI_W CI_H CI_K AO_W AO_H AO_K PLAYOUTS DEPTH SAMPLES ITERATIONS",
)
#: What a game leaves in the results (a row per game).
GAME_OUT = fields("GameOut", "ROUNDS END WINNERS PEAK:3 DRY:3 GAPS:2")
#: What a game leaves per seat.
SEAT_OUT = fields("SeatOut", "WON ELIM_ROUND PICKS:3 FORCED PAID PAID_HEARTS RECEIVED RES:3 ELIM FORCED_IN")
#: Rows of the integer scratch (``LIVING``, ``CHOICES``, ``PICKED``: the equilibrium bot's living seats, how many guides
#: each may pick, a joint choice's picks).
INTS = fields("Ints", "ELIGIBLE ACTS CARDS VICTIMS ORDER DISTINCT AT OTHERS COUNTED LIVING CHOICES PICKED")
#: Rows of the float scratch (the effect lists' values follow them).
FLOATS = fields("Floats", "VALUES CHANCES LEVEL LEVEL0 V TOTAL T GOT GAME")
#: Rows of the integer state: the game's scalars, a row per seat of each per-seat region, the shared rows (``OFFERED``:
#: per card, whether some seat could buy it in this game), the scratch, the effect stack.
ROW = fields(
    "Row",
    f"G RES:{MAXP} PS:{MAXP} TAB:{MAXP} USED:{MAXP} BOUGHT:{MAXP} PILE MARKET DISCARD SUPPLY PEAK DRY DICE PENDING PART "
    f"OFFERED INTS:{INTS.SIZE} STACK:{STACK}",
)
#: A card's row of the sums over a block of games (the kernel's ``A``; the trajectory by round follows the cards):
#: purchases, the sum of their rounds and of their squares, discards, and the games in which some seat could buy it.
CARD_SUMS = fields("CardSums", "BOUGHT ROUNDS SQUARES DISCARDED OFFERED")
#: The equilibrium bot's room (the state's ``S[4]``): a block of rows per living seat (its regrets, strategy, summed
#: strategy and values, one column per guide), then from ``JOINT_PAID`` a row per joint choice of the living seats
#: (what each is paid, a column per living seat).
JOINT = fields("Joint", "REGRET STRATEGY SUM VALUE")
JOINT_PAID = JOINT.SIZE * MAXP


def joint_room(players: int) -> tuple[int, int]:
    """The shape of the equilibrium bot's room at a table of ``players``: room for every joint choice (3 guides a
    seat)."""
    return JOINT_PAID + 3**players, max(players, 3)
