"""``if``: ``then`` when a test holds at that moment, else ``else``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import Field, model_validator

from workbench.games.chance_it.basics import RESOURCES
from workbench.games.chance_it.effects.base import (
    ZERO,
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    Drawing,
    EffectEvent,
    Effects,
    Exact,
    Kernel,
    PlayerEffect,
    Site,
    Valuer,
    Vector,
    Words,
    add,
    amount,
    join,
)
from workbench.games.chance_it.effects.registry import Effect
from workbench.models import Count, KeyPath, Model, Positive

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round

QUESTION = """
  <circle cx="12" cy="12" r="10" fill="#fff" stroke="#2f6db5" stroke-width="1.6"/>
  <path d="M8.6 9.2C8.6 7 10.2 5.8 12.1 5.8C14 5.8 15.5 7.1 15.5 8.9C15.5 11.4 12.2 11.6 12.2 14.4" fill="none" stroke="#2f6db5" stroke-width="2" stroke-linecap="round"/>
  <circle cx="12.2" cy="17.8" r="1.3" fill="#2f6db5"/>
"""
#: The kinds of condition, as compiled: a resource of the player, dice showing a face, participants.
RESOURCE, DICE, PARTICIPANTS = range(3)
NO_LIMIT = 1 << 62


class Bounds(Model):
    """``at_least`` and/or ``at_most`` (inclusive)."""

    at_least: Count | None = Field(None, description="Holds from this many.")
    at_most: Count | None = Field(None, description="Holds up to this many.")

    @model_validator(mode="after")
    def a_range(self) -> Bounds:
        """At least one bound, and not an empty range."""
        if self.at_least is None and self.at_most is None:
            raise ValueError("give at_least and/or at_most")
        if self.at_least is not None and self.at_most is not None and self.at_least > self.at_most:
            raise ValueError(f"at_least ({self.at_least}) is above at_most ({self.at_most}): the test could never hold")
        return self

    @property
    def last(self) -> int:
        """The number the range's text ends with (for the verb's number)."""
        return self.at_most if self.at_most is not None else self.at_least or 0

    def words(self, noun: str, plural: str | None = None) -> str:
        """The range as text: ``at most 2 hearts``, ``2 to 4 hearts``."""
        low, high = self.at_least, self.at_most

        def count(n: int) -> str:
            return amount(n, noun) if plural is None else f"{n} {noun if n == 1 else plural}"

        if low is not None and high is not None:
            return count(low) if low == high else f"{low} to {count(high)}"
        return f"at least {count(low)}" if low is not None else f"at most {count(high or 0)}"


class DiceBounds(Bounds):
    """How many dice of this round show ``face`` now."""

    face: Positive = Field(description="The face counted, 1..dice.sides.")


class Test(Model):
    """Conditions that must all hold: the player's holdings, the dice showing a face, the participants."""

    coins: Bounds | None = Field(None, description="Coins the player holds.")
    hearts: Bounds | None = Field(None, description="Hearts the player holds.")
    stars: Bounds | None = Field(None, description="Stars the player holds.")
    dice: DiceBounds | None = Field(None, description="Dice of this round showing `face` now (a rerolled 1 at its new face).")
    participants: Bounds | None = Field(None, description="Participants still in the game, the player included.")

    @model_validator(mode="after")
    def some_condition(self) -> Test:
        """A test names at least one condition."""
        if all(getattr(self, name) is None for name in (*RESOURCES, "dice", "participants")):
            raise ValueError("a test needs a condition: coins, hearts, stars, dice or participants")
        return self


class IfBody(Model):
    """The test and the two branches."""

    test: Test
    then: tuple[Effect, ...] = Field((), description="Effects when the test holds.")
    else_: tuple[Effect, ...] = Field((), alias="else", description="Effects when it does not.")


class If(Model):
    """``then`` when the test holds at that moment, else ``else``."""

    if_: IfBody = Field(alias="if")


def holds(test: Sequence[tuple[int, int, int, int]], have: Sequence[int], dice: Sequence[int], participants: int) -> bool:
    """Whether every condition of a compiled test holds for holdings ``have``, ``dice`` showing now and ``participants``."""
    for kind, key, low, high in test:
        count = have[key] if kind == RESOURCE else dice.count(key) if kind == DICE else participants
        if not low <= count <= high:
            return False
    return True


@dataclass(frozen=True)
class Checked(EffectEvent):
    """Whether a player's test held."""

    type = "if"
    holds: bool
    test: str  #: the test as the card words it

    def text(self) -> str:
        return f'seat {self.seat}\'s test "{self.test}" {"holds" if self.holds else "does not hold"}'


def conditions_text(test: Test) -> str:
    """The test's conditions as the card words them: ``you have at most 2 hearts and 3 or more players are in the round``."""
    parts = [f"you have {bounds.words(r)}" for r in RESOURCES if (bounds := getattr(test, r)) is not None]
    if test.dice is not None:
        dice = test.dice
        parts.append(f"{dice.words('die', 'dice')} {'shows' if dice.last == 1 else 'show'} {dice.face}")
    if test.participants is not None:
        players = test.participants
        parts.append(f"{players.words('player', 'players')} {'is' if players.last == 1 else 'are'} in the round")
    return join(parts)


#: A compiled if: its conditions, then, else, and the test as the card words it (for the event log).
Checks = tuple[tuple[tuple[int, int, int, int], ...], Effects, Effects, str]


def conditions(test: Test) -> tuple[tuple[int, int, int, int], ...]:
    """The test as (condition kind, resource or face, at least, at most)."""
    found = []
    for index, resource in enumerate(RESOURCES):
        bounds = getattr(test, resource)
        if bounds is not None:
            found.append((RESOURCE, index, bounds.at_least or 0, NO_LIMIT if bounds.at_most is None else bounds.at_most))
    if test.dice is not None:
        found.append(
            (DICE, test.dice.face, test.dice.at_least or 0, NO_LIMIT if test.dice.at_most is None else test.dice.at_most)
        )
    if test.participants is not None:
        bounds = test.participants
        found.append((PARTICIPANTS, 0, bounds.at_least or 0, NO_LIMIT if bounds.at_most is None else bounds.at_most))
    return tuple(found)


class IfKind(PlayerEffect):
    tag = "if"
    model = If
    events = (Checked,)
    drawings = {"if": QUESTION}
    meaning = (
        "`then` when every condition of `test` holds at that moment, else `else`: the player's `coins`, `hearts`, "
        "`stars`; `dice: {face: F}` (dice of this round showing F now); `participants` (players in the action round "
        "still in the game, the player included); each with `at_least` and/or `at_most`."
    )
    example = {"if": {"test": {"hearts": {"at_most": 2}}, "then": [{"gain": {"hearts": 2}}], "else": [{"gain": {"coins": 1}}]}}
    example_where = "die"

    def children(self, effect: If) -> Iterator[tuple[KeyPath, tuple[Any, ...]]]:
        yield ("if", "then"), effect.if_.then
        yield ("if", "else"), effect.if_.else_

    def check(self, effect: If, key: KeyPath, site: Site) -> Iterator[tuple[KeyPath, str]]:
        dice = effect.if_.test.dice
        if dice is not None and not 1 <= dice.face <= site.sides:
            yield key + ("if", "test", "dice", "face"), f"no face {dice.face} on a {site.sides}-sided die"

    def compile(self, effect: If, compiler: Compiler) -> Checks:
        body = effect.if_
        return conditions(body.test), compiler.effects(body.then), compiler.effects(body.else_), conditions_text(body.test)

    def batch(self, argument: Checks, batch: Batch) -> tuple[int, ...]:
        test, then, otherwise, _ = argument
        return (*batch.conditions(test), batch.list(then), batch.list(otherwise))

    def batch_form(self, kernel: Kernel) -> BatchForm:
        game, seats, participants, res, dice, push = (
            kernel.game,
            kernel.seats,
            kernel.participants,
            kernel.res,
            kernel.dice,
            kernel.push,
        )
        conditions, values, GAME, SEAT, RULE, PLAIN = (
            kernel.conditions,
            kernel.values,
            kernel.GAME,
            kernel.SEAT,
            kernel.RULE,
            kernel.FRAME_PLAIN,
        )

        @kernel.compiled
        def held(R: Arrays, first: int, count: int, have: Arrays, shown: Arrays, participants: int) -> bool:  # holds()
            conds, ndice = conditions(R), R[0][RULE.DICE]
            for k in range(first, first + count):
                kind, key, low, high = conds[k, 0], conds[k, 1], conds[k, 2], conds[k, 3]
                if kind == RESOURCE:
                    n = have[key]
                elif kind == DICE:
                    n = 0
                    for i in range(ndice):
                        if shown[i] == key:
                            n += 1
                else:
                    n = participants
                if not low <= n <= high:
                    return False
            return True

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            g, ps, part = game(S), seats(S), participants(S)
            alive = 0
            for j in range(g[GAME.PART]):
                if not ps[part[j], SEAT.ELIM]:
                    alive += 1
            push(S, c if held(R, a, b, res(S)[p], dice(S), alive) else d, p, PLAIN, 0, 0)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            listed = values(S)
            branch = listed[c] if held(R, a, b, res(S)[p], dice(S), 1 + n_others) else listed[d]
            for i in range(6):
                v[i] = v[i] + branch[i]

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, argument: Checks) -> None:
        test, then, otherwise, said = argument
        held = holds(test, player.res, rnd.game.dice, sum(1 for p in rnd.participants if not p.eliminated))
        if rnd.game.events is not None:
            rnd.game.emit(Checked(player.seat, held, said))
        rnd.apply(then if held else otherwise, player)

    def value(self, argument: Checks, valuer: Valuer) -> Vector:
        test, then, otherwise, _ = argument
        position = valuer.position
        if position is not None:  # the test as it stands now
            return valuer.of(then if holds(test, position.have, position.dice, 1 + len(position.others)) else otherwise)
        return add(add(ZERO, valuer.of(then), 0.5), valuer.of(otherwise), 0.5)  # a test's odds are not modelled: even

    def exact(self, argument: Checks, exact: Exact) -> None:
        return None  # the test reads the player's holdings, the dice now and the round's participants

    def text(self, effect: If, words: Words) -> str:
        body = effect.if_
        text = f"if {conditions_text(body.test)}: {words.text(body.then) or 'nothing'}"
        if body.else_:
            text += f", else {words.text(body.else_)}"
        return text

    def icons(self, effect: If, words: Words) -> list[tuple[str, str]]:
        other = words.icons(effect.if_.else_)
        return [("if", ""), *words.icons(effect.if_.then), *([("word", "else"), *other] if other else [])]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        if drawing.depth <= 0:
            return st.nothing()

        @st.composite
        def bounds(draw: Any) -> dict[str, int]:
            low = draw(st.integers(0, 5))
            which = draw(st.sampled_from(["at_least", "at_most", "both"]))
            if which == "both":
                return {"at_least": low, "at_most": low + draw(st.integers(0, 3))}
            return {which: low}

        @st.composite
        def tests(draw: Any) -> dict[str, Any]:
            names = draw(st.lists(st.sampled_from([*RESOURCES, "dice", "participants"]), min_size=1, max_size=2, unique=True))
            test: dict[str, Any] = {}
            for name in names:
                test[name] = draw(bounds())
                if name == "dice":
                    test[name] = {"face": draw(st.integers(1, drawing.sides)), **test[name]}
            body: dict[str, Any] = {"test": test}
            if draw(st.booleans()):
                body["then"] = draw(drawing.lists(2))
            if draw(st.booleans()):
                body["else"] = draw(drawing.lists(2))
            return {"if": body}

        return tests()
