"""Bots: deciders that choose for a seat from what its :class:`View` shows and their own random stream.

A bot never sees the engine's chance source. Four policies:

- ``random``: uniform over the legal options.
- ``heuristic``: a value model. A star is worth ``star``, a coin ``coin``, a heart
  ``heart``, and every heart below ``min_hearts`` costs ``danger`` more; losing the last
  heart costs everything the bot holds. Since the dice are rolled before guides are
  chosen, the bot adds up what playing IN would bring with these dice (board effects,
  its cards, market actions, the stakes it expects to pay) and compares it with the coins
  OUT would take, or the heart everybody loses when all play OUT. How many others play IN
  it reads at level 1: each other player is taken to choose as a plain heuristic player
  would in its own position (so a table of players at their last heart is expected to
  avoid OUT, not to play IN regardless); CHANCE IT adds its action and cards, less the risk of being forced IN.
  A card is worth what its effects are worth, times how often it should fire over the
  next ``horizon`` rounds. It buys the card whose worth beats its price by the most (never
  dipping below ``reserve`` coins) and otherwise discards the card most useful to others.
- ``search``: Monte Carlo lookahead. For each option of a decision (each guide, every
  legal market move, each option of an effect choice, each victim) it plays ``playouts``
  sampled futures of ``depth`` rounds with heuristic players of its persona on copies of
  the game (the face-down pile dealt anew: no peeking), scoring each by who wins, or who
  leads on stars and hearts when the lookahead stops. The same sampled futures are used
  for every option (common random numbers), so the comparison is fair. They are keyed by
  numbers the bot draws from its stream and played with the engines' own generator, so
  the batch engine's search bot plays the very same games.
- ``equilibrium``: the guide is a simultaneous choice, so it is chosen as one: for every
  joint choice of the living seats (each IN, OUT or CHANCE IT; a forced seat IN), every
  seat's score is estimated on ``samples`` sampled futures (the same for every joint
  choice), and regret matching over that table for ``iterations`` rounds, every seat at
  once, gives each seat a mixed strategy (its average play; Lisý et al. 2013 search
  simultaneous moves this way). The bot draws its guide from its own seat's strategy, so
  it plays mixed where the payoffs call for it: a pure choice that a rival could punish
  is not played for sure. Its market moves, effect choices and victims are the search
  bot's. Its cost grows with the joint choices: 3 to the power of the seats still in.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from workbench.games.chance_it import effects as kinds
from workbench.games.chance_it.chance import BOTS, RandomChance, future_streams
from workbench.games.chance_it.effects import ZERO, Position, Valuer, Vector, added
from workbench.games.chance_it.effects.chance import BONUS
from workbench.games.chance_it.effects.steal import rob
from workbench.games.chance_it.engine import BUY, CHANCE_IT, GUIDES, IN, OUT, Decider, Game, MarketMove, PlayerView, View
from workbench.games.chance_it.rules import COINS, HEARTS, STARS, CardDef, Effects, Rules, modifier
from workbench.games.chance_it.schema import Persona
from workbench.sim.seeding import Stream
from workbench.sim.stats import Moments

#: An option a search bot weighs: a guide or a market move.
Option = TypeVar("Option")
#: The heart changes of no reroll (see :meth:`_Model.over_rerolls`).
_UNCHANGED = (0.0,)


class _Model:
    """A persona's value model for one set of rules, computed once.

    Only hearts are valued non-linearly (danger below ``min_hearts``, ruin at 0), so an
    outcome is kept as two numbers: its linear worth and its heart change. Rerolled dice
    are averaged over the heart changes they may bring.
    """

    def __init__(self, persona: Persona, rules: Rules):
        self.p = persona
        self.rules = rules
        sides, count = rules.sides, rules.dice_count
        self.market_worth = 0.6 * persona.star  # a market action: a chance at a good card
        self.knife = 0.2 * persona.heart  # an opponent losing a heart
        self.valuer = Valuer(
            sides, count, others=0.6 * (min(4, rules.max_players) - 1), worth=self.worth, bonus_gain=self.bonus_gain,
        )  # fmt: skip
        face = [self.of(rules.board[f], f) if f else ZERO for f in range(sides + 1)]
        self.face = [self.split(v) for v in face]  # (worth, hearts, knives) per face
        #: dice rerolled after a die of each face is resolved (reroll_ones on face 1)
        self.rerolls = [round(self.of(rules.die_steps[f], f)[5]) if f else 0 for f in range(sides + 1)]
        #: a rerolled die shows each face but 1, equally likely: the mean worth, and the heart changes
        rerolled = [self.face[f] for f in range(2, sides + 1)]
        self.reroll_worth = sum(w for w, _, _ in rerolled) / len(rerolled)
        self.reroll_knives = sum(k for _, _, k in rerolled) / len(rerolled)
        self.reroll_hearts = [h for _, h, _ in rerolled]
        self.reroll_mean = sum(self.reroll_hearts) / len(self.reroll_hearts)
        self.chance_it = self.split(self.of(rules.chance_it))
        self.all_out = self.split(self.of(rules.all_out))
        p_face = 1 - ((sides - 1) / sides) ** count  # a face shows on at least one die
        self.card: dict[str, tuple[float, float, float]] = {}
        self.card_now: dict[str, float] = {}
        self.card_worth: dict[str, float] = {}
        self.often: dict[str, float] = {}  # how many times a card should fire while the bot holds it
        for card in rules.cards:
            if card.kind == "passive":
                parts = self.card[card.id] = self.split(self.passive(card))
            else:
                parts = self.card[card.id] = self.split(self.of(card.effects, card.face or None))
            now = self.card_now[card.id] = parts[0] + persona.heart * parts[1] + self.knife * parts[2] * 2
            self.often[card.id] = (
                1.0 if card.kind == "flash"
                else p_face * 0.6 * persona.horizon if card.kind == "die"
                else 0.3 * persona.horizon if card.kind == CHANCE_IT
                else persona.horizon  # a passive card counts every round
            )  # fmt: skip
            self.card_worth[card.id] = now * self.often[card.id]
        self._pull: dict[tuple[int, ...], float] = {}  # dice and table size -> how likely others play IN
        self._level0: dict[tuple[object, ...], float] = {}  # a position and dice -> how likely it avoids OUT
        #: what being forced IN next round costs, by table size: the OUT choice it takes away, averaged over rolls
        self._forced: dict[int, float] = {}
        self._forcing: dict[int, float] = {}  # the CHANCE IT value's share of it, by table size
        self._usable: dict[Sequence[CardDef], dict[int, tuple[str, ...]]] = {}  # a tableau -> its die cards

    def of(self, effects: Effects, face: int | None = None, bonus: int = 0) -> Vector:
        """The expected outcome of effects written for ``face`` (a die card or board face), with a chance ``bonus``."""
        valuer = self.valuer
        if face != valuer.face or bonus != valuer.bonus:
            valuer = dataclasses.replace(valuer, face=face, bonus=bonus)
        return valuer.of(effects)

    def worth(self, v: Vector) -> float:
        """One number for an outcome: its linear worth, hearts at their plain value, knives."""
        worth, hearts, knives = self.split(v)
        return worth + self.p.heart * hearts + self.knife * knives

    def passive(self, card: CardDef, tableau: Sequence[CardDef] = ()) -> Vector:
        """What a passive card adds per round to a seat holding ``tableau``: each of its effects valued by its kind."""
        valuer = self.valuer
        if tableau:
            valuer = dataclasses.replace(valuer, bonus_gain=lambda bonus: self.bonus_gain(bonus, tableau))
        total = ZERO
        for argument, kind in card.passive:
            total = kinds.add(total, kind.value(argument, valuer))
        return total

    def bonus_gain(self, bonus: int, tableau: Sequence[CardDef] = ()) -> Vector:
        """What a chance bonus adds per round to a seat holding ``tableau``, on top of the bonus it has.

        The CHANCE IT action's tests, the board's by how often each face comes, and those of
        the seat's own cards by how often each should fire.
        """
        rules, sides, count = self.rules, self.rules.sides, self.rules.dice_count
        have = modifier(tableau, BONUS)

        def more(effects: Effects, face: int | None = None) -> Vector:
            return kinds.add(self.of(effects, face, have + bonus), self.of(effects, face, have), -1.0)

        gain = kinds.add(ZERO, more(rules.chance_it), 0.3)  # CHANCE IT is played now and then
        for f in range(1, sides + 1):
            gain = kinds.add(gain, more(rules.board[f], f), count / sides)
        for card in tableau:
            if card.kind != "passive":
                gain = kinds.add(gain, more(card.effects, card.face or None), self.often[card.id] / self.p.horizon)
        return gain

    def split(self, v: Vector) -> tuple[float, float, float]:
        """An expected outcome as (linear worth, heart change, hearts the others lose)."""
        p = self.p
        return (p.coin * v[0] + p.star * v[2] + self.market_worth * v[3], v[1], v[4])

    def hearts_worth(self, hearts: float, holding: float) -> float:
        """Value of ending with ``hearts``; at 0 the bot loses everything it holds."""
        p = self.p
        if hearts <= 0:
            return -holding - 10 * p.star
        short = p.min_hearts - hearts  # the hot loop of every guide: no max() call
        return p.heart * hearts - (p.danger * short if short > 0 else 0.0)

    def guide_values(
        self,
        dice: Sequence[int],
        coins: int,
        hearts: int,
        stars: int,
        tableau: Sequence[CardDef],
        alive: int,
        others: Sequence[float] | None = None,
    ) -> dict[str, float]:
        """What each guide is worth in this position with these dice.

        ``others`` holds, for each other living player, the chance that it does not play OUT
        (by default the same for all, judged from the dice alone).
        """
        rules, p = self.rules, self.p
        chances = [self.others_play_in(dice, alive)] * (alive - 1) if others is None else others
        expected_in, everybody_out = 0.0, 1.0  # added left to right, as the batch engine does (see ``added``)
        for chance in chances:
            expected_in += chance
            everybody_out *= 1 - chance
        others_in = round(expected_in)
        holding = p.star * stars + p.coin * coins
        knife = self.knife * others_in

        out_sheet, in_sheet = rules.stakes[alive]
        take = out_sheet[min(alive - 2, alive - 1 - others_in)]  # with at least one other IN
        w, h, _ = self.all_out
        value_out = everybody_out * (w + self.hearts_worth(hearts + h, holding)) + (1 - everybody_out) * (
            p.coin * take + self.hearts_worth(hearts, holding)
        )

        pay = in_sheet[others_in]  # stakes come first
        change: float
        worth, change, knives, rerolls = -p.coin * min(pay, coins), -max(0, pay - coins), 0.0, 0
        usable = self._usable.get(tableau) if tableau else None
        if usable is None and tableau:
            if len(self._usable) >= 4096:
                self._usable.clear()
            usable = self._usable[tableau] = self.die_cards(tableau)
        used: dict[int, int] = {}  # of each face's die cards, how many this roll has used
        faces, rerolled = self.face, self.rerolls
        for face in dice:
            w, h, k = faces[face]
            worth, change, knives = worth + w, change + h, knives + k
            if usable:
                waiting = usable.get(face)
                if waiting:
                    taken = used.get(face, 0)
                    if taken < len(waiting):
                        used[face] = taken + 1
                        w, h, k = self.card[waiting[taken]]
                        worth, change, knives = worth + w, change + h, knives + k
            if rerolled[face]:
                rerolls += rerolled[face]
                worth, knives = worth + self.reroll_worth, knives + self.reroll_knives
        value_in = knife * knives + self.over_rerolls(hearts + change, rerolls, holding, worth)

        w, h, k = self.chance_it
        for card in tableau:
            if card.kind == CHANCE_IT:
                cw, ch, ck = self.card[card.id]
                if cw + p.heart * ch > 0:  # the best chance-it card, roughly
                    w, h, k = w + cw, h + ch, k + ck
                    break
        value_chance = (
            knife * (knives + k)
            + self.over_rerolls(hearts + change + h, rerolls, holding, worth + w)
            + p.chance_it
            - self.forcing(alive)
        )
        return {IN: value_in, OUT: value_out, CHANCE_IT: value_chance}

    def die_cards(self, tableau: Sequence[CardDef]) -> dict[int, tuple[str, ...]]:
        """A tableau's die cards by face, the best first (each is used once, on one die of its face)."""
        usable: dict[int, list[CardDef]] = {}
        for card in tableau:
            if card.kind == "die":
                usable.setdefault(card.face, []).append(card)
        return {face: tuple(c.id for c in sorted(cards, key=lambda c: -self.card_now[c.id])) for face, cards in usable.items()}

    def over_rerolls(self, hearts: float, rerolls: int, holding: float, gains: float = 0.0) -> float:
        """The worth of ending with ``hearts`` and ``gains`` plus what ``rerolls`` rerolled dice do to the hearts, on
        average; a player left without hearts keeps nothing, the gains of the round included.

        One reroll is enumerated exactly (a heart-losing face matters); more are taken at their mean.
        """
        changes = self.reroll_hearts if rerolls else _UNCHANGED
        if rerolls:
            hearts += (rerolls - 1) * self.reroll_mean
        p = self.p
        heart, danger, least, ruin = p.heart, p.danger, p.min_hearts, -holding - 10 * p.star
        total = 0.0
        for change in changes:  # hearts_worth plus the gains, written out (the hot loop of every guide)
            left = hearts + change
            if left <= 0:
                total += ruin
            else:
                short = least - left
                total += heart * left - (danger * short if short > 0 else 0.0) + gains
        return total / len(changes)

    def others_play_in(self, dice: Sequence[int], alive: int) -> float:
        """How likely another player is to play IN with these dice at a table of ``alive``: how good they look from a
        plain position (the sheet of that table size, so a change to another count's sheet changes nothing here)."""
        key = (*dice, alive)
        chance = self._pull.get(key)
        if chance is None:
            values = self.guide_values(dice, 5, 6, 0, (), alive, others=[0.6] * (alive - 1))
            chance = self._pull[key] = _pull(values[IN] - values[OUT])
        return chance

    def read_others(self, dice: Sequence[int], others: Sequence[PlayerView], alive: int) -> list[float]:
        """Level-1 reasoning: each other living player's chance of not playing OUT, judged from its own holdings.

        Each other player is taken to choose as a plain (level-0) heuristic player would in
        its position, with this bot's weights: one at its last heart sees that the all-OUT
        rule would take that heart when everybody plays OUT. So a table where everybody is
        low on hearts is no longer read as a table that will surely play IN (each bot then
        played OUT, and the all-OUT rule eliminated them all at once). A player forced IN
        plays IN.
        """
        level0: list[float] | None = None
        chances = []
        seen, roll = self._level0, tuple(dice)
        for other in others:
            if other.forced_in:
                chances.append(1.0)
                continue
            position = other.position
            key = (roll, position, alive)
            chance = seen.get(key)
            if chance is None:  # the bots of a table share this model: a position with these dice is judged once
                if level0 is None:
                    level0 = [self.others_play_in(dice, alive)] * (alive - 1)
                values = self.guide_values(dice, *position, alive, level0)
                if len(seen) >= 4096:
                    seen.clear()
                chance = seen[key] = _pull(max(values[IN], values[CHANCE_IT]) - values[OUT])
            chances.append(chance)
        return chances

    def forcing(self, alive: int) -> float:
        """What playing CHANCE IT costs at a table of ``alive`` in forced rounds: another CHANCE IT forces both IN."""
        cost = self._forcing.get(alive)
        if cost is None:  # measured once (a measurement under way sees none: forced_cost holds 0 meanwhile)
            cost = self._forcing[alive] = (1 - 0.8 ** (alive - 1)) * self.forced_cost(alive)
        return cost

    def forced_cost(self, alive: int, samples: int = 200) -> float:
        """What losing the free choice of guide costs at a table of ``alive`` on average: E[best of IN and OUT] - E[IN]
        over random rolls (computed once per table size; fixed rolls, so the same persona and rules give the same bot)."""
        cost = self._forced.get(alive)
        if cost is None:
            self._forced[alive] = 0.0  # the CHANCE IT value below needs a cost: none while it is being measured
            total = 0.0
            for dice in fixed_rolls(self.rules.sides, self.rules.dice_count, samples):
                values = self.guide_values(dice, 5, max(self.p.min_hearts + 1, 4), 5, (), alive)
                total += max(values[IN], values[OUT]) - values[IN]
            cost = self._forced[alive] = total / samples
        return cost


@lru_cache(maxsize=16)
def fixed_rolls(sides: int, count: int, samples: int) -> tuple[list[int], ...]:
    """``samples`` rolls of ``count`` dice, each sorted, the same every time (a generator seeded with 0): the rolls
    over which :meth:`_Model.forced_cost` averages, drawn once for every persona of these dice."""
    rng = random.Random(0)
    return tuple(sorted(rng.randint(1, sides) for _ in range(count)) for _ in range(samples))


class HeuristicBot:
    """Chooses by the persona's value model (see the module docstring)."""

    __slots__ = ("_model", "gaps", "persona", "rng")

    def __init__(self, persona: Persona, rng: Stream):
        self.persona = persona
        self.rng = rng
        self._model: _Model | None = None
        #: how close each free choice between IN and OUT was: |value(IN) - value(OUT)|, in thousandths
        self.gaps = Moments()

    def model(self, rules: Rules) -> _Model:
        """The value model for these rules (built on first use)."""
        if self._model is None or self._model.rules is not rules:
            self._model = model_for(self.persona, rules)
        return self._model

    def pick(self, values: Sequence[float]) -> int:
        """The option to take by its value: the first worth most, or with a ``temperature``, one drawn with a chance
        that grows as exp(value / temperature) (a quantal response; one draw of the bot's stream)."""
        best = 0  # the first worth most, as max() takes it, without a call a value
        for index in range(1, len(values)):
            if values[index] > values[best]:
                best = index
        temperature = self.persona.temperature
        if not temperature or len(values) == 1:
            return best
        return drawn(quantal(values, temperature), self.rng.bits())

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        if len(options) == 1:
            return options[0]
        values = self.guide_values(view)
        self.gaps.add(round(1000 * abs(values[IN] - values[OUT])))
        return options[self.pick([values[g] for g in options])]

    def guide_values(self, view: View) -> dict[str, float]:
        """What each guide is worth to this seat, with this round's dice and the others' holdings (level 1)."""
        seat, dice = view.seat, view.dice
        others = [other for other in view.players if other.seat != seat and not other.eliminated]
        model = self.model(view.rules)
        alive = len(others) + 1
        chances = model.read_others(dice, others, alive)
        return model.guide_values(dice, *view.players[seat].position, alive, chances)

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        return options[self.pick([self.move_value(view, move) for move in options])]

    def move_value(self, view: View, move: MarketMove) -> float:
        """What a market move is worth: a card's worth to this seat now, less its price, or denying it to others.

        Hearts count more when the bot is low on them, and a knife more when it can knock
        out another player who has a single heart left.
        """
        model = self.model(view.rules)
        action, card_id = move
        if action != BUY:
            return 0.01 * model.card_worth[card_id]
        p, me = self.persona, view.me
        card = view.rules.by_id[card_id]
        if me.coins - card.cost < p.reserve:
            return -1e9
        worth, hearts, knives = model.split(model.passive(card, me.tableau)) if card.kind == "passive" else model.card[card_id]
        heart = p.heart + (p.danger if me.hearts <= p.min_hearts else 0.0)
        knife = 0.0
        if knives:
            guides = view.guides
            for other in view.players:
                in_reach = card.kind != "flash" or (guides is not None and guides[other.seat] not in (None, OUT))
                if other.seat != view.seat and not other.eliminated and in_reach:
                    knife += model.knife + (2.0 * p.star if other.hearts <= knives else 0.0)
            knife *= 1.0 if card.kind == "flash" else 0.6  # a die card hits only those who play in
        return (worth + heart * hearts + knife * knives) * model.often[card_id] - p.coin * card.cost

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        return options[self.pick(self.use_values(view, options))]

    def use_values(self, view: View, options: tuple[CardDef, ...]) -> list[float]:
        """What each eligible card is worth used now."""
        model = self.model(view.rules)
        return [model.card_now[card.id] for card in options]

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        """The option worth most now (the first of equals; see :meth:`choose_values`)."""
        return self.pick(self.choose_values(view, options))

    def choose_values(self, view: View, options: tuple[Effects, ...]) -> list[float]:
        """What each option of a ``choose`` is worth: valued as it would apply at this moment (what the bot and the
        others in the round hold, the dice as they show, its chance bonus); hearts count more when it is low on them."""
        model, me, p = self.model(view.rules), view.me, self.persona
        holding = p.star * me.stars + p.coin * me.coins
        guides, count = view.guides, len(view.players)
        others = sorted(
            (other for other in view.players if other.seat != me.seat and not other.eliminated and guides is not None
             and guides[other.seat] not in (None, OUT)),
            key=lambda other: (other.seat - me.seat) % count,
        )  # fmt: skip
        valuer = dataclasses.replace(
            model.valuer,
            bonus=modifier(me.tableau, BONUS),
            position=Position((me.coins, me.hearts, me.stars), tuple((o.coins, o.hearts, o.stars) for o in others), view.dice),
        )

        def worth(index: int) -> float:
            value, hearts, knives = model.split(valuer.of(options[index]))
            return value + model.hearts_worth(me.hearts + hearts, holding) + model.knife * knives

        return [worth(index) for index in range(len(options))]

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        """The victim giving most (see :meth:`target_values`)."""
        return options[self.pick(self.target_values(view, options, taking))]

    def target_values(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> list[float]:
        """What each victim gives: what it can give by the persona's values, more for knocking it out or for a leader."""
        p = self.persona
        weights = (p.coin, p.heart, p.star)

        def gain(seat: int) -> float:
            victim = view.players[seat]
            have = (victim.coins, victim.hearts, victim.stars)
            value = added(weights[r] * min(n, have[r]) for r, n in taking)
            knocked = any(r == HEARTS and n >= victim.hearts for r, n in taking)
            return value + (2.0 * p.star if knocked else 0.0) + 0.1 * p.star * victim.stars

        return [gain(seat) for seat in options]


def quantal(values: Sequence[float], temperature: float) -> list[float]:
    """The chance of each option of a quantal-response player: proportional to exp(value / temperature).

    >>> [round(x, 3) for x in quantal([1.0, 0.0, -1e9], 0.5)]
    [0.881, 0.119, 0.0]
    """
    top = max(values)
    weights = [math.exp(lead) if (lead := (value - top) / temperature) > -700.0 else 0.0 for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


def _pull(lead: float) -> float:
    """How likely a player is to take an option that leads by ``lead`` (in stars): a logistic, safe on huge leads."""
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, lead))))


@lru_cache(maxsize=64)
def model_for(persona: Persona, rules: Rules) -> _Model:
    return _Model(persona, rules)


class RandomBot:
    """Uniform over the legal options; it draws from its stream only when it has a choice (as the batch engine's)."""

    __slots__ = ("rng",)

    def __init__(self, rng: Stream):
        self.rng = rng

    @classmethod
    def of(cls, persona: Persona, rng: Stream) -> RandomBot:
        """The random policy's bot (it reads no parameter of ``persona``)."""
        return cls(rng)

    def pick(self, n: int) -> int:
        """An index among ``n`` options."""
        return self.rng.below(n) if n > 1 else 0

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        return options[self.pick(len(options))]

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        return options[self.pick(len(options))]

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        return options[self.pick(len(options))]

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        return self.pick(len(options))

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        return options[self.pick(len(options))]


class _First:
    """A decider that plays a fixed first guide, then hands over to another decider."""

    __slots__ = ("first", "then")

    def __init__(self, first: str, then: Decider):
        self.first: str | None = first
        self.then = then

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        if self.first is not None:
            first, self.first = self.first, None
            return first
        return self.then.guide(view, options)

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        return self.then.market(view, options)

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        return self.then.use(view, options)

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        return self.then.choose(view, options, texts)

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        return self.then.target(view, options, taking)


class SearchBot:
    """Monte Carlo lookahead over guides, market moves, effect choices and victims (see the module docstring)."""

    __slots__ = ("persona", "rng", "rollout")

    def __init__(self, persona: Persona, rng: Stream):
        self.persona = persona
        self.rng = rng
        self.rollout = HeuristicBot(persona, rng)  # its card uses, and every seat of its sampled futures

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        """Each guide played on sampled futures from the start of this round (the same dice), then played out."""
        if len(options) == 1:
            return options[0]

        def play(guide: str, key: int) -> float:
            game, chance, deciders = self._future(view, key)
            deciders[view.seat] = _First(guide, deciders[view.seat])
            game.play_round(chance, deciders, roll=game.dice)
            return self._finish(game, chance, deciders, view.seat)

        return self._best(options, play)

    def market(self, view: View, options: tuple[MarketMove, ...]) -> MarketMove:
        """Every legal move made on sampled futures (a bought flash card's effects applied), then played out."""
        if len(options) == 1:
            return options[0]

        def play(move: MarketMove, key: int) -> float:
            game, chance, deciders = self._future(view, key)
            player = game.players[view.seat]
            flash = game.take(player, move, chance)
            if flash is not None:
                game.apply_effects(flash.effects, player, chance, deciders)
            game.check_end()
            return self._finish(game, chance, deciders, view.seat)

        return self._best(options, play)

    def use(self, view: View, options: tuple[CardDef, ...]) -> CardDef:
        return self.rollout.use(view, options)

    def choose(self, view: View, options: tuple[Effects, ...], texts: tuple[str, ...] = ()) -> int:
        """Each option applied on sampled futures, then played out (as a market move is)."""
        if len(options) == 1:
            return 0

        def play(index: int, key: int) -> float:
            game, chance, deciders = self._future(view, key)
            game.apply_effects(options[index], game.players[view.seat], chance, deciders)
            game.check_end()
            return self._finish(game, chance, deciders, view.seat)

        return self._best(tuple(range(len(options))), play)

    def target(self, view: View, options: tuple[int, ...], taking: tuple[tuple[int, int], ...]) -> int:
        """Each victim robbed on sampled futures, then played out."""
        if len(options) == 1:
            return options[0]

        def play(seat: int, key: int) -> float:
            game, chance, deciders = self._future(view, key)
            rob(game, game.players[view.seat], game.players[seat], taking)
            game.check_end()
            return self._finish(game, chance, deciders, view.seat)

        return self._best(options, play)

    def _best(self, options: Sequence[Option], play: Callable[[Option, int], float]) -> Option:
        """The option whose playouts score most (the first of equals), each played on the same ``playouts`` futures:
        their keys drawn once from the bot's stream, their scores added in order (as the batch engine adds them)."""
        keys = [self.rng.bits() for _ in range(self.persona.playouts)]
        best, most = 0, 0.0
        for i, option in enumerate(options):
            total = 0.0
            for key in keys:
                total += play(option, key)
            if not i or total > most:
                best, most = i, total
        return options[best]

    def _future(self, view: View, key: int) -> tuple[Game, RandomChance, list[Decider]]:
        """A sampled future keyed ``key``: a copy of the game with its face-down pile dealt anew, its own chance, and a
        heuristic bot of this persona in every seat (they draw nothing)."""
        streams = future_streams(key, len(view.players))
        chance = RandomChance(streams)
        deciders: list[Decider] = [HeuristicBot(self.persona, streams.stream(BOTS + seat)) for seat in range(len(view.players))]
        return view.sample(chance), chance, deciders

    def _finish(self, game: Game, chance: RandomChance, deciders: list[Decider], seat: int) -> float:
        self._play_on(game, chance, deciders)
        return score(game, seat)

    def _play_on(self, game: Game, chance: RandomChance, deciders: list[Decider]) -> None:
        """A sampled future played ``depth`` rounds on (fewer when it ends)."""
        for _ in range(self.persona.depth):
            if game.is_over:
                break
            game.play_round(chance, deciders)


class EquilibriumBot(SearchBot):
    """The search bot, except for its guide: a mixed strategy of the simultaneous guide choice, found by regret
    matching over the payoffs of every joint choice of the seats (see the module docstring)."""

    __slots__ = ()

    def guide(self, view: View, options: tuple[str, ...]) -> str:
        """A guide drawn from :meth:`mix` with one number from the bot's stream."""
        if len(options) == 1:
            return options[0]
        mix = self.mix(view)
        return GUIDES[drawn(mix, self.rng.bits())]

    def mix(self, view: View) -> list[float]:
        """This seat's mixed strategy over IN, OUT and CHANCE IT (:data:`GUIDES` order): regret matching's average
        play over the payoffs :meth:`payoffs` estimates."""
        living = [p.seat for p in view.players if not p.eliminated]
        choices = [1 if view.players[q].forced_in else len(GUIDES) for q in living]
        strategies = regret_matching(self.payoffs(view, living, choices), choices, self.persona.iterations)
        return strategies[living.index(view.seat)]

    def payoffs(self, view: View, living: list[int], choices: list[int]) -> list[list[float]]:
        """For each joint choice of the ``living`` seats (``itertools.product`` order over each seat's ``choices``
        first guides), each living seat's score summed over ``samples`` sampled futures: the same futures for every
        joint choice (their keys drawn once from the bot's stream), this round played from its start with these
        guides, then ``depth`` rounds by heuristic bots of this persona."""
        keys = [self.rng.bits() for _ in range(self.persona.samples)]
        joints = list(itertools.product(*(range(c) for c in choices)))
        totals = [[0.0] * len(living) for _ in joints]
        for key in keys:
            for joint, total in zip(joints, totals, strict=True):
                game, chance, deciders = self._future(view, key)
                for seat, guide in zip(living, joint, strict=True):
                    deciders[seat] = _First(GUIDES[guide], deciders[seat])
                game.play_round(chance, deciders, roll=game.dice)
                self._play_on(game, chance, deciders)
                for i, seat in enumerate(living):
                    total[i] += score(game, seat)
        return totals


def regret_matching(payoffs: Sequence[Sequence[float]], choices: Sequence[int], iterations: int) -> list[list[float]]:
    """Each seat's average strategy over ``iterations`` rounds of regret matching, every seat at once, in the game
    whose joint choices (``itertools.product`` order over each seat's ``choices`` options) pay ``payoffs[j][i]`` to
    seat ``i``: each round a seat plays its positive regrets' shares (evenly with none), then adds to each option's
    regret what it would have got against the others' strategies, less what it got. In a two-seat constant-sum game
    the averages approach an equilibrium; with more seats, a coarse correlated one. Written as the batch engine
    computes it, operation for operation.

    >>> [[round(x, 2) for x in s] for s in regret_matching([[1, 0], [0, 1], [0, 1], [1, 0]], [2, 2], 2000)]
    [[0.5, 0.5], [0.5, 0.5]]
    """
    seats = len(choices)
    joints = list(itertools.product(*(range(c) for c in choices)))
    regrets = [[0.0] * c for c in choices]
    sums = [[0.0] * c for c in choices]
    for _ in range(iterations):
        strategies = []
        for seat in range(seats):
            positive = 0.0
            for regret in regrets[seat]:
                positive += regret if regret > 0.0 else 0.0
            count = choices[seat]
            strategies.append([(r if r > 0.0 else 0.0) / positive if positive > 0.0 else 1.0 / count for r in regrets[seat]])
        values = [[0.0] * c for c in choices]
        for joint, paid in zip(joints, payoffs, strict=True):
            for seat in range(seats):
                weight = 1.0
                for other in range(seats):
                    if other != seat:
                        weight *= strategies[other][joint[other]]
                values[seat][joint[seat]] += weight * paid[seat]
        for seat in range(seats):
            got = 0.0
            for option in range(choices[seat]):
                got += strategies[seat][option] * values[seat][option]
            for option in range(choices[seat]):
                regrets[seat][option] += values[seat][option] - got
                sums[seat][option] += strategies[seat][option]
    return [[total / iterations for total in sums[seat]] for seat in range(seats)]


def drawn(mix: Sequence[float], bits: int) -> int:
    """The option a 64-bit draw picks from a mixed strategy: the first whose running total passes the draw as a
    fraction of 1 (its top 53 bits), else the last with a share (rounding)."""
    u = (bits >> 11) * 2.0**-53
    running, last = 0.0, 0
    for option, share in enumerate(mix):
        if share > 0.0:
            last = option
            running += share
            if u < running:
                return option
    return last


def score(game: Game, seat: int) -> float:
    """A seat's share of the win: 1/k among k winners of a finished game, else a soft lead on stars and hearts (added
    in seat order, as the batch engine adds it)."""
    if game.is_over:
        return 1 / len(game.winners) if seat in game.winners else 0.0
    if game.players[seat].eliminated:
        return 0.0
    living = [p for p in game.players if not p.eliminated]
    leads = [0.5 * (p.res[STARS] + 0.3 * min(p.res[HEARTS], 6) + 0.05 * p.res[COINS]) for p in living]
    top = max(leads)  # a softmax, shifted so that huge holdings cannot overflow
    total, mine = 0.0, 0.0
    for p, lead in zip(living, leads, strict=True):
        strength = math.exp(lead - top)
        total += strength
        if p.seat == seat:
            mine = strength
    return mine / total


__all__ = ["EquilibriumBot", "HeuristicBot", "RandomBot", "SearchBot", "drawn", "regret_matching", "score"]
