"""Game options: declared once per game as data, validated and frozen per game instance.

Each option names the rule it changes (the rules file's section or ruling), so a table
can print the rules it plays by.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from stich.engine.errors import OptionError


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    ``values`` is a tuple of allowed values, or the type ``int`` for an integer option (then
    ``minimum`` and ``maximum`` bound it where the rules do, ``samples`` are the values besides
    the default that the conformance kit plays, ``stich.testing``, and ``follows`` = (option,
    offset) makes the default follow another option where that one is given: Watten's lock at
    target - 2, R12).  ``default`` is either a value or a dict from variant to value (``"*"`` = any
    other variant).  ``variants`` lists the variants the option applies to (None = all).
    """

    name: str
    values: tuple | type
    default: object
    rule: str = ""
    help: str = ""
    variants: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    samples: tuple[int, ...] = ()
    follows: tuple[str, int] | None = None

    def default_for(self, variant: str):
        if isinstance(self.default, dict):
            return self.default.get(variant, self.default.get("*"))
        return self.default

    def applies_to(self, variant: str) -> bool:
        return self.variants is None or variant in self.variants

    def coerce(self, value, variant: str):
        """Return the canonical value for ``value`` or raise a clear OptionError."""
        if self.values is int:
            if isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
            try:
                v = int(str(value).strip())
            except ValueError:
                raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}") from None
            if self.minimum is not None and v < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}, not {v}")
            if self.maximum is not None and v > self.maximum:
                raise OptionError(f"option {self.name!r} must be at most {self.maximum}, not {v}"
                                  + (f" ({self.rule})" if self.rule else ""))
            return v
        for allowed in self.values:
            if value == allowed or str(value).strip().lower() == str(allowed).lower():
                return allowed
            # Booleans written as on/off, yes/no or true/false all mean the same thing.
            if isinstance(allowed, str) and isinstance(value, bool):
                if allowed in ("true", "on") and value:
                    return allowed
                if allowed in ("false", "off") and not value:
                    return allowed
        shown = ", ".join(str(v) for v in self.values)
        raise OptionError(f"option {self.name!r} takes one of: {shown} (got {value!r})")


@dataclass(frozen=True)
class OptionRule:
    """A constraint between options of one game, declared beside its option table and checked
    whenever a game is made: ``holds(options)`` is true where the options agree.

    ``names`` are the options it reads, named with their values in the error; it is checked only
    in the variants where all of them apply.  ``says`` is the constraint in words, as the
    game's rulebook lists it; ``rule`` the section or ruling that requires it."""

    names: tuple[str, ...]
    holds: Callable[[Options], bool]
    says: str
    rule: str

    def error(self, game_name: str, options: Options) -> OptionError:
        """The error for ``options``, which break this rule: both options with their values, and why."""
        given = " and ".join(f"{n}={options[n]}" for n in self.names)
        return OptionError(f"{game_name}: the options {given} contradict each other: {self.says} ({self.rule})")


def broken_rules(rules: tuple[OptionRule, ...], options: Options) -> list[OptionRule]:
    """The rules that apply to ``options`` (all their options are there: the variant has them) and
    that they break."""
    return [rule for rule in rules if all(n in options for n in rule.names) and not rule.holds(options)]


def ordered(low: str, high: str, rule: str, strict: bool = True) -> OptionRule:
    """``low`` below ``high`` (or at most ``high`` where not ``strict``): e.g. the lock below the target."""
    if strict:
        return OptionRule((low, high), lambda o: o[low] < o[high], f"{low} must be below {high}", rule)
    return OptionRule((low, high), lambda o: o[low] <= o[high], f"{low} must be at most {high}", rule)


def only_with(name: str, values: tuple, parent: str, parent_values: tuple, rule: str) -> OptionRule:
    """``name`` at one of ``values`` changes the game only where ``parent`` is one of
    ``parent_values``: elsewhere a table would think it plays a rule it does not."""
    shown = " or ".join(str(v) for v in values)
    allowed = " or ".join(str(v) for v in parent_values)
    return OptionRule((name, parent), lambda o: o[name] not in values or o[parent] in parent_values,
                      f"{name}={shown} has an effect only with {parent}={allowed}", rule)


class Options(Mapping):
    """A frozen mapping of option name to value, also readable as attributes."""

    def __init__(self, values: dict):
        object.__setattr__(self, "_values", dict(values))
        # Plain instance attributes: read on hot paths, where ``__getattr__`` (reached only
        # after a failed lookup) costs a microsecond or more.  Names of mapping methods stay methods.
        cls = type(self)
        self.__dict__.update({k: v for k, v in self._values.items()
                              if isinstance(k, str) and not hasattr(cls, k)})

    def __getitem__(self, key):
        return self._values[key]

    def __getattr__(self, key):
        if key.startswith("__"):
            raise AttributeError(key)
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        raise AttributeError("options are frozen; make a new game to change them")

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def __repr__(self):
        return f"Options({self._values!r})"

    def __reduce__(self):
        return (Options, (self._values,))

    def __hash__(self):
        return hash(tuple(sorted((k, str(v)) for k, v in self._values.items())))


def resolve_options(game_name: str, specs: tuple[OptionSpec, ...], variant: str, given: dict,
                    rules: tuple[OptionRule, ...] = ()) -> Options:
    """Validate ``given`` against ``specs`` for ``variant``, fill in defaults and check the
    constraints between options (``rules``) that apply to the variant."""
    by_name = {s.name: s for s in specs}
    values = {}
    for key, value in given.items():
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"{game_name} has no option {key!r}; its options are: {known}")
        if not spec.applies_to(variant):
            raise OptionError(
                f"option {key!r} does not apply to {game_name} variant {variant!r} "
                f"(it applies to {', '.join(spec.variants)})"
            )
        values[key] = spec.coerce(value, variant)
    for spec in specs:
        if spec.name in values or not spec.applies_to(variant):
            continue
        if spec.follows is not None and spec.follows[0] in given:
            other, offset = spec.follows
            values[spec.name] = max(values[other] + offset, spec.minimum if spec.minimum is not None else 0)
        else:
            values[spec.name] = spec.default_for(variant)
    options = Options(values)
    broken = broken_rules(rules, options)
    if broken:
        raise broken[0].error(game_name, options)
    return options
