"""Bots by name for a simulation: the built-in policies, the variant's personas and a personas file's.

A name means one bot. A persona of the variant may not reuse a built-in name (the variant's
own validation refuses it). A personas file (``--personas FILE``) may add personas freely, but
it replaces a built-in bot or a persona of the variant only if it says so, by listing the name
under ``overrides:``; otherwise the reused name is an error at its line. A name listed under
``overrides:`` must be a persona of the file that does replace one, so a typo there is caught
too.

A family passes its persona file model (``bots:`` by name, ``overrides:``), which checks the file on its own
(the built-in names it may replace only when listed); tests/test_personas.py shows it at work.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, Field, model_validator

from workbench.errors import Problem, VariantError, WorkbenchError
from workbench.loading import Document, did_you_mean, read_yaml, validate
from workbench.models import KeyPath, Model, rules_error
from workbench.policies import PolicyPersona, builtin, policies

#: The name of a persona, as ``--bots`` names it.
PersonaName = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]*$", max_length=40)]

P = TypeVar("P")


class PersonaFile(Protocol):
    """What a family's persona file model holds once valid."""

    @property
    def bots(self) -> Mapping[str, Any]: ...

    @property
    def overrides(self) -> tuple[str, ...]: ...


def named_like_builtins(bots: Collection[str], builtin: Collection[str]) -> Iterator[tuple[KeyPath, str]]:
    """A variant's personas that take a built-in bot's name (a variant may not reuse one), each at its key path."""
    for name in sorted(set(bots) & set(builtin)):
        yield ("bots", name), f"'{name}' is a built-in bot name; give the persona another name"


def override_problems(bots: Collection[str], overrides: Sequence[str], builtin: Collection[str]) -> list[tuple[KeyPath, str]]:
    """What a personas file gets wrong on its own: a built-in name reused without being listed under ``overrides``, an
    override listed twice or naming no persona of the file (each at its key path, for a family's file model)."""
    problems: list[tuple[KeyPath, str]] = []
    for name in bots:
        if name in builtin and name not in overrides:
            message = f"'{name}' is a built-in bot; list it under overrides: to replace it, or give the persona another name"
            problems.append((("bots", name), message))
    listed: set[str] = set()
    for index, name in enumerate(overrides):
        if name in listed:
            problems.append((("overrides", index), f"'{name}' is listed twice"))
        elif name not in bots:
            hint = did_you_mean(name, [other for other in bots if other not in overrides])
            problems.append((("overrides", index), f"'{name}' is not a persona of this file{hint}"))
        listed.add(name)
    return problems


Persona = TypeVar("Persona", bound=BaseModel)


class PersonaFileModel(Model, Generic[Persona]):
    """A file of bot personas, for ``--personas``: ``PersonaFileModel[Persona]`` with a family's persona model (a
    subclass may name other built-in bots, :attr:`named`).

    A persona of the file may replace a built-in bot or a persona of the variant only if
    the file lists its name under ``overrides``.
    """

    #: The family's persona model (the model's parameter): each policy of its game is a built-in bot, named after it.
    persona: ClassVar[type[PolicyPersona]]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        parameters = cls.__pydantic_generic_metadata__["args"]
        if parameters and isinstance(parameters[0], type) and issubclass(parameters[0], PolicyPersona):
            cls.persona = parameters[0]

    #: The family's other built-in bots: a name -> a persona's data (other defaults worth a name).
    named: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    @classmethod
    def builtin_names(cls) -> frozenset[str]:
        """The names of the family's built-in bots (a variant may not reuse one; a personas file only as an override)."""
        return frozenset(policies(cls.persona.game)) | frozenset(cls.named)

    @classmethod
    def builtin_bots(cls) -> dict[str, Any]:
        """The family's built-in bots by name."""
        return builtin(cls.persona, cls.named)

    bots: dict[PersonaName, Persona] = Field(description="Persona name -> policy and parameters.")
    overrides: tuple[PersonaName, ...] = Field(
        (),
        description=(
            "Names of the file's personas that replace a built-in bot or a persona of the variant; without it, "
            "reusing such a name is an error."
        ),
    )

    @model_validator(mode="after")
    def check_overrides(self) -> PersonaFileModel[Persona]:
        """Built-in names are replaced only when listed under overrides; every override is a persona of the file."""
        problems = override_problems(self.bots, self.overrides, self.builtin_names())
        if problems:
            raise rules_error(problems)
        return self


def merge_personas(
    builtin: Mapping[str, P],
    variant_bots: Mapping[str, P],
    file_model: type[BaseModel],
    file_doc: Document | None = None,
    *,
    error: type[WorkbenchError] = VariantError,
) -> tuple[dict[str, P], tuple[str, ...]]:
    """Every bot by name, and the names the personas file replaced (in the file's order).

    ``builtin``: the built-in bots (``PersonaFileModel.builtin_bots()``); ``variant_bots``: the validated
    variant's ``bots``; ``file_doc``: the personas file as :func:`workbench.loading.read_yaml`
    loaded it, or None. Raises ``error`` with every problem of the file, each at its line.
    """
    personas = {**builtin, **variant_bots}
    if file_doc is None:
        return personas, ()
    extra: PersonaFile = validate(file_model, file_doc, error)  # type: ignore[assignment]  # a family's file model
    # file-only rules: built-in names, overrides that name no persona
    problems: list[Problem] = []
    for name in extra.bots:
        if name in variant_bots and name not in extra.overrides:
            message = (
                f"'{name}' is a persona of the variant; list it under overrides: to replace it, or give the persona another name"
            )
            problems.append(file_doc.problem(("bots", name), message))
    for index, name in enumerate(extra.overrides):
        if name not in personas:
            problems.append(
                file_doc.problem(
                    ("overrides", index), f"'{name}' overrides nothing: it is neither a built-in bot nor a persona of the variant"
                )
            )
    if problems:
        raise error(sorted(problems, key=lambda p: p.line or 0))
    personas.update(extra.bots)  # the file model's personas are the family's
    return personas, tuple(name for name in extra.bots if name in extra.overrides)


def load_personas(
    builtin: Mapping[str, P], variant_bots: Mapping[str, P], file_model: type[BaseModel], path: Path | None = None
) -> tuple[dict[str, P], tuple[str, ...]]:
    """:func:`merge_personas` with the personas file read from ``path`` (None: no file)."""
    return merge_personas(builtin, variant_bots, file_model, read_yaml(path, VariantError) if path is not None else None)


__all__ = ["load_personas", "merge_personas"]
