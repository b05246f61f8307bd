"""``choose``: the player picks one of several lists of effects (a decision)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import field_validator

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
    Valuer,
    Vector,
    Words,
)
from workbench.games.chance_it.effects.registry import Effect, words
from workbench.models import KeyPath, Model

#: A compiled choice: each option's effects, and each option as the card words it (for the event log).
Options = tuple[tuple[Effects, ...], tuple[str, ...]]

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from workbench.games.chance_it.engine import Player, Round

FORK = """
  <path d="M12 22V13M12 13L5 5M12 13L19 5" fill="none" stroke="#5e2470" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M3.6 8.6L4.4 3.9L9 4.6M15 4.6L19.6 3.9L20.4 8.6" fill="none" stroke="#5e2470" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>
"""


class Choose(Model):
    """Pick one of the listed effect lists (options numbered from 0)."""

    choose: tuple[tuple[Effect, ...], ...]

    @field_validator("choose")
    @classmethod
    def has_options(cls, options: tuple[tuple[Any, ...], ...]) -> tuple[tuple[Any, ...], ...]:
        """A choice offers at least one option."""
        if not options:
            raise ValueError("choose needs at least one option, each a list of effects: [[{gain: {hearts: 1}}], [market]]")
        return options


@dataclass(frozen=True)
class Chose(EffectEvent):
    """Which option a player chose."""

    type = "choose"
    option: int
    chosen: str  #: the option as the card words it

    def text(self) -> str:
        return f"seat {self.seat} chooses option {self.option}: {self.chosen}"


class ChooseKind(PlayerEffect):
    tag = "choose"
    model = Choose
    events = (Chose,)
    drawings = {"choose": FORK}
    meaning = "The player picks one of the listed effect lists (a decision; options are numbered from 0)."
    example = {"choose": [[{"gain": {"hearts": 1}}], [{"gain": {"coins": 2}}, {"lose": {"stars": 1}}]]}

    def children(self, effect: Choose) -> Iterator[tuple[KeyPath, tuple[Any, ...]]]:
        for index, option in enumerate(effect.choose):
            yield ("choose", index), option

    def compile(self, effect: Choose, compiler: Compiler) -> Options:
        said = words(compiler.sides, "card")
        return (
            tuple(compiler.effects(option) for option in effect.choose),
            tuple(said.text(option, " and ") or "nothing" for option in effect.choose),
        )

    def batch(self, argument: Options, batch: Batch) -> tuple[int, ...]:
        return batch.lists(argument[0])

    def batch_form(self, kernel: Kernel) -> BatchForm:
        decide_choice, log, push, options, values = kernel.decide_choice, kernel.log, kernel.push, kernel.options, kernel.values
        persona, worth, PLAIN, LOG_CHOICE = kernel.persona, kernel.worth, kernel.FRAME_PLAIN, kernel.LOG_CHOICE

        def apply(
            S: Arrays, R: Arrays, M: Arrays, T: Arrays, A: Arrays, p: int, a: int, b: int, c: int, d: int, e: int, tape: bool
        ) -> None:
            index = decide_choice(S, R, M, T, p, a, b)
            log(S, LOG_CHOICE, p, index)
            push(S, options(R)[a + index], p, PLAIN, 0, 0)

        def value(S: Arrays, R: Arrays, M: Arrays, h: int, p: int, others: Arrays, n_others: int, bonus: int, v: Arrays,
                  a: int, b: int, c: int, d: int, e: int) -> None:  # fmt: skip
            listed, lists, mp = values(S), options(R), persona(R, M, h)  # the option the persona would take
            best_at = -1
            best = 0.0
            for o in range(a, a + b):
                w = worth(mp, listed[lists[o]])
                if best_at < 0 or w > best:
                    best, best_at = w, lists[o]
            if best_at >= 0:
                for i in range(6):
                    v[i] = v[i] + listed[best_at][i]

        return BatchForm(apply, value)

    @staticmethod
    def apply(rnd: Round, player: Player, argument: Options) -> None:
        options, texts = argument
        index = rnd.decide_choice(player, options, texts)
        if rnd.game.events is not None:
            rnd.game.emit(Chose(player.seat, index, texts[index]))
        rnd.apply(options[index], player)

    def value(self, argument: Options, valuer: Valuer) -> Vector:
        return max((valuer.of(option) for option in argument[0]), key=valuer.worth, default=ZERO)

    def exact(self, argument: Options, exact: Exact) -> None:
        return None  # the player decides

    def text(self, effect: Choose, words: Words) -> str:
        return "choose one: " + ", or ".join(words.text(option, " and ") or "nothing" for option in effect.choose)

    def icons(self, effect: Choose, words: Words) -> list[tuple[str, str]]:
        icons: list[tuple[str, str]] = [("choose", "")]
        for index, option in enumerate(effect.choose):
            icons += ([("word", "or")] if index else []) + (words.icons(option) or [("word", "nothing")])
        return icons

    def strategy(self, drawing: Drawing) -> SearchStrategy[Any]:
        from hypothesis import strategies as st

        if drawing.depth <= 0:
            return st.nothing()
        return st.lists(drawing.lists(2), min_size=1, max_size=3).map(lambda options: {"choose": options})
