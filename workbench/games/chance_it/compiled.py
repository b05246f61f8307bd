"""Where Chance It's batch engine is cached: the modules its compiled code is made of, and what compiles it.

Kept apart from :mod:`.batch` (which imports Numba) so that a run can ask whether the
compiled code is ready without loading it. ``tests/test_compiled.py`` checks that every
module the kernel takes compiled code from is listed here.
"""

from workbench.sim.compiled import CompiledEngine

#: The batch engine's compiled code: the kernel, its arrays' layout, the effect kinds' batch forms and the resources they
#: number, the random streams it compiles in, the chance points it numbers.
BATCH = CompiledEngine(
    "chance-it",
    (
        "workbench.games.chance_it.batch.kernel",
        "workbench.games.chance_it.batch.layout",
        "workbench.games.chance_it.effects",
        "workbench.games.chance_it.basics",
        "workbench.sim.seeding",
        "workbench.games.chance_it.chance",
    ),
    "workbench.games.chance_it.batch.warm:compile_all",
)
