"""Games people played at a table, entered as they happened: the scenario scripts ``workbench record`` writes.
Family-agnostic.

A recording is a scenario script like any other (``replay`` checks it) with a ``playtest:`` header: the day, the
players' names, notes, and ``unfinished: true`` until the game has ended. It is written again, atomically, after
the setup and after every round, so a game stopped midway (the input ended, Ctrl-C, a closed terminal) keeps every
round entered before the one in play; ``resume`` replays it and goes on from there.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from workbench.errors import ScenarioError, UsageError, display_path
from workbench.games import Family, Loaded, game_length, load_scenario, load_variant
from workbench.loading import Document
from workbench.outputs import FileChanged, check_writable, sha256_of, write_atomic
from workbench.play import Table
from workbench.recording import script_text
from workbench.runs import one_count, player_counts


@dataclass(frozen=True)
class Recording:
    """A game entered at a table: where it is, its script as last written, and whether it has ended."""

    family: Family
    path: Path
    script: dict[str, Any]
    finished: bool

    @property
    def length(self) -> str:
        """How much of the game was entered, in the family's unit: ``5 rounds``, ``12 plies``."""
        return game_length(self.family, self.script["expect"])


def record(
    variant: str | os.PathLike[str],
    out: str | os.PathLike[str],
    table: Table,
    players: int | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    names: Sequence[str] = (),
    notes: str | None = None,
    date: datetime.date | None = None,
    saved: list[Recording] | None = None,
) -> Recording:
    """Enter a game played at a table into the scenario script ``out``, written after the setup and after every round.

    ``names`` names the players from seat 0 (or none; given, they also set the number of players), ``date`` is the
    day (today by default); a missing folder of ``out`` is made. ``resume`` goes on with
    the unfinished game in ``out`` (its players, names, notes and day); otherwise ``out`` must not exist, or ``force``
    replaces it. Each version written is appended to ``saved`` as it is written (so a caller stopped by
    :class:`~workbench.play.Left` or Ctrl-C knows what was kept).
    """
    path, target = Path(variant), Path(out)
    loaded = load_variant(path)
    family = loaded.family.recordable
    if family is None:
        raise UsageError(None, f"games of {loaded.family.title} cannot be entered at the table yet")
    _check_target(target, loaded)
    if resume and (names or notes is not None or date is not None):
        raise UsageError(None, "a resumed game keeps the names, notes and day it was started with (edit them in its file)")
    resumed = _resumable(target, loaded) if resume else None
    if resumed is None:
        _check_new(target, force)
        _check_names(names)
        _check_notes(notes)
        if players is None and names:  # the names say how many play
            low, high = loaded.family.player_range(loaded.variant)
            if not low <= len(names) <= high:
                raise UsageError("names", f"{len(names)} names, {len(names)} players: the variant is for {low} to {high} players")
        count = one_count(player_counts(loaded, players if players is not None or not names else len(names), path))
        if names and len(names) != count:
            raise UsageError("names", f"name every player, one per seat from seat 0: {len(names)} names for {count} players")
        header: dict[str, Any] = {"date": date or datetime.date.today(), "table": list(names), "notes": notes}
    else:
        doc, _ = resumed
        count = doc.data.get("players") or one_count(player_counts(loaded, None, path))
        if players is not None and players != count:
            raise UsageError("players", f"the game in {display_path(target)} is for {count} players", str(players))
        header = dict(doc.data.get("playtest") or {})
        if isinstance(header.get("date"), str):  # the file's loader keeps a day as text: the script writes it as a day
            try:
                header["date"] = datetime.date.fromisoformat(header["date"])
            except ValueError:
                raise ScenarioError([doc.problem(("playtest", "date"), "expected a day as YYYY-MM-DD")]) from None
    reference = os.path.relpath(path, target.parent)
    description = f"{loaded.variant.name} at {count} players, played at the table"
    last: Recording | None = None
    seated = replace(table, names=tuple(header.get("table") or ()))
    still = sha256_of(target) if resumed is not None else None  #: the file as this recording last left it
    for body, over in family.record(loaded.variant, count, seated, resumed[0] if resumed is not None else None):
        playtest = {key: value for key, value in header.items() if value not in (None, [], False) and key != "unfinished"}
        if not over:
            playtest["unfinished"] = True
        script = {"description": description, "variant": reference, "playtest": playtest, **body}
        text = script_text(script, target.parent, family.game, "record")
        if still is None and target.exists() and not force:  # another recording took the name meanwhile
            raise UsageError(
                "out", "another program wrote this file while the game was set up: nothing was written", display_path(target)
            )
        try:
            write_atomic(target, text, still=still)
        except FileChanged:
            raise UsageError(
                "out",
                "this file changed on disk since the last round was saved (another program or another recording?): "
                "the round in play is not saved there, and the file is left as it is",
                display_path(target),
            ) from None
        still = sha256_of(target)
        last = Recording(loaded.family, target, script, over)
        if saved is not None:
            saved.append(last)
    assert last is not None  # the setup is written before the first round
    return last


def _check_target(target: Path, loaded: Loaded) -> None:
    """Refuse, whatever the options, a file the game cannot be written to: a folder, a link, something else than a
    file (a device, a pipe), or one of the files the variant is made of."""
    shown = display_path(target)
    if target.is_symlink():
        raise UsageError("out", "this is a link: name the file itself (the game is written in its place)", shown)
    if target.is_dir():
        raise UsageError("out", "this is a folder: name the file to write the game to", shown)
    if target.exists() and not target.is_file():
        raise UsageError("out", "this is not a regular file (a device or a pipe?): name a file", shown)
    if target.exists() and any(
        target.resolve() == source.resolve() for source in (*loaded.sources, *filter(None, [loaded.path]))
    ):
        raise UsageError(
            "out", "this is one of the variant's own files (the variant, what it extends, its cards): name another", shown
        )


def _check_names(names: Sequence[str]) -> None:
    """Names the script's ``playtest.table`` takes: each 1 to 40 characters, printable."""
    for name in names:
        if not 1 <= len(name) <= 40 or not name.isprintable():
            raise UsageError("names", "each name is 1 to 40 printable characters (separate them with commas)", repr(name))


#: The longest notes a playtest takes: its file must stay far below what a script may be (``loading.MAX_BYTES``).
MOST_NOTES = 100_000


def _check_notes(notes: str | None) -> None:
    """Notes the script's ``playtest.notes`` takes: short enough that the file can be read back (6 MB of notes were
    written, then the file could be neither resumed nor replayed)."""
    if notes is not None and len(notes) > MOST_NOTES:
        raise UsageError("notes", f"at most {MOST_NOTES:,} characters (these have {len(notes):,})")


def _check_new(target: Path, force: bool) -> None:
    """Refuse, before anything is asked, a file that cannot be written or that holds something of the user's."""
    if target.exists() and not force:
        raise UsageError(
            "out",
            lambda name: f"this file exists: {name('resume')} goes on with the game in it, {name('force')} replaces it",
            display_path(target),
        )
    folder = target.parent
    if not folder.is_dir():
        try:  # a new folder for the evening's games: made now, before the first question
            folder.mkdir(parents=True)
        except OSError as exc:
            blocking = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
            why = f"{display_path(blocking)} is a file, not a folder" if blocking else exc.strerror or str(exc)
            raise UsageError("out", f"its folder cannot be made ({why})", display_path(target)) from None
    check_writable(folder, "out")


def _resumable(target: Path, loaded: Loaded) -> tuple[Document, Loaded]:
    """The unfinished game in ``target``, of the variant ``loaded``."""
    if not target.is_file():
        raise UsageError("out", "there is no game to resume in this file", display_path(target))
    found = load_scenario(target)
    if found is None:
        raise UsageError("out", "this is a variant file, not a recorded game", display_path(target))
    doc, played = found
    if played.variant != loaded.variant:
        raise ScenarioError([doc.problem(("variant",), "the game was recorded on another variant than the one named")])
    header = doc.data.get("playtest")
    if not (isinstance(header, dict) and header.get("unfinished") is True):
        raise ScenarioError(
            [
                doc.problem(
                    ("playtest",) if header else (), "this game has ended (or was not entered at a table): nothing to resume"
                )
            ]
        )
    return doc, played
