"""What the compiler process runs to compile the batch engine once for the installation (see :mod:`..compiled`)."""

from __future__ import annotations

from typing import Any

from workbench.games.chance_it.batch import Engine
from workbench.games.chance_it.batch.replay import replay_batch
from workbench.games.chance_it.engine import compile_variant
from workbench.games.chance_it.scenario import Scenario
from workbench.games.chance_it.schema import Persona, Variant
from workbench.loading import Document


def compile_all() -> None:
    """Compile every entry point of the kernel (the compiler process runs it: see :mod:`.compiled`): a game played,
    one recorded, and a script replayed, on a small built-in variant (the compiled code is the same for every
    variant)."""
    rules = compile_variant(Variant.model_validate(_SMALL_VARIANT))
    engine = Engine(rules, 3, [Persona(policy="heuristic")] * 3)
    engine.play(0, 0, 1)
    engine.record(0, 0, engine.block(1), 0)
    script = {"variant": "small.yaml", "players": 3}
    replay_batch(Scenario.model_validate(script), Document(script, {}, None), rules)


def compile_search() -> None:
    """Compile the kernel's search level (:mod:`.search`): a game with a search bot played, and one recorded (the
    batch engine's own code first, compiled by its own compiler if need be)."""
    rules = compile_variant(Variant.model_validate(_SMALL_VARIANT))
    engine = Engine(rules, 3, [Persona(policy="search", playouts=1, depth=1), *[Persona(policy="heuristic")] * 2])
    engine.play(0, 0, 1)
    engine.record(0, 0, engine.block(1), 0)


#: A variant with a card of each kind of timing, to compile the kernel with (any variant gives the same code).
_SMALL_VARIANT: dict[str, Any] = {
    "name": "Compile",
    "game": "chance-it",
    "players": {"min": 3, "max": 3},
    "start": {"coins": 5, "hearts": 5, "stars": 0},
    "dice": {"count": 5, "sides": 6},
    "stakes": {2: {"out": [2, "all_out"], "in": [1, 2]}, 3: {"out": [3, 1, "all_out"], "in": [1, 2, 3]}},
    "all_out": [{"lose": {"hearts": 1}}],
    "chance_it": [{"gain": {"coins": 1}}],
    "board": {1: ["reroll_ones"], 2: [{"gain": {"hearts": 1}}], 3: [{"lose": {"hearts": 1}}], 4: [{"gain": {"stars": 1}}],
              5: [{"gain": {"coins": 1}}], 6: ["market"]},
    "market": {"face_up": 2},
    "end": {"stars": 10, "max_rounds": 50},
    "cards": [{"id": "balm", "name": "Balm", "when": "die-2", "cost": 2, "copies": 3, "effects": [{"gain": {"hearts": 1}}]}],
}  # fmt: skip


__all__ = ["compile_all", "compile_search"]
