"""A scenario script replayed by the batch engine: its dice, rerolls, tests, reshuffles and choices as tapes.

A script that does not fit the game (a choice the engine never asks, too few rerolls, an
illegal move) stops the batch engine; the interpreter then replays it to say where, in
the designer's words, so both engines give the same located error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.errors import ScenarioError
from workbench.expect import Replay, judged
from workbench.games.chance_it.batch import Engine, Ints, Program, kernel, snapshot, tape_arrays
from workbench.games.chance_it.batch.layout import GAME, ROW
from workbench.games.chance_it.engine import GUIDES
from workbench.games.chance_it.rules import CardDef, Rules
from workbench.games.chance_it.scenario import Scenario, Script, ScriptedChance, check_players, replay
from workbench.loading import Document

_ACTIONS = {
    "buy": kernel.T_BUY,
    "discard": kernel.T_DISCARD,
    "use": kernel.T_USE,
    "choose": kernel.T_CHOOSE,
    "target": kernel.T_TARGET,
}


def replay_batch(scenario: Scenario, doc: Document, rules: Rules) -> Replay:
    """Play the scripted rounds of ``scenario`` with the batch engine and check ``expect`` (its events aside: the batch
    engine keeps no event log)."""
    return judged(doc, snapshot(*_play_script(scenario, doc, rules)), events=False)


def _play_script(scenario: Scenario, doc: Document, rules: Rules) -> tuple[Program, tuple[Any, ...]]:
    """The batch engine's program and state after the scripted rounds (every seat deciding from the script)."""
    check_players(scenario, doc, rules)
    engine = Engine(rules, scenario.players)
    bots = np.full(scenario.players, kernel.TAPE, dtype=np.int64)
    ids = {card_id: i for i, card_id in enumerate(engine.program.card_ids)}
    chance = ScriptedChance(Script(scenario, doc, rules))  # the deal and any unscripted reshuffle, as the interpreter draws them
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
            old = rows[ROW.PILE, : rows[ROW.G, GAME.PILE]]  # the discard pile, in its order
            cards = [rules.by_id[engine.program.card_ids[c]] for c in old]
            chance.rng.shuffle(cards)
            extra.append([ids[card.id] for card in reversed(cards)])
            continue
        except kernel.TapeError:
            replay(scenario, doc, rules)  # raises the located error the interpreter finds
            raise ScenarioError(
                [doc.problem((), "the batch engine cannot follow this script, yet the interpreter can: please report it")]
            ) from None
        return engine.program, engine.state


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
