"""The heuristic bots' value models as the batch engine's arrays (the kernel's ``M`` tuple).

Everything a :class:`~workbench.games.chance_it.bots._Model` computes once per persona and
rules (what each face, card and action is worth, how often a card fires, what being forced
IN costs) is read off the Python model itself, so both engines start from the very same
numbers; what depends on the position (guides, buys, choices, victims) is ported in
:mod:`.kernel`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.chance_it.batch import kernel as k
from workbench.games.chance_it.bots import _model_for
from workbench.games.chance_it.rules import Rules
from workbench.games.chance_it.schema import Persona


def model_arrays(rules: Rules, personas: Sequence[Persona]) -> tuple[Any, ...]:
    """One layer per persona (at least one: a table of random bots never reads it)."""
    sides, cards, most = rules.sides, rules.cards, rules.max_players
    layers = []
    for persona in personas or (Persona(policy="heuristic"),):
        model = _model_for(persona, rules)
        p = persona
        mp = np.zeros(k.M_SIZE)
        mp[k.M_STAR], mp[k.M_HEART], mp[k.M_COIN] = p.star, p.heart, p.coin
        mp[k.M_MIN_HEARTS], mp[k.M_DANGER], mp[k.M_CHANCE_IT] = p.min_hearts, p.danger, p.chance_it
        mp[k.M_HORIZON], mp[k.M_RESERVE], mp[k.M_MARKET], mp[k.M_KNIFE] = p.horizon, p.reserve, model.market_worth, model.knife
        mp[k.M_REROLL_WORTH], mp[k.M_REROLL_KNIVES] = model.reroll_worth, model.reroll_knives
        mp[k.M_REROLL_MEAN] = model.reroll_mean
        mp[k.M_CI_W : k.M_CI_K + 1] = model.chance_it
        mp[k.M_AO_W : k.M_AO_K + 1] = model.all_out
        forced = np.zeros(most + 1)
        for alive in range(2, most + 1):
            forced[alive] = (1 - 0.8 ** (alive - 1)) * model.forced_cost(alive)  # as guide_values computes it
        keyed = [(rules.chance_it, None), *((rules.board[f], f) for f in range(1, sides + 1))]
        keyed += [(card.effects, card.face or None) for card in cards]
        values = np.array(
            [[model.of(effects, face, bonus) for bonus in range(-sides, sides + 1)] for effects, face in keyed]
        )  # a bonus beyond the faces changes no test: clipped to -sides .. sides
        layers.append(
            (
                mp,
                np.array(model.face, dtype=np.float64),
                np.array(model.rerolls, dtype=np.int64),
                np.array(model.reroll_hearts, dtype=np.float64),
                np.array([model.card[card.id] for card in cards], dtype=np.float64).reshape(len(cards), 3),
                np.array([model.card_now[card.id] for card in cards], dtype=np.float64),
                np.array([model.card_worth[card.id] for card in cards], dtype=np.float64),
                np.array([model.often[card.id] for card in cards], dtype=np.float64),
                forced,
                values.reshape(len(keyed), 2 * sides + 1, 6),
            )
        )
    return tuple(np.stack([layer[i] for layer in layers]) for i in range(10))
