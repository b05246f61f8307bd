"""The batch engine's search level: games with search bots, compiled as an engine of its own on first use.

A search bot's decision plays rounds of sampled futures, and Numba's cache cannot hold a
function that calls itself, even with other types (the next process crashes loading it:
numba/numba#6061). So the kernel's rules are compiled twice. The kernel's own functions
play every game without a search bot and every sampled future; there a search bot's
decision is refused. Here, copies of them play a game with search bots: the same code,
seeing the search bot's decisions (the kernel's ``SEARCHING`` functions, which play their
futures with the kernel's own functions) where the kernel's see refusals, and the batch
forms made over the copies. Which functions are copied is found from the code: every one
that calls, directly or through another, a search decision or an effect's apply (a form
may decide). Nothing here is written by hand twice.

The copies and the search bot's functions are cached in an engine of their own
(:data:`~workbench.games.chance_it.compiled.SEARCH`), compiled the first time a table
with a search bot plays on the batch engine: a designer who never asks for one never
waits for it. A future's state has the very type of a game's (see the kernel's
``_lookahead``), so compiling this level compiles none of the kernel's functions again.
"""

from __future__ import annotations

import types
from dataclasses import fields, replace
from typing import Any

from numba import njit
from numba.core.dispatcher import Dispatcher

from workbench.games.chance_it.batch import kernel as k
from workbench.games.chance_it.compiled import SEARCH

SEARCH.use()  # before the functions below are made: Numba takes its cache folder when a function is defined


def _compiled(function: Any, scope: dict[str, Any], options: dict[str, Any], prefix: str = "") -> Any:
    """``function``'s code over the globals ``scope``, compiled with ``options`` (cached under its name, after
    ``prefix``: a copy of a kernel function keeps files of its own)."""
    made = types.FunctionType(function.__code__, scope, function.__name__, function.__defaults__, function.__closure__)
    made.__qualname__ = prefix + function.__qualname__
    made.__module__, made.__doc__ = function.__module__, function.__doc__
    return njit(**options)(made)


def _search_level() -> dict[str, Any]:
    """The functions of the search level by name (see the module's docstring)."""
    kernel = vars(k)
    below = dict(kernel)  # the search bot's functions, playing futures with the kernel's own
    below.update({name: _compiled(function, below, options) for name, (function, options) in k.SEARCHING.items()})
    functions = {name: f for name, f in kernel.items() if isinstance(f, Dispatcher)}
    reaching = {*k.SEARCH_DECISIONS, "_apply", "_apply_die"}
    while True:
        callers = {name for name, f in functions.items() if name not in reaching and reaching & set(f.py_func.__code__.co_names)}
        if not callers:
            break
        reaching |= callers
    level = dict(kernel)
    level.update({refusal: below[decision] for refusal, decision in k.SEARCH_DECISIONS.items()})
    copies = {
        name: _compiled(functions[name].py_func, level, k.compile_options(functions[name]), "search_level.")
        for name in sorted((reaching - k.SEARCH_DECISIONS.keys()) & functions.keys())
    }  # fmt: skip
    level.update(copies)
    parts = replace(k.PARTS, **{
        field.name: copies[value.py_func.__name__] for field in fields(k.PARTS)
        if isinstance(value := getattr(k.PARTS, field.name), Dispatcher) and value.py_func.__name__ in copies
    })  # fmt: skip
    level["_apply"], level["_apply_die"] = k.apply_dispatches(k.batch_forms(parts))
    return level


#: ``play_games`` at the search level: games with search bots (with room for a lookahead state, see ``batch.new_state``).
play_searching = _search_level()["play_games"]

__all__ = ["play_searching"]
