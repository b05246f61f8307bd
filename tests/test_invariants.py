"""The invariant checker passes the real engine and catches a deliberately broken one.

Each mutation test breaks the engine in one small, realistic way: :func:`mutate` takes
the source of one engine function, replaces a line or two of it and installs the mutant
with ``monkeypatch`` (so a mutation that no longer matches the engine's code fails
loudly instead of silently testing nothing). The test first plays the same seeded games
with the real engine and the checker attached, then with the mutant, and expects the
checker to name the broken rule. The ``test_gap_*`` tests are breakages a first version of
the checker missed; each shows from the event log that the rule really broke.
"""

from __future__ import annotations
import __future__

import dataclasses
import inspect
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from workbench.games import load_variant, replay_scenario
from workbench.games.chance_it import engine
from workbench.games.chance_it.chance import RandomChance, bot_stream
from workbench.games.chance_it.effects.others_lose import OthersLoseKind
from workbench.games.chance_it.engine import GUIDES, Game, Round, compile_variant
from workbench.games.chance_it.invariants import InvariantError, Invariants
from workbench.games.chance_it.rules import Rules
from workbench.games.chance_it.schema import PersonaFile
from workbench.policies import make_bot

BUILTIN = PersonaFile.builtin_bots()

ROOT = Path(__file__).parent.parent
BASE = load_variant(ROOT / "variants" / "chance-it.yaml").variant
SCENARIOS = sorted(p for p in (ROOT / "tests" / "scenarios").glob("*.yaml") if not p.name.startswith("variant-"))

#: The seeded games every mutation test plays: (players, policy, seed), all counts and both bots interleaved.
GAMES = [(players, policy, seed) for seed in range(6) for players in (3, 4, 5, 6) for policy in ("random", "heuristic")]
#: Supply totals (coins, hearts, stars) small enough that GAMES run each supply dry (the box's never runs dry).
TIGHT = (50, 50, 60)


# --- playing with the checker attached -----------------------------------------------------------------------------


def rules(**changes: Any) -> Rules:
    """The base variant compiled now (after any patch of the engine's effect handlers), with ``changes``."""
    compiled = compile_variant(BASE)
    return dataclasses.replace(compiled, **changes) if changes else compiled


def play_checked(compiled: Rules, players: int, policy: str, seed: int, *, final: bool = True, check: bool = True) -> Game:
    """One seeded game with the checker after every step and, with ``final``, once more on the final state.

    The engine runs ``after_step`` after each step, but not after the ``max_rounds``
    finish that follows the last step of the last round: only the final call sees it.
    Without ``check`` the game is played with its log but no checker.
    """
    chance = RandomChance.streams(seed, players)
    game = Game(compiled, players, chance, log=True)
    checker = game.after_step = Invariants(game) if check else None
    game.play(chance, [make_bot(BUILTIN[policy], bot_stream(seed, players, seat)) for seat in range(players)])
    if final and checker is not None:
        checker(game)
    return game


def play_all(compiled: Rules | None = None, games=GAMES, **options: Any) -> list[Game]:
    """Play ``games`` in order; the first broken invariant raises :class:`InvariantError`."""
    compiled = compiled or rules()
    return [play_checked(compiled, players, policy, seed, **options) for players, policy, seed in games]


def mutate(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, *edits: tuple[str, str]) -> None:
    """Replace ``owner.name`` (a method of the engine or of an effect kind) by its source with ``edits`` applied.

    Each edit is (old, new) and ``old`` must occur exactly once in the function's source.
    An effect kind's ``apply`` is read when rules are compiled: compile rules after this.
    """
    original = inspect.getattr_static(owner, name)
    function = original.__func__ if isinstance(original, staticmethod) else original
    source = textwrap.dedent(inspect.getsource(function))
    for old, new in edits:
        assert source.count(old) == 1, f"the mutation no longer fits {name}: {old!r} occurs {source.count(old)} times"
        source = source.replace(old, new)
    namespace: dict[str, Any] = {}
    code = compile(source, f"<mutant {name}>", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    exec(code, vars(sys.modules[function.__module__]), namespace)  # the mutant sees the original's globals
    monkeypatch.setattr(owner, name, namespace[function.__name__])  # a staticmethod stays one (its decorator is in the source)


def breaks(monkeypatch: pytest.MonkeyPatch, match: str, owner: Any, name: str, *edits: tuple[str, str], **options: Any) -> None:
    """The games pass with the real engine; with the mutation the checker raises naming ``match``."""
    changes = options.pop("changes", {})
    play_all(rules(**changes), **options)
    mutate(monkeypatch, owner, name, *edits)
    with pytest.raises(InvariantError, match=match):
        play_all(rules(**changes), **options)


# --- the real engine passes -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_checker_passes_seeded_games_of_the_base_variant(players: int, policy: str) -> None:
    games = play_all(rules(), [(players, policy, seed) for seed in range(25)])
    for game in games:
        assert game.is_over and game.after_step.steps > game.round


def test_the_base_games_end_in_every_way_the_checker_judges() -> None:
    """The games the mutation tests play reach every end reason, so each end check is exercised."""
    reasons = {game.end_reason for game in play_all()}
    reasons |= {game.end_reason for game in play_all(rules(max_rounds=5))}
    assert reasons == {"stars", "last_standing", "all_eliminated", "max_rounds"}


def test_the_checker_passes_games_that_run_the_supply_dry() -> None:
    games = play_all(rules(supply=TIGHT))
    assert all(any(game.dry[r] for game in games) for r in range(3))  # coins, hearts and stars each ran out


@pytest.mark.parametrize("max_rounds", [1, 5, 12])
def test_the_checker_passes_games_that_end_by_the_round_limit(max_rounds: int) -> None:
    games = play_all(rules(max_rounds=max_rounds))
    assert any(game.end_reason == "max_rounds" for game in games)
    assert all(game.round <= max_rounds for game in games)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_checker_passes_every_scripted_scenario(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkers: list[Invariants] = []
    setup = Game.__init__

    def checked_init(self: Game, *args: Any, **kwargs: Any) -> None:
        setup(self, *args, **kwargs)
        checkers.append(Invariants(self))
        self.after_step = checkers[-1]

    monkeypatch.setattr(Game, "__init__", checked_init)
    _, result = replay_scenario(path)
    assert result.failures == []
    assert len(checkers) == 1
    checker = checkers[0]
    assert checker.steps >= result.output["rounds"]  # at least one step per scripted round
    checker(checker.game)  # and the final state, end reason included


# --- rule 15: conservation --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("resource", ["coins", "hearts", "stars"])
def test_conservation_of_each_limited_resource(resource: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.gain` forgets to take one resource from the supply."""
    index = engine.RESOURCES.index(resource)
    breaks(
        monkeypatch,
        f"conservation: {resource}: players and supply hold",
        Game,
        "gain",
        ("self.supply[resource] = left - amount", f"self.supply[resource] = left - amount * (resource != {index})"),
    )


def test_conservation_of_each_limited_resource_when_tokens_are_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.lose` takes from the player but returns nothing to the supply."""
    breaks(
        monkeypatch,
        "conservation: (coins|hearts|stars): players and supply hold",
        Game,
        "lose",
        ("self.supply[resource] += amount", "pass"),
    )


def test_conservation_of_cards_a_bought_flash_card_vanishes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.take` puts a bought flash card nowhere instead of on the discard pile."""
    breaks(
        monkeypatch,
        "conservation: the cards in pile, market, discard and tableaux are not the deck",
        Game,
        "take",
        (
            '(self.discard if card.kind == "flash" else player.tableau).append(card)',
            'player.tableau.append(card) if card.kind != "flash" else None',
        ),
    )


def test_conservation_of_cards_an_eliminated_players_cards_vanish(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.eliminate` clears the tableau without putting its cards on the discard pile."""
    breaks(
        monkeypatch,
        "conservation: the cards",
        Game,
        "eliminate",
        ("self.discard.extend(player.tableau)", "pass"),
    )


# --- nothing negative -------------------------------------------------------------------------------------------------


def test_nothing_negative_a_player_loses_more_than_they_have(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.lose` no longer caps the loss at what the player has."""
    breaks(
        monkeypatch,
        r"nothing negative: seat \d+ holds",
        Game,
        "lose",
        ("if amount > have:\n        amount = have\n", "pass\n"),
    )


def test_nothing_negative_a_limited_supply_gives_more_than_it_has(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.gain` no longer caps the gain at what a limited supply has left."""
    breaks(
        monkeypatch,
        "nothing negative: the supply holds",
        Game,
        "gain",
        ("amount = left\n", "pass\n"),
        changes={"supply": TIGHT},
    )


# --- rule 12: elimination ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edits",
    [
        pytest.param([("self.discard.extend(player.tableau)\n    player.tableau = []\n", "pass\n")], id="keeps-the-tableau"),
        pytest.param([("for resource, amount in enumerate(player.res):", "for resource, amount in ():")], id="keeps-tokens"),
        pytest.param([("player.forced_in = False\n", "pass\n")], id="stays-forced-in"),
    ],
)
def test_eliminated_players_hold_nothing(edits: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.eliminate` forgets one of the things an eliminated player gives up."""
    breaks(monkeypatch, r"eliminated hold nothing: seat \d+ is out but holds", Game, "eliminate", *edits)


def test_a_player_with_no_hearts_must_be_eliminated(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.settle` never eliminates anybody (it tests for negative hearts)."""
    breaks(
        monkeypatch,
        r"eliminated hold nothing: seat \d+ has no hearts but is still in the game",
        Game,
        "settle",
        ("if not player.res[HEARTS] and", "if player.res[HEARTS] < 0 and"),
    )


def test_eliminated_players_act_no_more_chance_it_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CHANCE IT action no longer skips participants eliminated during the round."""
    breaks(
        monkeypatch,
        r"eliminated act no more: seat \d+ has a 'chance_it' event after its elimination",
        Round,
        "chance_it_action",
        ("if player.eliminated or player.guide != CHANCE_IT:", "if player.guide != CHANCE_IT:"),
    )


def test_eliminated_players_act_no_more_the_knife_hits_the_fallen(monkeypatch: pytest.MonkeyPatch) -> None:
    """`others_lose` (Ambush, Dagger) also hits participants already eliminated this round."""
    breaks(
        monkeypatch,
        r"eliminated act no more: seat \d+ has a 'lose' event after its elimination",
        OthersLoseKind,
        "apply",
        ("if other is not player and not other.eliminated:", "if other is not player:"),
    )


def test_eliminated_players_act_no_more_stakes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who pays their last heart as stakes is eliminated before the payment is logged."""
    breaks(
        monkeypatch,
        r"eliminated act no more: seat \d+ pays or takes stakes after its elimination",
        Round,
        "stakes",
        (
            'game.log("stakes", seat=player.seat, coins=-coins, hearts=-hearts)\n        game.settle(player)\n',
            'game.settle(player)\n        game.log("stakes", seat=player.seat, coins=-coins, hearts=-hearts)\n',
        ),
    )


def test_only_players_in_the_game_pick_guides(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guides event shows an eliminated seat's stale guide instead of null."""
    breaks(
        monkeypatch,
        r"guides: seat \d+ picks but is out",
        Round,
        "choose_guides",
        ("guides=[None if p.eliminated else p.guide for p in game.players]", "guides=[p.guide for p in game.players]"),
    )


# --- rules 2 and 3: forced IN -----------------------------------------------------------------------------------------


def test_forced_players_play_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forced player is offered every guide (``FORCED`` replaced), and random bots take them."""
    play_all()
    monkeypatch.setattr(engine, "FORCED", GUIDES)
    with pytest.raises(InvariantError, match=r"forced in: seat \d+ was forced to play IN but played (out|chance-it)"):
        play_all()


@pytest.mark.parametrize(
    "edits",
    [
        pytest.param(
            [("forced = chancers >= self.rules.forced_in_after", "forced = chancers > self.rules.forced_in_after")],
            id="threshold-off-by-one",
        ),
        pytest.param(
            [
                (
                    "player.forced_in = forced and player.guide == CHANCE_IT",
                    "player.forced_in = player.forced_in or forced and player.guide == CHANCE_IT",
                )
            ],
            id="never-released",
        ),
    ],
)
def test_the_forced_set_follows_forced_in_after(edits: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    breaks(monkeypatch, r"forced in: forced next round: \[.*\], the rules force", Round, "choose_guides", *edits)


# --- rule 4: stakes ---------------------------------------------------------------------------------------------------


def test_stakes_an_out_player_paid_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    breaks(
        monkeypatch,
        r"stakes: seat \d+ settles the stakes twice",
        Round,
        "stakes",
        ("for player in outs:", "for player in outs + outs:"),
    )


def test_stakes_an_out_player_paid_the_wrong_amount(monkeypatch: pytest.MonkeyPatch) -> None:
    """OUT players always take the one-OUT rate, whatever the number of OUT players."""
    breaks(
        monkeypatch,
        r"stakes: OUT seat \d+ took \d+ coins and 0 hearts, the sheet says \d+ coins",
        Round,
        "stakes",
        ("take = out_sheet[len(outs) - 1]", "take = out_sheet[0]"),
    )


def test_stakes_an_in_player_paid_the_wrong_amount(monkeypatch: pytest.MonkeyPatch) -> None:
    """IN players pay by the number of players in the game instead of the number playing IN."""
    breaks(
        monkeypatch,
        r"stakes: IN seat \d+ paid \d+, the sheet says \d+",
        Round,
        "stakes",
        ("pay = in_sheet[len(ins) - 1]", "pay = in_sheet[len(alive) - 1]"),
    )


def test_stakes_an_in_player_paying_too_little_stays_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player short of coins pays no hearts for the rest."""
    breaks(
        monkeypatch,
        r"stakes: IN seat \d+ paid less than the sheet and is still in the game",
        Round,
        "stakes",
        ("hearts = game.lose(player, HEARTS, pay - coins) if pay > coins else 0", "hearts = 0"),
    )


def test_stakes_a_player_does_not_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """CHANCE IT players are left out of the stakes (and the action round)."""
    breaks(
        monkeypatch,
        r"stakes: (seats \[.*\] settled the stakes, the players are|an all-OUT round, but somebody played)",
        Round,
        "stakes",
        ("ins = [p for p in order if p.guide != OUT]", "ins = [p for p in order if p.guide == IN]"),
    )


# --- rule 14: the starting player -------------------------------------------------------------------------------------


def test_the_starting_player_rotation_skips_eliminated_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pass_starting_player` hands the dice to the next seat even when it is out: the roller is not in the game."""
    breaks(
        monkeypatch,
        r"turn order: seat \d+ starts the round but is out of the game",
        Round,
        "pass_starting_player",
        ("if not candidate.eliminated:", "if True:"),
    )


def test_the_starting_player_rotation_goes_clockwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pass_starting_player` goes the wrong way round."""
    breaks(
        monkeypatch,
        r"turn order: seat \d+ starts, but the next player in the game after \d+ is \d+",
        Round,
        "pass_starting_player",
        ("(game.starting_player + step) % count", "(game.starting_player - step) % count"),
    )


# --- rules 13 and 14: the end -----------------------------------------------------------------------------------------


def test_the_game_ends_within_max_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The round limit is compared with ``>``: one round too many is played."""
    breaks(
        monkeypatch,
        r"ends within max_rounds: round 6 of at most 5",
        Round,
        "play",
        ("if game.round >= rules.max_rounds:", "if game.round > rules.max_rounds:"),
        changes={"max_rounds": 5},
    )


@pytest.mark.parametrize(
    "name, edits",
    [
        pytest.param("check_end", [("if any(p.res[STARS] >= threshold for p in alive):", "if False:")], id="never-by-stars"),
        pytest.param("gain", [("self.stars_reached = True", "pass")], id="stars-never-flagged"),
        pytest.param("check_end", [("and self.living > 1:", "and self.living > 0:")], id="last-standing-missed"),
    ],
)
def test_the_end_check_runs(name: str, edits: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The game goes on after a step that should have ended it."""
    breaks(monkeypatch, r"end check: the game should have ended after this step", Game, name, *edits)


def test_end_reason_stars_agrees_with_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last player standing is reported as a win by stars."""
    breaks(
        monkeypatch,
        r"end reason: ended by stars, but nobody in the game has enough",
        Game,
        "check_end",
        ('self.finish("last_standing", alive)', 'self.finish("stars", alive)'),
    )


def test_end_reason_last_standing_agrees_with_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game in which nobody is left is reported as won by the last one standing."""
    breaks(
        monkeypatch,
        r"end reason: last standing, but 0 left and winners \[\]",
        Game,
        "check_end",
        ('self.finish("all_eliminated", alive)', 'self.finish("last_standing", alive)'),
    )


def test_end_reason_all_eliminated_agrees_with_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """When everybody is out, the eliminated players are ranked and all declared winners."""
    breaks(
        monkeypatch,
        r"end reason: all eliminated, but somebody is left or won",
        Game,
        "check_end",
        ('self.finish("all_eliminated", alive)', 'self.finish("all_eliminated", self.players)'),
    )


def test_end_reason_max_rounds_agrees_with_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game stops one round before the limit and calls it the limit (seen by the final check)."""
    breaks(
        monkeypatch,
        r"end reason: max_rounds in round 4, the limit is 5",
        Round,
        "play",
        ("if game.round >= rules.max_rounds:", "if game.round >= rules.max_rounds - 1:"),
        changes={"max_rounds": 5},
    )


@pytest.mark.parametrize("max_rounds", [200, 5], ids=["ended-by-stars", "ended-by-max-rounds"])
def test_winners_are_the_best_by_the_tiebreak(max_rounds: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game.finish` reads the tiebreak backwards (coins, hearts, stars)."""
    breaks(
        monkeypatch,
        r"end reason: winners \[.*\], but the best by the tiebreak are \[.*\]",
        Game,
        "finish",
        ("order = self.rules.tiebreak", "order = self.rules.tiebreak[::-1]"),
        changes={"max_rounds": max_rounds},
    )


# --- gaps a first version of the checker missed ----------------------------------------------------------------
#
# Each gap test first shows, from the event logs of the mutant's games played without the
# checker, that the mutant really breaks the rule in these games (a failed witness is a
# plain test failure, not an expected one); then it expects the checker to notice.


def unnoticed(
    monkeypatch: pytest.MonkeyPatch,
    witness: Any,
    match: str,
    owner: Any,
    name: str,
    *edits: tuple[str, str],
    changes: dict[str, Any] | None = None,
    final: bool = True,
) -> None:
    """Like :func:`breaks`, after checking that ``witness(mutant_game, real_game)`` finds the broken rule in some game."""
    compiled = rules(**(changes or {}))
    real = play_all(compiled, final=final)
    mutate(monkeypatch, owner, name, *edits)
    compiled = rules(**(changes or {}))
    mutant = play_all(compiled, check=False)
    assert any(witness(game, twin) for game, twin in zip(mutant, real)), "the mutant breaks no rule in these games"
    with pytest.raises(InvariantError, match=match):
        play_all(compiled, final=final)


def rounds(game: Game):
    """Each played round's number, guides and events (the setup, round 0, left out)."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    for event in game.events:
        by_round.setdefault(event["round"], []).append(event)
    for number, events in sorted(by_round.items()):
        guides = next((e["guides"] for e in events if e["type"] == "guides"), None)
        if guides is not None:
            yield number, guides, events


def best_by_tiebreak(game: Game) -> list[int]:
    alive = game.alive()
    key = lambda p: tuple(p.res[i] for i in game.rules.tiebreak)  # noqa: E731
    return [p.seat for p in alive if key(p) == max(map(key, alive))] if alive else []


def out_paid_short_from_a_full_supply(game: Game, _: Game) -> bool:
    """An OUT player took less than the sheet although the coin supply never ran out in this game."""
    if game.dry[engine.COINS]:
        return False
    for _, guides, events in rounds(game):
        outs = [s for s, g in enumerate(guides) if g == engine.OUT]
        playing = [s for s, g in enumerate(guides) if g is not None]
        for e in events:
            if (
                e["type"] == "stakes"
                and guides[e["seat"]] == engine.OUT
                and e["coins"] < game.rules.stakes[len(playing)][0][len(outs) - 1]
            ):
                return True
    return False


def all_out_with_a_player_in(game: Game, _: Game) -> bool:
    return any(
        any(e["type"] == "all_out" for e in events) and any(g not in (None, engine.OUT) for g in guides)
        for _, guides, events in rounds(game)
    )


def stakes_out_of_turn_order(game: Game, _: Game) -> bool:
    """Stakes settled (OUT players, then IN players) not clockwise from the starting player."""
    count = len(game.players)
    for _, guides, events in rounds(game):
        start = next(e["seat"] for e in events if e["type"] == "roll")
        seats = [e["seat"] for e in events if e["type"] == "stakes"]
        for group in ([s for s in seats if guides[s] == engine.OUT], [s for s in seats if guides[s] != engine.OUT]):
            if group != sorted(group, key=lambda s: (s - start) % count):
                return True
    return False


def hearts_paid_while_coins_were_enough(game: Game, real: Game) -> bool:
    """Where the mutant's log first departs from the real engine's, an IN player pays in hearts what it paid in coins."""
    for mine, theirs in zip(game.events, real.events):
        if mine != theirs:
            return (
                mine["type"] == theirs["type"] == "stakes"
                and mine["hearts"] < theirs["hearts"]
                and mine["coins"] > theirs["coins"]
            )
    return False


def out_player_in_the_action_round(game: Game, _: Game) -> bool:
    """A player who played OUT gains, buys, discards or uses a card after a die of its round is resolved."""
    for _, guides, events in rounds(game):
        resolving = False
        for e in events:
            resolving = resolving or e["type"] == "die"
            if resolving and e["type"] in ("gain", "buy", "discard", "use") and guides[e["seat"]] == engine.OUT:
                return True
    return False


def test_gap_the_hook_alone_never_sees_a_max_rounds_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine runs ``after_step`` before the ``max_rounds`` finish, never after it.

    So with the hook alone (no final call), wrong winners of a game ended by the round
    limit (here: `Game.finish` reads the tiebreak backwards) go unnoticed, and so would a
    wrong round for the ``max_rounds`` reason.
    """
    unnoticed(
        monkeypatch,
        lambda game, _: game.end_reason == "max_rounds" and game.winners != best_by_tiebreak(game),
        r"end reason: winners",
        Game,
        "finish",
        ("order = self.rules.tiebreak", "order = self.rules.tiebreak[::-1]"),
        changes={"max_rounds": 5},
        final=False,
    )


def test_gap_an_out_player_paid_too_little_from_a_limited_supply(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a limited coin supply the checker accepts any OUT payout from 0 to the sheet, even from a full supply."""
    unnoticed(
        monkeypatch,
        out_paid_short_from_a_full_supply,
        r"stakes: an OUT player took less than the sheet though the supply held",
        Round,
        "stakes",
        ("got = game.gain(player, COINS, take)", "got = game.gain(player, COINS, take - 1)"),
    )


def test_gap_an_all_out_round_when_somebody_played_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``all_out`` event is accepted without a look at the guides: a lone IN player is treated as all-out."""
    unnoticed(monkeypatch, all_out_with_a_player_in, r"stakes|all.out", Round, "stakes", ("if not ins:", "if len(ins) <= 1:"))


def test_gap_turn_order_within_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The order of play within a round (rule 5: clockwise from the starting player) is not checked."""
    unnoticed(
        monkeypatch,
        stakes_out_of_turn_order,
        r"turn order",
        Game,
        "turn_order",
        ("[p for p in players if p.seat >= start] + [p for p in players if p.seat < start]", "list(players)"),
    )


def test_gap_the_first_starting_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first round's starting player (rule 1: seat 0) is not checked, only the rotation after it."""
    unnoticed(
        monkeypatch,
        lambda game, _: game.events[1]["type"] == "roll" and game.events[1]["seat"] != 0,
        r"turn order",
        Game,
        "__init__",
        ("self.starting_player = 0", "self.starting_player = 1"),
    )


def test_gap_stakes_paid_in_hearts_before_coins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the sum of coins and hearts is checked: a player who cannot pay all in coins pays all in hearts."""
    unnoticed(
        monkeypatch,
        hearts_paid_while_coins_were_enough,
        r"stakes: IN seat",
        Round,
        "stakes",
        ("coins = game.lose(player, COINS, pay)", "coins = game.lose(player, COINS, pay) if player.res[COINS] >= pay else 0"),
    )


def test_gap_out_players_take_part_in_the_action_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """Who takes part in the action round (rule 5: IN and CHANCE IT players) is not checked."""
    unnoticed(
        monkeypatch,
        out_player_in_the_action_round,
        r"act|participa|guides",
        Round,
        "stakes",
        (
            "self.participants = [p for p in ins if not p.eliminated]",
            "self.participants = [p for p in order if not p.eliminated]",
        ),
    )
