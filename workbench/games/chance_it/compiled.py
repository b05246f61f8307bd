"""Where Chance It's batch engine is cached: the modules its compiled code is made of, and what compiles it.

Kept apart from :mod:`.batch` (which imports Numba) so that a run can ask whether the
compiled code is ready without loading it. ``tests/test_compiled.py`` checks that every
module the kernel takes compiled code from is listed here.
"""

from workbench.sim.compiled import CompiledEngine

#: The modules the batch engine's compiled code is made of: the kernel, its arrays' layout, the effect kinds' batch forms
#: and the resources they number, the random streams it compiles in, the chance points it numbers.
_KERNEL = (
    "workbench.games.chance_it.batch.kernel",
    "workbench.games.chance_it.batch.layout",
    "workbench.games.chance_it.effects",
    "workbench.games.chance_it.basics",
    "workbench.sim.seeding",
    "workbench.games.chance_it.chance",
)

#: The batch engine's compiled code: every game without a search bot.
BATCH = CompiledEngine("chance-it", _KERNEL, "workbench.games.chance_it.batch.warm:compile_all")

#: Its search level (:mod:`.batch.search`): games with a search bot, compiled the first time one plays on the batch
#: engine, over the batch engine's own code.
SEARCH = CompiledEngine(
    "chance-it-search",
    (*_KERNEL, "workbench.games.chance_it.batch.search"),
    "workbench.games.chance_it.batch.warm:compile_search",
    what="its search bots",
    about="about 2 minutes",
)
