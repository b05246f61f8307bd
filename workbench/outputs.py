"""The one writer: every file the workbench writes goes through here. Family-agnostic.

- **Checked before the work.** A command names its targets first (:meth:`Outputs.file`,
  :meth:`Outputs.scripts`); each is checked at once: a regular file or a missing path in a
  writable folder, no two options naming the same file, and nothing in the way that the
  workbench did not write. Devices, FIFOs, sockets and folders are refused as files.
- **Written atomically, as one set.** Data goes to a temporary file beside the target, is
  flushed and fsynced; the command's files are then renamed over their targets together
  (:meth:`Outputs.commit`). On any error the old files are intact and no temporary file
  is left behind.
- **Known by record.** Each folder the workbench writes into holds a manifest,
  :data:`MANIFEST`, with the sha256 of every file it wrote there. A file may be replaced
  without ``force`` only if the manifest lists it with the hash it still has; a file the
  designer wrote or changed since is never replaced unasked.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from workbench import GENERATOR, __version__
from workbench.errors import Naming, Problem, Reason, UsageError, WorkbenchError, display_name, display_path
from workbench.holding import Hold, hold

#: The record of what the workbench wrote in a folder: file name -> sha256 of its bytes.
MANIFEST = ".workbench-outputs.json"
#: Hidden folders where a run's scripts wait until the run ends (left behind only by a killed run).
STAGING_PREFIX = ".workbench-staging-"


class OutputError(WorkbenchError):
    """A file could not be written (a full disk, a vanished folder); what was there before is intact."""

    def __init__(self, path: Path, reason: str):
        super().__init__([Problem(None, None, "", f"cannot write {display_path(path)}: {reason}")])


class FileChanged(OutputError):
    """The file to replace changed on disk while its replacement was written: it was left as it is (``kept``: an
    earlier write of another program's that could not go back, kept beside it)."""

    def __init__(self, path: Path, reason: str, *, kept: Path | None = None):
        super().__init__(path, reason)
        self.kept = kept


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()  # what a plain open() would give a new file


def sha256_of(path: Path) -> str:
    """The sha256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class Claim:
    """Who names a path: a parameter of the command (``out``), or an input, in words (``the input variants/x.yaml``)."""

    parameter: str | None
    words: str = ""

    def said(self, naming: Naming) -> str:
        return naming(self.parameter) if self.parameter is not None else self.words

    def then(self, rest: str) -> Reason:
        """A reason that starts with who this is: ``--out names the same file`` on the command line."""
        return lambda naming: f"{self.said(naming)} {rest}"


def _not_ours(name: Naming) -> str:
    return f"this file exists and was not written by the workbench (or was changed since); add {name('force')} to replace it"


def _named_like_ours(name: Naming) -> str:
    return (
        "this file is named like those the command writes in this folder but was not written by the workbench (or was "
        f"changed since): move or rename it, or add {name('force')} (a file of that name the run writes replaces it)"
    )


def _changed_meanwhile(path: Path) -> Reason:
    shown = display_path(path)
    return lambda name: f"{shown} changed while the command ran; nothing was written (add {name('force')} to replace it anyway)"


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


@dataclass
class _Temporary:
    path: Path
    handle: IO[Any]


@contextlib.contextmanager
def _temporary(target: Path, *, text: bool, newline: str | None) -> Iterator[_Temporary]:
    """A temporary file beside ``target``, named with this process's id: flushed, fsynced and closed when the block
    ends cleanly, removed when it does not. Raises :class:`OutputError` when the system refuses (no space...)."""
    try:
        descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(target, _reason(exc)) from None
    encoding = "utf-8" if text else None
    temporary = _Temporary(Path(name), os.fdopen(descriptor, "w" if text else "wb", encoding=encoding, newline=newline))
    try:
        with temporary.handle as handle:
            yield temporary
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temporary.path.unlink()
        if isinstance(exc, OSError):
            raise OutputError(target, _reason(exc)) from None
        raise


def _put_in_place(temporary: Path, target: Path, named: Path) -> None:
    """Rename a finished temporary file over ``target``, keeping the mode of the file it replaces."""
    try:
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode = _MODE
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise OutputError(named, _reason(exc)) from None


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening a folder)."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


#: What ``still`` says when no file is expected at the path: a file made there meanwhile is another program's.
ABSENT = "absent"
#: Whether ``os.link`` must follow a symbolic link it is given: only where the system cannot link the link itself.
_LINK_FOLLOWS = os.link not in os.supports_follow_symlinks
_CHANGED = "it changed on disk while it was being written (it was left as it is)"
#: Who is told of the files put in place, while listening (:func:`told`).
_listeners: list[Callable[[list[Path]], None]] = []


@contextlib.contextmanager
def told(listener: Callable[[list[Path]], None]) -> Iterator[None]:
    """Inside the block, tell ``listener`` the files (and scripts folders) each commit or atomic write puts in place, as
    soon as they stand, as they were named: a command line learns the instant its results are written, from which a
    Ctrl-C must no longer end it as if they were not."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)


def _tell(placed: list[Path]) -> None:
    for listener in list(_listeners):
        listener(placed)


def write_atomic(path: Path, data: bytes | str, *, still: str | None = None) -> None:
    """Replace ``path`` with ``data`` atomically: on any error the old file is intact and no temporary file is left.

    Text is written as given (no newline translation), so a CRLF file stays CRLF. ``still`` is the sha256 the file
    must still have when the new one is put in its place (:data:`ABSENT`: that there is none), checked and swapped as
    one step for other programs (:func:`_swap_if_still`). When another program wrote the file meanwhile,
    :class:`FileChanged` is raised and their file is at ``path`` (an earlier write of theirs that could not go back is
    kept beside it, named by :attr:`FileChanged.kept`); a file removed meanwhile is a change too, and stays removed.
    """
    _write(path, data, still)
    _tell([path])


def _write(path: Path, data: bytes | str, still: str | None = None) -> None:
    """:func:`write_atomic`, untold (a manifest is not a result)."""
    text = isinstance(data, str)
    with _temporary(path, text=text, newline="" if text else None) as temporary:
        temporary.handle.write(data)
    if still is None:
        _put_in_place(temporary.path, path, path)
        _sync_folder(path.parent)
    else:
        with _placing(temporary.path, path):
            _swap_if_still(temporary.path, path, still)


@contextlib.contextmanager
def _placing(temporary: Path, path: Path) -> Iterator[None]:
    """Around giving a finished ``temporary`` file its place by ``path``: the system's refusal said as an
    :class:`OutputError` of ``path``; then the temporary name removed (gone already when the file got its place) and
    the rename made durable."""
    try:
        yield
    except OSError as exc:
        raise OutputError(path, _reason(exc)) from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
        _sync_folder(path.parent)


def _swap_if_still(temporary: Path, target: Path, still: str) -> None:
    """Put ``temporary`` at ``target`` only if the file there is still the one whose sha256 is ``still``.

    Under the workbench's lock (:func:`_locked`), the file is first moved aside by a rename, then checked. Another
    program's write before the move is in the file moved aside, so the check sees it: the file goes back and
    :class:`FileChanged` is raised. A write after the move, by a rename or into a new file, lands at ``target``; the
    new file takes the name by a hard link, which the system refuses when the name is taken, so theirs stays
    (:class:`FileChanged`). The file moved aside goes only once another holds the name: ``target`` is never left
    missing, but between the move and the link (a few microseconds) a reader finds no file there. What this cannot
    see: a program that opened the file before the move and writes into it, without
    truncating it first, between the check and the end (it writes into the file moved aside, as it would into any
    file an editor replaces by a rename).
    """
    aside = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.aside")
    with _locked(target):
        try:
            os.rename(target, aside)
        except FileNotFoundError:  # no file: as expected with ABSENT (ours goes in unless a new one came), else removed
            if still != ABSENT:
                raise FileChanged(target, "it was removed while it was being written (it was left so)") from None
            _place(temporary, target, _MODE)
            return
        seen = False
        try:
            seen = _digest_if_regular(aside) == still
            if seen:
                _place(temporary, target, stat.S_IMODE(os.lstat(aside).st_mode))
        except BaseException:
            _put_back(aside, target, seen=seen)
            raise
        if not seen:
            raise FileChanged(target, _CHANGED, kept=_put_back(aside, target, seen=False))
        with contextlib.suppress(OSError):
            os.unlink(aside)


def _place(temporary: Path, target: Path, mode: int) -> None:
    """Give the finished ``temporary`` the ``mode`` and the name ``target``, unless another program made a file there."""
    os.chmod(temporary, mode)
    try:
        _place_new(temporary, target)
    except FileExistsError:
        raise FileChanged(target, _CHANGED) from None


def _put_back(aside: Path, target: Path, *, seen: bool) -> Path | None:
    """Give the file moved aside its name again. When another program made a new file there meanwhile, theirs stays,
    and the one moved aside goes if it was the one expected (``seen``: the caller knew it), or else is kept beside it:
    its path is returned."""
    try:
        try:
            _place_new(aside, target)
        except FileExistsError:
            if seen:
                os.unlink(aside)
                return None
            return _keep_beside(aside, target, "other-conflict")
    except OSError as exc:  # the one case where the file moved aside stays there: it may be nowhere else
        raise OutputError(target, f"{_reason(exc)} (the file it held is kept as {display_path(aside)})") from None
    return None


def _place_new(source: Path, target: Path) -> None:
    """Give the file ``source`` the name ``target`` unless something has that name already (FileExistsError, and
    ``source`` stays): a hard link, which the system refuses when the name is taken, then ``source``'s name removed.

    Where the file system has no hard links (FAT, some network shares) or ``source`` is a folder, a rename after a
    look: a file another program makes in between is replaced, the one window left there.
    """
    try:
        os.link(source, target, follow_symlinks=_LINK_FOLLOWS)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.rename(source, target)
        return
    with contextlib.suppress(OSError):
        os.unlink(source)


def _digest_if_regular(path: Path) -> str | None:
    """The sha256 of the regular file at ``path`` (a link is not followed); None for anything else."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError:  # a link, or a file it may not read
        return None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        return hashlib.file_digest(handle, "sha256").hexdigest()


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    """Hold the workbench's lock on ``target``: ``flock`` on ``.NAME.lock`` beside it, removed on release.

    Only the workbench's own writers take it (two studios on one file, a studio and a recording); other programs do
    not, which is why :func:`_swap_if_still` does not rely on it. Where there is no ``flock`` (Windows), nothing.
    """
    if sys.platform == "win32":
        yield
        return
    import fcntl

    lock = target.with_name(f".{target.name}.lock")
    while True:
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            if _names(descriptor, lock):
                break
        except BaseException:
            os.close(descriptor)
            raise
        os.close(descriptor)  # removed by the holder this one waited for: take the lock file there now
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(descriptor)


def _names(descriptor: int, path: Path) -> bool:
    """Whether ``path`` is still the name of the open file ``descriptor``."""
    try:
        return os.path.samestat(os.fstat(descriptor), os.lstat(path))
    except FileNotFoundError:
        return False


def write_beside(path: Path, data: bytes | str, label: str) -> Path:
    """Write ``data`` to a new file beside ``path``, named ``STEM.LABEL-YYYYMMDD-HHMMSS`` with ``path``'s suffix
    (``-2``, ``-3``... added when the name is taken): whole or not at all, never over another file. Returns its path."""
    text = isinstance(data, str)
    with _temporary(path, text=text, newline="" if text else None) as temporary:
        temporary.handle.write(data)
    with _placing(temporary.path, path):
        os.chmod(temporary.path, _MODE)
        return _keep_beside(temporary.path, path, label)


def _keep_beside(source: Path, path: Path, label: str) -> Path:
    """Give the file ``source`` a new name beside ``path`` (see :func:`write_beside`); returns it."""
    name = f"{path.stem}.{label}-{_stamp()}"
    number = 1
    while True:
        kept = path.with_name(f"{name}{'' if number == 1 else f'-{number}'}{path.suffix}")
        try:
            _place_new(source, kept)
        except FileExistsError:
            number += 1
            continue
        return kept


def _stamp() -> str:
    """The time now, as the name of a file kept beside another says it."""
    return datetime.datetime.now().strftime("%Y%m%d-%H%M%S")


# --- manifests -----------------------------------------------------------------------------------------------


def read_manifest(folder: Path, part: str = "files") -> dict[str, str]:
    """The files the workbench wrote in ``folder``, by name, with their sha256 (empty when none or unreadable);
    ``part="replacing"``: those a commit under way replaces (see :func:`_record_first`)."""
    try:
        body = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        return {}
    files = body.get(part) if isinstance(body, dict) else None
    if not isinstance(files, dict):
        return {}
    return {str(name): str(digest) for name, digest in files.items()}


def _write_manifest(folder: Path, files: dict[str, str], replacing: dict[str, str] | None = None) -> None:
    body: dict[str, Any] = {"generator": f"{GENERATOR} {__version__}", "files": dict(sorted(files.items()))}
    if replacing:
        body["replacing"] = dict(sorted(replacing.items()))
    _write(folder / MANIFEST, json.dumps(body, indent=1) + "\n")


def _record_first(manifests: dict[Path, dict[str, str]]) -> None:
    """Write the manifests of the files about to be put in place, before any is: a manifest that cannot be written
    (a full disk) then stops the commit with every target as it was, and the manifests written before it are put
    back, so no folder is left with outputs its manifest does not know (which the next run would refuse).

    Until the commit has put every file in place (:func:`_settle`), each manifest also lists, under ``replacing``,
    the files it replaces or removes as they were: a commit killed half-way (``kill -9``) leaves some of them, and
    the next run knows them as its own and replaces them."""
    earlier: dict[Path, dict[str, str]] = {}
    try:
        for folder, files in manifests.items():
            before = read_manifest(folder)
            _write_manifest(folder, files, {name: digest for name, digest in before.items() if files.get(name) != digest})
            earlier[folder] = before
    except WorkbenchError:
        for folder, before in earlier.items():
            with contextlib.suppress(WorkbenchError):
                _write_manifest(folder, before)
        raise


def _settle(manifests: dict[Path, dict[str, str]]) -> None:
    """Every file of the commit is in place: the manifests list only them (and the renames are made durable)."""
    for folder, files in manifests.items():
        if read_manifest(folder, "replacing"):
            _write_manifest(folder, files)
        _sync_folder(folder)


def is_ours(path: Path, manifest: dict[str, str] | None = None, replacing: dict[str, str] | None = None) -> bool:
    """Whether the workbench wrote ``path`` and nobody changed it since (its manifest says so: ``manifest`` and
    ``replacing``, its two parts, when the caller has read them; a file a commit killed half-way was replacing counts).

    Only a regular file can be: anything else (a FIFO would block a read) is not ours.
    """
    listed = (manifest if manifest is not None else read_manifest(path.parent)).get(path.name)
    earlier = (replacing if replacing is not None else read_manifest(path.parent, "replacing")).get(path.name)
    if listed is None and earlier is None:
        return False
    try:
        return stat.S_ISREG(path.lstat().st_mode) and sha256_of(path) in (listed, earlier)
    except OSError:
        return False


# --- checking targets ----------------------------------------------------------------------------------------


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a file" if stat.S_ISREG(mode) else "something that is not a regular file"


def _stat(path: Path, parameter: str | None = None, shown: Path | None = None) -> os.stat_result | None:
    """What is at ``path`` (None: nothing); a path that cannot be used is refused, named by the ``parameter`` that gave
    it (as typed: ``shown``)."""
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except (OSError, RuntimeError) as exc:  # a symlink loop, a name too long, a file where a folder should be
        why = f"cannot use this path ({getattr(exc, 'strerror', None) or exc})"
        if parameter is None:
            raise UsageError(None, f"{display_path(path)}: {why}") from None
        raise UsageError(parameter, why, display_path(shown or path)) from None


def _resolve(path: Path, parameter: str | None) -> Path:
    """The real path (symlinks followed, ``..`` taken out): every check and write is on it, never on the text typed."""
    try:
        return path.resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        why = f"cannot use this path ({getattr(exc, 'strerror', None) or exc})"
        if parameter is None:  # an input
            raise UsageError(None, f"{display_path(path)}: {why}") from None
        raise UsageError(parameter, why, display_path(path)) from None


def _signature(path: Path) -> tuple[int, int] | None:
    """What a file looks like now (size, modification time), to notice a change during the work; None: no file."""
    found = _stat(path)
    return None if found is None else (found.st_size, found.st_mtime_ns)


def _check_manifest_path(folder: Path, parameter: str) -> None:
    found = _stat(folder / MANIFEST)
    if found is not None and not stat.S_ISREG(found.st_mode):
        raise UsageError(
            parameter,
            f"the workbench keeps its record of outputs here, but this is {_kind(found.st_mode)}",
            display_path(folder / MANIFEST),
        )


def _check_not_out_of(path: Path, folders: Mapping[Path, str], parameter: str) -> None:
    """Refuse ``path`` when it is a link out of the output folder it is named in (one of ``folders``, resolved)."""
    folder = Path(os.path.realpath(path.parent))
    if folder not in folders or not path.is_symlink():
        return
    target = Path(os.path.realpath(path))
    if not target.is_relative_to(folder):
        raise UsageError(
            parameter,
            lambda name: (
                f"a link to {display_path(target)}, out of the folder {display_path(path.parent)}: the workbench writes "
                f"no file through it, even with {name('force')} (remove the link)"
            ),
            display_name(path),
        )


def check_writable(folder: Path, parameter: str) -> None:
    """Refuse a folder the workbench cannot create files in (checked by trying, which also works as root)."""
    try:
        descriptor, probe = tempfile.mkstemp(dir=folder, prefix=".workbench-probe-")
    except OSError as exc:
        raise UsageError(parameter, f"cannot write in this folder ({_reason(exc)})", display_path(folder)) from None
    os.close(descriptor)
    os.unlink(probe)


@dataclass
class _Staged:
    temporary: Path
    target: Path  #: resolved
    named: Path  #: as the caller named it
    digest: str


@dataclass
class Outputs:
    """The files one command writes, as one set: each checked when named, staged, then committed together.

    Name every target first (:meth:`file`, :meth:`scripts`; :meth:`reserve` the inputs no
    output may replace), do the work, :meth:`stage` or :meth:`stream` the contents, then
    :meth:`commit`: every staged file replaces its target (``os.replace``) and the
    manifests record them. Used as a context manager, an exception discards whatever was
    staged, so the earlier outputs stay as a whole. ``force`` allows replacing files the
    workbench did not write (or that were changed since). Each output folder is held for
    this run from its check (or its making) to the end of the block: another run on it is
    refused (:mod:`workbench.holding`).
    """

    force: bool = False
    targets: dict[Path, Claim] = field(default_factory=dict)  #: resolved path -> the parameter (or input) that names it
    folders: dict[Path, str] = field(default_factory=dict)  #: resolved folders named as output folders -> parameter
    scripted: dict[Path, Scripts] = field(default_factory=dict)  #: resolved scripts folders -> their scripts
    written: list[Path] = field(default_factory=list)  #: what was committed, in order
    _missing: dict[Path, bool] = field(default_factory=dict)  #: folders to make when ready -> with their parents
    _seen: dict[Path, tuple[int, int] | None] = field(default_factory=dict)  #: each target as it was when checked
    _staged: list[_Staged] = field(default_factory=list)
    _made: list[Path] = field(default_factory=list)  #: folders made by :meth:`ready`, outermost first
    _held: dict[Path, Hold | None] = field(default_factory=dict)  #: output folders held for this run
    #: each output folder as checked (resolved) -> the parameter that names it, as given, and its (device, inode)
    _checked: dict[Path, tuple[str, Path, tuple[int, int]]] = field(default_factory=dict)
    _ready: bool = False

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: Any) -> None:
        try:
            self.discard()
        finally:
            for held in self._held.values():
                if held is not None:
                    held.release()
            self._held.clear()

    def _hold(self, folder: Path, parameter: str, shown: Path) -> None:
        """Hold an existing output folder (resolved; ``shown`` as given) for this run, unless it is held already."""
        if folder not in self._held:
            self._held[folder] = hold(folder, parameter, shown)
            found = _stat(folder, parameter, shown)
            if found is not None:
                self._checked[folder] = (parameter, shown, (found.st_dev, found.st_ino))

    def _check_folders(self) -> None:
        """Refuse to write when an output folder is no longer the one checked: replaced (by a link to elsewhere, or
        another folder) since the run started. Nothing is written then, on either side."""
        for folder, (parameter, shown, identity) in self._checked.items():
            try:
                found = os.lstat(folder)
            except OSError:
                found = None
            if found is not None and (found.st_dev, found.st_ino) == identity:
                continue
            if found is not None and stat.S_ISLNK(found.st_mode):
                why = f"was replaced by a link (to {os.readlink(folder)})"
            else:
                why = "was removed" if found is None else "was replaced"
            raise UsageError(parameter, f"{why} since the run started; nothing was written", display_name(shown))

    def _claim(self, path: Path, parameter: str) -> Path:
        resolved = _resolve(path, parameter)
        if resolved.name == MANIFEST:
            raise UsageError(parameter, "this name is the workbench's record of its outputs", display_path(path))
        if resolved in self.targets:
            claim = self.targets[resolved]
            raise UsageError(parameter, claim.then("names the same file"), display_path(path))
        if resolved in self.folders:
            other = self.folders[resolved]
            raise UsageError(parameter, Claim(other).then("names this path as a folder"), display_path(path))
        self.targets[resolved] = Claim(parameter)
        return resolved

    def reserve(self, path: Path, what: str) -> None:
        """Keep an input (the variant file, a personas file) from being named as an output, even with ``force``."""
        self.targets.setdefault(_resolve(Path(path), None), Claim(None, what))

    def _will_exist(self, folder: Path) -> bool:
        return folder in self._missing or _stat(folder) is not None

    def folder_for(self, folder: Path, parameter: str, *, create: bool) -> None:
        """Name ``folder`` as an output folder of ``parameter`` and check that files can be written there.

        A missing folder is made by :meth:`ready` (not now: a refused command leaves nothing
        behind) if its parent exists, or with ``create`` its nearest existing ancestor (for the
        default output places).
        """
        folder = Path(folder)
        resolved = _resolve(folder, parameter)
        if resolved in self.targets:
            claim = self.targets[resolved]
            raise UsageError(parameter, claim.then("names this path as a file"), display_path(folder))
        found = _stat(resolved, parameter, folder)  # first: a name the system refuses is said as such
        if found is None and folder.is_symlink():  # never make a folder where a broken link points
            raise UsageError(parameter, f"a symbolic link to {os.readlink(folder)}, which does not exist", display_path(folder))
        self.folders.setdefault(resolved, parameter)
        if found is not None:
            if not stat.S_ISDIR(found.st_mode):
                raise UsageError(parameter, f"expected a folder, found {_kind(found.st_mode)}", display_path(folder))
            check_writable(resolved, parameter)
            _check_manifest_path(resolved, parameter)
            self._hold(resolved, parameter, folder)
            return
        existing = resolved.parent
        while create and not self._will_exist(existing) and existing != existing.parent:
            existing = existing.parent
        if not self._will_exist(existing):
            raise UsageError(parameter, f"the folder {display_path(folder.parent)} does not exist", display_path(folder))
        found = _stat(existing, parameter, folder)
        if found is not None:
            if not stat.S_ISDIR(found.st_mode):
                raise UsageError(parameter, f"{display_path(existing)} is {_kind(found.st_mode)}", display_path(folder))
            check_writable(existing, parameter)
        self._missing[resolved] = create

    def file(self, path: Path, parameter: str, *, create_folder: bool = False) -> Path:
        """Name ``path`` as a target of ``parameter`` and check it now; returns it.

        Its folder must exist or be one this command makes (with ``create_folder``, it is
        made: for default output places). A file the workbench names in an output folder
        (``--out DIR``'s ``summary.json``) is never written through a link out of that folder,
        not even with ``force`` (a file named by the user is written where it really points).
        Raises :class:`UsageError` when it cannot or may not be written.
        """
        path = Path(path)
        _check_not_out_of(path, self.folders, parameter)
        resolved = self._claim(path, parameter)
        found = _stat(resolved, parameter, path)
        if found is not None and not stat.S_ISREG(found.st_mode):
            raise UsageError(parameter, f"expected a file, found {_kind(found.st_mode)}", display_path(path))
        scripts = self.scripted.get(resolved.parent)
        if scripts is not None and scripts.pattern.fullmatch(resolved.name):
            raise UsageError(parameter, Claim(scripts.parameter).then("writes its scripts there"), display_path(path))
        if create_folder:
            self.folder_for(resolved.parent, parameter, create=True)
        elif not self._will_exist(resolved.parent):
            raise UsageError(parameter, f"the folder {display_path(path.parent)} does not exist", display_path(path))
        elif resolved.parent not in self._missing:
            check_writable(resolved.parent, parameter)
            _check_manifest_path(resolved.parent, parameter)
            self._hold(resolved.parent, parameter, path.parent)
        _remove_left_behind(resolved)
        self._seen[resolved] = _signature(resolved)
        if found is not None and not self.force and not is_ours(resolved):
            raise UsageError(parameter, _not_ours, display_path(path))
        return path

    def scripts(
        self, folder: Path, parameter: str, *, pattern: re.Pattern[str], names: Callable[[str], bool], create: bool = False
    ) -> Scripts:
        """Name a folder for many small files (scenario scripts, card images) called like ``pattern``; ``names`` are
        this run's.

        Checked now: the folder, and any file in it this run would replace that the
        workbench did not write. The files wait in a hidden staging folder (made by
        :meth:`ready`) until :meth:`commit` moves them in and removes the workbench's
        earlier files of the same pattern that this run did not write again. ``create``: as for
        :meth:`folder_for`.
        """
        folder = Path(folder)
        resolved = _resolve(folder, parameter)
        for target, claim in self.targets.items():
            if target.parent == resolved and pattern.fullmatch(target.name):
                raise UsageError(parameter, claim.then("names a file this run writes there"), display_path(folder))
        self.folder_for(folder, parameter, create=create)
        if resolved not in self._missing:
            manifest, replacing = read_manifest(resolved), read_manifest(resolved, "replacing")
            for entry in os.scandir(resolved):
                if _left_behind(entry.name, _STAGING) and entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                elif not names(entry.name):
                    continue
                elif not entry.is_file(follow_symlinks=False):
                    kind = _kind(entry.stat(follow_symlinks=False).st_mode)
                    raise UsageError(parameter, f"expected a file, found {kind}", display_path(Path(entry.path)))
                elif not self.force and not is_ours(Path(entry.path), manifest, replacing):
                    raise UsageError(parameter, _named_like_ours, display_path(Path(entry.path)))
        staged = Scripts(resolved, parameter, pattern, folder, check=self._check_folders)
        self.scripted[resolved] = staged
        return staged

    def ready(self) -> None:
        """Every target is named and checked: make the missing folders and the scripts' staging folders."""
        if self._ready:
            return
        for folder, parents in self._missing.items():
            new = [f for f in (folder, *folder.parents) if not f.exists()]
            try:
                folder.mkdir(parents=parents, exist_ok=True)
            except OSError as exc:
                raise OutputError(folder, _reason(exc)) from None
            self._made.extend(reversed(new))
        for target, claim in self.targets.items():  # a file's folder keeps a record of it, shared by its outputs
            if claim.parameter is not None:  # not an input, reserved
                self._hold(target.parent, claim.parameter, target.parent)
        for folder, parameter in self.folders.items():
            self._hold(folder, parameter, folder)
        for scripts in self.scripted.values():
            scripts.staging = Path(tempfile.mkdtemp(dir=scripts.folder, prefix=f"{STAGING_PREFIX}{os.getpid()}-"))
        self._ready = True

    def stage(self, path: Path, data: bytes | str) -> None:
        """Write a named target's new contents beside it (flushed and fsynced); :meth:`commit` puts it in place."""
        with self.stream(path, text=isinstance(data, str)) as handle:
            handle.write(data)

    @contextlib.contextmanager
    def stream(self, path: Path, *, text: bool = True) -> Iterator[HashingWriter]:
        """Stage a target written piece by piece (``--records``): kept when the block ends without an error."""
        self.ready()
        self._check_folders()
        resolved = Path(path).resolve()
        if self.targets.get(resolved) is None or resolved in {s.target for s in self._staged}:
            raise ValueError(f"{path} was not named as a target before the work started, or is staged already")
        digest = hashlib.sha256()
        with _temporary(resolved, text=text, newline="" if text else None) as temporary:
            yield HashingWriter(temporary.handle, digest)
        self._staged.append(_Staged(temporary.path, resolved, Path(path), digest.hexdigest()))

    def commit(self) -> list[Path]:
        """Put every staged file and script in place and record them in the manifests; the files committed.

        A target changed by somebody else since it was checked stops the commit before any
        file is replaced (unless ``force``): the set goes in whole or not at all.
        """
        self.ready()
        self._check_folders()
        for staged in self._staged:
            if not self.force and _signature(staged.target) != self._seen.get(staged.target):
                raise UsageError(None, _changed_meanwhile(staged.named))
        manifests: dict[Path, dict[str, str]] = {}
        for staged in self._staged:
            folder = staged.target.parent
            manifests.setdefault(folder, read_manifest(folder))[staged.target.name] = staged.digest
        for folder, scripts in self.scripted.items():  # keyed by the resolved folder, as the targets are
            manifests[folder] = scripts.recorded(manifests[folder] if folder in manifests else read_manifest(folder))
        _record_first(manifests)
        placed = [staged.named for staged in self._staged]
        for staged in self._staged:
            _put_in_place(staged.temporary, staged.target, staged.named)
            self.written.append(staged.named)
        self._staged.clear()
        for scripts in self.scripted.values():
            scripts.move_in()
        _settle(manifests)
        _tell([*placed, *(scripts.named for scripts in self.scripted.values())])
        return list(self.written)

    def write(self, path: Path, data: bytes | str) -> None:
        """Stage one target and commit it with whatever else is staged."""
        self.stage(path, data)
        self.commit()

    def discard(self) -> None:
        """Drop whatever is staged (the targets keep their earlier contents)."""
        for staged in self._staged:
            held = self._held.get(staged.temporary.parent)
            with contextlib.suppress(OSError):  # in the folder held, even if its name now leads elsewhere
                os.unlink(staged.temporary.name if held else staged.temporary, dir_fd=held.descriptor if held else None)
        self._staged.clear()
        for folder, scripts in self.scripted.items():
            scripts.discard(self._held.get(folder))
        for folder in reversed(self._made):  # folders made for a command that wrote nothing there go again
            with contextlib.suppress(OSError):
                folder.rmdir()  # only an empty folder: one that holds outputs (or anything else) stays


#: Temporary files and staging folders carry the writing process's id, so one left by a killed run can be told
#: from one a running command is still writing.
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp")
_STAGING = re.compile(re.escape(STAGING_PREFIX) + r"(?P<pid>\d+)-.+")


def _left_behind(name: str, pattern: re.Pattern[str]) -> bool:
    """Whether ``name`` is a temporary file or staging folder of a workbench process that no longer runs."""
    match = pattern.fullmatch(name)
    if match is None:
        return False
    try:
        os.kill(int(match.group("pid")), 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):  # alive but not ours to signal, or no such number
        return False
    return False


def _remove_left_behind(target: Path) -> None:
    """Remove the temporary files a killed run left beside ``target`` (a records file can be large)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            match = _TEMPORARY.fullmatch(entry.name)
            if match and match.group("name") == target.name and _left_behind(entry.name, _TEMPORARY):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def sha256_of_data(data: bytes | str) -> str:
    """The sha256 of ``data`` (text as UTF-8), as :func:`sha256_of` gives it for a file of these bytes."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


class HashingWriter:
    """A file that hashes what is written to it (so a long records file is not read back)."""

    def __init__(self, handle: IO[Any], digest: Any):
        self.handle, self.digest = handle, digest

    def write(self, data: str | bytes) -> int:
        self.digest.update(data.encode("utf-8") if isinstance(data, str) else data)
        return int(self.handle.write(data))

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)


@dataclass
class Scripts:
    """A run's scripts, staged beside the folder they go to; :meth:`Outputs.commit` puts them in place."""

    folder: Path
    parameter: str
    pattern: re.Pattern[str]
    named: Path  #: the folder as the caller named it
    staging: Path | None = None  #: made by :meth:`Outputs.ready`
    hashes: dict[str, str] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)  #: stale files left because they were changed since written
    _gone: list[str] = field(default_factory=list)  #: earlier scripts of the workbench that go (see :meth:`recorded`)
    #: raises when an output folder is no longer the one checked (:meth:`Outputs.scripts` sets it): a failed write
    #: says that, rather than the system's word for a path that now leads elsewhere
    check: Callable[[], None] = lambda: None

    def add(self, name: str, data: str | bytes) -> None:
        """Stage one file (a script, an image) in the private staging folder (flushed and fsynced; nobody sees it
        before the commit)."""
        if not self.pattern.fullmatch(name) or self.staging is None:
            raise ValueError(f"not a script name, or the outputs are not ready: {name}")
        try:
            with (self.staging / name).open("wb") as handle:
                handle.write(data.encode("utf-8") if isinstance(data, str) else data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            self.check()
            raise OutputError(self.folder / name, _reason(exc)) from None
        self.hashes[name] = sha256_of_data(data)

    def recorded(self, manifest: dict[str, str]) -> dict[str, str]:
        """The folder's ``manifest`` once the staged scripts are in and the workbench's earlier ones gone (an
        earlier script somebody changed stays, in :attr:`kept`, and leaves the manifest)."""
        replacing = read_manifest(self.folder, "replacing")  # a commit killed half-way left some of them
        earlier = {
            entry.name
            for entry in os.scandir(self.folder)
            if entry.name not in self.hashes
            and self.pattern.fullmatch(entry.name)
            and (entry.name in manifest or entry.name in replacing)
        }
        self._gone = sorted(name for name in earlier if is_ours(self.folder / name, manifest, replacing))
        self.kept.extend(sorted(earlier.difference(self._gone)))
        return {**{name: digest for name, digest in manifest.items() if name not in earlier}, **self.hashes}

    def move_in(self) -> int:
        """Remove the earlier scripts :meth:`recorded` found ours and move the staged ones in; the number moved in."""
        if self.staging is None:
            raise ValueError("the outputs are not ready")
        for name in self._gone:
            os.unlink(self.folder / name)
        try:
            for name in sorted(self.hashes):
                os.replace(self.staging / name, self.folder / name)
        except OSError as exc:
            raise OutputError(self.folder / name, _reason(exc)) from None
        _sync_folder(self.folder)
        self.discard()
        return len(self.hashes)

    def discard(self, held: Hold | None = None) -> None:
        """Remove the staging folder and whatever is still in it (in the ``held`` folder, when given, even if its
        name now leads elsewhere)."""
        if self.staging is not None:
            name = self.staging.name if held else self.staging
            shutil.rmtree(name, ignore_errors=True, dir_fd=held.descriptor if held else None)


__all__ = [
    "ABSENT",
    "MANIFEST",
    "OutputError",
    "Outputs",
    "Scripts",
    "check_writable",
    "is_ours",
    "read_manifest",
    "sha256_of",
    "told",
    "write_atomic",
    "write_beside",
]
