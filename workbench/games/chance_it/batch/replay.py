"""A scenario script replayed by the batch engine: its dice, rerolls, tests, reshuffles and choices as tapes.

A script that does not fit the game (a choice the engine never asks, too few rerolls, an
illegal move) stops the batch engine; the interpreter then replays it to say where, in
the designer's words, so both engines give the same located error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.errors import ScenarioError
from workbench.expect import Replay, judged
from workbench.games.chance_it.batch import Block, Engine, Ints, kernel, snapshot, tape_arrays
from workbench.games.chance_it.engine import GUIDES
from workbench.games.chance_it.rules import CardDef, Rules
from workbench.games.chance_it.scenario import Scenario, ScriptedChance, _Script, check_players, replay
from workbench.games.chance_it.schema import Persona
from workbench.loading import Document

_ACTIONS = {
    "buy": kernel.T_BUY,
    "discard": kernel.T_DISCARD,
    "use": kernel.T_USE,
    "choose": kernel.T_CHOOSE,
    "target": kernel.T_TARGET,
}


def replay_batch(scenario: Scenario, doc: Document, rules: Rules, checked: Sequence[Persona | None] = ()) -> Replay:
    """Play the scripted rounds of ``scenario`` with the batch engine and check ``expect`` (its events aside: the batch
    engine keeps no event log).

    A seat given a heuristic persona in ``checked`` makes each of its choices with the batch engine's heuristic too,
    and :class:`~.kernel.Differs` is raised where it would choose otherwise than the script (a game the Python
    heuristic played and recorded): the test of the port.
    """
    engine, _ = play_script(scenario, doc, rules, checked)
    return judged(doc, snapshot(engine.program, engine.state), events=False)


def play_script(scenario: Scenario, doc: Document, rules: Rules, checked: Sequence[Persona | None] = ()) -> tuple[Engine, Block]:
    """The batch engine after the scripted rounds, and the game as a block of one (see :func:`replay_batch`)."""
    check_players(scenario, doc, rules)
    seats = [*checked, *[None] * (scenario.players - len(checked))]
    engine = Engine(rules, scenario.players, [persona or Persona(policy="heuristic") for persona in seats])
    bots = np.array([kernel.TAPE if persona is None else kernel.CHECKED for persona in seats], dtype=np.int64)
    ids = {card_id: i for i, card_id in enumerate(engine.program.card_ids)}
    chance = ScriptedChance(_Script(scenario, doc, rules))  # the deal and any unscripted reshuffle, as the interpreter draws them
    pile: list[CardDef] = list(rules.deck)
    chance.deal(pile)
    extra: list[list[int]] = []
    while True:
        block = engine.block(1)
        try:
            tape = _tape(scenario, rules, ids, [ids[card.id] for card in pile], extra)
            kernel.replay_tape(
                engine.state, engine.program.arrays, engine.models, tape, block.sums, scenario.players,
                len(scenario.rounds), bots, engine.personas, block.game, block.seat, block.bought, block.squares,
            )  # fmt: skip
        except kernel.NeedReshuffle:
            rows = engine.state[0]
            old = rows[kernel.ROW_PILE, : rows[kernel.ROW_G, kernel.G_PILE]]  # the discard pile, in its order
            cards = [rules.by_id[engine.program.card_ids[c]] for c in old]
            chance.rng.shuffle(cards)
            extra.append([ids[card.id] for card in reversed(cards)])
            continue
        except kernel.TapeError:
            replay(scenario, doc, rules)  # raises the located error the interpreter finds
            raise ScenarioError(
                [doc.problem((), "the batch engine cannot follow this script, yet the interpreter can: please report it")]
            ) from None
        return engine, block


def _tape(scenario: Scenario, rules: Rules, ids: dict[str, int], deal: list[int], extra: list[list[int]]) -> Ints:
    players = scenario.players
    rolls, rerolls, tests, guides, choices, shuffles = [], [], [], [], [], []
    sides = rules.sides
    for scripted in scenario.rounds:
        faces = (*scripted.roll, *scripted.rerolls, *scripted.chance)
        if len(scripted.roll) != rules.dice_count or len(scripted.guides) != players or max(faces, default=1) > sides:
            raise kernel.TapeError  # the interpreter words it
        rolls.append(list(scripted.roll))
        rerolls.append(list(scripted.rerolls))
        tests.append(list(scripted.chance))
        guides.append([-1 if guide is None else GUIDES.index(guide) for guide in scripted.guides])
        choices.append([_choice(choice, ids) for choice in scripted.choices])
        shuffles.append([[ids.get(card_id, -1) for card_id in order] for order in scripted.reshuffles])
    return tape_arrays(deal, rolls, rerolls, tests, guides, choices, shuffles, extra)


def _choice(choice: Any, ids: dict[str, int]) -> tuple[int, int, int]:
    action = choice.action
    value = getattr(choice, action)
    return choice.seat, _ACTIONS[action], ids.get(value, -1) if action in ("buy", "discard", "use") else int(value)
