"""The heuristic bots' value models as the batch engine's array (the kernel's ``M``).

Everything a :class:`~workbench.games.chance_it.bots._Model` computes once per persona and
rules (what each face, card and action is worth, how often a card fires, what being forced
IN costs) is read off the Python model itself, so both engines start from the very same
numbers; what depends on the position (guides, buys, choices, victims) is ported in
:mod:`.kernel`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from workbench.games.chance_it.batch import kernel as k
from workbench.games.chance_it.batch.layout import PERSONA
from workbench.games.chance_it.bots import model_for
from workbench.games.chance_it.rules import Rules
from workbench.games.chance_it.schema import Persona


def model_arrays(rules: Rules, personas: Sequence[Persona]) -> npt.NDArray[np.float64]:
    """A block of rows per persona, laid out as :func:`~.kernel.model_offsets` says (a table of random bots gets one
    block of zeros: it never reads it)."""
    sides, cards, most = rules.sides, rules.cards, max(rules.max_players, *rules.stakes)
    face_at, hearts_at, card_at, forced_at, valued_at, rows = k.model_offsets(sides, len(cards))
    width = max(PERSONA.SIZE, 6, sides + 1, most + 1)
    blocks = np.zeros((max(1, len(personas)), rows, width))
    for block, persona in zip(blocks, personas):
        model = model_for(persona, rules)
        p, mp = persona, block[0]
        mp[PERSONA.STAR], mp[PERSONA.HEART], mp[PERSONA.COIN] = p.star, p.heart, p.coin
        mp[PERSONA.MIN_HEARTS], mp[PERSONA.DANGER], mp[PERSONA.CHANCE_IT] = p.min_hearts, p.danger, p.chance_it
        mp[PERSONA.HORIZON], mp[PERSONA.RESERVE], mp[PERSONA.MARKET], mp[PERSONA.KNIFE] = (
            p.horizon,
            p.reserve,
            model.market_worth,
            model.knife,
        )
        mp[PERSONA.REROLL_WORTH], mp[PERSONA.REROLL_KNIVES] = model.reroll_worth, model.reroll_knives
        mp[PERSONA.REROLL_MEAN] = model.reroll_mean
        mp[PERSONA.CI_W : PERSONA.CI_K + 1] = model.chance_it
        mp[PERSONA.AO_W : PERSONA.AO_K + 1] = model.all_out
        mp[PERSONA.PLAYOUTS], mp[PERSONA.DEPTH] = p.playouts, p.depth  # read by a search bot only
        mp[PERSONA.SAMPLES], mp[PERSONA.ITERATIONS] = p.samples, p.iterations  # read by an equilibrium bot only
        block[face_at : face_at + sides + 1, :3] = model.face
        block[face_at : face_at + sides + 1, 3] = model.rerolls
        block[hearts_at, : sides - 1] = model.reroll_hearts
        for c, card in enumerate(cards):
            worth, hearts, knives = model.card[card.id]
            block[card_at + c, :6] = (
                worth,
                hearts,
                knives,
                model.card_now[card.id],
                model.card_worth[card.id],
                model.often[card.id],
            )
        for alive in range(2, rules.max_players + 1):
            block[forced_at, alive] = model.forcing(alive)  # the heuristic's own figure
        keyed = [(rules.chance_it, None), *((rules.board[f], f) for f in range(1, sides + 1))]
        keyed += [(card.effects, card.face or None) for card in cards]
        # a bonus beyond the faces changes no test: clipped to -sides .. sides
        values = [model.of(effects, face, bonus) for effects, face in keyed for bonus in range(-sides, sides + 1)]
        block[valued_at:rows, :6] = values
    return blocks.reshape(len(blocks) * rows, width)
