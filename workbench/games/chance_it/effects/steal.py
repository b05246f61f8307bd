"""``steal``: resources move from other players in the round to the player, never through the supply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import Field, PrivateAttr, model_serializer, model_validator

from workbench.games.chance_it.basics import HEARTS, RESOURCES
from workbench.games.chance_it.effects.base import (
    ZERO,
    Arrays,
    Batch,
    BatchForm,
    Compiler,
    Drawing,
    EffectEvent,
    Exact,
    Kernel,
    PlayerEffect,
    Valuer,
    Vector,
    Words,
    added,
    amount,
    indexed,
    join,
    resource_icons,
)
from workbench.games.chance_it.effects.gain import signed
from workbench.models import Count, Model

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Game, Player, Round

Victims = Literal["each", "richest", "choose"]
#: Whom a steal takes from, in the batch engine's numbering.
VICTIMS: tuple[str, ...] = get_args(Victims)

HAND = """
  <path d="M5 21V12.5C5 11.4 6.6 11.4 6.6 12.5V15M6.6 13V7.2C6.6 6.1 8.4 6.1 8.4 7.2V13M8.4 12V5.6C8.4 4.5 10.2 4.5 10.2 5.6V12M10.2 12.2V6.6C10.2 5.5 12 5.5 12 6.6V15.4C13.2 13.6 15.2 12.6 16 13.6C16.4 14.1 14.6 16.4 13.4 18.4C12.2 20.4 10.8 21 9 21Z" fill="#f3d2b3" stroke="#6b4226" stroke-width="1.1" stroke-linejoin="round"/>
  <path d="M15.5 3.5H21.5M19 1L21.5 3.5L19 6" fill="none" stroke="#c0392b" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round" transform="rotate(180 18.5 3.5)"/>
"""


class StealBody(Model):
    """What is stolen, in the order listed, and from whom."""

    coins: Count = Field(0, description="Coins taken from each victim (what it has, at most).")
    hearts: Count = Field(0, description="Hearts taken from each victim; a victim left without hearts is out.")
    stars: Count = Field(0, description="Stars taken from each victim.")
    from_: Victims = Field(
        "each",
        alias="from",
        description=(
            "each: every other player in the round; richest: the one holding the most of the first resource listed "
            "(ties: the first in turn order after you); choose: one of them, your choice."
        ),
    )
    _order: tuple[str, ...] = PrivateAttr(())

    @model_validator(mode="wrap")
    @classmethod
    def in_order(cls, data: Any, handler: Any) -> StealBody:
        """Remember the order the resources are listed in (it picks the richest and the order of taking)."""
        body: StealBody = handler(data)
        if isinstance(data, dict):
            body._order = tuple(key for key in data if key in RESOURCES)
        if not body._order:
            raise ValueError("name at least one resource to steal, for example {coins: 1}")
        return body

    @model_serializer(mode="wrap")
    def listed_first(self, handler: Any) -> dict[str, Any]:
        """Write the resources back in the order they were listed."""
        data: dict[str, Any] = handler(self)
        first = [key for key in self._order if key in data]
        return {**{key: data[key] for key in first}, **{key: value for key, value in data.items() if key not in first}}

    @property
    def amounts(self) -> list[tuple[str, int]]:
        """(resource, amount) in the order listed."""
        return [(r, getattr(self, r)) for r in self._order]


class Steal(Model):
    """Take resources from other players in the round."""

    steal: StealBody


@dataclass(frozen=True)
class Stole(EffectEvent):
    """What one victim gave the player."""

    type = "steal"
    victim: int
    amounts: dict[str, int]

    def fields(self) -> dict[str, Any]:
        return {"seat": self.seat, "victim": self.victim, **self.amounts}

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Stole:
        return cls(fields["seat"], fields["victim"], {r: n for r, n in fields.items() if r in RESOURCES})  # in the order taken

    def text(self) -> str:
        return f"seat {self.seat} steals {signed(self.amounts, signed=False)} from seat {self.victim}"


def rob(game: Game, player: Player, victim: Player, amounts: tuple[tuple[int, int], ...]) -> None:
    """``victim`` gives ``player`` what it has of each resource, up to its amount, in the order listed.

    Left without hearts it is out at once (rule 12): it gives nothing more, what it still holds goes to the supply.
    """
    taken = {RESOURCES[r]: game.transfer(victim, player, r, n) if victim.res[HEARTS] else 0 for r, n in amounts}
    if game.events is not None:
        game.emit(Stole(player.seat, victim.seat, taken))
    game.settle(victim)


class StealKind(PlayerEffect):
    tag = "steal"
    model = Steal
    events = (Stole,)
    drawings = {"steal": HAND}
    meaning = (
        "Take resources from other players in the round (each gives what it has, up to the amount), never through the "
        "supply; `from: each` (default), `richest` (most of the first resource listed) or `choose` (a decision). "
        "A victim left without hearts is out at once."
    )
    example = {"steal": {"coins": 1}}

    def compile(self, effect: Steal, compiler: Compiler) -> tuple[str, tuple[tuple[int, int], ...]]:
        return effect.steal.from_, indexed(effect.steal.amounts)

    def batch(self, argument: tuple[str, tuple[tuple[int, int], ...]], batch: Batch) -> tuple[int, ...]:
        victims, amounts = argument
        return (*batch.amounts(amounts), VICTIMS.index(victims))

    def batch_form(self, kernel: Kernel) -> BatchForm:
        rob, pairs, res, taken, ints, floats = kernel.rob, kernel.pairs, kernel.res, kernel.taken, kernel.ints, kernel.floats
        others_after, decide_target, log, persona, split = (
            kernel.others_after,
            kernel.decide_target,
            kernel.log,
            kernel.persona,
            kernel.split,
        )
        INTS, FLOATS, PERSONA, LOG_TARGET = kernel.INTS, kernel.FLOATS, kernel.PERSONA, kernel.LOG_TARGET
        FROM_EACH, FROM_RICHEST, FROM_CHOSEN = (VICTIMS.index(victims) for victims in ("each", "richest", "choose"))

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            at, held, victims = pairs(R), res(S), ints(S)[INTS.VICTIMS]
            n = others_after(S, p, victims)
            if n:
                if c == FROM_RICHEST:
                    first = at[a, 0]
                    pick = 0
                    for j in range(1, n):
                        if held[victims[j], first] > held[victims[pick], first]:
                            pick = j
                    victims[0] = victims[pick]
                    n = 1
                elif c == FROM_CHOSEN:
                    victims[0] = decide_target(S, R, M, T, p, victims, n, a, b)
                    log(S, LOG_TARGET, p, victims[0])
                    n = 1
                for j in range(n):
                    rob(S, R, victims[j], p, a, b)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            if n_others:
                held, t, mp = res(S), floats(S)[FLOATS.T], persona(R, M, h)
                best = -1.0
                g0, g1, g2 = 0.0, 0.0, 0.0
                if c == FROM_EACH:
                    for o in range(n_others):
                        taken(R, a, b, held[others[o]], t)
                        g0, g1, g2 = g0 + t[0], g1 + t[1], g2 + t[2]
                elif c == FROM_RICHEST:
                    first = pairs(R)[a, 0]
                    pick = 0
                    for o in range(1, n_others):
                        if held[others[o], first] > held[others[pick], first]:
                            pick = o
                    taken(R, a, b, held[others[pick]], t)
                    g0, g1, g2 = t[0], t[1], t[2]
                else:
                    for o in range(n_others):
                        taken(R, a, b, held[others[o]], t)
                        w = split(mp, t[0], t[2], 0.0) + mp[PERSONA.HEART] * t[1] + mp[PERSONA.KNIFE] * t[1]
                        if o == 0 or w > best:
                            best = w
                            g0, g1, g2 = t[0], t[1], t[2]
                v[0], v[1], v[2], v[4] = v[0] + g0, v[1] + g1, v[2] + g2, v[4] + g1

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, argument: tuple[str, tuple[tuple[int, int], ...]]) -> None:
        victims, amounts = argument
        candidates = rnd.others_after(player)
        if not candidates:
            return
        if victims == "richest":
            first = amounts[0][0]
            candidates = [max(candidates, key=lambda other: other.res[first])]  # the first of the richest in turn order
        elif victims == "choose":
            candidates = [rnd.decide_target(player, candidates, amounts)]
        for victim in candidates:
            rob(rnd.game, player, victim, amounts)

    def value(self, argument: tuple[str, tuple[tuple[int, int], ...]], valuer: Valuer) -> Vector:
        victims, amounts = argument
        position = valuer.position
        if position is not None:  # what the victims in the round would give now
            if not position.others:
                return ZERO
            each = [position.taken(amounts, other) for other in position.others]
            if victims == "each":
                got = tuple(added(column) for column in zip(*each))
            elif victims == "richest":
                first = amounts[0][0]
                got = each[max(range(len(each)), key=lambda i: (position.others[i][first], -i))]
            else:
                got = max(each, key=lambda g: valuer.worth((g[0], g[1], g[2], 0.0, g[1], 0.0)))
            return (got[0], got[1], got[2], 0.0, got[1], 0.0)
        reach = valuer.others if victims == "each" else min(1.0, valuer.others)
        delta = [0.0, 0.0, 0.0]
        for r, n in amounts:
            delta[r] += n * reach
        return (delta[0], delta[1], delta[2], 0.0, delta[1], 0.0)

    def exact(self, argument: tuple[str, tuple[tuple[int, int], ...]], exact: Exact) -> None:
        return None  # what it takes depends on the other players in the round and what they hold

    def text(self, effect: Steal, words: Words) -> str:
        body = effect.steal
        what = join([amount(n, r) for r, n in body.amounts])
        table = "" if words.where == "all_out" else " in the round"
        if body.from_ == "each":
            return f"steal {what} from each other player{table}"
        if body.from_ == "richest":
            return f"steal {what} from the other player{table} with the most {body.amounts[0][0]}"
        return f"steal {what} from another player{table} (you choose who)"

    def icons(self, effect: Steal, words: Words) -> list[tuple[str, str]]:
        label = {"each": "", "richest": "top", "choose": "pick"}[effect.steal.from_]
        return [("steal", label), *resource_icons(effect.steal.amounts, "+")]

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        victims = st.sampled_from([{}, {"from": "each"}, {"from": "richest"}, {"from": "choose"}])
        return st.tuples(drawing.amounts, victims).map(lambda pair: {"steal": {**pair[0], **pair[1]}})
