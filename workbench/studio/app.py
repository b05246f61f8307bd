"""The studio's web application (Starlette): one page and the JSON endpoints it calls. Family-agnostic.

Every endpoint works on the one variant file the studio was opened with, and on nothing
outside its folder; it writes that file, and the games entered at a table as new files of ``playtests/`` beside it. Each request is checked before it is served: its ``Host`` must be one
the server listens as (no DNS rebinding), an ``Origin`` must be the page's own, and every
``/api`` request carries the per-run token of the page's URL (header ``X-Studio-Token``).

Endpoints (JSON in and out unless said):

- ``GET /api/variant``: the file's text, ``version`` (sha256 of its bytes), game, players, bots, sibling files
- ``POST /api/validate {text}``: ``ok``, ``problems`` (file, here, line, key, message, text), ``summary``
- ``POST /api/preview {text}``: ``ok`` and the printable set's ``html`` (or ``problems``)
- ``POST /api/pdf {text}``: the PDF (``application/pdf``), or 422 with ``problems``
- ``POST /api/save {text, version}``: writes the file (atomically); 409 with the disk's text, its version and a diff
  when the file changed since ``version`` (saving again with the disk's version overwrites what the diff showed).
  The version is checked again as the file is swapped, as one step for other programs (an editor, git, a sync tool):
  when another program wrote the file during the save, theirs stays, the text is kept in a new file beside it,
  ``NAME.studio-conflict-YYYYMMDD-HHMMSS.yaml``, and the 409 names it in ``kept`` (and, in ``kept_other``, an
  earlier write of theirs that could not go back, in ``NAME.other-conflict-...``); a file removed meanwhile is
  written again
- ``POST /api/play {players, seed, bots, seat}``, ``GET /api/play/ID``, ``POST /api/play/ID/answer {choice}`` (or
  ``{entry}``, the text of an entry at a table), ``POST /api/play/ID/stop``
- ``POST /api/playtest {players, names, notes}`` or ``{resume}``: a game played at a table, entered as it happens
  into a new file of ``playtests/`` beside the variant (or the unfinished one named); then as ``/api/play/ID``;
  ``GET /api/playtests``: the unfinished ones
- ``POST /api/run {kind, games, players, seed, bots, against}``, ``GET /api/run/ID``, ``GET /api/run/ID/report``
  (HTML), ``POST /api/run/ID/cancel``
"""

from __future__ import annotations

import contextlib
import datetime
import difflib
import hmac
import json
import os
import secrets
import stat
import threading
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from workbench import api
from workbench.errors import Problem, ScenarioError, WorkbenchError, display_path
from workbench.games import family_of_file
from workbench.loading import MAX_BYTES, read_yaml, readable_only
from workbench.outputs import ABSENT, FileChanged, sha256_of_data, write_atomic, write_beside
from workbench.studio.sessions import Asking, Job, Recording, Table, said

#: The header that carries the page's token on every ``/api`` request.
TOKEN_HEADER = "X-Studio-Token"
#: The most a request may carry: a variant file at its largest, as JSON (escapes make it longer).
MAX_BODY = 3 * MAX_BYTES
#: Games a studio run may play at most (a larger study belongs in the terminal or on a cluster).
MAX_GAMES = 200_000
RUN_KINDS = ("simulate", "compare")
#: The folder beside the variant where the studio writes the games entered at a table.
PLAYTESTS = "playtests"


class Refused(Exception):
    """A request the studio will not serve: its status and the reason in words."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def version_of(data: bytes) -> str:
    """The version of a file's bytes, as the page holds it: their sha256."""
    return sha256_of_data(data)


class Studio:
    """The state of one studio: the variant file, its folder, the token, the games and runs the page started."""

    def __init__(self, variant: Path, token: str | None = None):
        self.path = variant.resolve()
        self.folder = self.path.parent
        self.token = token or secrets.token_urlsafe(24)
        self.tables: dict[str, Asking] = {}  #: the game being played or entered (one at a time)
        self.jobs: dict[str, Job] = {}
        self._saving = threading.Lock()  # a save compares the version and writes as one step
        self._starting = threading.Lock()  # one game, one run at a time
        try:  # the folders it may read: its own, and those of the files it is made of (its card files, its parent)
            _, sources = family_of_file(self.path)
        except WorkbenchError:
            sources = ()
        self.readable = tuple(dict.fromkeys([self.folder, *(source.resolve().parent for source in sources)]))

    # --- files ------------------------------------------------------------------------------------------------

    def _bytes(self) -> bytes | None:
        """The file's bytes as on disk now, None when it is gone; refused when it is not a regular file (a folder, a
        pipe that would never end, a link put in its place): opened first, then looked at, so nothing can swap it
        between the look and the read."""
        odd = Refused(409, f"{display_path(self.path)} is not a regular file now: the studio cannot read or save it")
        try:
            handle = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            return None
        except OSError:  # a link (ELOOP) or a file it may not read
            raise odd from None
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            os.close(handle)
            raise odd
        with os.fdopen(handle, "rb") as file:
            data = file.read(MAX_BYTES + 1)
        self._check_size(data)
        return data

    def _check_size(self, data: bytes) -> None:
        """Refuse a file larger than a variant can be: on disk, or as a save would write it (it could not be opened)."""
        if len(data) > MAX_BYTES:
            raise Refused(
                413, f"{display_path(self.path)} is larger than {MAX_BYTES // 1_000_000} MB, more than a variant can be"
            )

    def read(self) -> tuple[str, str]:
        """The file's text and version, as on disk now."""
        data = self._bytes()
        if data is None:
            raise Refused(404, f"{display_path(self.path)} is no longer on disk (moved or deleted?): Save writes it again")
        return _text_of(data, self.path), version_of(data)

    def sibling(self, name: Any) -> Path:
        """A variant file of the opened one's folder, by name; nothing outside it (no ``..``, no link out)."""
        if name is None:
            raise Refused(400, "against: choose the variant file to compare with")
        if not isinstance(name, str) or not name or "/" in name or "\\" in name or "\0" in name:
            raise Refused(400, f"{name!r} is not the name of a file in {display_path(self.folder)}")
        target = (self.folder / name).resolve()
        if target.parent != self.folder or target.suffix.lower() not in (".yaml", ".yml") or not target.is_file():
            raise Refused(404, f"no variant file {name!r} in {display_path(self.folder)}")
        return target

    def siblings(self, game: str | None) -> list[str]:
        """The names of the variant files beside the opened one, of its game when it has one (``compare`` compares
        variants of one game); a file that cannot be read as a variant is left out."""
        found = []
        for path in sorted(self.folder.iterdir()):
            if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
                continue
            try:
                family, _ = family_of_file(path)
            except WorkbenchError:
                continue
            if game is None or family.game == game:
                found.append(path.name)
        return found

    # --- requests ---------------------------------------------------------------------------------------------

    def variant(self) -> dict[str, Any]:
        text, version = self.read()
        info: dict[str, Any] = {"name": self.path.name, "folder": display_path(self.folder), "text": text, "version": version}
        try:
            loaded = api.load_variant(self.path)
        except WorkbenchError:  # an invalid file opens too: the editor says what is wrong
            return {
                **info,
                "files": self.siblings(None),
                "variant": None,
                "game": None,
                "title": None,
                "players": None,
                "bots": [],
            }
        family = loaded.family
        info["files"] = self.siblings(family.game)
        low, high = family.player_range(loaded.variant)
        return {
            **info,
            "variant": loaded.variant.name,
            "game": family.game,
            "title": family.title,
            "players": {"min": low, "max": high, "default": api.player_counts(loaded, None)[0]},
            "bots": sorted(family.personas(loaded.variant)),
            "default_bot": family.default_bot,
        }

    def problems(self, exc: WorkbenchError) -> list[dict[str, Any]]:
        return [self._problem(p) for p in exc.problems]

    def _problem(self, problem: Problem) -> dict[str, Any]:
        here = problem.file is not None and Path(problem.file).resolve() == self.path
        return {
            "file": Path(problem.file).name if problem.file is not None else None,
            "here": here,
            "line": problem.line,
            "key": problem.path,
            "message": problem.message,
            "text": str(problem),
        }

    def validate(self, text: str) -> dict[str, Any]:
        try:
            loaded = api.load_variant(self.path, text)
        except WorkbenchError as exc:
            return {"ok": False, "problems": self.problems(exc), "summary": []}
        return {"ok": True, "problems": [], "summary": [list(line) for line in loaded.family.summary(loaded.variant)]}

    def preview(self, text: str) -> dict[str, Any]:
        try:
            return {"ok": True, "html": api.print_page(api.load_variant(self.path, text))}
        except WorkbenchError as exc:
            return {"ok": False, "problems": self.problems(exc)}

    def pdf(self, text: str) -> Response:
        try:
            loaded = api.load_variant(self.path, text)
            data = api.print_pdf(loaded, api.print_page(loaded))
        except WorkbenchError as exc:
            return JSONResponse({"error": "the variant has problems: fix them first", "problems": self.problems(exc)}, 422)
        name = f"{self.path.stem}.pdf"
        return Response(data, media_type="application/pdf", headers={"Content-Disposition": f'attachment; filename="{name}"'})

    def save(self, text: str, version: Any) -> Response:
        """Write the editor's text, unless the file changed on disk since ``version`` (the version the page last
        saw: after a conflict, the disk's, so that saving again overwrites what the diff showed, and only that)."""
        with self._saving:
            data = self._bytes()
            if data is not None:
                _text_of(data, self.path)  # a file the page could not have shown is not replaced
                if version != version_of(data):
                    return self._conflict(text, data)
                if not os.access(self.path, os.W_OK) or not self.path.stat().st_mode & 0o222:  # even to root: its owner said so
                    raise Refused(409, f"{display_path(self.path)} is read-only: make it writable to save, or copy it")
                if self.path.stat().st_nlink > 1:
                    raise Refused(409, f"{display_path(self.path)} has other names (hard links): saving would split them")
                if data.count(b"\r\n") == data.count(b"\n") > 0:  # a browser's text has plain newlines: CRLF stays CRLF
                    text = text.replace("\r\n", "\n").replace("\n", "\r\n")
            encoded = text.encode("utf-8")
            self._check_size(encoded)  # a file it would then refuse to open is not written
            changed = self._write(encoded, version_of(data) if data is not None else ABSENT)
            if changed is not None:  # another program wrote it while this save was being written
                return self._kept(text, encoded, changed.kept)
        return JSONResponse({"version": version_of(encoded), "saved": display_path(self.path)})

    def _write(self, encoded: bytes, still: str) -> FileChanged | None:
        """Write the file over the version ``still`` (or where there is none, :data:`ABSENT`); a file removed meanwhile
        is written again. Returns the change another program made meanwhile, if any (its file is then on disk)."""
        try:
            write_atomic(self.path, encoded, still=still)
        except FileChanged as changed:
            if still == ABSENT or os.path.lexists(self.path):
                return changed
            return self._write(encoded, ABSENT)  # removed: as if the save had come a moment later
        return None

    def _kept(self, text: str, encoded: bytes, other: Path | None) -> Response:
        """The answer to a save that found another program's write as it swapped the file: theirs stays, the text is
        kept in a new file beside it, and the page gets the conflict with the names of the files kept."""
        kept: dict[str, str] = {}
        with contextlib.suppress(WorkbenchError):  # no room for it: the text is still in the page, the conflict is said
            kept["kept"] = display_path(write_beside(self.path, encoded, "studio-conflict"))
        if other is not None:
            kept["kept_other"] = display_path(other)
        where = f" (your text is kept in {kept['kept']})" if "kept" in kept else ""
        try:
            now = self._bytes()
            if now is None:
                raise Refused(409, f"{display_path(self.path)} was removed while it was being saved: Save writes it again")
            return self._conflict(text, now, kept)
        except Refused as refused:
            raise Refused(refused.status, refused.reason + where) from None

    def _conflict(self, text: str, data: bytes, kept: dict[str, str] | None = None) -> Response:
        """The answer to a save over a file that changed on disk: its text, its version and what differs (and the
        files ``kept`` beside it, when the change came during the save)."""
        disk_text = _text_of(data, self.path)
        mine, theirs = text.splitlines(keepends=True), disk_text.splitlines(keepends=True)
        diff = "".join(difflib.unified_diff(theirs, mine, f"{self.path.name} (on disk)", f"{self.path.name} (your edit)"))
        body = {"conflict": True, "version": version_of(data), "disk": disk_text, "diff": diff, **(kept or {})}
        return JSONResponse(body, 409)

    def start_game(self, body: dict[str, Any]) -> dict[str, Any]:
        with self._starting:
            for table in self.tables.values():  # one game at a time: a new one leaves the last
                table.close()
            self.tables.clear()
            loaded = api.load_variant(self.path)
            key = secrets.token_hex(8)
            players, seed, bots, seat = (
                _given(body, "players", int),
                _whole(body, "seed", 1),
                _given(body, "bots", str),
                _whole(body, "seat", 0),
            )
            self.tables[key] = Table(loaded, players, seed, bots, seat)
        return self.tables[key].to_dict(key)

    def start_playtest(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start entering a game played at a table, into a new file of the ``playtests`` folder beside the variant (or
        go on with the unfinished one ``resume`` names there)."""
        names = [part.strip() for part in _text(body, "names", "").split(",") if part.strip()]
        notes = _text(body, "notes", "").strip() or None
        resume = body.get("resume")
        with self._starting:
            for table in self.tables.values():  # one game at a time: a new one leaves the last
                table.close()
            self.tables.clear()
            loaded = api.load_variant(self.path)
            path = self._new_playtest() if resume is None else self.playtest_file(resume)
            key = secrets.token_hex(8)
            players = _given(body, "players", int) if resume is None else None
            self.tables[key] = Recording(loaded, path, players, names, notes, resume is not None)
        return self.tables[key].to_dict(key)

    @property
    def playtests(self) -> Path:
        """Where the studio writes the games entered at a table: the ``playtests`` folder beside the variant."""
        return self.folder / PLAYTESTS

    def _new_playtest(self) -> Path:
        """A file name not taken yet: ``<variant>-<day>-<n>.yaml`` in :attr:`playtests` (created if need be)."""
        if self.playtests.is_symlink() or (self.playtests.exists() and not self.playtests.is_dir()):
            raise Refused(
                409, f"{display_path(self.playtests)} is not a folder of its own: the studio writes playtests only there"
            )
        self.playtests.mkdir(exist_ok=True)
        stem = f"{self.path.stem}-{datetime.date.today().isoformat()}"
        number = 1
        while (self.playtests / f"{stem}-{number}.yaml").exists():
            number += 1
        return self.playtests / f"{stem}-{number}.yaml"

    def playtest_file(self, name: Any) -> Path:
        """An unfinished game of :attr:`playtests` by its file name."""
        found = {entry["file"]: entry for entry in self.unfinished()}
        if not isinstance(name, str) or name not in found:
            raise Refused(404, f"no unfinished playtest {name!r} in {display_path(self.playtests)}")
        return self.playtests / name

    def unfinished(self) -> list[dict[str, Any]]:
        """The unfinished games of :attr:`playtests`, newest first: each file's name and what it holds."""
        found = []
        folder = self.playtests
        if folder.is_symlink() or not folder.is_dir():  # the studio writes playtests only in a folder of its own
            return []
        for path in sorted(folder.glob("*.yaml"), key=lambda path: path.stat().st_mtime, reverse=True):
            if path.is_symlink():
                continue
            try:
                data = read_yaml(path, ScenarioError).data
            except WorkbenchError:  # not a script the studio may read: not offered
                continue
            header = data.get("playtest") if isinstance(data, dict) else None
            ours = (
                isinstance(data, dict)
                and isinstance(data.get("variant"), str)
                and (folder / data["variant"]).resolve() == self.path
            )
            if ours and isinstance(header, dict) and header.get("unfinished") is True:
                table = ", ".join(map(str, header.get("table") or ()))
                found.append({"file": path.name, "players": data.get("players"), "table": table})
        return found

    def game(self, key: str) -> Asking:
        if key not in self.tables:
            raise Refused(404, "no such game (it was left for a newer one): start a new game")
        return self.tables[key]

    def start_run(self, body: dict[str, Any]) -> dict[str, Any]:
        kind = _text(body, "kind", "simulate")
        if kind not in RUN_KINDS:
            raise Refused(400, f"kind {kind!r}: choose {' or '.join(RUN_KINDS)}")
        games = _whole(body, "games", 2000)
        if not 1 <= games <= MAX_GAMES:
            raise Refused(400, f"games: from 1 to {MAX_GAMES:,} in the studio (more with workbench simulate in the terminal)")
        against = self.sibling(body.get("against")) if kind == "compare" else None
        players, seed, bots = _given(body, "players", int), _whole(body, "seed", 1), _given(body, "bots", str)
        with self._starting:
            if any(job.state == "running" for job in self.jobs.values()):  # one run at a time
                raise Refused(409, "a run is going on: cancel it or wait for it")
            key = secrets.token_hex(8)
            self.jobs[key] = Job(kind, self.path, against, games, players, seed, bots, _text(body, "engine", "auto"))
        return {"id": key}

    def job(self, key: str) -> Job:
        if key not in self.jobs:
            raise Refused(404, "no such run")
        return self.jobs[key]


def _whole(body: dict[str, Any], key: str, default: int) -> int:
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused(400, f"{key}: expected a whole number, got {value!r}")
    return value


def _text(body: dict[str, Any], key: str, default: str) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise Refused(400, f"{key}: expected text, got {value!r}")
    return value


def _given(body: dict[str, Any], key: str, kind: type[int] | type[str]) -> Any:
    """An optional value (None when left out: the library's default, as the terminal's commands have it)."""
    if body.get(key) is None:
        return None
    return _whole(body, key, 0) if kind is int else _text(body, key, "")


def _text_of(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:  # replacing the bytes would change the file on the next save
        raise Refused(
            422, f"{display_path(path)} is not UTF-8 text (byte {exc.start}): convert it to UTF-8 to edit it here"
        ) from None


async def _body(request: Request) -> dict[str, Any]:
    raw = bytearray()
    async for chunk in request.stream():  # read no further than the limit
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Refused(413, f"the request is larger than {MAX_BODY // 1_000_000} MB")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise Refused(400, "the request is not JSON (or nests too deeply)") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request is not a JSON object")
    return body


def _edited(body: dict[str, Any]) -> str:
    text = body.get("text")
    if not isinstance(text, str):
        raise Refused(400, "text: expected the variant's text")
    return text


class Guard:
    """ASGI middleware: every request must be addressed to one of ``hosts`` (``host:port``: no DNS rebinding) and, with
    an ``Origin``, come from the studio's own page; the page (``?token=``) and every ``/api`` request (header
    :data:`TOKEN_HEADER`) must carry the token. The page's assets are served without it."""

    def __init__(self, app: ASGIApp, studio: Studio, hosts: set[str] | None):
        self.app = app
        self.studio = studio
        self.hosts = hosts
        self.origins = {f"http://{host}" for host in hosts} if hosts is not None else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        try:
            self.check(request)
        except Refused as refused:
            answer: Response = (
                JSONResponse({"error": refused.reason}, refused.status)
                if request.url.path.startswith("/api/")
                else PlainTextResponse(refused.reason, refused.status)
            )
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def check(self, request: Request) -> None:
        if self.hosts is not None and request.headers.get("host") not in self.hosts:
            raise Refused(403, "this studio answers only at the address it printed (wrong Host header)")
        origin = request.headers.get("origin")
        origins = self.origins if self.origins is not None else {f"http://{request.headers.get('host')}"}
        if origin is not None and origin not in origins:
            raise Refused(403, f"requests from {origin} are refused: only the studio's own page may call it")
        path = request.url.path
        if path.startswith("/static/") or path == "/favicon.ico":
            return
        given = request.query_params.get("token", "") if path == "/" else request.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.studio.token.encode()):
            raise Refused(403, "missing or wrong token: open the address workbench studio printed, with its token")


def create_app(studio: Studio, hosts: set[str] | None) -> Starlette:
    """The studio's application for ``studio``, answering only requests addressed to one of ``hosts`` (``host:port``;
    None: any, for a studio listening on every address of the machine, where only the token guards it)."""

    def served(work: Callable[..., Any]) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint of ``work(body, **path parameters)`` run in a worker thread (the games, checks and PDFs block),
        reading files only in the studio's folders: a dict answers as JSON, a response as itself; a refusal or a
        problem answers with its reason."""

        def confined(body: dict[str, Any], params: dict[str, Any]) -> Any:
            with readable_only(studio.readable):
                return work(body, **params)

        async def endpoint(request: Request) -> Response:
            try:
                body = await _body(request) if request.method == "POST" else {}
                answer = await run_in_threadpool(confined, body, request.path_params)
            except Refused as refused:
                return JSONResponse({"error": refused.reason}, refused.status)
            except WorkbenchError as exc:
                return JSONResponse({"error": said(exc)}, 422)
            except ValueError as exc:
                return JSONResponse({"error": str(exc)}, 400)
            except OSError as exc:  # the studio's own reads and writes (a read-only disk, a full one): said, no traceback
                where = f"{display_path(Path(exc.filename))}: " if exc.filename else ""
                return JSONResponse({"error": f"{where}{exc.strerror or exc}"}, 500)
            return answer if isinstance(answer, Response) else JSONResponse(answer)

        return endpoint

    def page(body: dict[str, Any]) -> Response:
        html = resources.files("workbench.studio").joinpath("static", "index.html").read_text(encoding="utf-8")
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    def game(body: dict[str, Any], key: str) -> dict[str, Any]:
        return studio.game(key).to_dict(key)

    def answer(body: dict[str, Any], key: str) -> dict[str, Any]:
        table = studio.game(key)
        number = body.get("number")
        given = _text(body, "entry", "") if "entry" in body else _whole(body, "choice", -1)
        table.answer(given, _whole(body, "number", 0) if number is not None else None)
        return table.to_dict(key)

    def stop(body: dict[str, Any], key: str) -> dict[str, Any]:
        table = studio.game(key)
        table.close()
        return table.to_dict(key)

    def run(body: dict[str, Any], key: str) -> dict[str, Any]:
        return studio.job(key).to_dict(key)

    def report(body: dict[str, Any], key: str) -> Response:
        job = studio.job(key)
        if job.report is None:
            raise Refused(404, "no report yet: the run has not finished a game")
        return HTMLResponse(job.report)

    def cancel(body: dict[str, Any], key: str) -> dict[str, Any]:
        job = studio.job(key)
        job.cancel()
        return job.to_dict(key)

    post = ["POST"]
    routes = [
        Route("/", served(page)),
        Route("/api/variant", served(lambda body: studio.variant())),
        Route("/api/validate", served(lambda body: studio.validate(_edited(body))), methods=post),
        Route("/api/preview", served(lambda body: studio.preview(_edited(body))), methods=post),
        Route("/api/pdf", served(lambda body: studio.pdf(_edited(body))), methods=post),
        Route("/api/save", served(lambda body: studio.save(_edited(body), body.get("version"))), methods=post),
        Route("/api/play", served(studio.start_game), methods=post),
        Route("/api/play/{key}", served(game)),
        Route("/api/play/{key}/answer", served(answer), methods=post),
        Route("/api/play/{key}/stop", served(stop), methods=post),
        Route("/api/playtest", served(studio.start_playtest), methods=post),
        Route("/api/playtests", served(lambda body: {"unfinished": studio.unfinished()})),
        Route("/api/run", served(studio.start_run), methods=post),
        Route("/api/run/{key}", served(run)),
        Route("/api/run/{key}/report", served(report)),
        Route("/api/run/{key}/cancel", served(cancel), methods=post),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Mount("/static", StaticFiles(packages=[("workbench.studio", "static")]), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(Guard, studio=studio, hosts=hosts)])
