"""An output folder is held by one run at a time: a second run on it is refused in one line naming the first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from output_helpers import BASE, ROOT, assert_clean, invoke

from workbench.errors import UsageError
from workbench.holding import hold
from workbench.outputs import Outputs

pytestmark = pytest.mark.skipif(not Path("/proc/locks").exists(), reason="the holder is named from /proc/locks (Linux)")


def test_a_held_folder_is_refused_naming_the_run_that_holds_it(tmp_path: Path) -> None:
    first = hold(tmp_path, "out", tmp_path)
    assert first is not None
    with pytest.raises(UsageError) as refused:
        hold(tmp_path, "out", tmp_path)
    said = str(refused.value)
    assert said.startswith(f"out {tmp_path}: another run is writing its outputs into this folder (process {os.getpid()}: ")
    assert said.endswith("): wait for it to end, or choose another folder")
    first.release()
    again = hold(tmp_path, "out", tmp_path)
    assert again is not None
    again.release()


def test_a_second_run_on_the_same_out_is_refused_before_any_game_and_the_first_one_stands(tmp_path: Path) -> None:
    """The first run holds ``--out`` from its check to its end (here: a simulation stopped by nothing but its end); a
    second one started meanwhile is refused in one line (exit 1) and writes nothing; the first writes what it says."""
    out = tmp_path / "report"
    out.mkdir()
    with Outputs() as outputs:
        outputs.folder_for(out, "out", create=False)
        outputs.ready()  # the folder is held from here to the end of the run
        ran = invoke("simulate", BASE, "--games", "5", "--workers", "1", "--out", out)
        assert ran.code == 1, ran.stderr
        assert_clean(ran)
        lines = ran.stderr.strip().splitlines()
        assert len(lines) == 1 and f"--out {out}: another run is writing its outputs into this folder" in lines[0]
        assert list(out.iterdir()) == [], "the second run wrote nothing"
    ran = invoke("simulate", BASE, "--games", "5", "--workers", "1", "--out", out)
    assert ran.code == 0, "let go at the end of the first run"


def test_a_file_option_into_a_held_folder_is_refused_too(tmp_path: Path) -> None:
    """A run holds the folder of each file it writes as well (the folder's record of outputs is shared): --records
    into a folder another run holds as its --out is refused, and the other way round (it was accepted, and the first
    run lost its games to a changed summary.json)."""
    held, elsewhere = tmp_path / "held", tmp_path / "elsewhere"
    held.mkdir()
    with Outputs() as outputs:
        outputs.folder_for(held, "out", create=False)
        outputs.ready()
        ran = invoke("simulate", BASE, "--games", "5", "--workers", "1", "--out", elsewhere, "--records", held / "summary.json")
        assert (
            ran.code == 1 and "--records " in ran.stderr and "another run is writing its outputs into this folder" in ran.stderr
        )
    with Outputs() as outputs:
        outputs.file(held / "games.jsonl", "records")
        outputs.ready()
        ran = invoke("simulate", BASE, "--games", "5", "--workers", "1", "--out", held)
        assert ran.code == 1 and f"--out {held}: another run is writing its outputs into this folder" in ran.stderr
    assert list(held.iterdir()) == [] and not elsewhere.exists()


def test_the_hold_dies_with_a_killed_run(tmp_path: Path) -> None:
    """The system lets go of a killed run's folder: nothing is left behind to clean, and the next run goes on."""
    code = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from workbench.holding import hold\n"
        "print(hold(Path(sys.argv[1]), 'out', Path(sys.argv[1])) is not None, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    child = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert child.stdout.strip() == "True" and child.returncode == -9, child.stderr
    assert list(tmp_path.iterdir()) == []
    again = hold(tmp_path, "out", tmp_path)
    assert again is not None
    again.release()
