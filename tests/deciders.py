"""Deciders the tests seat where a bot would sit: the first legal option of every decision."""

from __future__ import annotations

from typing import Any


class FirstOption:
    """Chance It's decider that takes the first legal option of every decision (the engine's order)."""

    def guide(self, view: Any, options: tuple[str, ...]) -> str:
        return options[0]

    def market(self, view: Any, options: tuple[Any, ...]) -> Any:
        return options[0]

    def use(self, view: Any, options: tuple[Any, ...]) -> Any:
        return options[0]

    def choose(self, view: Any, options: tuple[Any, ...], texts: tuple[str, ...] = ()) -> int:
        return 0

    def target(self, view: Any, options: tuple[int, ...], taking: Any) -> int:
        return options[0]
