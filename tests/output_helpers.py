"""Helpers for the tests of outputs and interruptions: real files in temporary folders, the command in a subprocess,
mounts (tmpfs, read-only binds) and a disk that fills up on demand.

Nothing here fakes the workbench: a "full disk" is either a real tmpfs or the system's own
``open`` returning files whose writes fail with ``ENOSPC`` (so it catches any code path
that writes, not only :mod:`workbench.outputs`).
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import io
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from workbench.cli import app

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "variants" / "chance-it.yaml"
#: More games than any machine plays before a timeout: a command given this many must refuse before the first game.
HUGE = 10**12
#: Seconds a refusal may take (start-up of Python and the workbench included, on a loaded machine).
AT_ONCE = 30.0
#: The manifest of a folder the workbench writes into.
MANIFEST = ".workbench-outputs.json"

#: A small variant that tunes in about a second: short games, a 4-candidate space, targets given (no printed
#: sheets to hold out and re-tune), a comment that mentions the tool, and a 3-player sheet that may be replaced.
TUNABLE = """\
# yaml-language-server: $schema=../schemas/chance-it.variant.schema.json
# My variant for chance-workbench: short games.   (a comment that mentions the tool)
extends: {base}
name: Test variant
end: {{stars: 8, tiebreak: [stars, hearts, coins], max_rounds: 40}}
stakes:
  3: {{out: [4, 2, all_out], in: [1, 2, 3], source: proposed}}   # a guess of mine
  4: {{out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: proposed}}
  5: {{out: [4, 3, 2, 1, all_out], in: [0, 1, 2, 3, 3], source: proposed}}
tuning:
  out_max: 0
  in_max: 1
  targets: {{rounds_mean: 7.0, rounds_sd: 2.0, eliminations_per_player: 0.2, out_share: 0.35, in_share: 0.55,
             chance_it_share: 0.1, no_winner: 0.1, balance: 0.9, in_out_gap: 3.0}}
"""


def tunable_variant(folder: Path, name: str = "variant.yaml") -> Path:
    """Write :data:`TUNABLE` into ``folder`` (made if missing); its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(TUNABLE.format(base=BASE))
    return path


# --- running the command ---------------------------------------------------------------------------------------


@dataclass
class Ran:
    """A finished command: exit code, its two streams and how long it took."""

    code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def lines(self) -> list[str]:
        """The non-empty lines of standard error."""
        return [line for line in self.stderr.splitlines() if line.strip()]


#: Seconds after which a test's wait is a hang, not a slow machine: a guard that keeps a hung run from holding CI
#: forever, never a timing assertion (what a test waits for takes a small fraction of it on a loaded machine).
HANG = 1200.0


def workbench(*args: Any, cwd: Path | None = None, timeout: float = HANG) -> Ran:
    """Run ``workbench ARGS`` in a subprocess (this Python, ``-m workbench``); fails the test on a timeout."""
    command = [sys.executable, "-m", "workbench", *map(str, args)]
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`workbench {' '.join(map(str, args))}` still ran after {timeout:.0f} s (it blocked or played): {exc}")
    return Ran(done.returncode, done.stdout, done.stderr, time.monotonic() - started)


def spawn(*args: Any, cwd: Path | None = None) -> subprocess.Popen[str]:
    """Start ``workbench ARGS`` in its own process group (as a shell's job would be), streams captured."""
    command = [sys.executable, "-m", "workbench", *map(str, args)]
    return subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


_runner = CliRunner()


def invoke(*args: Any) -> Ran:
    """Run the command in this process (Typer's runner), so that the test's monkeypatches apply."""
    started = time.monotonic()
    result = _runner.invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr, time.monotonic() - started)


def assert_clean(ran: Ran) -> None:
    """No traceback and no internal error, on either stream."""
    for stream in (ran.stdout, ran.stderr):
        assert "Traceback" not in stream, stream
        assert "internal error" not in stream, stream


def assert_refused(ran: Ran, *names: str) -> str:
    """Exit 1 with exactly one line on standard error that names every one of ``names``; that line."""
    assert_clean(ran)
    assert ran.code == 1, f"exit {ran.code}\nstdout: {ran.stdout}\nstderr: {ran.stderr}"
    assert len(ran.lines) == 1, f"expected one line, got: {ran.stderr!r}"
    for name in names:
        assert name in ran.lines[0], f"{name!r} not in {ran.lines[0]!r}"
    assert "games/s" not in ran.stderr, "no game may be played before the refusal"
    return ran.lines[0]


# --- looking at folders ----------------------------------------------------------------------------------------


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes (hidden ones included; FIFOs and such skipped)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def leftovers(folder: Path) -> list[str]:
    """Temporary files, staging folders and probes left anywhere under ``folder``."""
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.name.endswith(".tmp") or path.name.startswith((".workbench-staging-", ".workbench-probe-"))
    )


def sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def manifest(folder: Path) -> dict[str, str]:
    """The files a folder's manifest lists, with their sha256."""
    import json

    body = json.loads((folder / MANIFEST).read_text())
    return dict(body["files"])


def assert_manifest_is_exact(folder: Path) -> None:
    """The manifest lists exactly the files of ``folder`` (other than itself), each with its current sha256."""
    assert (folder / MANIFEST).is_file(), f"{folder} has no manifest"
    present = {p.name: sha256(p.read_bytes()) for p in folder.iterdir() if p.is_file() and p.name != MANIFEST}
    assert manifest(folder) == present


# --- mounts ----------------------------------------------------------------------------------------------------


def _mount(*args: str) -> None:
    if shutil.which("mount") is None:
        pytest.skip("no mount command on this machine")
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mounting is not permitted here (mount {' '.join(args)}: {done.stderr.strip()})")


def _umount(path: Path) -> None:
    subprocess.run(["umount", str(path)], capture_output=True)
    if os.path.ismount(path):
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A fresh tmpfs of ``size`` (``64k``, ``1m``) mounted at ``path`` for the block; skips the test when not permitted."""
    path.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(path))
    try:
        yield path
    finally:
        _umount(path)


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """``folder`` (with what it holds) made read-only for the block.

    As root, permissions do not stop writes, so the folder is bind-mounted read-only over
    itself (the test is skipped when mounting is not permitted); otherwise ``chmod 0555``.
    """
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    _mount("--bind", str(folder), str(folder))
    try:
        done = subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {done.stderr.strip()}")
        yield folder
    finally:
        _umount(folder)


# --- a disk that fills up --------------------------------------------------------------------------------------

ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _where(file: Any) -> Path | None:
    """The path of what ``open`` was given: a path, or a descriptor (looked up in /proc)."""
    if isinstance(file, int):
        try:
            return Path(os.readlink(f"/proc/self/fd/{file}"))
        except OSError:
            return None
    if isinstance(file, (str, bytes, os.PathLike)):
        return Path(os.fsdecode(file)).resolve()
    return None


class _FillingFile:
    """A file being written on a disk that fills up: the first write puts half its data down, then fails."""

    def __init__(self, handle: Any):
        self._handle = handle

    def write(self, data: Any) -> int:
        self._handle.write(data[: len(data) // 2])
        self._handle.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def __enter__(self) -> _FillingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._handle)


def fill_disk(monkeypatch: pytest.MonkeyPatch, hits: Callable[[Path], bool]) -> None:
    """From now on, every file opened for writing whose path ``hits`` fails with ENOSPC on its first write.

    Patches ``open`` itself (``io.open`` and the builtin, which ``os.fdopen`` and
    ``Path.write_text`` go through), so it catches any code that writes those files.
    """
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to find the path of an open descriptor")
    real_open = io.open

    def filling_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, mode, *args, **kwargs)
        where = _where(file)
        if any(c in mode for c in "wax+") and where is not None and hits(where):
            return _FillingFile(handle)
        return handle

    monkeypatch.setattr(io, "open", filling_open)
    monkeypatch.setattr(builtins, "open", filling_open)


def fail_fsync(monkeypatch: pytest.MonkeyPatch, hits: Callable[[Path], bool]) -> None:
    """From now on, ``os.fsync`` of a regular file whose path ``hits`` fails with ENOSPC (the data never reached disk)."""
    real_fsync = os.fsync

    def fsync(fd: Any) -> None:
        where = _where(fd) if isinstance(fd, int) else None
        if where is not None and where.is_file() and hits(where):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def named(prefix: str) -> Callable[[Path], bool]:
    """A path test for the target ``prefix`` or its temporary file (``.prefix.XXXX.tmp``)."""
    return lambda path: path.name == prefix or path.name.startswith(f".{prefix}.")


def inside(folder: Path) -> Callable[[Path], bool]:
    """A path test for any file directly inside ``folder``."""
    resolved = folder.resolve()
    return lambda path: path.parent == resolved
