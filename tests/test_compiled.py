"""The compiled engines' cache (``workbench.sim.compiled``) and the run that hands over to it (``runner.Handover``).

A stand-in engine, a module written in a test folder whose ``warm`` writes one file into
its cache folder, exercises the cache without Numba: compiled in the background, found
complete by its manifest, set aside when damaged, moved when its folder cannot be written,
and a failed compile said with the compiler's last words.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import json
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from workbench import api
from workbench.games import FAMILIES
from workbench.sim import compiled
from workbench.sim.compiled import CACHE_ENV, MANIFEST, CompiledEngine, CompileFailed, cache_root
from workbench.sim.runner import Chunk, Handover, Task, run

ROOT = Path(__file__).resolve().parent.parent

STAND_IN = """
import os
from pathlib import Path
from workbench.sim.compiled import CompiledEngine

ENGINE = CompiledEngine("stand-in", ("{name}",), "{name}:warm")

def warm():
    if os.environ.get("STAND_IN_FAILS"):
        raise RuntimeError("the stand-in cannot compile today")
    ENGINE.folder.mkdir(parents=True, exist_ok=True)
    (ENGINE.folder / "code.bin").write_bytes(b"machine code")
"""


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[CompiledEngine]:
    """A stand-in engine whose module lives in ``tmp_path`` (importable here and in the compiler process), cached in
    ``tmp_path / "cache"``."""
    name = f"stand_in_{request.node.name.replace('[', '_').replace(']', '').replace('-', '_')}"
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / f"{name}.py").write_text(STAND_IN.format(name=name))
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path / 'code'}:{ROOT}")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    cache_root.cache_clear()
    yield importlib.import_module(name).ENGINE
    cache_root.cache_clear()
    sys.modules.pop(name, None)


def test_the_first_use_compiles_in_the_background_and_a_manifest_makes_it_ready(engine: CompiledEngine, tmp_path: Path) -> None:
    assert not engine.ready()
    assert engine.prepare() == []  # nothing to remark: a cache folder that can be written, nothing damaged
    assert engine.compiling() and not engine.ready(), "the compiler waits for this process (its owner) to end"
    assert engine.wait(), "waiting hurries it"
    assert engine.folder.parent == (tmp_path / "cache").resolve()
    manifest = json.loads((engine.folder / MANIFEST).read_text())
    assert manifest["engine"] == "stand-in"
    assert manifest["files"] == {"code.bin": hashlib.sha256(b"machine code").hexdigest()}
    assert manifest["seconds"] >= 0 and not engine.compiling()
    assert not engine.folder.with_name(engine.folder.name + ".log").exists(), "a compile that worked leaves no log"
    assert engine.prepare() == [] and engine.ready(), "ready: nothing is compiled again"


def test_the_compiler_compiles_when_the_run_that_started_it_ends(engine: CompiledEngine, tmp_path: Path) -> None:
    module = engine.warm.split(":")[0]
    subprocess.run([sys.executable, "-c", f"import {module}; {module}.ENGINE.start()"], check=True)
    for _ in range(1200):  # a guard against a hang, not a timing: the compile takes a moment once the owner is gone
        if engine.ready():
            break
        time.sleep(0.05)
    assert engine.ready() and not engine.compiling()


def test_a_changed_module_is_another_version_and_its_old_folder_goes(engine: CompiledEngine, tmp_path: Path) -> None:
    assert engine.prepare() == [] and engine.wait()
    old = engine.folder
    source = next((tmp_path / "code").glob("*.py"))
    source.write_text(source.read_text() + "\n# edited\n")
    compiled._fingerprint.cache_clear()
    assert engine.folder != old and not engine.ready()
    assert engine.wait()
    assert not old.exists(), "the installation's folder of the older version is removed once the new one is compiled"


def test_a_damaged_cache_is_set_aside_said_in_one_line_and_compiled_again(engine: CompiledEngine) -> None:
    engine.prepare()
    assert engine.wait()
    (engine.folder / "code.bin").write_bytes(b"machine code, damaged")
    remarks = engine.prepare()
    assert len(remarks) == 1 and "\n" not in remarks[0]
    assert remarks[0].startswith("note: the compiled stand-in engine's cache was damaged (code.bin changed): it is compiled ")
    aside = Path(remarks[0].split("the damaged copy is kept in ")[1].split(" (delete it")[0])
    assert aside.is_dir() and ".damaged-" in aside.name and aside.parent == engine.folder.parent
    assert engine.wait()
    assert (engine.folder / "code.bin").read_bytes() == b"machine code"
    for broken, why in (
        ("{not json", "cannot be read"),
        ('{"files": ["a"]}', "lists no files"),
        ('{"files": {}}', "lists no files"),
    ):
        assert engine.wait()
        (engine.folder / MANIFEST).write_text(broken)
        assert engine.prepare()[0].startswith(f"note: the compiled stand-in engine's cache was damaged ({MANIFEST} {why})")


def test_a_damaged_cache_that_cannot_be_moved_aside_is_refused_in_one_line(engine: CompiledEngine) -> None:
    assert engine.wait()
    (engine.folder / "code.bin").write_bytes(b"damaged")
    engine.folder.parent.chmod(0o500)  # the folder cannot be renamed (root ignores modes: then it is moved aside)
    try:
        engine.prepare()
    except CompileFailed as exc:
        assert "is damaged (code.bin changed) and cannot be moved aside" in str(exc) and str(exc).endswith("delete it")
    finally:
        engine.folder.parent.chmod(0o700)


def test_a_lock_file_that_cannot_be_opened_is_said_not_crashed(engine: CompiledEngine) -> None:
    engine.folder.with_name(engine.folder.name + ".lock").mkdir(parents=True)
    with pytest.raises(CompileFailed, match=r"its lock file .*\.lock cannot be opened"):
        engine.prepare()


def test_once_ready_an_engine_stays_ready_for_the_process(engine: CompiledEngine) -> None:
    """A run that handed over keeps its engine when the cache goes (deleted by hand) instead of falling back."""
    assert engine.wait()
    shutil.rmtree(engine.folder)
    assert engine.ready()


def test_a_cache_folder_that_cannot_be_written_moves_to_the_temporary_folder_with_a_note(
    engine: CompiledEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "a-file" / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    cache_root.cache_clear()
    remarks = engine.prepare()
    assert len(remarks) == 1
    assert remarks[0].startswith(f"note: the cache folder {CACHE_ENV}={tmp_path / 'a-file' / 'cache'} cannot be written:")
    assert remarks[0].endswith(f"(to keep it, set {CACHE_ENV} to a folder you can write to)")
    assert engine.wait()
    assert engine.folder.parent.parent == (tmp_path / "tmp").resolve()
    assert engine.prepare() == [], "said once"


def test_a_compile_that_fails_is_raised_with_the_compilers_last_words(
    engine: CompiledEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STAND_IN_FAILS", "1")
    with pytest.raises(CompileFailed) as failed:
        engine.prepare()
        engine.wait()
    said = str(failed.value)
    assert said.startswith("the stand-in engine cannot be compiled: RuntimeError: the stand-in cannot compile today (its log: ")
    assert "\n" not in said and said.endswith("; delete it to try again)")
    assert not engine.ready()
    with pytest.raises(CompileFailed, match="to try again"):  # said again, not compiled again, until the file goes
        engine.start()
    monkeypatch.delenv("STAND_IN_FAILS")
    kept = Path(said.split("(its log: ")[1].split(";")[0])
    assert kept.name.endswith(".failed") and "Traceback" in kept.read_text()
    kept.unlink()
    assert engine.wait() and engine.ready()


def _launches(monkeypatch: pytest.MonkeyPatch, *, full_disk: bool = False) -> list[list[str]]:
    """The compilers :meth:`CompiledEngine.start` launches from now on (spied on, still launched); with
    ``full_disk``, each may create files but write no byte in them, as on a full disk."""
    launched: list[list[str]] = []
    real = subprocess.run

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    def spied(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        launched.append(command)
        return real(command, **kwargs, preexec_fn=no_room if full_disk else None)  # type: ignore[no-any-return]

    monkeypatch.setattr(compiled.subprocess, "run", spied)
    return launched


def test_a_compiler_on_a_full_disk_is_a_failure_said_not_a_compiler_launched_again_and_again(
    engine: CompiledEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compiler that cannot write a byte (not even its pid in its lock file, nor its log) leaves its empty log
    as its failure, and the run says that instead of launching a new compiler at every poll."""
    launched = _launches(monkeypatch, full_disk=True)
    with pytest.raises(CompileFailed, match=r"it stopped without a word: is the disk full\? \(its log: "):
        engine.wait(stop=lambda: len(launched) > 3)
    assert len(launched) == 1


def test_a_compiler_that_dies_without_a_word_twice_is_said_not_launched_forever(
    engine: CompiledEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where not even its log can be written (here its log and failure file are folders), a compiler that stopped
    is launched once more, then the run says so: the wait ends."""
    for suffix in (".log", ".failed"):
        (engine.folder.parent / (engine.folder.name + suffix)).mkdir(parents=True, exist_ok=True)
    (engine.folder.parent / (engine.folder.name + ".failed") / "x").write_text("")
    launched = _launches(monkeypatch)
    with pytest.raises(CompileFailed, match="its compiler stopped twice without finishing"):
        engine.wait(stop=lambda: len(launched) > 3)
    assert len(launched) == 2


def _workbench_imports(module: str) -> set[str]:
    """The workbench modules ``module`` imports from (at any depth of its text)."""
    source = Path(importlib.util.find_spec(module).origin).read_text()  # type: ignore[arg-type, union-attr]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("workbench"):
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found |= {name for name in names if importlib.util.find_spec(node.module) and _is_module(name)} or {node.module}
    return found


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.parametrize("name", [name for name, family in FAMILIES.items() if family.batched is not None])
def test_a_compiled_engine_names_every_module_its_code_is_made_of(name: str) -> None:
    """Numba checks only the defining file's date: a change in a module the kernel takes constants or functions from
    must change the cache's fingerprint, so each of them is in ``modules`` (the engine's description aside)."""
    batched = FAMILIES[name].batched
    assert batched is not None
    engine = batched.compiled
    kernel, *others = engine.modules
    imported = _workbench_imports(kernel)
    described = {m for m in imported if engine in vars(importlib.import_module(m)).values()} | {"workbench.sim.compiled"}
    assert imported - described <= set(others), "add the module to the CompiledEngine's modules"
    module, function = engine.warm.split(":")
    assert callable(getattr(importlib.import_module(module), function))


def test_a_handover_run_plays_the_same_games_whenever_the_compiled_engine_is_ready() -> None:
    """The interpreter plays the chunks handed out before ``ready()``, the batch engine the rest: the tally is the
    interpreter's, game for game."""
    loaded = api.load_variant(ROOT / "variants" / "chance-it.yaml")
    family = loaded.family
    bots = ("heuristic",) * 4
    personas = family.personas(loaded.variant)
    interpreter = family.simulator(loaded.variant, 4, bots, personas, 7)
    handover = family.simulator(loaded.variant, 4, bots, personas, 7, engine="batch")
    assert isinstance(handover, Handover)
    asked: list[bool] = []

    def ready() -> bool:  # the compiled code "arrives" after two chunks were handed out
        asked.append(True)
        return len(asked) > 2

    flipping = dataclasses.replace(handover, ready=ready, hurry=lambda: None)
    alone = run(interpreter, 600)
    handed = run(flipping, 600)
    assert handed.interpreted is not None and 0 < handed.interpreted < 600
    assert handed.timing()["interpreter_games"] == handed.interpreted
    assert handed.tally.summary() == alone.tally.summary()
    assert handed.handover() == f"the interpreter played {handed.interpreted:,} of the 600 games, the compiled engine the rest"
    never = run(dataclasses.replace(handover, ready=lambda: False, hurry=lambda: None), 50)
    assert never.timing()["interpreter_games"] == 50
    assert never.handover() == "the interpreter played all 50 games: the compiled engine was not ready for them"


def test_a_table_with_a_search_bot_plays_on_the_search_levels_own_compiled_code() -> None:
    """The search level is an engine of its own over the batch engine's code (its modules and the search level's), so
    a designer who never seats a search bot never compiles it; a paired run hands its arms over together, once the
    code of every arm is ready."""
    from workbench.games.chance_it.compiled import BATCH, SEARCH
    from workbench.sim.paired import PairedFactory

    loaded = api.load_variant(ROOT / "variants" / "chance-it.yaml")
    family = loaded.family
    batched = family.batched
    assert batched is not None
    personas = family.personas(loaded.variant)
    assert batched.compiled_for([personas["heuristic"], personas["random"]]) == BATCH
    assert batched.compiled_for([personas["heuristic"], personas["search-4"]]) == SEARCH
    assert SEARCH.modules[: len(BATCH.modules)] == BATCH.modules and SEARCH.folder != BATCH.folder
    field = family.simulator(loaded.variant, 4, ("heuristic",) * 4, personas, 7, engine="batch")
    rung = family.simulator(loaded.variant, 4, ("heuristic",) * 4, personas, 7, seat_bot="search-4", engine="batch")
    assert isinstance(field, Handover) and isinstance(rung, Handover)
    assert (field.ready, rung.ready) == (BATCH.ready, SEARCH.ready)
    ready = {"field": True, "rung": False}
    arms = (
        dataclasses.replace(field, ready=lambda: ready["field"]),
        dataclasses.replace(rung, ready=lambda: ready["rung"]),
    )
    paired = PairedFactory.of(arms, family.seat_measure())
    assert isinstance(paired, Handover) and not paired.ready(), "the search arm's code is not ready: none hands over"
    ready["rung"] = True
    assert paired.ready()


@pytest.mark.parametrize("variant", ["chance-it.yaml", "card-lab.yaml"])
def test_a_first_run_learns_the_batch_engine_can_play_without_loading_numba(variant: str) -> None:
    """Loading Numba and the kernel takes about half a second, which a first run (its compiled code not there yet, so the
    interpreter plays) would spend for nothing: whether the batch engine can play the tables is asked without them, and
    the answer is the kernel's."""
    code = (
        "import sys; from workbench import runs\n"
        f"plan = runs.plan('variants/{variant}', None, None)\n"
        "choice = runs.choose_engine(plan.family, [(plan.loaded.variant, plan.seated)], 'auto')\n"
        "print(choice.engine, choice.why or '-', 'numba' in sys.modules)"
    )
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["batch", "-", "False"]


class _Count:
    """A tally that only counts games (what the run's hurry reads of a chunk)."""

    def __init__(self, games: int = 0):
        self.games = games

    def merge(self, other: _Count) -> None:
        self.games += other.games

    def new_tally(self) -> _Count:  # a factory's simulator, too
        return _Count()


@dataclasses.dataclass
class _Paced:
    """A backend whose chunks take a set time a game, each worker's first chunk ``warm_up`` times longer (a worker's
    first games build the bots' value models and fill their caches): no game is played and no clock is read."""

    per_game: float
    warm_up: float
    workers: int = 2
    name: str = "local"

    def results(self, factories: list[object], tasks: Iterator[Task], stop: object) -> Iterator[Chunk]:
        for number, (which, start, end, _, on_compiled) in enumerate(tasks):
            slow = self.warm_up if number < self.workers else 1.0
            yield Chunk(which, _Count(end - start), [], [], (end - start) * self.per_game * slow, interpreted=not on_compiled)


@pytest.mark.parametrize(
    ("games", "hurried"),
    [(5000, False), (200_000, True)],
    ids=["the quick start keeps its cores", "a long run hands over"],
)
def test_the_compiler_is_hurried_by_the_interpreters_pace_not_by_a_workers_first_games(games: int, hurried: bool) -> None:
    """At 1.7 ms a game, 5,000 games on two workers are 4 s of play: the compiler follows the run. Judged on the first
    chunk alone (8 games at 15 ms each: the warm-up), they looked like 37 s, more than HURRY_SECONDS, and the compile
    took the cores the run played on (the cold quick start three times slower). 200,000 games (170 s) hurry it."""
    asked: list[bool] = []
    handover = Handover(_Count, _Count, ready=lambda: False, hurry=lambda: asked.append(True))
    played = run(handover, games, backend=_Paced(per_game=0.0017, warm_up=9.0))  # type: ignore[arg-type]
    assert played.games == played.interpreted == games
    assert bool(asked) is hurried
