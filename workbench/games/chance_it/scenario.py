"""Scripted games: a scenario file supplies every die, reroll, chance test and choice.

The replay runs the same engine as a simulation, with a :class:`ScriptedChance` for
chance and a :class:`ScriptedDecider` per seat. A script that breaks the rules stops
with a :class:`~workbench.errors.ScenarioError` naming the round, the seat and the line.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from pydantic import Field, Strict, model_validator

from workbench.errors import IllegalDecision, ScenarioError
from workbench.expect import Key, Replay, judged
from workbench.games.base import ScriptCursor, traced
from workbench.games.chance_it.basics import Resource
from workbench.games.chance_it.chance import top
from workbench.games.chance_it.engine import BUY, DISCARD, Decider, Game, MarketMove, View
from workbench.games.chance_it.rules import CardDef, Effects, Rules
from workbench.games.chance_it.schema import Guide
from workbench.games.chance_it.text import describe
from workbench.loading import Document, did_you_mean
from workbench.models import Model, ScenarioModel

Face = Annotated[int, Strict(), Field(ge=1, le=100)]
Seat = Annotated[int, Strict(), Field(ge=0, le=11)]


#: What a scripted choice may say, one per choice.
ACTIONS = ("buy", "discard", "use", "choose", "target")


class Choice(Model):
    """One decision, in the order the engine asks: buy, discard or use a card, pick an option or a victim."""

    seat: Seat = Field(description="The seat deciding.")
    buy: str | None = Field(None, description="Buy this face-up card.")
    discard: str | None = Field(None, description="Discard this face-up card.")
    use: str | None = Field(None, description="Use this card (when several different ones are eligible).")
    choose: Annotated[int, Strict(), Field(ge=0)] | None = Field(
        None, description="The option of a `choose` effect, numbered from 0."
    )
    target: Seat | None = Field(None, description="The seat a `steal` with `from: choose` takes from.")

    @model_validator(mode="after")
    def one_action(self) -> Choice:
        """Exactly one of buy, discard, use, choose and target."""
        given = [name for name in ACTIONS if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"a choice names exactly one of buy, discard, use, choose or target, got {len(given)}")
        return self

    @property
    def action(self) -> str:
        """Which of buy, discard, use, choose and target this choice says."""
        return next(name for name in ACTIONS if getattr(self, name) is not None)

    def describe(self) -> str:
        """The choice as YAML-ish text."""
        return f"{{seat: {self.seat}, {self.action}: {getattr(self, self.action)}}}"

    @property
    def named(self) -> tuple[str, str]:
        """The action and the card id it names, such as ``("buy", "dagger")`` (a market move or a card to use)."""
        return self.action, str(getattr(self, self.action))


class ScriptRound(Model):
    """What happens in one round: the roll, the rerolls and tests in order, the guides and the choices."""

    roll: tuple[Face, ...] = Field(description="The starting player's dice.")
    rerolls: tuple[Face, ...] = Field((), description="Results of rerolled dice, in order.")
    chance: tuple[Face, ...] = Field((), description="Results of chance tests, in order.")
    guides: tuple[Guide | None, ...] = Field(description="One per seat; null for a seat out of the game.")
    choices: tuple[Choice, ...] = Field((), description="Decisions in the order the engine asks for them.")
    reshuffles: tuple[tuple[str, ...], ...] = Field(
        (),
        description=(
            "For each reshuffle of the discard into a new pile, in order: its top cards (ids, the top one first), the "
            "rest shuffled below them by the seed; all of it seed-shuffled when left out."
        ),
    )


class PlayerExpect(Model):
    """Expected state of one seat (any subset)."""

    seat: Seat | None = None
    coins: int | None = None
    hearts: int | None = None
    stars: int | None = None
    cards: list[str] | None = None
    eliminated: bool | None = None
    forced_in: bool | None = None


class Expect(Model):
    """Expected replay output (any subset)."""

    rounds: int | None = None
    end_reason: Literal["stars", "last_standing", "all_eliminated", "max_rounds"] | None = None
    winners: list[Seat] | None = None
    players: list[PlayerExpect] | dict[Annotated[int, Strict()], PlayerExpect] | None = None
    supply: dict[Resource, int | None] | None = None
    market: list[str] | None = None
    pile: int | None = None
    discard: int | None = None
    events: list[dict[str, Any]] | None = Field(None, description="Events that must appear, in this order (each a subset).")


class Scenario(ScenarioModel):
    """A scripted game of a variant, with optional expectations."""

    players: Annotated[int, Strict(), Field(ge=2, le=12)] = Field(description="Number of players.")
    seed: Annotated[int, Strict()] = Field(0, description="Shuffles whatever `market` leaves open.")
    market: tuple[str, ...] = Field((), description="The market pile from the top; the first face_up cards are laid out.")
    rounds: tuple[ScriptRound, ...] = Field((), description="The scripted rounds.")
    expect: Expect | None = Field(None, description="Any subset of the replay output.")


class Script(ScriptCursor[Scenario, Rules]):
    """The scenario being replayed: where in the script we are, shared by chance and deciders."""

    def __init__(self, scenario: Scenario, doc: Document, rules: Rules):
        super().__init__(scenario, doc, rules, ("rounds",))
        self.index = -1  # current round in the script
        self.rerolls: list[int] = []
        self.tests: list[int] = []
        self.choices: list[tuple[int, Choice]] = []
        self.reshuffles: list[tuple[str, ...]] = []
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The game being replayed (set once it is set up, which deals the pile from the script)."""
        if self._game is None:
            raise RuntimeError("the scenario's game is not set up yet")
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game

    @property
    def round(self) -> ScriptRound:
        return self.scenario.rounds[self.index]

    def begin(self, index: int) -> None:
        self.index = index
        script = self.round
        self.rerolls = list(script.rerolls)
        self.tests = list(script.chance)
        self.choices = list(enumerate(script.choices))
        self.reshuffles = list(script.reshuffles)
        self.last_key = ("rounds", index)

    def error(self, key: Key, message: str) -> ScenarioError:
        return ScenarioError([self.doc.problem(key, f"round {self.index + 1}: {message}")])

    def face(self, value: int, key: Key) -> int:
        if value > self.rules.sides:
            raise self.error(key, f"{value} is not a face of a {self.rules.sides}-sided die")
        return value

    def pop(self, values: list[int], name: str) -> int:
        """The next scripted reroll or chance result, checked against the dice."""
        script = self.round
        position = len(getattr(script, name)) - len(values)
        return self.face(values.pop(0), ("rounds", self.index, name, position))

    def leftovers(self) -> None:
        """Complain about script entries the round never asked for."""
        key = ("rounds", self.index)
        if self.rerolls:
            first = len(self.round.rerolls) - len(self.rerolls)
            raise self.error(key + ("rerolls", first), f"{len(self.rerolls)} scripted reroll(s) never happened: {self.rerolls}")
        if self.tests:
            first = len(self.round.chance) - len(self.tests)
            raise self.error(key + ("chance", first), f"{len(self.tests)} scripted chance test(s) never happened: {self.tests}")
        if self.reshuffles:
            first = len(self.round.reshuffles) - len(self.reshuffles)
            raise self.error(key + ("reshuffles", first), f"{len(self.reshuffles)} scripted reshuffle(s) never happened")
        if self.choices:
            position, choice = self.choices[0]
            raise self.error(key + ("choices", position), f"the engine never asked for the choice {choice.describe()}")


class ScriptedChance:
    """Chance from the script: the pile order, each round's roll, rerolls and chance tests."""

    def __init__(self, script: Script):
        self.script = script
        self.rng = random.Random(script.scenario.seed)

    def deal(self, pile: list[CardDef]) -> None:
        """Put the scripted cards on top, in order, and shuffle the rest below them with the seed."""
        script = self.script
        for index, card_id in enumerate(script.scenario.market):
            if card_id not in script.rules.by_id:
                hint = did_you_mean(card_id, script.rules.by_id)
                raise ScenarioError([script.doc.problem(("market", index), f"no card with id '{card_id}' in the variant{hint}")])
        self._stack(pile, script.scenario.market, ("market",), "the variant has")

    def reshuffle(self, pile: list[CardDef]) -> None:
        """The scripted order of the new pile's top cards, if the round gives one (the rest shuffled below them by the
        seed); else a shuffle by the seed."""
        script = self.script
        if not script.reshuffles:
            self.rng.shuffle(pile)
            return
        position = len(script.round.reshuffles) - len(script.reshuffles)
        self._stack(pile, script.reshuffles.pop(0), ("rounds", script.index, "reshuffles", position), "the discard pile holds")

    def _stack(self, pile: list[CardDef], order: Sequence[str], key: Key, holds: str) -> None:
        """Put the cards ``order`` names on top of ``pile``, the first on top, and shuffle the rest below them with the
        seed; a card named more often than the pile holds it is an error at ``key`` (its index added)."""
        script = self.script
        rest = Counter(card.id for card in pile)
        for index, card_id in enumerate(order):
            if not rest[card_id]:
                copies = sum(1 for card in pile if card.id == card_id)
                times = "copy" if copies == 1 else "copies"
                said = (
                    f"is listed more often than {holds} {times} ({copies})" if copies else f"is not in {holds.rsplit(' ', 1)[0]}"
                )
                raise ScenarioError([script.doc.problem((*key, index), f"'{card_id}' {said}")])
            rest[card_id] -= 1
        below: list[CardDef] = []
        for card in pile:
            if rest[card.id]:
                rest[card.id] -= 1
                below.append(card)
        self.rng.shuffle(below)
        pile[:] = below + [script.rules.by_id[card_id] for card_id in reversed(order)]

    def lay_out(self, pile: list[CardDef], count: int) -> list[CardDef]:
        """The top cards of the pile (as the script stacked it)."""
        return top(pile, count)

    def roll(self, count: int, sides: int) -> list[int]:
        script = self.script
        roll, key = script.round.roll, ("rounds", script.index, "roll")
        if len(roll) != count:
            raise script.error(key, f"the roll needs {count} dice, got {len(roll)}")
        return [script.face(value, key + (i,)) for i, value in enumerate(roll)]

    def reroll(self, sides: int) -> int:
        script = self.script
        if not script.rerolls:
            raise script.error(
                ("rounds", script.index, "rerolls"),
                f"seat {script.game.starting_player} (the starting player) rerolls a die showing 1, "
                "but the script has too few rerolls: no more this round",
            )
        return script.pop(script.rerolls, "rerolls")

    def test(self, sides: int) -> int:
        script = self.script
        if not script.tests:
            raise script.error(
                ("rounds", script.index, "chance"),
                "too few chance results: a chance test is rolled but the script has no more this round",
            )
        return script.pop(script.tests, "chance")


class ScriptedDecider:
    """The choices of one seat, read from the script in the order the engine asks."""

    def __init__(self, script: Script, seat: int):
        self.script = script
        self.seat = seat

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        script = self.script
        script.last_key = ("rounds", script.index, "guides", self.seat)
        guide = script.round.guides[self.seat]
        if guide is None:  # _check_guides rules this out before the round: only seats in the game choose
            raise script.error(script.last_key, f"seat {self.seat} is still in the game and needs a guide")
        return guide

    def _next(self, wanted: tuple[str, ...], what: str) -> Choice:
        script = self.script
        if not script.choices:
            raise script.error(
                ("rounds", script.index, "choices"),
                f"seat {self.seat} must {what}, but the script has no more choices this round",
            )
        position, choice = script.choices.pop(0)
        script.last_key = ("rounds", script.index, "choices", position)
        if choice.seat != self.seat:
            raise script.error(
                script.last_key,
                f"the engine asks seat {self.seat} to {what}, but the next scripted choice is for seat {choice.seat}",
            )
        if choice.action not in wanted:
            raise script.error(script.last_key, f"seat {self.seat} must {what}, but the script says {choice.describe()}")
        return choice

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        """The scripted buy or discard, as it stands: the engine checks it against the options."""
        market = ", ".join(card.id for card in view.market)
        return self._next((BUY, DISCARD), f"buy or discard a card (market: {market})").named

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        """The eligible card the script names; naming another is an illegal decision, as the engine words it."""
        names = ", ".join(card.id for card in options)
        _, card_id = self._next(("use",), f"choose which card to use ({names})").named
        card = next((card for card in options if card.id == card_id), None)
        if card is None:
            raise IllegalDecision(view.round, self.seat, f"cannot use {card_id!r}: the eligible cards are {names}")
        return card

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        """The scripted option, as it stands: the engine checks it against the options."""
        choice = self._next(("choose",), f"choose one of {len(options)} options (0 to {len(options) - 1})")
        return int(choice.choose or 0)

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        """The scripted victim, as it stands: the engine checks it against the seats it may target."""
        seats = ", ".join(map(str, options))
        return int(self._next(("target",), f"choose a seat to steal from ({seats})").target or 0)


def check_players(scenario: Scenario, doc: Document, rules: Rules) -> None:
    """Refuse a script for a table the variant is not for."""
    if not rules.min_players <= scenario.players <= rules.max_players:
        raise ScenarioError(
            [
                doc.problem(
                    ("players",), f"the variant is for {rules.min_players} to {rules.max_players} players, not {scenario.players}"
                )
            ]
        )


def scripted_game(
    scenario: Scenario, doc: Document, rules: Rules, watch: Callable[[ScriptedDecider], Decider] | None = None
) -> Game:
    """The game after the scripted rounds of ``scenario`` (read from ``doc``) under ``rules``, with its event log;
    ``watch`` wraps each seat's scripted decider (to see every decision as it is made)."""
    check_players(scenario, doc, rules)
    script = Script(scenario, doc, rules)
    chance = ScriptedChance(script)
    seats = [ScriptedDecider(script, seat) for seat in range(scenario.players)]
    deciders: list[Decider] = [watch(seat) for seat in seats] if watch is not None else list(seats)
    game = script.game = Game(rules, scenario.players, chance)
    with traced(game, describe):
        for index, scripted in enumerate(scenario.rounds):
            script.going_on(game, index, len(scenario.rounds))
            script.begin(index)
            _check_guides(script, game, scripted)
            with script.deciding():
                game.play_round(chance, deciders)
            script.leftovers()
    return game


def replay(scenario: Scenario, doc: Document, rules: Rules) -> Replay:
    """Play the scripted rounds of ``scenario`` (read from ``doc``) under ``rules`` and check ``expect``."""
    return judged(doc, scripted_game(scenario, doc, rules).snapshot())


def _check_guides(script: Script, game: Game, scripted: ScriptRound) -> None:
    key = ("rounds", script.index, "guides")
    if len(scripted.guides) != len(game.players):
        raise script.error(key, f"expected {len(game.players)} guides (one per seat), got {len(scripted.guides)}")
    for player, guide in zip(game.players, scripted.guides):
        if player.eliminated and guide is not None:
            raise script.error(key + (player.seat,), f"seat {player.seat} is out of the game; its guide must be null")
        if not player.eliminated and guide is None:
            raise script.error(key + (player.seat,), f"seat {player.seat} is still in the game and needs a guide")
