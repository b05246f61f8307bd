"""What an effect kind is: the parts every kind supplies, and the contexts they are given.

A kind is one class (see :class:`EffectKind`) in its own module of this package. It
says, in one place, how its effect is written (a pydantic model and its tag), checked,
compiled for the engine, applied (emitting typed events), valued by the heuristic bot,
printed (card text and icons) and drawn by the Hypothesis strategies. Everything that
handles effects is built from the registry in :mod:`workbench.games.chance_it.effects`;
nothing knows a kind by name.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import TypeAdapter

from workbench.games.chance_it.basics import RESOURCES
from workbench.models import KeyPath

if TYPE_CHECKING:
    import icepool
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round

#: Where a kind may be written: in any list of effects, only directly on a board face, or only on a passive card.
Placement = Literal["anywhere", "board", "passive"]
#: The expected outcome of effects for the heuristic bot: coins, hearts, stars (the player's own),
#: market actions, hearts the other players lose, dice rerolled.
Vector = tuple[float, float, float, float, float, float]
ZERO: Vector = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
#: A compiled effect: a function of the kind (called as ``apply(round, player or face, argument)``) and its argument.
Compiled = tuple[Callable[..., None], Any, "EffectKind"]
Effects = tuple[Compiled, ...]

_NOUNS = {"coins": ("coin", "coins"), "hearts": ("heart", "hearts"), "stars": ("star", "stars")}


def add(a: Vector, b: Vector, times: float = 1.0) -> Vector:
    """``a + times * b``."""
    return (
        a[0] + b[0] * times,
        a[1] + b[1] * times,
        a[2] + b[2] * times,
        a[3] + b[3] * times,
        a[4] + b[4] * times,
        a[5] + b[5] * times,
    )


def added(values: Iterable[float]) -> float:
    """Floats added left to right, as the batch engine adds them (from Python 3.12 ``sum`` compensates, which can
    change the last bit of a bot's estimate and so, at a tie, its choice).

    >>> added([0.1, 0.2, 0.3]) == (0.1 + 0.2) + 0.3
    True
    """
    total = 0.0
    for value in values:
        total += value
    return total


def amount(count: int, resource: str) -> str:
    """A number of a resource, singular or plural.

    >>> amount(1, "hearts"), amount(2, "stars")
    ('1 heart', '2 stars')
    """
    singular, plural = _NOUNS[resource]
    return f"{count} {singular if abs(count) == 1 else plural}"


def join(words: Sequence[str], last: str = "and") -> str:
    """Words joined as English lists them.

    >>> join(["a"]), join(["a", "b"]), join(["a", "b", "c"], "or")
    ('a', 'a and b', 'a, b or c')
    """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


@cache
def success_chance(roll: int, sides: int, bonus: int = 0) -> Fraction:
    """The exact chance that a chance test succeeds: one die plus ``bonus``, held within 1..sides, shows ``roll`` or more.

    The one function behind every chance figure: the odds on printed cards, ``workbench odds`` and the bots' estimates.

    >>> success_chance(4, 6), success_chance(4, 6, 1), success_chance(6, 6, 9), success_chance(2, 6, -2)
    (Fraction(1, 2), Fraction(2, 3), Fraction(1, 1), Fraction(1, 2))
    """
    import icepool  # exact odds only: kept out of the start-up of commands that never compute them

    held = (icepool.d(sides) + bonus).clip(1, sides)
    return Fraction((held >= roll).probability(True))


def chance_percent(roll: int, sides: int, bonus: int = 0) -> int:
    """The chance, in whole percent, that a chance test succeeds (see :func:`success_chance`).

    >>> chance_percent(4, 6), chance_percent(5, 6), chance_percent(1, 6)
    (50, 33, 100)
    """
    return round(100 * success_chance(roll, sides, bonus))


#: What ``workbench odds`` adds up for one participant: the parts of an exact outcome vector.
OUTCOME = ("coins", "hearts gained", "hearts lost", "stars", "market actions")


def outcome(**parts: int) -> icepool.Die:
    """A certain outcome (one vector of :data:`OUTCOME`, by name with spaces as underscores) as an icepool die."""
    import icepool

    names = [name.replace(" ", "_") for name in OUTCOME]
    return icepool.Die([icepool.Vector(tuple(parts.get(name, 0) for name in names))])


# --- the contexts a kind is given ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """Where an effect stands, for the checks a kind makes beyond its model."""

    sides: int  #: faces of the dice
    face: int | None  #: the board face, for an effect written directly on the board
    #: the list it is in (nested lists included): ``die`` (a die card), ``card`` (a flash or CHANCE IT card),
    #: ``passive``, ``board``, ``all_out`` or ``chance_it`` (the action), as for :class:`Words`
    where: str = "card"
    dice: int = 1  #: dice rolled each round
    #: how many times the effects around it may apply it for one application of the list it stands in
    repeat: int = 1


@dataclass(frozen=True)
class Compiler:
    """What :meth:`EffectKind.compile` may use: the dice, and the compiler of nested lists."""

    sides: int
    effects: Callable[[Sequence[Any]], Effects]


@dataclass(frozen=True)
class Batch:
    """What :meth:`EffectKind.batch` may use to write its row for the batch engine (:mod:`..batch.program`).

    A row is the kind's number in the engine (the writer puts it first) and up to five whole
    numbers, which the kind's batch form reads back (:class:`BatchForm`); nested lists,
    (resource, amount) pairs, ``choose`` options and ``if`` conditions go into tables of
    their own and the row holds where (first index and count, or a list's id).
    """

    list: Callable[[Effects], int]  #: a nested list of compiled effects -> its id
    amounts: Callable[[Sequence[tuple[int, int]]], tuple[int, int]]  #: (resource, amount) pairs -> (first, count)
    lists: Callable[[Sequence[Effects]], tuple[int, int]]  #: several nested lists (choose's options) -> (first, count)
    conditions: Callable[[Sequence[tuple[int, int, int, int]]], tuple[int, int]]  #: ``if`` conditions -> (first, count)


#: A compiled function of the batch engine (Numba's), called from a batch form.
Part = Callable[..., Any]
#: One of the kernel's arrays (or a view of one), as a batch form's functions take them: Numba types them when it
#: compiles the kernel, so the annotation only names them.
Arrays = Any


@dataclass(frozen=True)
class Kernel:
    """What a kind's batch form may use: the batch engine's compiled parts (:mod:`..batch.kernel` gives them).

    A batch form is plain Python that the kernel compiles with Numba, over the kernel's arrays:
    ``S`` the state, ``R`` the rules, ``M`` the bots' value models, ``T`` a replay's tape, ``A``
    the sums. Bind the parts it uses to local names before defining its functions (Numba
    compiles what a function closes over as constants). The layouts are named tuples of offsets
    (:mod:`..batch.layout`): ``game(S)[GAME.KEPT]``, ``seats(S)[p, SEAT.ELIM]``.
    """

    GAME: Any  #: the game's scalars
    SEAT: Any  #: a seat's fields
    RULE: Any  #: the rules' scalars (``R[0]``)
    PERSONA: Any  #: a persona's scalars
    INTS: Any  #: rows of the integer scratch
    FLOATS: Any  #: rows of the float scratch
    game: Part  #: ``(S)``: the game's scalars
    res: Part  #: ``(S)``: each seat's coins, hearts and stars
    seats: Part  #: ``(S)``: each seat's fields
    participants: Part  #: ``(S)``: this round's participants, in turn order (``game(S)[GAME.PART]`` of them)
    dice: Part  #: ``(S)``: this round's dice, in order (``R[0][RULE.DICE]`` of them)
    pending: Part  #: ``(S)``: the faces still to be resolved this round, in order (``game(S)[GAME.PENDING]`` of them)
    ints: Part  #: ``(S)``: the integer scratch
    floats: Part  #: ``(S)``: the float scratch
    values: Part  #: ``(S)``: each effect list's expected outcome (6 numbers a list, as :data:`Vector`), valued bottom-up
    pairs: Part  #: ``(R)``: the (resource, amount) pairs of :attr:`Batch.amounts`
    options: Part  #: ``(R)``: the list ids of :attr:`Batch.lists`
    conditions: Part  #: ``(R)``: the rows of :attr:`Batch.conditions`
    card_list: Part  #: ``(R)``: each card's list of effects
    persona: Part  #: ``(R, M, h)``: persona ``h``'s scalars
    gain: Part  #: ``(S, R, p, r, n)``: seat ``p`` takes ``n`` of resource ``r`` from the supply (what is left); what it took
    lose: Part  #: ``(S, p, r, n)``: seat ``p`` loses ``n`` of ``r`` (what it has) to the supply; what it lost
    settle: Part  #: ``(S, p)``: seat ``p`` is out when it has no hearts left
    transfer: Part  #: ``(S, R, giver, taker, r, n)``: ``n`` of ``r`` change hands (what the giver has); how many
    others_after: Part  #: ``(S, p, out)``: the other participants still in, in turn order from ``p``'s left; how many
    push: Part  #: ``(S, list, p, frame, saved, times)``: run effect list ``list`` for ``p`` next, in a frame of a kind:
    FRAME_PLAIN: int  #: the list once
    FRAME_REPEAT: int  #: the list ``times`` times
    FRAME_FLASH: int  #: a bought flash card's effects (``saved``: the kept flag to restore after them)
    market_action: Part  #: ``(S, R, M, T, A, p, tape)``: ``p``'s market action; the flash card it bought, or -1
    test: Part  #: ``(S, R, T, tape)``: a chance test's die
    reroll: Part  #: ``(S, R, T, tape)``: a rerolled die
    bonus_of: Part  #: ``(S, R, p)``: seat ``p``'s chance bonus (its passive cards' modifiers)
    sort: Part  #: ``(a, n)``: sort ``a[:n]`` in place
    log: Part  #: ``(S, code, a, b)``: note a decision in a recorded game's log (:attr:`LOG_CHOICE`, :attr:`LOG_TARGET`)
    LOG_CHOICE: int  #: seat ``a`` chose option ``b``
    LOG_TARGET: int  #: seat ``a`` chose seat ``b``
    decide_choice: Part  #: ``(S, R, M, T, p, first, count)``: which of ``count`` options (from ``options(R)[first]``) ``p`` takes
    decide_target: Part  #: ``(S, R, M, T, p, candidates, n, first, count)``: which candidate ``p`` takes the pairs from
    rob: Part  #: ``(S, R, victim, p, first, count)``: ``victim`` gives ``p`` each pair (what it has, while it has hearts), then is out without hearts
    taken: Part  #: ``(R, first, count, holder, out)``: what ``holder`` can give of each pair (at most what it has)
    split: Part  #: ``(mp, coins, stars, markets)``: what those are worth to persona scalars ``mp``
    worth: Part  #: ``(mp, v)``: what an outcome of 6 numbers is worth to persona scalars ``mp``
    bonus_gain: Part  #: ``(S, R, M, h, p, bonus, out)``: what a chance bonus adds per round to ``p``'s tableau
    #: A helper of a batch form, compiled as a function of its own (never with Numba's ``inline="always"``: inlining
    #: such a closure into a form miscompiled the ``if`` form, see :mod:`..batch.kernel`).
    compiled: Callable[[Callable[..., Any]], Callable[..., Any]]


@dataclass(frozen=True)
class BatchForm:
    """A kind's batch form: the functions the kernel compiles for it (see :class:`Kernel`), as its placement asks
    (:attr:`EffectKind.batch_parts`); ``a .. e`` are the numbers its row holds (:meth:`EffectKind.batch`).

    - ``apply(S, R, M, T, A, who, a, b, c, d, e, tape)``: apply it for seat ``who`` (a player effect), or to the
      die of face ``who`` being resolved (a die effect); ``tape`` is true in a replay;
    - ``value(S, R, M, h, p, others, n_others, bonus, v, a, b, c, d, e)`` (a player effect): add its expected outcome
      for seat ``p`` as persona ``h`` to ``v`` (6 numbers), the others being ``others[:n_others]`` and the chance
      bonus ``bonus``, as :meth:`EffectKind.value` with a position does;
    - ``value(S, R, M, h, p, out, a, b, c, d, e)`` (a passive effect): write its expected outcome per round to
      ``out``, for seat ``p`` as persona ``h``.
    """

    apply: Callable[..., None] | None = None
    value: Callable[..., None] | None = None


@dataclass(frozen=True)
class Words:
    """What :meth:`EffectKind.text` and :meth:`EffectKind.icons` may use.

    ``where`` is ``die`` (a die card), ``card`` (a flash or CHANCE IT card), ``passive``,
    ``board``, ``all_out`` or ``chance_it`` (the action).
    """

    sides: int
    where: str
    text_of: Callable[[Any, Words], str]
    icons_of: Callable[[Any, Words], list[tuple[str, str]]]

    def text(self, effects: Sequence[Any], joiner: str = ", ") -> str:
        """A list of effects as one line; empty for none."""
        return joiner.join(self.text_of(effect, self) for effect in effects)

    def icons(self, effects: Sequence[Any]) -> list[tuple[str, str]]:
        """The icons of a list of effects, in order."""
        return [icon for effect in effects for icon in self.icons_of(effect, self)]

    def change(self, amounts: Sequence[tuple[str, int]], sign: str) -> str:
        """A gain (``sign`` ``+``) or a loss (``-``) of resources: signed on a card or the board, beside its icons
        (``+1 heart``); in words where everybody OUT is told what to do, on the stakes sheet and in the rules
        (``lose 1 heart``: a signed amount there read either way round)."""
        if self.where == "all_out":
            return ("gain " if sign == "+" else "lose ") + resources_text(amounts, joiner=" and ")
        return resources_text(amounts, sign)

    def others(self) -> str:
        """Who "the others" are here: every other player in the round, or at the table for an all-OUT round."""
        return "every other player" if self.where == "all_out" else "every other player in the round"


@dataclass(frozen=True)
class Position:
    """The moment an effect would apply, when the bot knows it (an effect decision): values are then exact where they can be."""

    have: tuple[int, ...]  #: the player's coins, hearts and stars
    others: tuple[tuple[int, ...], ...]  #: the other participants' holdings, in turn order from the player's left
    dice: tuple[int, ...]  #: this round's dice as they show now

    def taken(self, amounts: Sequence[tuple[int, int]], holder: Sequence[int]) -> tuple[float, float, float]:
        """What ``holder`` can give of each (resource, amount): at most what it has."""
        delta = [0.0, 0.0, 0.0]
        for r, n in amounts:
            delta[r] += min(n, holder[r])
        return delta[0], delta[1], delta[2]


@dataclass(frozen=True)
class Valuer:
    """What :meth:`EffectKind.value` may use to estimate an effect's outcome for the heuristic bot.

    ``face`` is the die face of the card or board entry being valued (None elsewhere);
    ``bonus`` is added to chance results; ``others`` is how many other players an effect on
    "the others" reaches, on average; ``worth`` turns an outcome into one number (a persona's view).
    With a ``position`` (an effect decision: the bot knows the moment), a kind values the
    effect as it would apply now: losses held to what is held, tests and dice as they stand.
    """

    sides: int
    dice: int
    face: int | None = None
    bonus: int = 0
    others: float = 1.5
    worth: Callable[[Vector], float] = lambda v: v[0] + v[1] + v[2] + v[3]
    #: what a chance bonus of k is worth per round to its owner (the bot's estimate over the variant's chance tests)
    bonus_gain: Callable[[int], Vector] = dataclasses.field(default=lambda bonus: ZERO, repr=False)
    position: Position | None = None

    def of(self, effects: Effects) -> Vector:
        """The expected outcome of a nested list of compiled effects (each valued by its kind)."""
        total = ZERO
        for _, argument, kind in effects:
            total = add(total, kind.value(argument, self))
        return total

    def success(self, need: int) -> float:
        """The chance that one die, plus ``bonus`` and held within 1..sides, shows ``need`` or more."""
        return float(success_chance(need, self.sides, self.bonus))

    def showing(self, face: int) -> float:
        """How many dice of a round show ``face``: now, with a position; else on average (given one does, on its own face)."""
        if self.position is not None:
            return self.position.dice.count(face)
        sides, dice = self.sides, self.dice
        mean = dice / sides
        if face == self.face:
            return mean / (1 - ((sides - 1) / sides) ** dice)
        return mean


@dataclass(frozen=True)
class Exact:
    """What :meth:`EffectKind.exact` may use: the dice, and the exact outcome of a nested list (None when not exact)."""

    sides: int
    of: Callable[[Effects], icepool.Die | None]


@dataclass(frozen=True)
class Drawing:
    """What :meth:`EffectKind.strategy` may use to draw an effect as plain data (the YAML a designer writes)."""

    sides: int
    depth: int  #: how many more levels of nested effect lists may follow
    amounts: SearchStrategy[dict[str, int]]  #: a non-empty mapping of resources to amounts
    lists: Callable[[int], SearchStrategy[list[Any]]]  #: lists of effects one level down, of at most n entries
    face: int | None = None  #: the board face, when drawing an effect written directly on the board
    where: str = "card"  #: the list drawn for (see :class:`Site`): ``die`` for a die card's


# --- events ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectEvent(ABC):
    """An event an effect emits: a small typed record, logged as ``{"round", "type", **fields()}``."""

    type: ClassVar[str]
    seat: int

    def fields(self) -> dict[str, Any]:
        """The event's fields as the log and ``replay --json`` show them."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> EffectEvent:
        """The event back from its logged fields."""
        return cls(**{f.name: fields[f.name] for f in dataclasses.fields(cls)})

    @abstractmethod
    def text(self) -> str:
        """The event as the trace prints it (after "round N: ")."""


# --- the kinds -------------------------------------------------------------------------------------------------


class EffectKind(ABC):
    """One kind of effect, and everything about it. Subclass :class:`PlayerEffect`, :class:`DieEffect` or :class:`PassiveEffect`."""

    #: The effect's name in YAML: the one key of its mapping, or the bare word of a named effect.
    tag: ClassVar[str]
    #: Its pydantic model, or ``Literal["<tag>"]`` for an effect written as a bare name.
    model: ClassVar[Any]
    #: Where it may be written.
    placement: ClassVar[Placement] = "anywhere"
    #: Why it may be written only there (for the message when it is elsewhere).
    placement_reason: ClassVar[str] = ""
    #: The events its ``apply`` emits.
    events: ClassVar[tuple[type[EffectEvent], ...]] = ()
    #: The icons it adds to the printed set: name -> SVG drawing on a 24 x 24 view box (``{label}`` is replaced).
    drawings: ClassVar[dict[str, str]] = {}
    #: What it does, in a line (the effect table of docs/reference/files.md).
    meaning: ClassVar[str]
    #: The functions its batch form supplies (:class:`BatchForm`), as its placement asks.
    batch_parts: ClassVar[tuple[str, ...]] = ()
    #: An example as a designer writes it, and where (``die``, ``card``, ``passive`` or ``board``), for docs and tests.
    example: ClassVar[Any]
    example_where: ClassVar[str] = "card"

    @cached_property
    def adapter(self) -> TypeAdapter[Any]:
        """Validates a written effect into the model."""
        return TypeAdapter(self.model)

    def children(self, effect: Any) -> Iterator[tuple[KeyPath, tuple[Any, ...]]]:
        """The nested lists of effects inside ``effect``, each with its key path below the effect."""
        return iter(())

    def check(self, effect: Any, key: KeyPath, site: Site) -> Iterator[tuple[KeyPath, str]]:
        """Problems the model cannot see alone (faces against the dice): (key path, message)."""
        return iter(())

    @abstractmethod
    def compile(self, effect: Any, compiler: Compiler) -> Any:
        """The argument its ``apply`` is called with: plain values, nested lists compiled."""

    @abstractmethod
    def batch(self, argument: Any, batch: Batch) -> tuple[int, ...] | None:
        """The compiled effect's row for the batch engine: up to five whole numbers (nested lists through ``batch``),
        which its :meth:`batch_form` reads back; None when the engine has no form for it: a variant using it is then
        played by the interpreter, which ``--engine auto`` says (and ``--engine batch`` refuses)."""

    def batch_form(self, kernel: Kernel) -> BatchForm | None:
        """Its compiled form in the batch engine, from the kernel's parts: the functions :attr:`batch_parts` names,
        playing it rule for rule as :meth:`apply` and :meth:`value` do (``tests/test_batch.py`` plays both engines
        and compares). None when :meth:`batch` writes no row."""
        return None

    @abstractmethod
    def value(self, argument: Any, valuer: Valuer) -> Vector:
        """The expected outcome of the compiled effect, for the heuristic bot."""

    @abstractmethod
    def exact(self, argument: Any, exact: Exact) -> icepool.Die | None:
        """The exact outcome of the compiled effect for the player it applies to, as an icepool die over vectors of
        :data:`OUTCOME` (amounts as written, with no chance bonus); None when it depends on the table (the other
        players, the player's holdings, a decision), which ``workbench odds`` then says."""

    @abstractmethod
    def text(self, effect: Any, words: Words) -> str:
        """The effect as the card, board or rule summary prints it."""

    @abstractmethod
    def icons(self, effect: Any, words: Words) -> list[tuple[str, str]]:
        """Its icons: (drawing name, small label); ``("word", text)`` prints a word between icons."""

    @abstractmethod
    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        """A Hypothesis strategy of valid effects of this kind as plain data (``nothing()`` where none fits)."""

    def rule_note(self, effect: Any) -> str | None:
        """A sentence the rule summary adds when a variant has this effect (None: nothing to add)."""
        return None

    def repeats(self, effect: Any, site: Site) -> int:
        """How many times, at most, one application applies each of its nested lists (``for_each``: once per die)."""
        return 1

    def reusable(self, effect: Any) -> bool:
        """Whether the effect may leave its die card unused this round, to fire again for a later die of its face."""
        return False


class PlayerEffect(EffectKind):
    """An effect applied for one player, wherever it is written (the common kind)."""

    #: The functions of its batch form (see :class:`BatchForm`).
    batch_parts: ClassVar[tuple[str, ...]] = ("apply", "value")

    @staticmethod
    @abstractmethod
    def apply(rnd: Round, player: Player, argument: Any) -> None:
        """Apply the compiled effect for ``player`` in the round in progress."""


class DieEffect(EffectKind):
    """An effect of a board face that acts once per die of that face, after the die cards (not per player)."""

    placement = "board"
    batch_parts: ClassVar[tuple[str, ...]] = ("apply",)

    @staticmethod
    @abstractmethod
    def apply(rnd: Round, face: int, argument: Any) -> None:
        """Act on the die of ``face`` being resolved."""

    @abstractmethod
    def rerolls(self, argument: Any, face: int, sides: int) -> tuple[int, ...]:
        """The faces, equally likely, the die of ``face`` shows next and is resolved at again (none: it stays)."""


class PassiveEffect(EffectKind):
    """An effect of a passive card: never applied, it modifies its owner's play while the card is in the tableau."""

    placement = "passive"
    example_where = "passive"
    batch_parts: ClassVar[tuple[str, ...]] = ("value",)

    @abstractmethod
    def modifiers(self, argument: Any) -> dict[str, int]:
        """What the compiled effect adds to its owner's modifiers (such as ``{"chance_bonus": 1}``)."""


def resources_text(amounts: Sequence[tuple[str, int]], sign: str = "", joiner: str = ", ") -> str:
    """Amounts as text: ``+1 heart, +2 coins`` (with ``sign``) or ``1 heart and 2 coins``."""
    return joiner.join(f"{sign}{amount(n, r)}" for r, n in amounts)


def resource_icons(amounts: Sequence[tuple[str, int]], sign: str) -> list[tuple[str, str]]:
    """One icon per resource with its signed amount."""
    return [(r[:-1], f"{sign}{n}") for r, n in amounts]


def indexed(amounts: Mapping[Any, int] | Sequence[tuple[str, int]]) -> tuple[tuple[int, int], ...]:
    """Amounts as (resource index, amount) pairs, in the order written."""
    pairs = amounts.items() if isinstance(amounts, Mapping) else amounts
    return tuple((RESOURCES.index(r), n) for r, n in pairs)
