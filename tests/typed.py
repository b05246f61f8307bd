"""A table of the recording tests: lines typed as a person at the table would type them."""

from __future__ import annotations

from workbench.play import Chance, Left, Question, Table


class Typed:
    """A table that reads given lines as the terminal would (each entry checked by the question it answers)."""

    def __init__(self, lines: list[str]):
        self.lines = list(lines)

    def _next(self) -> str:
        if not self.lines:
            raise Left("the input ended")
        return self.lines.pop(0)

    def answer(self, question: Question) -> int:
        return int(self._next()) - 1

    def enter(self, chance: Chance) -> tuple[int, ...]:
        return chance.read(self._next())

    @property
    def table(self) -> Table:
        return Table(self.answer, self.enter)
