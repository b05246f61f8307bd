"""What the studio keeps running between requests: games with a person's seat, and simulate/compare runs.

Both play in a thread of their own through the library (``api.play``, ``api.simulate``,
``studies.compare``): the page asks for their state and answers or cancels. Family-agnostic.
"""

from __future__ import annotations

import contextvars
import threading
import time
from pathlib import Path
from typing import Any

from workbench import api, studies
from workbench.errors import UsageError, WorkbenchError
from workbench.games import Loaded, game_length
from workbench.play import Left, Question
from workbench.sim.runner import Stop

#: The form fields of the play and run panels, by the library parameter each sets: a refusal names the field.
PLAY_FIELDS = {"players": "Players", "seed": "Seed", "bots": "Other players' style", "people": "Your seat"}
RUN_FIELDS = {"players": "Players", "games": "Games", "seed": "Seed", "bots": "Players' style"}


def said(exc: WorkbenchError, fields: dict[str, str] | None = None) -> str:
    """A library error in one line for the page, a refused parameter named by its form field (``fields``)."""
    if isinstance(exc, UsageError):
        return exc.text(lambda parameter: (fields or {}).get(parameter, parameter))
    return "; ".join(str(p) for p in exc.problems)


#: How long an answer waits for the game to reach its next question (or its end) before the page asks again.
SETTLE_SECONDS = 10.0


class Table:
    """A game with one person's seat, played in a thread: each question waits for the page's answer."""

    def __init__(self, loaded: Loaded, players: int | None, seed: int, bots: str | None, seat: int):
        self.loaded = loaded
        self.seat = seat
        self.state = "playing"  #: playing, asking, over, stopped or failed
        self.question: Question | None = None
        self.log: list[str] = []
        self.result: dict[str, Any] | None = None
        self.message: str | None = None
        self._answer: int | None = None
        self._closed = False
        self._changed = threading.Condition()
        self.asked = 0  #: questions asked so far: an answer names the one it answers
        play = contextvars.copy_context().run  # the thread reads files as the request that started it may
        self._thread = threading.Thread(target=play, args=(self._play, players, seed, bots), name="studio-game", daemon=True)
        self._thread.start()

    def _play(self, players: int | None, seed: int, bots: str | None) -> None:
        try:
            output = api.play(
                self.loaded, players, seed, bots=bots or self.loaded.family.default_bot, people={self.seat: self._ask}
            )
        except Left as left:
            self._finish("stopped", None, left.problems[0].message)
        except WorkbenchError as exc:
            self._finish("failed", None, said(exc, PLAY_FIELDS))
        else:
            self._finish("over", output, None)

    def _finish(self, state: str, output: dict[str, Any] | None, message: str | None) -> None:
        with self._changed:
            self.state, self.result, self.message, self.question = state, output, message, None
            if output is not None:
                self.log = [self.loaded.family.describe(event) for event in output["events"]]
            self._changed.notify_all()

    def _ask(self, question: Question) -> int:
        with self._changed:
            self.question = question
            self.asked += 1
            self.log.extend(question.said)
            self.state = "asking"
            self._changed.notify_all()
            while self._answer is None and not self._closed:
                self._changed.wait()
            if self._closed:
                raise Left("the game was left for another")
            choice = self._answer
            assert choice is not None
            self._answer = None  # answer() has set the state: playing, no question
            return choice

    def answer(self, choice: int, number: int | None = None) -> None:
        """Answer the open question (the ``number``-th asked, when given) with the index of an option, and wait until
        the game asks again or ends."""
        with self._changed:
            self._settle()
            if self.state != "asking" or self.question is None:
                raise ValueError("the game is not waiting for an answer")
            if number is not None and number != self.asked:
                raise ValueError("that question was answered already (in another tab?): here is the game as it is now")
            if not 0 <= choice < len(self.question.options):
                raise ValueError(f"choose an option from 0 to {len(self.question.options) - 1}")
            self._answer = choice
            self.state, self.question = "playing", None
            self._changed.notify_all()
            self._settle()

    def _settle(self) -> None:
        deadline = time.monotonic() + SETTLE_SECONDS
        while self.state == "playing" and time.monotonic() < deadline:
            self._changed.wait(0.2)

    def close(self) -> None:
        """Leave the game (its thread ends at its next question)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def to_dict(self, key: str) -> dict[str, Any]:
        """The game's state for the page (after waiting a moment for a game that is still playing)."""
        with self._changed:
            self._settle()
            result = None
            if self.result is not None:
                headers, rows = self.loaded.family.state_table(self.result)
                result = {
                    "winners": self.result["winners"],
                    "end_reason": self.result["end_reason"],
                    "ending": self.loaded.family.figures.end_reasons.get(self.result["end_reason"], self.result["end_reason"]),
                    "length": game_length(self.loaded.family, self.result),
                    "table": {"headers": headers, "rows": rows},
                }
            return {
                "id": key,
                "state": self.state,
                "question": {**self.question.to_dict(), "number": self.asked} if self.question is not None else None,
                "log": list(self.log),
                "result": result,
                "message": self.message,
            }


class Job:
    """A ``simulate`` or ``compare`` run of the variant file as saved, in a thread, cancellable; its report in memory."""

    def __init__(
        self,
        kind: str,
        path: Path,
        against: Path | None,
        games: int,
        players: int | None,
        seed: int,
        bots: str | None,
        engine: str = "auto",
    ):
        self.kind = kind
        self.state = "running"  #: running, done, cancelled or failed
        self.done = 0
        self.total = games
        self.label = ""
        self.message: str | None = None
        self.lines: list[str] = []
        self.report: str | None = None
        self.stop = Stop()
        self._arguments = (path, against, games, players, seed, bots, engine)
        run = contextvars.copy_context().run  # the thread reads files as the request that started it may
        self._thread = threading.Thread(target=run, args=(self._run,), name=f"studio-{kind}", daemon=True)
        self._thread.start()

    def _progress(self, label: str, total: int) -> Any:
        self.label, self.total, self.done = label, total, 0

        def advance(finished: int) -> None:
            self.done += finished

        return advance

    def _notice(self, text: str) -> None:
        self.label = text  # "compiling the batch engine, once ...": the page shows it until the games start

    def _run(self) -> None:
        path, against, games, players, seed, bots, engine = self._arguments
        started = time.perf_counter()
        try:
            shared: dict[str, Any] = {"players": players, "games": games, "seed": seed, "bots": bots, "engine": engine}
            shared.update(progress=self._progress, notice=self._notice, stop=self.stop)
            done: api.Simulation | studies.Comparison = (
                api.simulate(path, **shared) if against is None else studies.compare([path, against], **shared)
            )
            if done.runs:
                self.report = done.report()
            played = sum(run.games for run in done.runs)  # a comparison's: on each variant
            table = ", ".join(str(run.players) for run in done.runs)
        except WorkbenchError as exc:
            self.state, self.message = "failed", said(exc, RUN_FIELDS)
            return
        except Exception as exc:  # noqa: BLE001 - the page says it in one line, as the terminal would
            self.state, self.message = "failed", f"internal error: {type(exc).__name__}: {exc}"
            return
        seconds = time.perf_counter() - started
        self.lines = [
            f"{played:,} games at {table or players} players in {seconds:.1f} s (seed {seed}, bots {bots or 'the default'})"
        ]
        if self.stop():
            self.state = "cancelled"
            self.message = f"cancelled: the report holds the {played:,} games that finished" if played else "cancelled"
        else:
            self.state = "done"

    def cancel(self) -> None:
        """Ask the run to stop: it keeps the games that finished."""
        self.stop.request()

    def to_dict(self, key: str) -> dict[str, Any]:
        """The run's state for the page."""
        return {
            "id": key,
            "kind": self.kind,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "label": self.label,
            "message": self.message,
            "lines": list(self.lines),
            "report": self.report is not None,
        }
