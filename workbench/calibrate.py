"""Bots that decide like a group: a persona fitted to the decisions of games people played. Family-agnostic.

``workbench calibrate VARIANT LOG... --out personas.yaml`` replays the recorded games, keeps every decision with two
or more options, and fits the family's calibrated policy to them as a quantal-response
player (:mod:`workbench.sim.calibrating`): the weights that make the recorded choices likeliest, and a temperature
for how often people strayed from the best option by those weights. It reports each parameter with its 95 %
interval (by game) and how many games would settle the unsettled ones, the log-likelihood per decision against the
start persona's (at its own best temperature) and against choosing uniformly, and a held-out check: fitted on most
of the games, how often it predicts the choices of the others. The personas file it writes is one ``--personas``
takes, so every command can then play with bots that decide like the group.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from workbench import GENERATOR
from workbench.errors import UsageError, display_path
from workbench.games import Family, Loaded
from workbench.loading import did_you_mean
from workbench.outputs import check_writable, write_atomic
from workbench.playtests import read_logs
from workbench.render import counted
from workbench.runs import Notice, as_loaded
from workbench.sim.calibrating import TEMPERATURE, Decisions, Estimate, Fit, fit

#: Held-out games: this share of the games, when there are at least :data:`HOLD_OUT_GAMES` of them.
HOLD_OUT = 0.25
HOLD_OUT_GAMES = 8


@dataclass(frozen=True)
class Check:
    """How well a persona explains decisions: the log-likelihood per decision and the share of choices it predicts."""

    likelihood: float  #: mean log-chance of the option chosen
    accuracy: float  #: share of decisions where the option it values most is the one chosen
    temperature: float | None = None  #: the temperature at which it was judged (None: uniform choice)

    def to_dict(self) -> dict[str, Any]:
        out = {"log_likelihood_per_decision": round(self.likelihood, 6), "predicted": round(self.accuracy, 6)}
        return out | ({"temperature": round(self.temperature, 6)} if self.temperature is not None else {})


@dataclass(frozen=True)
class HeldOut:
    """The check on games the fit did not see."""

    games: int
    decisions: int
    fitted: Check
    start: Check
    uniform: Check

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decisions": self.decisions,
            "fitted": self.fitted.to_dict(),
            "start": self.start.to_dict(),
            "uniform": self.uniform.to_dict(),
        }


@dataclass(frozen=True)
class Calibration:
    """A persona fitted to recorded games, with the evidence."""

    family: Family
    variant: dict[str, Any]
    logs: list[str]
    name: str  #: the persona's name in the file written
    start: str  #: the persona the fit started from (its other parameters kept)
    persona: dict[str, Any]  #: the fitted persona, as the personas file holds it
    estimates: list[Estimate]
    games: int
    decisions: int
    fitted: Check
    start_check: Check
    uniform: Check
    held_out: HeldOut | None
    command: str
    unfinished: int = 0  #: logs of games stopped before their end (their decisions count)
    written: list[Path] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        def finite(x: float) -> float | None:
            return round(x, 6) if x == x else None

        return {
            "generator": GENERATOR,
            "game": self.family.game,
            "variant": self.variant,
            "logs": self.logs,
            "games": self.games,
            "decisions": self.decisions,
            "name": self.name,
            "start": self.start,
            "persona": self.persona,
            "parameters": [
                {
                    "name": e.parameter.name,
                    "about": e.parameter.about,
                    "value": round(e.value, 6),
                    "low": finite(e.low),
                    "high": finite(e.high),
                    "settled": e.settled,
                    "games_to_settle": e.games_to_settle,
                }
                for e in self.estimates
            ],
            "fit": {"fitted": self.fitted.to_dict(), "start": self.start_check.to_dict(), "uniform": self.uniform.to_dict()},
            "held_out": self.held_out.to_dict() if self.held_out else None,
            "unfinished": self.unfinished,
            "warnings": self.warnings,
            "command": self.command,
        }

    def personas_yaml(self) -> str:
        """The personas file: the fitted persona, each fitted parameter's interval and the evidence in comments."""
        lines = [
            f"# made by {GENERATOR}: {self.command}",
            f"# {counted(self.games, 'game')}, {self.decisions:,} decisions of {self.variant['name']}; the bots are fitted to them,",
            "# they are not the people: see how well they predict below.",
            *(f"# warning: {line}" for line in self.warnings),
            f"# log-likelihood per decision: {self.fitted.likelihood:.3f} fitted, {self.start_check.likelihood:.3f} for "
            f"{self.start} at its best temperature, {self.uniform.likelihood:.3f} choosing uniformly",
        ]
        if self.held_out is not None:
            h = self.held_out
            lines.append(
                f"# held out {h.games} games ({h.decisions} decisions): predicted {h.fitted.accuracy:.1%} of the choices "
                f"({self.start} {h.start.accuracy:.1%}, uniform {h.uniform.accuracy:.1%})"
            )
        body = yaml.safe_dump({"bots": {self.name: self.persona}}, sort_keys=False, default_flow_style=False).splitlines()
        notes = {e.parameter.name: e for e in self.estimates}
        for line in body:
            key = line.strip().split(":", 1)[0]
            e = notes.get(key)
            lines.append(f"{line}  # {_interval(e)}" if e is not None and line.startswith("    ") else line)
        return "\n".join(lines) + "\n"

    @property
    def warnings(self) -> list[str]:
        """What makes this fit one not to trust: a parameter at the end of its range, a fit no better than chance,
        a held-out check it fails."""
        said = [
            f"{e.parameter.name} {e.value:.3g} is at the end of the range it is fitted in ({e.parameter.low:g} to "
            f"{e.parameter.high:g}): these games do not tell it"
            for e in self.estimates
            if min(abs(e.value - e.parameter.low), abs(e.value - e.parameter.high)) <= 1e-3 * (e.parameter.high - e.parameter.low)
        ]
        if self.fitted.likelihood <= self.uniform.likelihood:
            said.append(
                f"the fit explains these choices no better than choosing at random: {counted(self.games, 'game')} are too few to "
                "fit a bot to; do not use it"
            )
        held = self.held_out
        if held is not None and held.fitted.likelihood < held.start.likelihood:
            said.append(f"on the games held out it predicts worse than {self.start}: it may describe these games only")
        return said

    def lines(self) -> list[str]:
        """What the terminal says: the parameters, the fit against the start persona and uniform choice, the check."""
        out = [f"{self.name}: fitted to {counted(self.games, 'game')}, {self.decisions:,} decisions (start: {self.start})"]
        if self.unfinished:
            out.append(f"  ({self.unfinished} of them unfinished: their decisions count as well)")
        for e in self.estimates:
            more = e.games_to_settle
            settle = (
                "" if e.settled
                else f"; about {more - self.games:,} more games ({more:,} in all) would settle it to ±{e.parameter.settle:g}"
                if more is not None
                else "; these games do not tell it"
            )  # fmt: skip
            out.append(f"  {e.parameter.name} {e.value:.3g} ({_interval(e)}): {e.parameter.about}{settle}")
        out.append(
            f"log-likelihood per decision: {self.fitted.likelihood:.3f} fitted, {self.start_check.likelihood:.3f} for "
            f"{self.start} (at its best temperature, {self.start_check.temperature:.3g}), {self.uniform.likelihood:.3f} "
            "choosing uniformly (higher is better)"
        )
        if self.held_out is None:
            out.append(f"no held-out check: fewer than {HOLD_OUT_GAMES} games")
        else:
            h = self.held_out
            out.append(
                f"held out {h.games} of the games (fitted on the others): predicted {h.fitted.accuracy:.1%} of their "
                f"{h.decisions:,} choices, against {h.start.accuracy:.1%} for {self.start} and {h.uniform.accuracy:.1%} "
                "guessing; log-likelihood per decision "
                f"{h.fitted.likelihood:.3f}, {h.start.likelihood:.3f} and {h.uniform.likelihood:.3f}"
            )
        return out


def _interval(e: Estimate) -> str:
    if e.low != e.low:
        return "95 % interval: not told by these games"
    return f"95 % interval {e.low:.3g} to {e.high:.3g}"


def calibrate(
    variant: str | os.PathLike[str] | Loaded,
    logs: Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str] | None = None,
    *,
    name: str = "calibrated",
    start: str | None = None,
    fitted: Sequence[str] | None = None,
    personas: str | os.PathLike[str] | None = None,
    seed: int = 1,
    force: bool = False,
    notice: Notice | None = None,
) -> Calibration:
    """Fit a persona to the decisions of ``logs`` (scenario scripts of ``variant``) and write it to the personas file
    ``out`` as ``name``. ``start`` names the persona the fit starts from, whose parameters it does not fit stay (the
    family's calibrated policy's default bot by default); ``fitted`` names the parameters to fit (every one the
    family offers by default), the temperature always. ``seed`` chooses the held-out games."""
    loaded, path = as_loaded(variant)
    family = loaded.family
    calibrating = family.calibratable
    if calibrating is None:
        raise UsageError(None, f"bots of {family.title} cannot be calibrated yet")
    known = family.personas(loaded.variant, Path(personas) if personas is not None else None)
    start_name = start or calibrating.calibrated_policy
    if start_name not in known:
        raise UsageError("start", f"no bot of this name{did_you_mean(start_name, known)}", start_name)
    base = known[start_name]
    if base.policy != calibrating.calibrated_policy:
        raise UsageError("start", f"a {calibrating.calibrated_policy} persona is fitted, not a {base.policy} one", start_name)
    if not (re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name) and len(name) <= 40):
        raise UsageError("name", "a bot's name is a letter, then letters, digits, - or _ (at most 40)", repr(name))
    if name in known:
        raise UsageError(
            "name", "a bot of this name exists already (built in, in the variant or the personas file): choose another", name
        )
    offered = {p.name: p for p in calibrating.calibration_parameters()}
    chosen = list(calibrating.calibration_defaults) if fitted is None else list(fitted)
    for wanted in chosen:
        if wanted not in offered:
            raise UsageError(
                "fit", f"not a parameter calibrate fits{did_you_mean(wanted, offered)}; it fits {', '.join(offered)}", wanted
            )
    parameters = [offered[wanted] for wanted in dict.fromkeys(chosen)]
    target = Path(out) if out is not None else None
    if target is not None:
        _check_out(target, force, [path, *loaded.sources, *map(Path, logs), *([Path(personas)] if personas is not None else [])])
    played = sorted(read_logs(loaded, logs), key=lambda log: str(log.path.resolve()))  # held out: whatever the order
    command = shlex.join(
        [
            "workbench",
            "calibrate",
            display_path(path) if path else loaded.variant.name,
            *(display_path(log.path) for log in played),
            *(["--out", display_path(target)] if target is not None else []),
            *(["--name", name] if name != "calibrated" else []),
            *(["--start", start] if start else []),
            *(["--fit", ",".join(p.name for p in parameters)] if fitted is not None else []),
            *(["--personas", display_path(Path(personas))] if personas is not None else []),
            *(["--seed", str(seed)] if seed != 1 else []),
        ]
    )
    per_game = calibrating.decisions([log.doc for log in played], loaded.variant)
    kept = [decision for game in per_game for decision in game]
    if not kept:
        raise UsageError("logs", "these games hold no decision with two or more options: there is nothing to fit")
    games = [index for index, game in enumerate(per_game) for _ in game]
    everything = Decisions([d.chosen for d in kept], games)

    def valuation(subset: list[Any]) -> Any:
        return lambda weights: calibrating.values(subset, base.model_copy(update=weights))

    clock = time.perf_counter()
    matrix, options = everything.matrix(calibrating.values(kept, base))
    if notice is not None:
        each = time.perf_counter() - clock
        notice(
            f"fitting {', '.join(p.name for p in parameters)} and the temperature to {len(kept):,} decisions of "
            f"{len(played)} games: about {_duration(each * evaluations(len(parameters)))}"
        )
    start_weights = {p.name: float(getattr(base, p.name)) for p in parameters}
    found = fit(everything, valuation(kept), parameters, start_weights, games=len(played))
    start_temperature, start_likelihood = everything.best_temperature(matrix)
    fitted_matrix, _ = everything.matrix(calibrating.values(kept, base.model_copy(update=found.weights)))
    uniform_likelihood, uniform_accuracy = everything.uniform(options)
    count = len(kept)
    persona = base.model_copy(update={**found.weights, "temperature": found.temperature})
    result = Calibration(
        family,
        {"name": loaded.variant.name, "file": display_path(path) if path else None},
        [display_path(log.path) for log in played],
        name,
        start_name,
        {key: _rounded(value) for key, value in persona.model_dump().items()},
        found.estimates,
        len(played),
        count,
        Check(found.log_likelihood / count, everything.accuracy(fitted_matrix), found.temperature),
        Check(start_likelihood / count, everything.accuracy(matrix), start_temperature),
        Check(uniform_likelihood, uniform_accuracy),
        _held_out(per_game, calibrating, base, parameters, found, seed),
        command,
        sum(not log.finished for log in played),
    )
    if target is not None:
        write_atomic(target, result.personas_yaml())
        result.written.append(target)
    return result


def evaluations(weights: int) -> int:
    """About how many times the bot values every decision for a fit of ``weights`` weights, its profile intervals and
    the held-out fit (measured on the base game's recorded games: each weight more roughly doubles it)."""
    return int(120 * 2**weights)


def _duration(seconds: float) -> str:
    """A duration as people say it: ``40 seconds``, ``3 minutes``."""
    if seconds < 90:
        return f"{max(5, round(seconds / 5) * 5)} seconds"
    return f"{round(seconds / 60)} minutes"


def _rounded(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def _held_out(
    per_game: list[list[Any]], calibrating: Any, base: Any, parameters: Sequence[Any], found: Fit, seed: int
) -> HeldOut | None:
    """Fit on most games (from the fit on all of them), and check on the others how well it predicts their choices."""
    if len(per_game) < HOLD_OUT_GAMES:
        return None
    order = list(range(len(per_game)))
    random.Random(seed).shuffle(order)
    held = set(order[: max(1, round(HOLD_OUT * len(per_game)))])
    train = [d for i, game in enumerate(per_game) if i not in held for d in game]
    test = [d for i, game in enumerate(per_game) if i in held for d in game]
    if not train or not test:
        return None
    train_games = [i for i, game in enumerate(per_game) if i not in held for _ in game]
    learning = Decisions([d.chosen for d in train], train_games)
    trained = fit(
        learning, lambda weights: calibrating.values(train, base.model_copy(update=weights)), parameters,
        found.weights, games=len(per_game) - len(held), intervals=False,
    )  # fmt: skip
    checking = Decisions([d.chosen for d in test], [0] * len(test))
    fitted_matrix, options = checking.matrix(calibrating.values(test, base.model_copy(update=trained.weights)))
    start_matrix, _ = checking.matrix(calibrating.values(test, base))
    start_temperature, _ = learning.best_temperature(learning.matrix(calibrating.values(train, base))[0])
    uniform_likelihood, uniform_accuracy = checking.uniform(options)
    return HeldOut(
        len(held),
        len(test),
        Check(float(checking.log_likelihoods(fitted_matrix, trained.temperature).mean()), checking.accuracy(fitted_matrix), trained.temperature),
        Check(float(checking.log_likelihoods(start_matrix, start_temperature).mean()), checking.accuracy(start_matrix), start_temperature),
        Check(uniform_likelihood, uniform_accuracy),
    )  # fmt: skip


def _check_out(target: Path, force: bool, inputs: Sequence[Path | None]) -> None:
    """Refuse, before any work, a personas file that cannot be written or that would replace something of the user's."""
    if target.is_dir():
        raise UsageError("out", "this is a folder: name the personas file to write", display_path(target))
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise UsageError("out", "this is a link, a device or a pipe: name a file", display_path(target))
    for given in inputs:
        if given is not None and target.exists() and given.exists() and target.resolve() == given.resolve():
            raise UsageError("out", "this is one of the files read: name another file", display_path(target))
    if target.exists() and not force:
        raise UsageError("out", lambda name: f"this file exists: {name('force')} replaces it", display_path(target))
    if not target.parent.is_dir():
        raise UsageError("out", "its folder does not exist", display_path(target))
    check_writable(target.parent, "out")


__all__ = ["TEMPERATURE", "Calibration", "calibrate"]
