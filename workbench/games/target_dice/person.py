"""A person's seat at a target-dice game: each decision of the engine put as a question (see :mod:`workbench.play`)."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.games.target_dice.engine import ADD, Game, RedMove, View
from workbench.games.target_dice.text import describe
from workbench.play import Answer, Asking


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


class Person:
    """The decider of a person's seat: every decision asked through ``answer``."""

    def __init__(self, seat: int, game: Game, answer: Answer):
        self.game = game
        self.asking = Asking(seat, answer, describe)

    def _ask(self, view: View, kind: str, prompt: str, options: Sequence[str], roll: Sequence[int] = ()) -> int:
        holder = view.holder
        rows = [[str(seat), str(score), "holds the roll" if seat == holder else ""] for seat, score in enumerate(view.scores)]
        table = (["seat", "score", "status"], rows)
        return self.asking.ask(self.game.events or (), view.round, kind, prompt, options, roll, table)

    def _where(self, view: View) -> str:
        targets = " or ".join(str(t) for t in view.targets)
        return f"Round {view.round}, target {targets}: {view.kept} kept on the table ({_dice(view.table)}), {_dice(view.stock)} in the stock"

    def dice(self, view: View) -> int:
        options = ["pass", *(f"roll {_dice(n)}" for n in range(1, view.stock + 1))]
        return self._ask(view, "dice", f"{self._where(view)}. How many dice do you roll?", options)

    def red(self, view: View, roll: tuple[int, ...]) -> RedMove:
        moves: list[RedMove] = [None, *(sorted(set(roll)) if len(roll) > 1 else ()), *((ADD,) if view.stock else ())]
        words = [
            "keep the roll" if move is None else "add a die from the stock" if move == ADD else f"return a {move} to the stock"
            for move in moves
        ]
        return moves[self._ask(view, "red", f"{self._where(view)}. Red card: change your roll?", words, roll)]

    def orange(self, view: View, roll: tuple[int, ...]) -> int:
        adjust = (-1, 0, 1)
        words = ["subtract 1 from the result", "leave the result", "add 1 to the result"]
        return adjust[self._ask(view, "orange", f"{self._where(view)}. Orange card: adjust the result?", words, roll)]

    def yellow(self, view: View, roll: tuple[int, ...]) -> int:
        targets = view.targets
        words = [f"the roll is for {target}" for target in targets]
        return targets[self._ask(view, "yellow", f"{self._where(view)}. Yellow card: which number card?", words, roll)]

    def purple(self, view: View, roll: tuple[int, ...]) -> bool:
        words = ["keep this roll", "roll these dice again (the second roll stands)"]
        return bool(self._ask(view, "purple", f"{self._where(view)}. Purple card: roll again?", words, roll))
