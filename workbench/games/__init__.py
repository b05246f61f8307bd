"""Game families and the family-agnostic way in: load a variant or scenario, find its family.

A family is a package under ``workbench/games/`` whose ``FAMILY`` is a :class:`Family`,
registered as an entry point of the group ``workbench.games`` (one line in
``pyproject.toml``, the only edit outside its folder; tests/test_families.py checks both).
:data:`FAMILIES` reads the entry points when first asked and imports a family when its game
is first needed, so a command imports only the families of the files it opens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from workbench.errors import Remark, ScenarioError, UsageError, VariantError, WorkbenchError
from workbench.loading import (
    Document,
    Key,
    Setting,
    closest,
    did_you_mean,
    edit_lists,
    expand_includes,
    file_named,
    load_document,
    merge,
    parse_yaml,
    read_yaml,
    set_key,
    validate,
)

if TYPE_CHECKING:  # only named in signatures: a command imports what it runs
    from pydantic import BaseModel

    from workbench.expect import Replay
    from workbench.play import Answer, Table
    from workbench.render.report import Figures
    from workbench.sim.calibrating import Parameter
    from workbench.sim.compiled import CompiledEngine
    from workbench.sim.paired import Measure


class Family(Protocol):
    """What a game family offers the command line and the library."""

    @property
    def game(self) -> str:
        """The value of ``game:`` in a variant."""

    @property
    def title(self) -> str:
        """The game's name for people."""

    @property
    def default_bot(self) -> str:
        """The bot at every seat when a command's ``--bots`` is left out."""

    @property
    def includes(self) -> tuple[str, ...]:
        """List keys whose string items are paths of files to splice in."""

    @property
    def variant_model(self) -> type[BaseModel]:
        """The pydantic model of a variant."""

    def player_range(self, variant: Any) -> tuple[int, int]:
        """The fewest and most players the variant is for."""

    def summary(self, variant: Any) -> list[tuple[str, str]]:
        """Short (label, text) lines describing a valid variant."""

    def play(self, variant: Any, players: int, seed: int, bots: Sequence[Any], people: Mapping[int, Answer]) -> dict[str, Any]:
        """Play one seeded game: seat ``s`` by the persona ``bots[s]``, or asked through ``people[s]`` (a person's seat,
        see :mod:`workbench.play`); the final state with its event log. A :class:`~workbench.play.Left` from an answer
        stops the game."""

    def replay(self, doc: Document, variant: Any) -> Replay:
        """Replay a scenario document against its (merged) variant, its ``expect:`` checked."""

    def played(self, doc: Document, variant: Any) -> tuple[int, bool, Any]:
        """A scenario document replayed as a game people played (``playtests``, ``calibrate``): its players, whether
        it ended, and the game as :meth:`table_measure`'s values read a finished one."""

    def describe(self, event: dict[str, Any]) -> str:
        """One event of the log as a line of text."""

    def state_table(self, output: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        """Headers and rows of the final state, for the terminal."""

    def odds(self, variant: Any) -> dict[str, Any]:
        """The exact odds of the variant's dice, as plain data (every chance an exact fraction)."""

    def odds_tables(self, odds: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
        """The odds as (title, headers, rows) tables for the terminal."""

    def schemas(self) -> dict[str, dict[str, Any]]:
        """JSON Schemas of the family's file kinds, by kind (``variant``, ``scenario``, ...)."""

    def personas(self, variant: Any, extra: Path | None = None) -> dict[str, Any]:
        """Bots by name: built-in policies, the variant's personas and those of an extra file."""

    def simulator(
        self,
        variant: Any,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Any],
        seed: int,
        record: tuple[Path, Path] | None = None,
        *,
        seat_bot: str | None = None,
        engine: str = "interpreter",
    ) -> Any:
        """A picklable factory of the run's simulator (``play(index)``, ``new_tally()``); ``record`` = (folder, variant file).

        For a study by intervention, seat ``index % players`` of game ``index`` is played by the bot ``seat_bot`` (a
        name of ``personas``) instead of its own. With ``engine="batch"`` (a :class:`Batched` family's, when its
        ``batch_blocker`` allowed it) the simulator plays ranges of games at once (``play_range(start, end)``
        returning their tally, ``play_block`` the engine's per-game arrays).
        """

    def table_measure(self, variants: list[Any], players: int, bots: tuple[str, ...]) -> Measure:
        """The per-game values behind the figures of ``summary.json`` and the statistics on them, for paired runs of
        ``variants`` (the same columns for each)."""

    @property
    def figures(self) -> Figures:
        """What the family adds to a simulation's report and terminal table."""

    # --- what a family may offer: each capability is the family itself when it has it, else None -------------

    @property
    def batched(self) -> Batched | None:
        """Its compiled batch engine beside the interpreter (``--engine``)."""

    @property
    def printable(self) -> Printable | None:
        """Its printable playtest set (``print``)."""

    @property
    def tunable(self) -> Tunable | None:
        """Its stakes sheets the tuner can propose (``tune-stakes``)."""

    @property
    def recordable(self) -> Recordable | None:
        """Its games entered as people play them at a table (``record``)."""

    @property
    def calibratable(self) -> Calibratable | None:
        """Its bots fitted to the decisions of recorded games (``calibrate``)."""

    @property
    def notated(self) -> Notated | None:
        """Its games' standard notation (``--pgn``)."""

    @property
    def ranked(self) -> Ranked | None:
        """Its bots ranked by intervention on one seat (``skill``)."""

    @property
    def studied(self) -> Studied | None:
        """Its cards measured by intervention on one seat (``cards``)."""


class Batched(Family, Protocol):
    """A family with a compiled batch engine beside its interpreter (``--engine``)."""

    def batch_blocker(self, variant: Any, personas: list[Any]) -> str | None:
        """Why the batch engine cannot play the variant with these bots, in a designer's words; None when it can."""

    @property
    def compiled(self) -> CompiledEngine:
        """The batch engine's compiled code (cached once per installation; see :mod:`workbench.sim.compiled`)."""

    def compiled_for(self, personas: list[Any]) -> CompiledEngine:
        """The compiled code that plays a table of ``personas`` (:attr:`compiled`, or an engine of its own over it for
        bots the family compiles apart)."""

    def replay_batch(self, doc: Document, variant: Any) -> Replay:
        """Replay a scenario with the batch engine (to check it ends as the interpreter does)."""


class Recordable(Family, Protocol):
    """A family whose games people play at a table can be entered as they happen (``workbench record``)."""

    def record(
        self, variant: Any, players: int, table: Table, resumed: Document | None = None
    ) -> Iterator[tuple[dict[str, Any], bool]]:
        """Play a game at a table, every decision and what chance brought entered through ``table``: after the setup
        and after every round (or turn), the scenario script so far (without ``variant``) and whether the game has
        ended. ``resumed``: an unfinished script of the game, replayed first (its players are the table's)."""


class Calibratable(Family, Protocol):
    """A family whose bots can be fitted to the decisions of recorded games (``calibrate``)."""

    @property
    def calibrated_policy(self) -> str:
        """The policy fitted (a quantal-response form of it: its ``temperature``)."""

    def calibration_parameters(self) -> Sequence[Parameter]:
        """The parameters of that policy a fit may move (the temperature besides)."""

    @property
    def calibration_defaults(self) -> tuple[str, ...]:
        """The few of them fitted unless told otherwise."""

    def decisions(self, docs: Sequence[Document], variant: Any) -> list[list[Any]]:
        """Every decision of two or more options of each recorded game, each with the index of the option ``chosen``."""

    def values(self, decisions: Sequence[Any], persona: Any) -> list[list[float]]:
        """What a bot of ``persona`` values each option of each decision at."""


class Printable(Family, Protocol):
    """A family with a printable playtest set."""

    def print_html(self, variant: Any, options: dict[str, Any]) -> str:
        """The printable playtest set as one HTML document on the shared pages of :mod:`workbench.render.printing`
        (which prints it as PDF); ``options`` as :func:`~workbench.render.printing.print_options` takes them, a bad
        one raises ``UsageError``."""

    def table_pieces(self, variant: Any) -> list[Any]:
        """The dice and tokens of the set (:class:`~workbench.render.printing.Piece`), for an online table."""


class Tunable(Family, Protocol):
    """A family with stakes sheets the tuner can propose."""

    def tune_stakes(self, path: Path, counts: list[int], **options: Any) -> Any:
        """Tune the sheets for ``counts``: the family's report (proposals and evidence)."""

    def tuning_budget(self, engine: str, persona: Any | None, players: int) -> int:
        """Games per tuned player count unless the user says: a few minutes on two cores for a table of ``persona``
        (None: a bot the tuner will refuse) on ``engine``, ``players`` the largest table tuned."""

    def tuning_yaml(self, report: Any, page: str | None) -> str:
        """The proposal file of a tuning run (``page``: the comparison page's name, for its provenance)."""

    def tuning_page(self, report: Any) -> str:
        """The HTML comparison of a tuning run."""

    def tuning_warnings(self, report: Any) -> list[Remark]:
        """What a tuning run should warn about."""

    def check_write(self, path: Path, counts: list[int]) -> None:
        """Refuse, before any work, a variant file whose sheets for ``counts`` cannot be edited in place."""

    def tuning_variant(self, path: Path, counts: list[int]) -> Any:
        """The variant as the tuner reads it (the sheets it is to tune may be missing)."""

    def write_sheets(self, path: Path, report: Any, page: str | None, still: str | None = None) -> None:
        """Put a tuning run's proposals into the variant file, changing only their lines (only if the file still has
        the sha256 ``still``, when given: else :class:`~workbench.outputs.FileChanged`)."""


class Notated(Family, Protocol):
    """A family whose games have a standard notation (PGN for chess), written by ``--pgn``."""

    @property
    def notation(self) -> str:
        """The notation's name."""

    def notate(self, output: dict[str, Any], *, event: str, names: Sequence[str] = (), seed: int | None = None) -> str:
        """A played or replayed game (its final state with the event log) in the notation; ``event`` names it and
        ``names`` the players, by seat (none: unknown)."""

    def simulator(
        self,
        variant: Any,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Any],
        seed: int,
        record: tuple[Path, Path] | None = None,
        *,
        seat_bot: str | None = None,
        engine: str = "interpreter",
        notation: bool = False,
    ) -> Any:
        """:meth:`Family.simulator`; with ``notation``, each game's result carries its notation (``notation``)."""


@dataclass(frozen=True)
class CardInfo:
    """A card as a study names it."""

    id: str
    name: str
    cost: int  #: its price in the family's money (coins)
    when: str  #: when it is used, in the family's words


class Ranked(Family, Protocol):
    """A family whose bots can be ranked by intervention on one seat (``workbench skill``)."""

    def ladder(self) -> tuple[str, ...]:
        """The default skill ladder: names of built-in bots, weakest first."""

    def seat_measure(self) -> Measure:
        """Per game, the seat ``index % players``'s result: columns ``games``, ``won`` and what it holds at the end;
        statistics ``win_rate`` and one mean per holding."""


class Studied(Ranked, Protocol):
    """A family whose cards can be measured by intervention on one seat (``workbench cards``)."""

    def gifted_simulator(
        self,
        variant: Any,
        players: int,
        bots: tuple[str, ...],
        personas: dict[str, Any],
        seed: int,
        *,
        card: str | None = None,
        coins: int = 0,
        engine: str = "interpreter",
    ) -> Any:
        """:meth:`Family.simulator` in which seat ``index % players`` of game ``index`` is given the card ``card`` or
        ``coins`` coins before the first round (see :attr:`gift`)."""

    def with_cards(self, path: Path, extra: Path) -> tuple[Loaded, list[str]]:
        """The variant of ``path`` with the cards of the file ``extra`` added to its market (a card with the id of one
        of the variant's replaces it; no file is edited), and the ids of the file's cards."""

    def reference_coins(self, variant: Any, players: int) -> int:
        """The coins a seat is given to price a card's effect in coins: what every card costs at most, as far as the
        game can hand them over at the start."""

    def card_list(self, variant: Any) -> list[CardInfo]:
        """The variant's cards, in file order."""

    @property
    def gift(self) -> str:
        """How a card is given, in words for the report."""

    def card_usage(self, summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """How often the bots bought each card and when, from a run's summary: by card id, ``bought``,
        ``discarded``, ``bought_per_game`` and ``round_bought`` (a mean with its interval)."""


#: The entry-point group that registers the game families (``[project.entry-points."workbench.games"]``).
GROUP = "workbench.games"


class Families(Mapping[str, "Family"]):
    """Every family by its ``game:`` value, in the order the entry points list them; a family is imported when it is
    first looked up (naming the games imports none)."""

    def __init__(self, group: str = GROUP):
        self.group = group
        self._loaded: dict[str, Family] = {}

    @property
    def _points(self) -> dict[str, EntryPoint]:
        return _entry_points(self.group)

    def __getitem__(self, game: str) -> Family:
        if game not in self._loaded:
            family: Family = self._points[game].load()
            if family.game != game:
                raise RuntimeError(f"the entry point {game!r} of {self.group} gives the family of {family.game!r}")
            self._loaded[game] = family
        return self._loaded[game]

    def __contains__(self, game: object) -> bool:
        return game in self._points

    def __iter__(self) -> Iterator[str]:
        return iter(self._points)

    def __len__(self) -> int:
        return len(self._points)


@cache
def _entry_points(group: str) -> dict[str, EntryPoint]:
    found = {point.name: point for point in entry_points(group=group)}
    if not found:
        raise RuntimeError(f"no game families are registered ({group}): install the workbench (pip install -e .)")
    return found


@cache
def every_include() -> tuple[str, ...]:
    """Every family's include keys (for a file whose game is not known yet: loading then says what is wrong)."""
    return tuple(sorted({key for family in FAMILIES.values() for key in family.includes}))


@dataclass(frozen=True)
class Loaded:
    """A validated variant and the family that plays it."""

    family: Family
    variant: Any
    path: Path | None = None  #: the variant file it was loaded from
    sources: tuple[Path, ...] = ()  #: every file read to make it: the variant, what it extends, its card files


def game_length(family: Family, output: dict[str, Any]) -> str:
    """How long a played or replayed game (its final state) lasted, in the family's unit: ``12 rounds``, ``1 ply``."""
    one, many = family.figures.length
    count = output[many]
    return f"{count} {one if count == 1 else many}"


def family_of(doc: Document, error: type[VariantError] = VariantError) -> Family:
    """The family named by a variant document's ``game:`` key."""
    game = doc.data.get("game") if isinstance(doc.data, dict) else None
    if game is None:
        known = {info.alias or name for family in FAMILIES.values() for name, info in family.variant_model.model_fields.items()}
        strangers = [str(key) for key in doc.data if str(key) not in known] if isinstance(doc.data, dict) else []
        misspelt = closest("game", strangers)
        if misspelt is not None:
            raise error([doc.problem((misspelt,), f"unknown key '{misspelt}' (did you mean 'game'?)")])
        raise error([doc.problem(("game",), f"missing required key 'game' (one of {', '.join(FAMILIES)})")])
    if not isinstance(game, str):
        raise error([doc.problem(("game",), f"expected the name of a game ({', '.join(FAMILIES)}), got {type(game).__name__}")])
    if game not in FAMILIES:
        hint = did_you_mean(str(game), FAMILIES)
        raise error([doc.problem(("game",), f"unknown game {game!r}{hint}; known games: {', '.join(FAMILIES)}")])
    return FAMILIES[game]


def includes_of(path: Path, text: str | None = None) -> tuple[str, ...]:
    """The list keys whose strings are file paths, for the game of the variant file ``path`` (its ``game:``, or
    that of the file it extends, and so on); every game's when the chain names no game it knows (loading then says
    what is wrong). So a key that is an include in one game is an unknown key in another, not a missing file.
    ``text`` is the first file's text as an editor holds it."""
    seen: set[Path] = set()
    try:
        while (text is not None or path.is_file()) and path.resolve() not in seen:
            seen.add(path.resolve())
            data = (read_yaml(path) if text is None else parse_yaml(text, path)).data
            text = None
            if not isinstance(data, dict):
                break
            game = data.get("game")
            if isinstance(game, str) and game in FAMILIES:
                return FAMILIES[game].includes
            parent = data.get("extends")
            if not isinstance(parent, str):
                break
            path = path.parent / parent
    except (WorkbenchError, OSError, RuntimeError):  # the loading that follows says where and why
        pass
    return every_include()


def family_of_file(path: Path) -> tuple[Family, tuple[Path, ...]]:
    """The family of a variant file, read before validation (a variant with a sheet missing is still tunable), and
    every file read to make the variant."""
    doc = load_document(Path(path), includes=includes_of(Path(path)))
    return family_of(doc), doc.sources


def load_variant(
    path: Path, overrides: Document | None = None, settings: Sequence[Setting] = (), *, text: str | None = None
) -> Loaded:
    """Load, merge and validate a variant file; raises :class:`VariantError` with every problem.

    ``overrides`` are merged on top as a child variant's keys would be; then each of ``settings`` sets one value
    (both located where they were written: a scenario, a sweep). ``text`` is the file's text as an editor holds it
    (unsaved): read instead of the file, located as the file."""
    includes = includes_of(Path(path), text)
    doc = load_document(Path(path), includes=includes, text=text)
    if overrides is not None:
        doc = merge(doc, overrides)
        edit_lists(doc, includes)
    for setting in settings:
        set_key(doc, setting.path, setting.value, setting.where, setting.at, setting.named)
    family = family_of(doc)
    return Loaded(family, validate(family.variant_model, doc), Path(path), doc.sources)


def load_variant_with(path: Path, key: str, extra: Path) -> Loaded:
    """The variant of ``path`` with the items of the file ``extra`` added to its list ``key`` (as ``<key>_add: [file]``
    in a child variant would do, with its problems located in that file); no file is edited."""
    sub = Document({f"{key}_add": [extra.name]}, {}, extra)
    expand_includes(sub, f"{key}_add", VariantError)
    return load_variant(path, sub)


def overrides_of(doc: Document, at: Key, variant: Path, error: type[WorkbenchError]) -> Document:
    """The mapping of variant keys at ``at`` in ``doc`` (a scenario's or a sweep point's ``overrides``) as a document to
    merge on ``variant``, its marks in ``doc`` and its card files (``cards_add: [file]``) read relative to ``doc``."""
    held = doc.data
    for step in at:
        held = held[int(step)] if isinstance(held, list) else held[step]
    marks = {key[len(at) :]: mark for key, mark in doc.marks.items() if key[: len(at)] == at}
    sub = Document(dict(held), marks, doc.path)
    for key in includes_of(variant):
        expand_includes(sub, key, error)
        expand_includes(sub, f"{key}_add", error)
    return sub


def load_scenario(path: Path) -> tuple[Document, Loaded] | None:
    """A scenario script and its variant, with the script's overrides merged; None for a variant file (scenario
    folders keep their variants beside the scripts, so a glob names both)."""
    doc = read_yaml(path, ScenarioError)
    if isinstance(doc.data, dict) and "game" in doc.data and "variant" not in doc.data:
        return None
    if not isinstance(doc.data, dict):
        raise ScenarioError([doc.problem((), "a scenario is a mapping of keys (variant, players, rounds, ...)")])
    ref = doc.data.get("variant")
    if not isinstance(ref, str):
        raise ScenarioError([doc.problem(("variant",), "expected the path of the variant file, relative to this file")])
    overrides = doc.data.get("overrides")
    if overrides is not None and not isinstance(overrides, dict):
        raise ScenarioError([doc.problem(("overrides",), "expected a mapping of variant keys")])
    variant = file_named(doc, ("variant",), ref, "a variant file", ScenarioError)
    sub = overrides_of(doc, ("overrides",), variant, ScenarioError) if overrides else None
    return doc, load_variant(variant, sub)


def replay_scenario(
    path: Path, engine: str = "interpreter", notice: Callable[[str], None] | None = None
) -> tuple[Family, Replay] | None:
    """Load a scenario, its variant and overrides (:func:`load_scenario`); replay it with the variant's family.

    Returns the family and its replay result, or None for a variant file.
    """
    found = load_scenario(Path(path))
    if found is None:
        return None
    doc, loaded = found
    family = loaded.family
    if engine == "batch":
        batched = family.batched
        if batched is None:
            raise UsageError("engine", lambda name: f"{family.title} has no batch engine (leave out {name('engine')})", "batch")
        remarks = batched.compiled.prepare()  # a damaged cache set aside; the compiler started if need be
        if notice is not None:
            for remark in remarks:
                notice(remark)
            if not batched.compiled.ready():
                notice(f"compiling {batched.compiled.what} first (once per installation, {batched.compiled.about})...")
        return family, batched.replay_batch(doc, loaded.variant)
    return family, family.replay(doc, loaded.variant)


#: Every family by its ``game:`` value.
FAMILIES: Mapping[str, Family] = Families()
