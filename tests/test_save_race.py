"""A studio save against another program writing the same file (issue 34, item 1): none of its writes is lost unseen.

The save checks the page's version and swaps the file as one step for other programs
(workbench/outputs.py, ``_swap_if_still``). Here another program writes at each point of
that step, by each kind of write (a rename over the file, a truncate and write in place, a
removal), then races the studio in a tight loop. Each of its writes must end up at the path,
in a file kept beside it that the answer names, or be replaced by a save that knew it (its
version was the page's), or by the other program's own next write.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import stat
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from workbench import outputs
from workbench.studio.app import TOKEN_HEADER, Studio, create_app, version_of

HOST = "testserver"
FIRST = "name: first\n"
MINE = "name: mine\n"
THEIRS = "name: theirs\n"
KEPT = re.compile(r"variant\.studio-conflict-\d{8}-\d{6}(-\d+)?\.yaml")
KEPT_OTHER = re.compile(r"variant\.other-conflict-\d{8}-\d{6}(-\d+)?\.yaml")
#: The system's own calls, for the other program (never the spies a test puts in their place).
_replace, _rename, _link, _unlink, _fsync = os.replace, os.rename, os.link, os.unlink, os.fsync


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    (tmp_path / "variant.yaml").write_text(FIRST)
    return Studio(tmp_path / "variant.yaml", token="secret-token")


@pytest.fixture
def client(studio: Studio) -> TestClient:
    return TestClient(create_app(studio, {HOST}), headers={TOKEN_HEADER: studio.token})


def save(client: TestClient, text: str, version: str) -> Any:
    return client.post("/api/save", json={"text": text, "version": version})


def hidden(folder: Path) -> list[str]:
    """What a save may not leave behind: its temporary file, the file it moved aside, its lock file (all hidden)."""
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


# --- another program, by kind of write ---------------------------------------------------------------------------


def rename_over(path: Path, text: str) -> None:
    """An editor, git, a sync tool: the new file written beside, then renamed over the old one."""
    beside = path.with_name("other-program.tmp")
    beside.write_text(text)
    _replace(beside, path)


def in_place(path: Path, text: str) -> None:
    """A plain ``open(path, "w")``: the file truncated and written in place (a new file when the path is missing)."""
    with path.open("w") as handle:
        handle.write(text)


WRITERS = {"rename-over": rename_over, "in-place": in_place}


def during_save(monkeypatch: pytest.MonkeyPatch, path: Path, plan: dict[str | int, Callable[[], None]]) -> list[str | int]:
    """Run each write of ``plan`` at its point of the next save: ``"writing"`` while the save's new file is being
    written (its fsync: after the studio's first look at the version), or ``n`` just before the save's n-th rename
    or link that names ``path``. Returns the points reached, filled in as they are."""
    reached: list[str | int] = []
    named = 0

    def at(point: str | int) -> None:
        if point in plan and point not in reached:
            reached.append(point)
            plan[point]()

    def fsync(descriptor: int) -> None:
        at("writing")
        _fsync(descriptor)

    def spy(real: Callable[..., None]) -> Callable[..., None]:
        def call(source: Any, target: Any, *args: Any, **kwargs: Any) -> None:
            nonlocal named
            if path in (Path(source), Path(target)):
                named += 1
                at(named)
            real(source, target, *args, **kwargs)

        return call

    monkeypatch.setattr(os, "fsync", fsync)
    for name in ("rename", "replace", "link"):
        monkeypatch.setattr(os, name, spy(getattr(os, name)))
    return reached


# --- one write at each point of the save -------------------------------------------------------------------------


@pytest.mark.parametrize("point", ["writing", 1, 2])
@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_write_during_the_save_stays_and_the_text_is_kept_beside(
    client: TestClient, studio: Studio, monkeypatch: pytest.MonkeyPatch, kind: str, point: str | int
) -> None:
    """Whenever another program writes during the save, its file is at the path after it, the save answers the
    conflict, and the studio's text is in a new file beside it that the answer names."""
    reached = during_save(monkeypatch, studio.path, {point: lambda: WRITERS[kind](studio.path, THEIRS)})
    answer = save(client, MINE, version_of(FIRST.encode()))
    assert reached == [point]
    assert answer.status_code == 409
    body = answer.json()
    assert body["conflict"] is True and body["disk"] == THEIRS and body["version"] == version_of(THEIRS.encode())
    assert "-name: theirs" in body["diff"] and "+name: mine" in body["diff"]
    assert studio.path.read_text() == THEIRS
    kept = Path(body["kept"])  # as display_path shows it: relative to the working folder, or whole
    assert kept.parent == studio.folder and KEPT.fullmatch(kept.name) and kept.read_text() == MINE
    assert "kept_other" not in body
    assert hidden(studio.folder) == []


@pytest.mark.parametrize("point", ["writing", 2])  # just before the first rename, as "writing": the file is gone
def test_a_file_removed_during_the_save_is_written_again(
    client: TestClient, studio: Studio, monkeypatch: pytest.MonkeyPatch, point: str | int
) -> None:
    """A removal carries no bytes to keep: the save writes the file again, and the path is never left missing."""
    reached = during_save(monkeypatch, studio.path, {point: lambda: studio.path.unlink(missing_ok=True)})
    answer = save(client, MINE, version_of(FIRST.encode()))
    assert reached == [point]
    assert answer.status_code == 200 and answer.json()["version"] == version_of(MINE.encode())
    assert studio.path.read_text() == MINE
    assert [path.name for path in studio.folder.iterdir()] == ["variant.yaml"]


def test_two_writes_during_one_save_are_both_kept(client: TestClient, studio: Studio, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file moved aside is another program's write, and before it can go back the program writes again: the
    later write stays at the path, the earlier one is kept beside it too, and the answer names both files."""
    earlier = "name: theirs, earlier\n"
    plan: dict[str | int, Callable[[], None]] = {
        1: lambda: rename_over(studio.path, earlier),  # before the save moves the file aside
        2: lambda: rename_over(studio.path, THEIRS),  # before it puts that file back
    }
    reached = during_save(monkeypatch, studio.path, plan)
    answer = save(client, MINE, version_of(FIRST.encode()))
    assert reached == [1, 2]
    assert answer.status_code == 409
    body = answer.json()
    assert body["disk"] == THEIRS and studio.path.read_text() == THEIRS
    kept, other = Path(body["kept"]), Path(body["kept_other"])
    assert KEPT.fullmatch(kept.name) and kept.read_text() == MINE
    assert KEPT_OTHER.fullmatch(other.name) and other.read_text() == earlier
    assert hidden(studio.folder) == []


def test_a_save_that_fails_half_way_leaves_the_file_as_it_was(
    client: TestClient, studio: Studio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The system refuses a step after the file was moved aside: it is back, and nothing is left beside it."""
    real = os.chmod

    def refused(path: Any, mode: int, **kwargs: Any) -> None:
        if str(path).endswith(".tmp"):
            raise PermissionError(errno.EPERM, "refused by the test", str(path))
        real(path, mode, **kwargs)

    monkeypatch.setattr(os, "chmod", refused)
    answer = save(client, MINE, version_of(FIRST.encode()))
    assert answer.status_code == 422 and "refused by the test" in answer.json()["error"]
    assert [path.name for path in studio.folder.iterdir()] == ["variant.yaml"]
    assert studio.path.read_text() == FIRST


def test_a_save_keeps_the_files_mode(client: TestClient, studio: Studio) -> None:
    studio.path.chmod(0o640)
    assert save(client, MINE, version_of(FIRST.encode())).status_code == 200
    assert stat.S_IMODE(studio.path.stat().st_mode) == 0o640 and studio.path.read_text() == MINE
    assert hidden(studio.folder) == []


def test_a_file_kept_beside_never_replaces_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outputs, "_stamp", lambda: "20250102-030405")
    target = tmp_path / "variant.yaml"
    taken = tmp_path / "variant.studio-conflict-20250102-030405.yaml"
    taken.write_text("somebody's\n")
    first = outputs.write_beside(target, "one\n", "studio-conflict")
    second = outputs.write_beside(target, b"two\r\n", "studio-conflict")
    assert first.name == "variant.studio-conflict-20250102-030405-2.yaml" and first.read_text() == "one\n"
    assert second.name == "variant.studio-conflict-20250102-030405-3.yaml" and second.read_bytes() == b"two\r\n"
    assert taken.read_text() == "somebody's\n" and hidden(tmp_path) == []


# --- two writers in a tight loop ---------------------------------------------------------------------------------

AT_FDCWD, RENAME_EXCHANGE = -100, 2
SAVES = 300  #: the studio's saves; the other program writes at most this often too


def exchanger() -> Callable[[Path, Path], bool] | None:
    """Linux's ``renameat2(RENAME_EXCHANGE)``: two names swap their files at once (None where there is none)."""
    if sys.platform != "linux":
        return None
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return None

    def exchange(source: Path, target: Path) -> bool:
        """Swap the files of ``source`` and ``target``; False when ``target`` is missing."""
        if renameat2(AT_FDCWD, os.fsencode(source), AT_FDCWD, os.fsencode(target), RENAME_EXCHANGE) == 0:
            return True
        code = ctypes.get_errno()
        if code == errno.ENOENT:
            return False
        raise OSError(code, os.strerror(code), str(target))

    return exchange


@dataclass
class Ledger:
    """Where every write went: what the other program wrote and what each of its writes replaced, and what the
    studio's saves removed from the disk with the version each expected (the page's)."""

    other_wrote: list[bytes] = field(default_factory=list)
    other_replaced: list[bytes] = field(default_factory=list)
    studio_removed: list[tuple[bytes, str]] = field(default_factory=list)
    expected: str = ""  #: the version of the save going on (one at a time)


def watch_the_studio(monkeypatch: pytest.MonkeyPatch, ledger: Ledger, exchange: Callable[[Path, Path], bool]) -> None:
    """Record every file the studio's code removes: a file it deletes is read first, and a rename over a file is an
    exchange (the same for everyone else) after which the file it replaced is read and deleted."""

    def removed(path: Any) -> None:
        ledger.studio_removed.append((Path(path).read_bytes(), ledger.expected))

    def unlink(path: Any, **kwargs: Any) -> None:
        if os.path.isfile(path) and not os.path.islink(path):
            removed(path)
        _unlink(path, **kwargs)

    def rename(source: Any, target: Any) -> None:
        if not exchange(Path(source), Path(target)):  # nothing at the target: a plain rename
            _rename(source, target)
            return
        removed(source)
        _unlink(source)

    monkeypatch.setattr(os, "unlink", unlink)
    monkeypatch.setattr(os, "replace", rename)
    monkeypatch.setattr(os, "rename", rename)


def let_go_after_each_fsync(monkeypatch: pytest.MonkeyPatch, gate: threading.Semaphore) -> None:
    """Each time the studio's code has made a file durable (its new file is written: the check and the swap come
    next), let the other program go for one write, which then races the rest of the save."""

    def fsync(descriptor: int) -> None:
        _fsync(descriptor)
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            gate.release()

    monkeypatch.setattr(os, "fsync", fsync)


def test_no_write_of_another_program_is_lost_in_a_tight_loop(
    client: TestClient, studio: Studio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The studio saves SAVES times from the version it last saw (its own after a save, the disk's after a conflict);
    another program writes distinct contents by renames, one write each time a save has written its new file, as
    soon as it can (so that it races the save's check and swap). Its renames are exchanges, so each says what it
    replaced; the studio's removals are recorded too. At the end every one of its writes is at the path, in a file
    kept beside it, replaced by its own next write, or removed by a save that expected exactly it."""
    exchange = exchanger()
    probe = studio.folder / "probe"
    probe.write_text("")
    try:
        if exchange is None or not exchange(probe, studio.path):
            pytest.skip("no renameat2(RENAME_EXCHANGE) here (Linux only)")
    except OSError as exc:  # a file system without it
        pytest.skip(f"no renameat2(RENAME_EXCHANGE) here: {exc}")
    exchange(probe, studio.path)  # and back
    probe.unlink()

    ledger = Ledger(expected=version_of(FIRST.encode()))
    gate, studio_done = threading.Semaphore(0), threading.Event()

    def other_program() -> None:
        for number in range(SAVES):
            gate.acquire()
            if studio_done.is_set():
                return
            data = f"name: other {number}\n".encode()
            beside = studio.folder / f"other-{number}.tmp"
            beside.write_bytes(data)
            ledger.other_wrote.append(data)
            while True:
                if exchange(beside, studio.path):
                    ledger.other_replaced.append(beside.read_bytes())
                    _unlink(beside)
                    break
                try:  # the path is missing for an instant (a save's swap): a new file, unless one came first
                    _link(beside, studio.path)
                except FileExistsError:
                    continue
                _unlink(beside)
                break

    watch_the_studio(monkeypatch, ledger, exchange)
    let_go_after_each_fsync(monkeypatch, gate)
    other = threading.Thread(target=other_program)
    other.start()
    outcomes = {"saved": 0, "conflict": 0, "refused": 0}
    try:
        version = ledger.expected
        for number in range(SAVES):
            ledger.expected = version
            answer = save(client, f"name: studio {number}\n", version)
            body = answer.json()
            if answer.status_code == 200:
                outcomes["saved"] += 1
                version = body["version"]
            elif body.get("conflict"):
                outcomes["conflict"] += 1
                version = body["version"]
            else:  # the other program's new file has two names for an instant (its link, then its unlink)
                assert answer.status_code == 409 and "hard links" in body["error"], body
                outcomes["refused"] += 1
    finally:
        studio_done.set()
        gate.release()
        other.join()

    at_the_end = {studio.path.read_bytes()}
    kept = {path.read_bytes() for path in studio.folder.glob("variant.*-conflict-*.yaml")}
    knowingly = {data for data, expected in ledger.studio_removed if version_of(data) == expected}
    lost = [data for data in ledger.other_wrote if data not in at_the_end | kept | set(ledger.other_replaced) | knowingly]
    print(f"{len(ledger.other_wrote)} writes of the other program; studio: {outcomes}; {len(kept)} files kept beside")
    assert lost == []
    assert hidden(studio.folder) == []
