"""Chance Chess: scripted scenarios against python-chess, located errors, PGN, invariants over generated games with
every built-in bot, and the shared commands."""

from __future__ import annotations

import io
import json
import random
import tempfile
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from workbench import api
from workbench.cli import app
from workbench.errors import ScenarioError, UsageError
from workbench.games import FAMILIES
from workbench.games.chance_chess import bots, engine
from workbench.games.chance_chess.schema import CARDS, Persona, PersonaFile, Variant
from workbench.policies import make_bot
from workbench.sim.seeding import stream

ROOT = Path(__file__).parent.parent
FOLDER = ROOT / "tests" / "scenarios" / "chance-chess"
BROKEN = FOLDER / "broken"
BASE = ROOT / "variants" / "chance-chess.yaml"
TARGET_DICE = ROOT / "variants" / "target-dice.yaml"
SCENARIOS = sorted(FOLDER.glob("*.yaml"))
runner = CliRunner()


# --- an independent reading of a script: python-chess alone -----------------------------------------------------


def expected_board(script: dict[str, Any]) -> chess.Board:
    """The position after the script's plies, by python-chess alone: a pass is a null move, and so is the turn handed
    back to the checked side after its free move (when the free move leaves nobody in check)."""
    board = chess.Board((script.get("overrides") or {}).get("start", chess.STARTING_FEN))
    to_play = board.turn
    for ply in script["plies"]:
        if ply.get("card") == "reshuffle":
            continue
        if "free" in ply:
            assert board.is_check(), ply
            move = chess.Move.from_uci(ply["free"])
            assert move in board.legal_moves, ply
            board.push(move)
            if not board.is_check() and board.turn != to_play:
                board.push(chess.Move.null())
            continue
        assert board.turn == to_play and not board.is_check(), ply
        if ply.get("pass"):
            board.push(chess.Move.null())
        else:
            move = chess.Move.from_uci(ply["move"])
            assert move in board.legal_moves, ply
            board.push(move)
        to_play = not to_play
    return board


def replayed(path: Path) -> dict[str, Any]:
    result = api.replay(path)
    assert result is not None
    family, replay = result
    assert family is FAMILIES["chance-chess"]
    assert replay.failures == []
    assert replay.passed
    output: dict[str, Any] = replay.output
    return output


# --- scripted scenarios -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_passes_and_ends_where_python_chess_does(path: Path) -> None:
    script = yaml.safe_load(path.read_text())
    output = replayed(path)
    fen = expected_board(script).fen()
    assert script["expect"]["fen"] == fen, "the scenario's expected FEN is python-chess's"
    assert output["fen"] == fen


def test_the_scenarios_cover_the_rules() -> None:
    outputs = {path.stem: replayed(path) for path in SCENARIOS}
    assert outputs["checkmate"]["end_reason"] == "checkmate" and outputs["checkmate"]["winner"] == "black"
    assert outputs["check-free-move"]["free_moves"] == 1
    assert outputs["reshuffle"]["reshuffles"] == 1
    assert outputs["passes"]["passes"] == {"chosen": 1, "forced": 1}
    assert outputs["free-move-gives-check"]["end_reason"] == "insufficient_material"
    assert outputs["repetition"]["end_reason"] == "repetition"
    assert outputs["repetition-after-free-move"]["end_reason"] is None
    assert outputs["fifty-move-clock"]["end_reason"] == "fifty_moves"
    sans = {e.get("san") for output in outputs.values() for e in output["events"] if e["type"] == "move"}
    assert {"O-O", "O-O-O", "e8=Q", "exd6"} <= sans


def test_the_replay_command_passes_the_folder() -> None:
    result = runner.invoke(app, ["replay", *map(str, SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert f"{len(SCENARIOS)} passed, 0 failed" in result.stdout


@pytest.mark.parametrize(
    ("name", "key", "line", "words"),
    [
        ("wrong-piece", "plies.0.move", 6, ["g1f3 moves a knight, but the card drawn is pawn"]),
        ("not-top-card", "plies.1.card", 7, ["black draws a pawn card (the top of the deck)", "knight"]),
        ("turn-in-check", "plies.3.card", 9, ["black is in check", "free move"]),
        ("same-square", "plies.0.move", 6, ["'e2e2' is not a move in UCI"]),
    ],
)
def test_a_broken_script_is_refused_where_it_breaks(name: str, key: str, line: int, words: list[str]) -> None:
    path = BROKEN / f"{name}.yaml"
    with pytest.raises(ScenarioError) as caught:
        api.replay(path)
    problem = caught.value.problems[0]
    message = str(problem)
    assert problem.line == line, message
    assert f"{name}.yaml:{line}: {key}: " in message
    for word in words:
        assert word in message, message
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"{key}:" in result.output


# --- PGN --------------------------------------------------------------------------------------------------------


def script_pgn(path: Path, name: str, tmp_path: Path) -> tuple[chess.pgn.Game, dict[str, Any]]:
    """Replay ``path``, write its PGN and read it back."""
    result = api.replay(path)
    assert result is not None
    family, replay = result
    assert replay.passed
    target = tmp_path / "game.pgn"
    api.write_notation(target, [(family, name, replay.output, ())])
    game = chess.pgn.read_game(io.StringIO(target.read_text()))
    assert game is not None and not game.errors
    return game, replay.output


@pytest.mark.parametrize(
    "name",
    [
        "check-free-move",
        "passes",
        "reshuffle",
        "checkmate",
        "castling",
        "en-passant",
        "promotion",
        "free-move-gives-check",
    ],
)
def test_the_pgn_of_a_replay_reaches_its_final_position(name: str, tmp_path: Path) -> None:
    game, output = script_pgn(FOLDER / f"{name}.yaml", name, tmp_path)
    comments = [node.comment for node in game.mainline()]
    said = " ".join(comments)
    for card in (e["card"] for e in output["events"] if e["type"] == "draw"):
        assert card in said
    if output["free_moves"]:
        assert "free move out of check" in said
    if name == "check-free-move":
        assert "the turn returns to black after its free move" in said
    if name == "passes":
        assert comments[:2] == ["rook: no rook can move, pass", "knight: pass by choice"]
    if name == "reshuffle":
        assert "reshuffle" in said
    assert game.end().board().board_fen() == chess.Board(output["fen"]).board_fen()
    assert game.end().board().fen() == output["fen"]


def test_the_pgn_of_a_replay_stopped_after_a_free_move(tmp_path: Path) -> None:
    script = yaml.safe_load((FOLDER / "check-free-move.yaml").read_text())
    script["variant"] = str(BASE)
    script["plies"] = script["plies"][:4]  # up to black's free move; black's own turn comes next
    script["expect"] = {"plies": 4, "fen": expected_board(script).fen()}
    path = tmp_path / "stopped.yaml"
    path.write_text(yaml.safe_dump(script))
    game, output = script_pgn(path, "stopped", tmp_path)
    assert output["fen"] == script["expect"]["fen"]
    assert game.end().board().fen() == output["fen"]


# --- invariants over generated games ----------------------------------------------------------------------------


@st.composite
def decks(draw: st.DrawFn) -> dict[str, int]:
    """Copies per card, with at least one card that moves a piece."""
    copies = {card: draw(st.integers(0, 6)) for card in CARDS}
    if not sum(n for card, n in copies.items() if card != "reshuffle"):
        copies[draw(st.sampled_from([c for c in CARDS if c != "reshuffle"]))] = draw(st.integers(1, 6))
    copies["reshuffle"] = min(copies["reshuffle"], sum(n for card, n in copies.items() if card != "reshuffle"))
    return copies


def make_variant(copies: dict[str, int], max_plies: int = 150, start: str = chess.STARTING_FEN) -> Variant:
    return Variant.model_validate(
        {
            "name": "generated",
            "game": "chance-chess",
            "deck": {"size": sum(copies.values()), "cards": copies},
            "start": start,
            "max_plies": max_plies,
        }
    )


class Checker:
    """Called after every ply: the cards are all there, and every move of the log so far was legal."""

    def __init__(self, size: int, start: str):
        self.size = size
        self.board = chess.Board(start)
        self.to_play = self.board.turn
        self.seen = 0
        self.plies = 0

    def __call__(self, game: engine.Game) -> None:
        assert game.hand is None
        assert len(game.deck) + len(game.discard) == self.size
        assert sorted(game.deck + game.discard) == sorted(game.rules.deck)
        events = game.events or []
        for event in events[self.seen :]:
            self.follow(event)
        self.seen = len(events)
        self.plies += 1
        assert game.ply == self.plies
        assert self.board.board_fen() == game.board.board_fen()

    def follow(self, event: dict[str, Any]) -> None:
        board = self.board
        kind = event["type"]
        if kind == "free":
            assert board.is_check(), event
            assert board.turn == engine.seat_colour(event["seat"]), event
            move = chess.Move.from_uci(event["move"])
            assert move in board.legal_moves, event
            board.push(move)
            if not board.is_check() and board.turn != self.to_play:
                board.push(chess.Move.null())
        elif kind in ("move", "pass"):
            assert not board.is_check(), event
            assert board.turn == self.to_play == engine.seat_colour(event["seat"]), event
            if kind == "pass":
                mine = engine.card_moves(board, event["card"])
                assert bool(mine) != event["forced"], event
                board.push(chess.Move.null())
            else:
                move = chess.Move.from_uci(event["move"])
                assert move in board.legal_moves, event
                piece = board.piece_type_at(move.from_square)
                assert piece is not None
                assert event["card"] in ("any", engine.PIECE_NAMES[piece]), event
                board.push(move)
            self.to_play = not self.to_play


def play_checked(copies: dict[str, int], seed: int, bot: str, persona: dict[str, Any] | None = None) -> engine.Game:
    variant = make_variant(copies)
    rules = engine.compile_variant(variant)
    game = engine.Game(rules, engine.RandomChance.streams(seed, 0))
    checker = Checker(variant.deck.size, variant.start)
    game.after_step = checker
    chosen = PersonaFile.builtin_bots()[bot] if persona is None else Persona.model_validate(persona)
    players = [make_bot(chosen, stream(seed, 0, "bot", seat)) for seat in range(2)]
    game.play(players)
    assert game.is_over
    assert game.ply <= variant.max_plies
    assert checker.plies == game.ply
    assert game.end_reason in engine.END_REASONS
    if game.end_reason == "checkmate":
        assert game.board.is_checkmate()
        assert game.winners == [engine.seat_of(not game.board.turn)]
    else:
        assert game.winners == []
    return game


@pytest.mark.parametrize("bot", ["random", "greedy"])
@settings(max_examples=50)  # each example is a whole game checked after every ply
@given(copies=decks(), seed=st.integers(0, 2**32 - 1))
def test_generated_games_keep_the_rules(bot: str, copies: dict[str, int], seed: int) -> None:
    play_checked(copies, seed, bot)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_base_deck_keeps_the_rules(seed: int) -> None:
    copies = dict(yaml.safe_load(BASE.read_text())["deck"]["cards"])
    play_checked({card: copies.get(card, 0) for card in CARDS}, seed, "random")


@settings(max_examples=2)
@given(copies=decks(), seed=st.integers(0, 2**32 - 1))
def test_the_search_bot_keeps_the_rules(copies: dict[str, int], seed: int) -> None:
    play_checked(copies, seed, "search", {"policy": "search", "depth": 1, "budget": 20})


@settings(max_examples=10)
@given(copies=decks(), seed=st.integers(0, 2**32 - 1), bot=st.sampled_from(["random", "greedy"]))
def test_the_pgn_of_a_generated_game_holds_its_moves(copies: dict[str, int], seed: int, bot: str) -> None:
    """The PGN's mainline is the event log's moves, with a null move for each pass and each turn handed back."""
    game = play_checked(copies, seed, bot)
    output = game.snapshot()
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "game.pgn"
        api.write_notation(target, [(FAMILIES["chance-chess"], "generated", output, ())])
        read = chess.pgn.read_game(io.StringIO(target.read_text()))
    assert read is not None and not read.errors
    moves = [move for move in read.mainline_moves() if move]
    assert [m.uci() for m in moves] == [e["move"] for e in output["events"] if e["type"] in ("move", "free")]
    nulls = sum(1 for move in read.mainline_moves() if not move)
    assert nulls >= game.passes
    assert read.end().board().fen() == game.board.fen()  # the side to move and the clocks too
    ended = {"checkmate": ("1-0", "0-1"), None: ("*",)}.get(game.end_reason, ("1/2-1/2",))
    assert read.headers["Result"] in ended


# --- the shared commands ----------------------------------------------------------------------------------------


def test_validate_accepts_the_base_variant() -> None:
    result = runner.invoke(app, ["validate", str(BASE)])
    assert result.exit_code == 0, result.output


def test_odds_of_the_base_variant() -> None:
    """Exact, from the counts: a turn's card is one of the 100 that move a piece (a reshuffle card means drawing
    again from a full deck), so a king moves on its 12 cards and the 25 any cards: 37 in 100."""
    result = runner.invoke(app, ["odds", str(BASE), "--json"])
    assert result.exit_code == 0, result.output
    odds = json.loads(result.output)
    assert odds["cards"]["reshuffle"]["draw"]["fraction"] == "1/101"
    assert odds["cards"]["reshuffle"]["turn"]["fraction"] == "0/1"
    assert odds["cards"]["any"]["turn"]["fraction"] == "1/4"
    assert odds["pieces"]["king"]["moves"]["fraction"] == "37/100"
    assert odds["pieces"]["pawn"]["moves"]["fraction"] == "19/50"


def test_odds_of_waiting_two_turns_worked_by_hand() -> None:
    """King 1, pawn 1, reshuffle 1. White's first turn is the pawn with 1/2 (the pawn, or the reshuffle card and
    then the pawn: 1/3 + 1/3 * 1/2); black's turn then leaves out the pawn and the king (1/2), the king (1/4: the
    reshuffle card, then the king) or the pawn (1/4); white's second turn misses the king with 1/2, 3/4 and 1/4 from
    those decks: 1/2 * (1/2 * 1/2 + 1/4 * 3/4 + 1/4 * 1/4) = 1/4."""
    from workbench.games.chance_chess.odds import odds

    variant = Variant.model_validate(
        {"name": "tiny", "game": "chance-chess", "deck": {"size": 3, "cards": {"king": 1, "pawn": 1, "reshuffle": 1}}}
    )
    assert odds(variant)["pieces"]["king"]["waits_two_turns"]["fraction"] == "1/4"
    assert odds(variant)["pieces"]["knight"]["waits_two_turns"]["fraction"] == "1/1"


def test_simulate_writes_the_summary_and_every_game_in_pgn(tmp_path: Path) -> None:
    out, pgn = tmp_path / "sim", tmp_path / "games.pgn"
    result = runner.invoke(app, ["simulate", str(BASE), "--games", "40", "--out", str(out), "--pgn", str(pgn)])
    assert result.exit_code == 0, result.output
    wins = json.loads((out / "summary.json").read_text())["wins"]
    results = {"white": wins["by_seat"][0], "black": wins["by_seat"][1], "draw": wins["no_winner"]}
    assert sum(results[side]["rate"] for side in ("white", "black", "draw")) == pytest.approx(1.0, abs=1e-3)
    handle = io.StringIO(pgn.read_text())
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        games.append(game)
    assert len(games) == 40
    ends = [game.headers["Result"] for game in games]
    assert ends.count("1-0") == round(results["white"]["rate"] * 40)
    assert ends.count("0-1") == round(results["black"]["rate"] * 40)


def test_a_quote_or_a_backslash_in_a_name_is_escaped_in_its_pgn_tag(tmp_path: Path) -> None:
    """The PGN standard escapes a quote and a backslash in a tag's value with a backslash; unescaped, a quote would end
    the value early for a reader that follows it."""
    variant = tmp_path / "quoted.yaml"
    variant.write_text(f"extends: {BASE}\nname: 'the \"wild\" deck \\\\ v2'\n")
    pgn = tmp_path / "games.pgn"
    result = runner.invoke(app, ["simulate", str(variant), "--games", "2", "--pgn", str(pgn), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    events = [line for line in pgn.read_text().splitlines() if line.startswith("[Event ")]
    assert len(events) == 2 and all(line.startswith('[Event "the \\"wild\\" deck \\\\\\\\ v2') for line in events), events
    handle = io.StringIO(pgn.read_text())
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors


def test_a_name_with_a_line_break_keeps_every_game_of_the_pgn_readable(tmp_path: Path) -> None:
    """A variant's name is a PGN tag: a line break in it would end the tag and lose the game's moves."""
    variant = tmp_path / "two-lines.yaml"
    variant.write_text(f'extends: {BASE}\nname: "two\\nlines"\n')
    pgn, records = tmp_path / "games.pgn", tmp_path / "games.jsonl"
    result = runner.invoke(
        app,
        ["simulate", str(variant), "--games", "3", "--pgn", str(pgn), "--records", str(records), "--out", str(tmp_path / "out")],
    )
    assert result.exit_code == 0, result.output
    handle = io.StringIO(pgn.read_text())
    finals = []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        assert game.headers["Event"] == "two lines"
        finals.append(game.end().board().fen())
    assert finals == [json.loads(line)["fen"] for line in records.read_text().splitlines()]


def test_compare_two_decks(tmp_path: Path) -> None:
    other = tmp_path / "more-any.yaml"
    other.write_text(
        yaml.safe_dump(
            {
                "name": "More any",
                "game": "chance-chess",
                "deck": {
                    "size": 101,
                    "cards": {
                        "pawn": 10,
                        "knight": 10,
                        "bishop": 10,
                        "rook": 10,
                        "queen": 10,
                        "king": 10,
                        "any": 40,
                        "reshuffle": 1,
                    },
                },
            }
        )
    )
    out = tmp_path / "cmp"
    result = runner.invoke(app, ["compare", str(BASE), str(other), "--games", "40", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "compare.json").is_file()


def test_a_player_count_chess_is_not_for_is_refused_in_its_words(tmp_path: Path) -> None:
    for command in (["print", str(BASE), "--out", str(tmp_path / "set.pdf")], ["simulate", str(BASE), "--games", "1"]):
        result = runner.invoke(app, [*command, "--players", "3"])
        assert result.exit_code == 1
        assert "is for exactly 2 players" in result.output, result.output
    assert not (tmp_path / "set.pdf").exists()


@pytest.mark.slow
def test_print_the_base_variant(tmp_path: Path) -> None:
    target = tmp_path / "set.pdf"
    result = runner.invoke(app, ["print", str(BASE), "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(b"%PDF")


def test_pgn_is_refused_for_a_game_without_notation(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", str(TARGET_DICE), "--games", "2", "--out", str(tmp_path / "td"), "--pgn", str(tmp_path / "td.pgn")]
    )
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == ["--pgn: Target dice games have no standard notation to write"], result.output
    assert not (tmp_path / "td.pgn").exists()


@pytest.mark.slow
@settings(max_examples=2)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_search_bot_looking_two_draws_ahead_keeps_the_rules(seed: int) -> None:
    copies = dict(yaml.safe_load(BASE.read_text())["deck"]["cards"])
    deck = {card: copies.get(card, 0) for card in CARDS}
    play_checked(deck, seed, "search", {"policy": "search", "depth": 2, "budget": 40})


@pytest.mark.parametrize("deck", ["base", "no reshuffle card"])
def test_recorded_games_replay_to_the_same_end(deck: str, tmp_path: Path) -> None:
    """``simulate --record-scenarios`` writes each game as a script that replays to the same final state: the deck
    as drawn, every reshuffle's new deck, and (a deck with no reshuffle card runs out) every turned-over deck."""
    variant = BASE
    if deck != "base":
        variant = tmp_path / "small.yaml"
        cards = "{pawn: 3, knight: 2, bishop: 2, rook: 1, queen: 1, king: 1, any: 2, reshuffle: 0}"
        variant.write_text(f"extends: {BASE}\nname: small deck\ndeck: {{size: 12, cards: {cards}}}\nmax_plies: 120\n")
    folder = tmp_path / "games"
    folder.mkdir()
    simulation = api.simulate(variant, games=6, bots="random", record_scenarios=folder)
    turned = sum(run.figures["per_game"]["turnovers"] for run in simulation.runs)
    assert (turned > 0) == (deck != "base")  # 12 cards run out within 120 plies; the reshuffle card never lets 101 do
    for script in sorted(folder.glob("game-2p-*.yaml")):
        replayed = api.replay(script)
        assert replayed is not None
        _, result = replayed
        assert result.passed and result.checks == 9, result.failures  # the 8 keys of expect: (passes counts 2)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_bots_check_filter_never_misses_a_check(seed: int) -> None:
    """``may_check`` spares the bots python-chess's ``gives_check`` on most moves: it must be true for every move
    that gives check, in every position of a random game."""
    rng = random.Random(seed)
    board = chess.Board()
    while not board.is_game_over() and board.ply() < 160:
        moves = list(board.legal_moves)
        assert all(bots.may_check(board, move) for move in moves if board.gives_check(move)), board.fen()
        board.push(rng.choice(moves))


def test_pgn_never_replaces_an_input_or_a_file_it_did_not_write(tmp_path: Path) -> None:
    """``--pgn`` is checked before the game: the variant or scenario read is never the target (not even with
    --force), and a file the workbench did not write is replaced only with --force."""
    variant = tmp_path / "mine.yaml"
    variant.write_text(BASE.read_text())
    scenario = tmp_path / "passes.yaml"
    scenario.write_text((FOLDER / "passes.yaml").read_text().replace("../../../variants/chance-chess.yaml", str(BASE)))
    for command in (["play", str(variant)], ["replay", str(scenario)]):
        target = command[1]
        before = Path(target).read_bytes()
        result = runner.invoke(app, [*command, "--pgn", target, "--force"])
        assert result.exit_code == 1 and "names the same file" in result.output, result.output
        assert Path(target).read_bytes() == before
    notes = tmp_path / "notes.pgn"
    notes.write_text("my own notes\n")
    result = runner.invoke(app, ["play", str(variant), "--pgn", str(notes)])
    assert result.exit_code == 1 and "add --force to replace it" in result.output
    assert notes.read_text() == "my own notes\n"
    assert runner.invoke(app, ["play", str(variant), "--pgn", str(notes), "--force", "--bots", "greedy,random"]).exit_code == 0
    headers = chess.pgn.read_headers(io.StringIO(notes.read_text()))
    assert headers is not None
    assert (headers["Event"], headers["White"], headers["Black"]) == ("Chance Chess, seed 1", "greedy (bot)", "random (bot)")


def test_a_capture_after_either_free_move_of_a_chain_is_counted() -> None:
    """Black checks; white's free move gives check back; black's free move answers it; white's own turn then
    captures: a free move followed by a capture (white's), though black's free move came after it."""

    class Dealt:
        def deal(self, deck: list[str]) -> None:
            deck[:] = ["rook", "bishop"]  # black draws the bishop, then white the rook

        def reshuffle(self, deck: list[str]) -> None: ...

        def turnover(self, deck: list[str]) -> None: ...

        def draw(self, deck: list[str]) -> str:
            return deck.pop()

    class Moves:
        def __init__(self, *moves: str) -> None:
            self.moves = [chess.Move.from_uci(move) for move in moves]

        def move(self, view: Any, card: str, moves: Any) -> chess.Move | None:
            return self.moves.pop(0)

        def free(self, view: Any, moves: Any) -> chess.Move:
            return self.moves.pop(0)

    start = "2bQ3R/1r6/1ppb4/1k3pP1/p5P1/2PPK3/1P1B1N2/1n1R1B2 b - - 1 33"
    game = engine.Game(engine.Rules(("bishop", "rook"), start, 600), Dealt())
    deciders = [Moves("d3d4", "d1b1"), Moves("d6c5", "b5a5")]
    for _ in range(4):  # Bc5+, d4+ (white's free move), Ka5 (black's), Rxb1
        game.step(deciders)
    assert (game.free_moves, game.free_then_capture, game.captures) == (2, 1, 1)


def test_a_deck_of_mostly_reshuffle_cards_is_refused(tmp_path: Path) -> None:
    """More reshuffle cards than cards that move a piece: a turn would mostly shuffle (and a game take hours)."""
    variant = tmp_path / "shuffly.yaml"
    cards = "{pawn: 0, knight: 0, bishop: 0, rook: 0, queen: 0, any: 0, king: 1, reshuffle: 2}"
    variant.write_text(f"extends: {BASE}\nname: shuffly\ndeck:\n  size: 3\n  cards: {cards}\n")
    (problem,) = api.validate(variant).problems
    assert problem.endswith(
        "deck.cards.reshuffle: 2 reshuffle cards outnumber the 1 cards that move a piece: a turn would "
        "mostly shuffle the deck (at most as many reshuffle cards as the others)"
    ), problem
    assert f"{variant.name}:5:" in problem


def test_replay_pgn_never_replaces_the_variant_and_refuses_a_game_without_notation(tmp_path: Path) -> None:
    variant = tmp_path / "mine.yaml"
    variant.write_text(BASE.read_text())
    scenario = tmp_path / "passes.yaml"
    scenario.write_text((FOLDER / "passes.yaml").read_text().replace("../../../variants/chance-chess.yaml", "mine.yaml"))
    before = variant.read_bytes()
    result = runner.invoke(app, ["replay", str(scenario), "--pgn", str(variant), "--force"])
    assert result.exit_code == 1 and "names the same file" in result.output and variant.read_bytes() == before
    other = ROOT / "tests" / "scenarios" / "target-dice" / "reshuffle.yaml"
    result = runner.invoke(app, ["replay", str(other), "--pgn", str(tmp_path / "x.pgn")])
    assert result.exit_code == 1 and "no standard notation" in result.output and "PASS" not in result.output


def test_the_library_plays_and_replays_into_pgn_as_the_command_line_does(tmp_path: Path) -> None:
    """``api.play(..., notation=)`` and ``api.replay_all(..., notation=)`` own the --pgn sequence: the same file
    as the command line's, byte for byte; a refusal names the parameter ``notation``, not an option."""
    by_hand, by_command = tmp_path / "library.pgn", tmp_path / "command.pgn"
    output = api.play(BASE, seed=4, bots="greedy,random", notation=by_hand)
    assert (
        runner.invoke(app, ["play", str(BASE), "--seed", "4", "--bots", "greedy,random", "--pgn", str(by_command)]).exit_code == 0
    )
    assert by_hand.read_bytes() == by_command.read_bytes()
    read = chess.pgn.read_game(io.StringIO(by_hand.read_text()))
    assert read is not None and read.headers["White"] == "greedy (bot)" and read.end().board().fen() == output["fen"]

    scripts = [FOLDER / "passes.yaml", FOLDER / "checkmate.yaml"]
    heard: list[str] = []
    replays = api.replay_all(scripts, notation=by_hand, each=lambda r: heard.append(r.path.name))
    assert heard == ["passes.yaml", "checkmate.yaml"] and [r.passed for r in replays] == [True, True]
    assert runner.invoke(app, ["replay", *map(str, scripts), "--pgn", str(by_command)]).exit_code == 0
    assert by_hand.read_bytes() == by_command.read_bytes()
    assert by_hand.read_text().count("[Event ") == 2

    with pytest.raises(UsageError) as refused:
        api.play(TARGET_DICE, notation=tmp_path / "td.pgn")
    assert refused.value.field == "notation" and "--" not in str(refused.value)
    assert not (tmp_path / "td.pgn").exists()


def test_a_replay_that_breaks_the_rules_is_its_own_result_and_the_others_go_on(tmp_path: Path) -> None:
    broken = sorted(BROKEN.glob("*.yaml"))[0]
    replays = api.replay_all([broken, FOLDER / "passes.yaml"])
    assert [r.passed for r in replays] == [False, True]
    assert isinstance(replays[0].error, ScenarioError) and replays[0].result is None
    with pytest.raises(ScenarioError):
        api.replay(broken)
