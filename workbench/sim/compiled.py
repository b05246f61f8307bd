"""A compiled engine's machine code: cached once per installation and version, compiled in the background.

A family with a compiled engine (Numba) describes it as a :class:`CompiledEngine`: a name,
the modules its compiled code is made of, and a function that compiles every entry point
(``warm``). Its cache is one folder per installation and version of that code:

    <root>/<name>-<installation>-<fingerprint>/   Numba's files, then MANIFEST.json

``root`` is ``$WORKBENCH_CACHE_DIR`` or else the user's cache folder (platformdirs);
``installation`` hashes where the modules are installed and ``fingerprint`` what they say
(their text and dates, the workbench's, Numba's and Python's versions). Nothing about a
variant is in it: a new variant, card or player count never compiles again.

Only a compiler process writes there. It is started in the background (:meth:`start`)
and holds a lock while it compiles; when it is done it writes the manifest (every file's
SHA-256), so a folder with a manifest is complete (:meth:`ready`), and nothing loads from
one without. Meanwhile a run can play on the interpreter, which
plays the same games (see ``runner.Handover``), or wait (:meth:`wait`).

The compiler waits for the run that started it to end before it compiles, unless that run
asks it to hurry (:meth:`hurry`: a long run, or one that waits for it): a short first run
keeps every core for its games. A compile that fails leaves its traceback beside the folder
(``.failed``), said by every run until that file is deleted.

A folder whose files no longer match their manifest is set aside (renamed ``.damaged-*``)
and compiled again; a root that cannot be written is replaced by a folder in the system's
temporary folder for as long as that lasts. Either is said in one line (:meth:`prepare`).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import IO

from workbench.errors import Problem, WorkbenchError

#: The environment variable that moves the cache (a contract: documented in docs/how-to/simulate.md).
CACHE_ENV = "WORKBENCH_CACHE_DIR"
MANIFEST = "MANIFEST.json"
#: How often a waiting run looks whether the compiler is done.
POLL_SECONDS = 0.1

#: The engine this process compiles, if it is a compiler (see :func:`_compile`): ready as far as it is concerned.
_compiling: str | None = None
#: Remarks about the cache for the next :meth:`CompiledEngine.prepare` (a root that cannot be written).
_remarks: list[str] = []
#: The engines this process has seen ready (see :meth:`CompiledEngine.ready`).
_seen_ready: set[Path] = set()


class CompileFailed(WorkbenchError):
    """The compiled engine cannot be had: the compiler failed (the last line of its log says why), or its cache
    cannot be used. One line, as every problem is said."""

    def __init__(self, name: str, why: str):
        self.why = why
        super().__init__([Problem(None, None, "", f"the {name} engine cannot be compiled: {why}")])


def _last_words(log: str) -> str:
    """The line of a compiler's log that says what went wrong (a traceback's last)."""
    lines = [line.strip() for line in log.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "it stopped without a word: is the disk full?"


@cache
def cache_root() -> Path:
    """Where compiled code is cached: ``$WORKBENCH_CACHE_DIR``, else the user's cache folder; when that cannot be
    written, a folder in the system's temporary folder (set in the environment, so that this process's workers and
    compiler use it too, and said once by :meth:`CompiledEngine.prepare`)."""
    from platformdirs import user_cache_dir

    chosen = os.environ.get(CACHE_ENV)
    root = Path(chosen).expanduser() if chosen else Path(user_cache_dir("chance-workbench"))
    if _writable(root):
        return root.resolve()
    return _fall_back(f"the cache folder {f'{CACHE_ENV}={chosen}' if chosen else root} cannot be written")


def _fall_back(why: str) -> Path:
    """Keep compiled code in this user's own folder in the system's temporary folder from now on (set in the
    environment, for this process's workers and compiler), with a remark for :meth:`CompiledEngine.prepare`. A
    folder of that name that is not this user's alone is not used: a fresh one is made."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    fallback = Path(tempfile.gettempdir()) / f"chance-workbench-cache-{uid}"
    try:
        fallback.mkdir(mode=0o700, exist_ok=True)
        owned = fallback.lstat()
        if fallback.is_symlink() or owned.st_uid != uid or owned.st_mode & 0o077:
            raise PermissionError
    except OSError:
        fallback = Path(tempfile.mkdtemp(prefix="chance-workbench-cache-"))
    os.environ[CACHE_ENV] = str(fallback)
    cache_root.cache_clear()
    _remarks.append(
        f"note: {why}: compiled code is kept in {fallback} for now (to keep it, set {CACHE_ENV} to a folder you can write to)"
    )
    return fallback.resolve()


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


@dataclass(frozen=True)
class CompiledEngine:
    """One family's compiled engine: ``modules`` hold its compiled code (in the order their text is hashed) and
    ``warm`` (``"module:function"``) compiles every entry point it has (run by the compiler process only); ``what``
    it is and ``about`` how long that takes, for a run to tell its user."""

    name: str
    modules: tuple[str, ...]
    warm: str
    what: str = "the batch engine"
    about: str = "about a minute"

    @property
    def folder(self) -> Path:
        """This installation's and version's cache folder (it exists only once compiled)."""
        return cache_root() / f"{self.name}-{_installation(self.modules)}-{_fingerprint(self.modules)}"

    def use(self) -> None:
        """Point Numba's cache at this engine's folder: call it before the compiled functions are defined, as Numba
        reads the setting then."""
        from numba.core import config

        config.CACHE_DIR = str(self._usable_folder())  # type: ignore[attr-defined]  # set from the environment

    def ready(self) -> bool:
        """Whether the compiled code is there, complete (or this process is the compiler making it). Once seen, it
        stays ready for this process: a run that has handed over keeps the engine it loaded."""
        folder = self.folder
        if _compiling == self.name or folder in _seen_ready:
            return True
        if (folder / MANIFEST).is_file():
            _seen_ready.add(folder)
            return True
        return False

    def prepare(self) -> list[str]:
        """Check the cache before a run (a damaged folder is set aside) and start compiling in the background if
        the code is not there: the remarks to show, each one line."""
        self._usable_folder()  # first: finding the cache folder may have a remark
        remarks = [*_remarks]
        _remarks.clear()
        aside = self._set_aside()
        if aside is not None:
            remarks.append(
                f"note: the compiled {self.name} engine's cache was damaged ({aside[0]}): it is compiled again; the "
                f"damaged copy is kept in {aside[1]} (delete it when you like)"
            )
        self.start()
        return remarks

    def _usable_folder(self) -> Path:
        """:attr:`folder`, or the one in the temporary folder when it exists but cannot be written: Numba would not
        load from it, and would compile inside the run (into the source tree). Asked before the compiled functions
        are defined (:meth:`use`: Numba keeps the folder it was given then) and by :meth:`prepare`."""
        folder = self.folder
        if folder.is_dir() and not _writable(folder):
            _fall_back(f"the cache folder {folder} cannot be written")
            folder = self.folder
        return folder

    def _set_aside(self) -> tuple[str, Path] | None:
        """Rename a damaged folder out of the way: what was wrong and where it went, or None when nothing was."""
        damaged = self.damage()
        if damaged is None:
            return None
        folder = self.folder
        aside = folder.with_name(f"{folder.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{time.time_ns() % 10**6:06d}")
        try:
            folder.rename(aside)
        except OSError as exc:
            raise CompileFailed(self.name, f"its cache {folder} is damaged ({damaged}) and cannot be moved aside "
                                f"({exc.strerror}): delete it") from None  # fmt: skip
        _seen_ready.discard(folder)
        return damaged, aside

    def start(self) -> None:
        """Start the compiler in the background unless the code is there or a compiler is at work; returns at once
        (once the compiler holds its lock). Raises :class:`CompileFailed` when this version's compile failed (its
        traceback is kept beside the folder until that file is deleted: a failure that would come again is not
        retried on every run)."""
        if self.ready() or self.compiling():
            return
        failed = self._failed_path()
        if failed.is_file():
            said = _last_words(failed.read_text(errors="replace"))
            raise CompileFailed(self.name, f"{said} (its log: {failed}; delete it to try again)")
        command = [sys.executable, "-m", "workbench.sim.compiled", self.name, self.warm, str(os.getpid()), *self.modules]
        environment = {**os.environ, CACHE_ENV: str(cache_root())}
        launched = subprocess.run(  # in a session of its own: a Ctrl-C at the terminal is the run's, never the compiler's
            command, env=environment, stdin=subprocess.DEVNULL, capture_output=True, text=True, start_new_session=True
        )
        if launched.returncode:
            raise CompileFailed(self.name, _last_words(launched.stderr))

    def compiling(self) -> bool:
        """Whether a compiler holds this engine's lock now."""
        try:
            with _lock(self._lock_path()) as held:
                return not held
        except OSError as exc:
            raise CompileFailed(self.name, f"its lock file {self._lock_path()} cannot be opened ({exc.strerror})") from None

    def hurry(self) -> None:
        """Ask a compiler that waits for the run that started it to end (see :func:`main`) to compile at once (it
        writes its pid in the lock file it holds; a file that names nobody is not a compiler at work)."""
        if not self.compiling():
            return
        with contextlib.suppress(OSError, ValueError, IndexError), self._lock_path().open("rb") as lock:
            os.kill(int(lock.read(32).split()[0]), HURRY)  # a pid's line, whatever else the file holds

    def wait(self, stop: Callable[[], bool] = lambda: False) -> bool:
        """Block until the compiled code is there (starting the compiler, or hurrying it, if need be): False when
        ``stop()`` came first. Raises :class:`CompileFailed` when the compiler stops without it."""
        if not self.ready():
            self._set_aside()  # a damaged cache is compiled again (prepare() says so where a run can say it)
        launched = 0
        while not self.ready():
            if not self.compiling():  # none at work: the first look, or one that stopped on the way
                if launched == 2:  # and did not say why (a failure it could write down is raised by start())
                    raise CompileFailed(
                        self.name, f"its compiler stopped twice without finishing or saying why (is the disk of "
                        f"{self.folder.parent} full?)"
                    )  # fmt: skip
                self.start()
                launched += 1
            self.hurry()
            if stop():
                return False
            time.sleep(POLL_SECONDS)
        return True

    def _lock_path(self) -> Path:
        return self.folder.with_name(self.folder.name + ".lock")

    def _failed_path(self) -> Path:
        return self.folder.with_name(self.folder.name + ".failed")

    def damage(self) -> str | None:
        """What no longer matches the manifest (a file changed or missing), or None."""
        try:
            manifest = json.loads((self.folder / MANIFEST).read_text())
            files = manifest["files"]
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            return f"{MANIFEST} cannot be read"
        if not isinstance(files, dict) or not files or not all(isinstance(v, str) for v in files.values()):
            return f"{MANIFEST} lists no files"
        for name, digest in files.items():
            try:
                if _digest(self.folder / name) != digest:
                    return f"{Path(name).name} changed"
            except OSError:
                return f"{Path(name).name} is missing"
        return None


@cache
def _sources(modules: tuple[str, ...]) -> tuple[Path, ...]:
    """The modules' files (every module of a package), found from their top package without importing them (a
    compiled module imports Numba)."""
    found = []
    for name in modules:
        top, *rest = name.split(".")
        spec = importlib.util.find_spec(top)
        if spec is None or spec.origin is None:
            raise ValueError(f"no source for the compiled module {name}")
        if not rest:
            found.append(Path(spec.origin).resolve())
            continue
        path = Path(spec.origin).parent.joinpath(*rest)
        found.extend(sorted(p.resolve() for p in path.glob("*.py")) if path.is_dir() else [path.with_suffix(".py").resolve()])
    return tuple(found)


@cache
def _installation(modules: tuple[str, ...]) -> str:
    """Where the modules are installed (two clones keep two caches, and a cache never holds another one's code)."""
    return hashlib.sha256("\n".join(map(str, _sources(modules))).encode()).hexdigest()[:10]


@cache
def _fingerprint(modules: tuple[str, ...]) -> str:
    """What the compiled code is made of: the modules' text and dates (Numba's own key), the versions around it."""
    digest = hashlib.sha256()
    for package in ("chance-workbench", "numba"):
        with contextlib.suppress(PackageNotFoundError):
            digest.update(f"{package} {version(package)}\n".encode())
    digest.update(f"python {sys.version}\n".encode())
    for path in _sources(modules):
        stat = path.stat()
        digest.update(f"{path.name} {stat.st_mtime_ns} {stat.st_size}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _digest(path: Path) -> str:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[bool]:
    """Try to take the lock at ``path`` (an advisory ``flock``): yields whether this process holds it."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


def _compile(engine: CompiledEngine, log: IO[str]) -> None:
    """Compile ``engine`` into its folder, remove this installation's folders of other versions, and write the
    manifest last (the compiler process, holding the engine's lock).

    Numba writes each file whole (a temporary file renamed), and nobody loads from the folder
    before the manifest is there, so a compiler killed half-way leaves only whole files
    that the next one reuses."""
    global _compiling
    _compiling = engine.name
    folder = engine.folder
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    module, function = engine.warm.split(":")
    getattr(importlib.import_module(module), function)()
    seconds = time.perf_counter() - started
    files = {
        path.relative_to(folder).as_posix(): _digest(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in (MANIFEST, MANIFEST + ".tmp")  # not another compiler's manifest
    }
    prefix = folder.name.rsplit("-", 1)[0] + "-"
    for old in folder.parent.glob(prefix + "*"):  # before the manifest: a ready engine has no older folder left
        if old.is_dir() and old != folder and ".damaged-" not in old.name:
            lock = old.with_name(old.name + ".lock")
            with _lock(lock) as free:
                if free:  # no compiler is at work on it
                    shutil.rmtree(old, ignore_errors=True)
                    lock.unlink(missing_ok=True)
    manifest = {"engine": engine.name, "seconds": round(seconds, 1), "files": files}
    written = folder / (MANIFEST + ".tmp")
    written.write_text(json.dumps(manifest, indent=1) + "\n")
    written.replace(folder / MANIFEST)
    print(f"compiled the {engine.name} engine in {seconds:.0f} s: {folder}", file=log)


def main(argv: list[str]) -> int:
    """The compiler, as ``start`` runs it: take the lock, then compile in a detached child (the caller returns at
    once, the lock held for the child, its pid written in the lock file for :meth:`CompiledEngine.hurry`).

    The child waits, without compiling, until the process that started it (``owner``) has
    ended or asks it to hurry (SIGUSR1): a short first run plays on the interpreter with
    every core its own, and the compile follows it; a long one hurries it, to hand over."""
    name, warm, owner, *modules = argv
    engine = CompiledEngine(name, tuple(modules), warm)
    with _lock(engine._lock_path()) as held:
        if not held or engine.ready():  # another compiler is at work, or has just finished
            return 0
        engine._lock_path().write_text("")  # no pid to hurry until the child writes its own
        if os.fork():  # the parent returns: the child holds the lock (the same open file) until it is done
            os._exit(0)
        os.setsid()  # out of the terminal's session: a Ctrl-C or a closed terminal does not stop it
        hurried: list[int] = []  # a signal handler may only set a flag: no lock (a run sends SIGUSR1 as it polls)
        signal.signal(HURRY, lambda signum, frame: hurried.append(signum))
        log_path = engine.folder.with_name(engine.folder.name + ".log")
        try:  # from here on a failure is kept for the runs to say (a full disk fails as early as the pid's line)
            with log_path.open("w") as log:
                os.dup2(log.fileno(), 1)
                os.dup2(log.fileno(), 2)
                engine._lock_path().write_text(f"{os.getpid()}\n")
                _wait_for(int(owner), hurried)
                signal.signal(HURRY, signal.SIG_IGN)  # hurried or not, it compiles now: later asks change nothing
                _compile(engine, log)
        except Exception:  # noqa: BLE001 - the compiler's last words go to its log, for the runs to show
            _keep_failure(log_path, engine._failed_path())
            os._exit(1)
        except BaseException:  # noqa: BLE001 - stopped (a signal, an interrupt): not a failure; the next run compiles again
            os._exit(1)
        log_path.unlink(missing_ok=True)
    os._exit(0)


def _keep_failure(log_path: Path, failed: Path) -> None:
    """Keep the traceback being handled as the ``.failed`` file the runs say (as much of it as the disk takes; where
    not even that can be written, the runs find the compiler stopped without a word, see :meth:`~CompiledEngine.wait`)."""
    import traceback

    with contextlib.suppress(OSError), log_path.open("a") as log:
        traceback.print_exc(file=log)
    with contextlib.suppress(OSError):
        log_path.replace(failed)


#: The signal that asks a waiting compiler to start at once (:meth:`CompiledEngine.hurry`).
HURRY = signal.SIGUSR1


def _wait_for(owner: int, hurried: list[int]) -> None:
    """Return when the process ``owner`` has ended, or once ``hurried`` holds a signal (SIGUSR1 adds one)."""
    while not hurried and _alive(owner):
        time.sleep(POLL_SECONDS)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process of that number
        return True
    return True


if __name__ == "__main__":  # run as a script: the compiler must set the module's state, not this copy's
    from workbench.sim import compiled

    sys.exit(compiled.main(sys.argv[1:]))
