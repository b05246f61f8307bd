"""The card language: one module per effect kind, registered here in the order the reference lists them
(docs/reference/files.md's effect table).

To add a kind, write a module with one :class:`~.base.PlayerEffect` (or ``DieEffect``,
``PassiveEffect``) subclass and register it below; ``tests/test_effects.py`` checks
that it supplies every part. See CONTRIBUTING.md.
"""

from workbench.games.chance_it.effects.base import (
    OUTCOME,
    ZERO,
    Arrays,
    Batch,
    BatchForm,
    Compiled,
    Compiler,
    DieEffect,
    Drawing,
    EffectEvent,
    EffectKind,
    Effects,
    Exact,
    Kernel,
    PassiveEffect,
    PlayerEffect,
    Position,
    Site,
    Valuer,
    Vector,
    Words,
    add,
    added,
    amount,
    chance_percent,
    join,
    outcome,
    success_chance,
)
from workbench.games.chance_it.effects.chance import ChanceKind
from workbench.games.chance_it.effects.chance_bonus import ChanceBonusKind
from workbench.games.chance_it.effects.choose import ChooseKind
from workbench.games.chance_it.effects.for_each import ForEachKind
from workbench.games.chance_it.effects.gain import GainKind
from workbench.games.chance_it.effects.if_ import IfKind
from workbench.games.chance_it.effects.lose import LoseKind
from workbench.games.chance_it.effects.market import MarketKind
from workbench.games.chance_it.effects.others_lose import OthersLoseKind
from workbench.games.chance_it.effects.registry import (
    EVENTS,
    REGISTRY,
    Effect,
    compile_die_steps,
    compile_effects,
    compile_passive,
    describe_event,
    drawings,
    iter_effects,
    kind_of,
    modifiers,
    reference_table,
    register,
    rule_notes,
    strategy,
    tag_of,
    unregister,
    with_effects,
    words,
)
from workbench.games.chance_it.effects.reroll_ones import RerollOnesKind
from workbench.games.chance_it.effects.steal import StealKind

for _kind in (
    GainKind,
    LoseKind,
    OthersLoseKind,
    StealKind,
    MarketKind,
    ChanceKind,
    ChooseKind,
    IfKind,
    ForEachKind,
    ChanceBonusKind,
    RerollOnesKind,
):
    register(_kind())

__all__ = [
    "EVENTS",
    "OUTCOME",
    "REGISTRY",
    "ZERO",
    "Arrays",
    "Batch",
    "BatchForm",
    "Compiled",
    "Compiler",
    "DieEffect",
    "Drawing",
    "Effect",
    "EffectEvent",
    "EffectKind",
    "Effects",
    "Exact",
    "Kernel",
    "PassiveEffect",
    "PlayerEffect",
    "Position",
    "Site",
    "Valuer",
    "Vector",
    "Words",
    "add",
    "added",
    "amount",
    "chance_percent",
    "compile_die_steps",
    "compile_effects",
    "compile_passive",
    "describe_event",
    "drawings",
    "iter_effects",
    "join",
    "kind_of",
    "modifiers",
    "outcome",
    "reference_table",
    "register",
    "rule_notes",
    "strategy",
    "success_chance",
    "tag_of",
    "unregister",
    "with_effects",
    "words",
]
