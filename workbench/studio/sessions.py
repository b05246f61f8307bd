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

from workbench import api, playtest, studies
from workbench.errors import UsageError, WorkbenchError
from workbench.games import Loaded, game_length
from workbench.play import Chance, Left, Question
from workbench.play import Table as PlayTable
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


class Asking:
    """What a game in a thread shares with the page: each thing it asks waits for the page's answer, and the page
    sees the state (asking, playing, over, stopped or failed) whenever it asks. A subclass plays the game in
    :meth:`_play` and says what its answers are (:meth:`_taken`)."""

    def __init__(self, loaded: Loaded, seat: int = 0):
        self.loaded = loaded
        self.seat = seat  #: the seat whose question is open (the person's, in a game against bots)
        self.state = "playing"  #: playing, asking, over, stopped or failed
        self.question: Question | Chance | None = None
        self.table: dict[str, Any] | None = None  #: every player's holdings as last shown
        self.log: list[str] = []
        self.result: dict[str, Any] | None = None
        self.message: str | None = None
        self._answer: Any = None
        self._closed = False
        self._changed = threading.Condition()
        self.asked = 0  #: questions asked so far: an answer names the one it answers
        self.told = 0  #: events of the game's log in :attr:`log`

    def start(self) -> None:
        play = contextvars.copy_context().run  # the thread reads files as the request that started it may
        threading.Thread(target=play, args=(self._played,), name="studio-game", daemon=True).start()

    def _play(self) -> dict[str, Any]:
        """Play the game (asking through :meth:`_ask`); its final state."""
        raise NotImplementedError

    def _played(self) -> None:
        try:
            output = self._play()
        except Left as left:
            self._finish("stopped", None, self._stopped(left.problems[0].message))
        except WorkbenchError as exc:
            self._finish("failed", None, said(exc, PLAY_FIELDS))
        else:
            self._finish("over", output, None)

    def _stopped(self, message: str) -> str:
        """What the page says of a game that stopped before its end."""
        return message

    def _finish(self, state: str, output: dict[str, Any] | None, message: str | None) -> None:
        with self._changed:
            self.state, self.result, self.message, self.question = state, output, message, None
            if output is not None and "events" in output:
                self.log = [self.loaded.family.describe(event) for event in output["events"]]
            self._changed.notify_all()

    def _ask(self, question: Question | Chance) -> Any:
        with self._changed:
            self.question = question
            self.asked += 1
            self.log.extend(question.fresh(self.told))
            self.told = max(self.told, question.seen)
            if isinstance(question, Question):
                self.seat = question.seat
                headers, rows = question.table
                self.table = {"headers": headers, "rows": rows}
            self.state = "asking"
            self._changed.notify_all()
            while self._answer is None and not self._closed:
                self._changed.wait()
            if self._closed:
                raise Left("the game was left for another")
            answer = self._answer
            self._answer = None  # answer() has set the state: playing, no question
            return answer

    def _taken(self, answer: Any) -> Any:
        """The page's answer to the open question, checked (a :class:`ValueError` says why it cannot be taken)."""
        if not isinstance(self.question, Question):
            raise ValueError("the game is waiting for an entry, not a choice")
        if not (isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(self.question.options)):
            raise ValueError(f"choose an option from 0 to {len(self.question.options) - 1}")
        return answer

    def answer(self, answer: Any, number: int | None = None) -> None:
        """Answer the open question (the ``number``-th asked, when given), and wait until the game asks again or
        ends; an answer that cannot be taken is refused at once, the question still open."""
        with self._changed:
            self._settle()
            if self.state != "asking" or self.question is None:
                raise ValueError("the game is not waiting for an answer")
            if number is not None and number != self.asked:
                raise ValueError("that question was answered already (in another tab?): here is the game as it is now")
            self._answer = self._taken(answer)
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
            if self.state == "asking":  # the thread stops at the open question: the page waits for it to say so
                self.state, self.question = "playing", None
            self._changed.notify_all()

    def _result(self) -> dict[str, Any] | None:
        if self.result is None:
            return None
        family = self.loaded.family
        headers, rows = family.state_table(self.result)
        return {
            "winners": self.result["winners"],
            "end_reason": self.result["end_reason"],
            "ending": family.figures.end_reasons.get(self.result["end_reason"], self.result["end_reason"]),
            "length": game_length(family, self.result),
            "table": {"headers": headers, "rows": rows},
        }

    def to_dict(self, key: str) -> dict[str, Any]:
        """The game's state for the page (after waiting a moment for a game that is still playing)."""
        with self._changed:
            self._settle()
            question = self.question
            return {
                "id": key,
                "state": self.state,
                "question": {**question.to_dict(), "number": self.asked} if isinstance(question, Question) else None,
                "entry": {**question.to_dict(), "number": self.asked} if isinstance(question, Chance) else None,
                "table": self.table,
                "log": list(self.log),
                "result": self._result(),
                "message": self.message,
            }


class Table(Asking):
    """A game with one person's seat, the bots at the others, played in a thread."""

    def __init__(self, loaded: Loaded, players: int | None, seed: int, bots: str | None, seat: int):
        super().__init__(loaded, seat)
        self._arguments = (players, seed, bots)
        self.start()

    def _play(self) -> dict[str, Any]:
        players, seed, bots = self._arguments
        return api.play(self.loaded, players, seed, bots=bots or self.loaded.family.default_bot, people={self.seat: self._ask})


class Recording(Asking):
    """A game people play at a table, entered in the page as it happens (``workbench record``): every seat's
    decisions as buttons, the dice typed in and the cards that come up as buttons, each checked as it is made (an
    entry that cannot be is refused at once, saying why); the script written to ``path`` after every round."""

    def __init__(self, loaded: Loaded, path: Path, players: int | None, names: list[str], notes: str | None, resume: bool):
        super().__init__(loaded)
        self.path = path
        self.saved: list[playtest.Recording] = []
        self._arguments = (players, names, notes, resume)
        self.start()

    def _play(self) -> dict[str, Any]:
        players, names, notes, resume = self._arguments
        assert self.loaded.path is not None
        done = playtest.record(
            self.loaded.path, self.path, PlayTable(self._ask, self._ask), players, resume=resume, names=names,
            notes=notes, saved=self.saved,
        )  # fmt: skip
        return dict(done.script["expect"])

    def _taken(self, answer: Any) -> Any:
        if isinstance(self.question, Chance):
            if not isinstance(answer, str):
                raise ValueError("type what chance brought: the dice's faces, or the card's name")
            return self.question.read(answer)
        return super()._taken(answer)

    def _stopped(self, message: str) -> str:
        if not self.saved:
            return "stopped before the setup was entered: nothing was kept"
        kept = self.saved[-1]
        return f"kept unfinished in {kept.path.name} ({kept.length} entered): resume it to go on"

    def to_dict(self, key: str) -> dict[str, Any]:
        out = super().to_dict(key)
        kept = self.saved[-1] if self.saved else None
        if kept is not None:
            headers, rows = self.loaded.family.state_table(kept.script["expect"])
            out["saved"] = {"file": kept.path.name, "length": kept.length, "table": {"headers": headers, "rows": rows}}
        else:
            out["saved"] = None
        return out


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
        self.notes: list[str] = []  #: what the run said as it went (see :meth:`_notice`)
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
        """What the run says: a line under the result; before the first game also the progress's label (the compile
        line), never after it (the handover, said as the games end, took the place of the table's label)."""
        self.notes.append(text)
        if not self.done:
            self.label = text

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
            f"{played:,} games at {table or players} players in {seconds:.1f} s (seed {seed}, bots {bots or 'the default'})",
            *self.notes,
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
