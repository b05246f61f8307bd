"""A game in PGN, the drawn cards as comments: ``--pgn FILE`` of ``replay``, ``simulate`` and ``play``.

PGN needs the sides to alternate; a pass is the null move ``--`` (python-chess writes and reads it), and so is the
turn handed back to the checked side after its free move, with a comment saying so. The comments name the card each
move was made with, the reshuffles before it, and the free moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import chess
import chess.pgn

from workbench.games.chance_chess.engine import seat_of
from workbench.games.chance_chess.schema import SIDES
from workbench.games.chance_chess.text import ENDINGS

#: The PGN result of a game by its winning seats ([] a draw; None: not ended).
RESULTS = {(0,): "1-0", (1,): "0-1", (): "1/2-1/2"}


def tag(text: str) -> str:
    """A PGN tag's value on one line: a variant's name or a file's may hold line breaks (and other control
    characters), which would end the tag and make the rest of the game unreadable; each becomes a space. A quote
    and a backslash are escaped with a backslash, as the PGN standard asks (python-chess writes values as given).

    >>> tag("two\\nlines\\tand a tab")
    'two lines and a tab'
    >>> print(tag('the "wild" deck \\\\ v2'))
    the \\"wild\\" deck \\\\ v2
    """
    one_line = "".join(" " if ord(char) < 32 or ord(char) == 127 else char for char in text)
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def pgn(
    output: dict[str, Any],
    *,
    event: str,
    round_: str = "-",
    names: Sequence[str] = ("?", "?"),
    seed: int | None = None,
) -> str:
    """The game of ``output`` (a final state with its event log, which starts with the start position) as one PGN
    game, ending in a blank line.

    >>> out = {"end_reason": None, "winners": [], "plies": 2, "events": [
    ...     {"ply": 0, "type": "start", "seat": 0, "fen": chess.STARTING_FEN},
    ...     {"ply": 1, "type": "draw", "seat": 0, "card": "knight"},
    ...     {"ply": 1, "type": "move", "seat": 0, "move": "g1f3"},
    ...     {"ply": 2, "type": "draw", "seat": 1, "card": "rook"},
    ...     {"ply": 2, "type": "pass", "seat": 1, "card": "rook", "forced": True}]}
    >>> print(pgn(out, event="test").splitlines()[-2])
    1. Nf3 { knight } 1... -- { rook: no rook can move, pass } *
    """
    game = chess.pgn.Game()
    game.headers["Event"] = tag(event)
    game.headers["Site"] = "Chance Chess"
    game.headers["Round"] = tag(round_)
    game.headers["White"], game.headers["Black"] = tag(names[0]), tag(names[1])
    ended = output["end_reason"] is not None
    game.headers["Result"] = RESULTS[tuple(output["winners"])] if ended else "*"
    if ended:
        game.headers["Termination"] = ENDINGS[output["end_reason"]]
    if seed is not None:
        game.headers["Seed"] = str(seed)
    start = output["events"][0]["fen"]
    board = chess.Board(start)
    if start != chess.STARTING_FEN:
        game.setup(board)
    node: chess.pgn.GameNode = game
    to_play = board.turn  # whose turn comes next (a free move comes before it)
    said: list[str] = []  # what comes before the next move: reshuffles, the card drawn
    for item in output["events"]:
        kind = item["type"]
        if kind == "reshuffle":
            said.append("reshuffle: every card into a new deck")
        elif kind == "turnover":
            said.append("the deck ran out: the discard pile is the new deck")
        elif kind == "draw":
            said.append(item["card"])
        elif kind in ("move", "pass", "free"):
            if kind == "pass":  # the card drawn is the last thing said
                said[-1] += f": no {item['card']} can move, pass" if item["forced"] else ": pass by choice"
                move = chess.Move.null()
            else:
                move = chess.Move.from_uci(item["move"])
                if kind == "free":
                    said.append("free move out of check")
            node = node.add_variation(move, comment=", ".join(said))
            board.push(move)
            said = []
            if kind != "free":
                to_play = not to_play
            elif not board.is_check() and board.turn != to_play:  # as the engine does: the turn returns to its side
                node = node.add_variation(
                    chess.Move.null(), comment=f"the turn returns to {SIDES[seat_of(to_play)]} after its free move"
                )
                board.push(chess.Move.null())
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter) + "\n\n"
