"""Bot policies, registered once: each game's policies by name, the parameters each reads, the bot it makes.

A policy is one registration, ``register_policy(game, name, parameters, factory, batch)``:
``parameters`` is the pydantic model of the persona fields it reads (None: it reads none),
``factory`` makes its bot from a persona and a random stream (``"module:attribute"`` is
imported on first use, so a game's formats never import its bots), and ``batch`` names its
form in the game's compiled engine, or None when only the interpreter plays it. From the
registry come the ``policy`` values a persona may take (and their JSON Schema), the rule that
a persona gives only the parameters its policy reads, the built-in bots (one per policy,
named after it) that ``--bots`` offers, and the bot of each seat.

A family's persona model starts from :class:`PolicyPersona` with its parameters' fields::

    register_policy("my-game", "random", None, "workbench.games.my_game.bots:RandomBot")
    register_policy("my-game", "greedy", Greedy, "workbench.games.my_game.bots:GreedyBot")

    class Persona(Greedy, PolicyPersona):
        game = "my-game"
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from workbench.models import Model

#: Makes a policy's bot: (persona, random stream) -> the seat's decider.
Factory = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Policy:
    """One registered policy of one game."""

    game: str
    name: str
    parameters: tuple[str, ...]  #: the persona fields it reads, in its parameters model's order
    factory: Factory | str  #: its bot maker, or where it is (``"module:attribute"``, ``"module:Class.method"``)
    batch: str | None = None  #: its form in the game's compiled engine, or None: the interpreter plays it

    def bot(self, persona: Any, rng: Any) -> Any:
        """The bot this policy makes for ``persona``, drawing from ``rng``."""
        factory = _found(self.factory) if isinstance(self.factory, str) else self.factory
        return factory(persona, rng)


@functools.cache
def _found(place: str) -> Factory:
    """The factory at ``"module:attribute"`` (``"module:Class.method"``), imported on first use."""
    module, _, path = place.partition(":")
    found: Any = importlib.import_module(module)
    for name in path.split("."):
        found = getattr(found, name)
    return cast(Factory, found)


_REGISTRY: dict[str, dict[str, Policy]] = {}


def register_policy(
    game: str, name: str, parameters: type[BaseModel] | None, factory: Factory | str, batch: str | None = None
) -> Policy:
    """Register ``name`` as a bot policy of ``game`` (see the module's docstring); the policy registered."""
    known = _REGISTRY.setdefault(game, {})
    if name in known:
        raise ValueError(f"{game} has a policy called {name!r} already")
    policy = Policy(game, name, tuple(parameters.model_fields) if parameters is not None else (), factory, batch)
    known[name] = policy
    return policy


def unregister_policy(game: str, name: str) -> None:
    """Take a registered policy away (for the tests that register one of their own)."""
    del _REGISTRY[game][name]


def policies(game: str) -> Mapping[str, Policy]:
    """The policies of ``game`` by name, in the order they were registered."""
    return dict(_REGISTRY.get(game, {}))


def make_bot(persona: PolicyPersona, rng: Any) -> Any:
    """The bot of a seat played by ``persona``, drawing its chance from ``rng``."""
    return _REGISTRY[persona.game][persona.policy].bot(persona, rng)


def said(names: list[str], last: str = "or") -> str:
    """Names in a sentence: ``a, b or c`` (``last="and"``: ``a, b and c``)."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def _policy_schema(schema: dict[str, Any], model: type[Any]) -> None:
    """A persona model's JSON Schema: its ``policy`` an enum of the game's policies, said in its description."""
    names = list(policies(model.game))
    field = schema["properties"]["policy"]
    title = field.get("title", "Policy")
    field.clear()
    field.update(description=f"{said(names)}.", enum=names, title=title, type="string")


class PolicyPersona(Model):
    """The base of a game's persona model: a ``policy`` of the game's registered ones, and only the parameters that
    policy reads (a family's persona model adds the fields of its policies' parameter models, after this one's:
    ``class Persona(Search, PolicyPersona)``). As data, it lists only the parameters its policy reads."""

    model_config = ConfigDict(json_schema_extra=_policy_schema)

    #: The game whose policies a persona may name.
    game: ClassVar[str]

    policy: str = Field(description="The bot's policy (one of the game's).")

    @field_validator("policy", mode="before")
    @classmethod
    def a_policy_of_the_game(cls, value: Any) -> Any:
        """A policy of the game, refused as a value outside a list of choices is (with those choices)."""
        names = list(policies(cls.game))
        if value not in names:
            expected = said([repr(name) for name in names])
            raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected, "choices": names})
        return value

    @model_validator(mode="after")
    def parameters_fit_the_policy(self) -> PolicyPersona:
        """Parameters belong to a policy: a persona gives only those its policy reads."""
        known = policies(self.game)
        reads = set(known[self.policy].parameters)
        given = self.model_fields_set - {"policy"}
        if given and not reads:
            raise ValueError(f"the {self.policy} policy takes no parameters (got {', '.join(sorted(given))})")
        stray = given - reads
        if stray:
            owners = [name for name, policy in known.items() if stray & set(policy.parameters)]
            verb = "applies" if len(stray) == 1 else "apply"
            raise ValueError(f"{', '.join(sorted(stray))} only {verb} to the {said(owners)} policy")
        return self

    @model_serializer(mode="wrap")
    def parameters_read(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """As data (``summary.json``), only the policy and the parameters it reads."""
        data: dict[str, Any] = handler(self)
        reads = policies(self.game)[self.policy].parameters
        return {name: value for name, value in data.items() if name == "policy" or name in reads}


def builtin(model: type[PolicyPersona], extra: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The built-in bots of a game: each of its policies with its defaults, named after it, and ``extra`` (a name ->
    a persona's data: other defaults worth a name)."""
    found = {name: model.model_validate({"policy": name}) for name in policies(model.game)}
    return found | {name: model.model_validate(dict(body)) for name, body in (extra or {}).items()}


__all__ = [
    "Factory",
    "Policy",
    "PolicyPersona",
    "builtin",
    "make_bot",
    "policies",
    "register_policy",
    "unregister_policy",
]
