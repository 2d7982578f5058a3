"""The companion roles: what each module a game adds to the layers above must hold.

A game names, in ``Game.companions``, a module for every role of :data:`ROLES` - or ``None``,
which declares that it has none ("this game has no kernel" is said, not inferred from a missing
key).  Each :class:`Role` lists the members its callers read: the **required** ones (a module
without them is refused) and the **optional** ones with the default a caller gets where the
module leaves one out.  Callers read a member through :meth:`Role.read` (``stich.engine.member``),
never by ``getattr(module, NAME, default)``: a name the role does not declare is an error in the
caller, and a misspelled member in the module (``RAIS`` for ``RAISE``) is an error in the game,
where a probe with a default would fall back without a word.

The roles live here, in the engine, although their modules are called from higher layers (bots,
encoding, narration, apps): the registry checks a game's declaration when it loads the game, and
imports only point down.  This module names the members; it imports none of those layers.  A
built-in game keeps its companion modules in its own package (``stich.rulesets.<game>.heuristic``,
``.kernel``, ``.encoding``...), built on the mechanisms of :mod:`stich.roles`, which sits below the
games for that reason.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from types import MappingProxyType

from stich.engine.errors import StichError

_EMPTY: MappingProxyType = MappingProxyType({})


class CompanionError(StichError, TypeError):
    """A game's companions are declared wrongly: an unknown or missing role, a module that does not
    import, a required member missing, a member misspelled.  The message names the game and the role."""


@dataclass(frozen=True)
class Role:
    """One role: its name, what it is for, its required members and its optional members with the
    default a caller reads where a module has none."""

    name: str
    doc: str
    required: tuple[str, ...] = ()
    optional: MappingProxyType = field(default_factory=lambda: _EMPTY)
    #: groups of members that come all together or not at all (a curve and its reading)
    together: tuple[tuple[str, ...], ...] = ()

    @property
    def members(self) -> tuple[str, ...]:
        return self.required + tuple(self.optional)

    def read(self, module, name: str):
        """The member ``name`` of ``module`` (a module of this role, or None for a game without
        one): its value, or the role's default where the module has none."""
        if name in self.required:
            if module is None:
                raise CompanionError(f"the {self.name!r} role's {name!r} is required: there is no default "
                                     f"to read for a game without a {self.name!r} companion")
            return getattr(module, name)
        if name not in self.optional:
            raise KeyError(f"{name!r} is no member of the {self.name!r} companion role "
                           f"(members: {', '.join(self.members)})")
        return getattr(module, name, self.optional[name]) if module is not None else self.optional[name]

    def problems(self, module) -> list[str]:
        """What is wrong with ``module`` as this role's companion (empty: nothing)."""
        names = {n for n in vars(module) if not n.startswith("_")}
        out = [f"it has no {n!r}" for n in self.required if n not in names]
        for group in self.together:
            have = [n for n in group if n in names]
            if have and len(have) < len(group):
                out.append(f"it has {' and '.join(map(repr, have))} without "
                           f"{' and '.join(repr(n) for n in group if n not in have)} (they come together)")
        members = set(self.members)
        for n in sorted(names - members):
            # a near miss of a member is a misspelling: the caller would read the default instead
            near = difflib.get_close_matches(n, [m for m in members if m not in names], n=1, cutoff=0.85)
            if near:
                out.append(f"{n!r} is no member of the role: {near[0]!r} was meant?")
        return out


def _optional(**defaults) -> MappingProxyType:
    return MappingProxyType(defaults)


#: every role a game declares, by name
ROLES: dict[str, Role] = {r.name: r for r in (
    Role("heuristic", "the heuristic bot's play (stich.bots.heuristic)",
         required=("choose",),   # choose(view, legal, rng) -> one of legal
         # rank(view, legal): legal best first (the candidates pimc evaluates); bet_reading(view) ->
         # (strength, mine, theirs, stake, their raises) with BET_CURVE (centre, slope, per raise)
         optional=_optional(rank=None, bet_reading=None, BET_CURVE=None),
         together=(("bet_reading", "BET_CURVE"),)),
    Role("encoder", "the observation encoder for learning (stich.encoding, PettingZoo, OpenSpiel)",
         required=("observation_size", "encode", "layout")),
    Role("narration", "the words of the game's own events and view fields (stich.narration)",
         required=("TELLERS", "NARRATED_VERBS", "KEYS", "rows", "echoes"),
         optional=_optional(trick_reason=None, hand_order=None, hand_end_note=None)),
    Role("help", "what the game's actions and words mean (stich.cli)",
         required=("HELP",),
         # variant_help(game) -> verb -> text: the variant's own texts, derived from its rules (Watten's
         # rows); VARIANT_HELP: the same kept per variant name, for a game whose variants are no rows
         optional=_optional(WORDS=_EMPTY, VARIANT_HELP=_EMPTY, variant_help=None, INPUT_WORDS=_EMPTY)),
    Role("page", "what the browser's table shows of the game (stich.web.ui.table)",
         optional=_optional(VERBS=_EMPTY, CALLS=_EMPTY, SUIT_VERBS=(), RANK_VERBS=(), SEAT_VERBS=(),
                            SEAT_SET_VERBS=(), ARG_WORDS=_EMPTY, NAMED_ARGS=_EMPTY, EXTRA_ARG=_EMPTY,
                            HAND_SIZE=None, counts_unknown=None, EXPLAINS_TRICKS=False, layout=None,
                            sheet_rows=None, DEALS_PER_PLAYER=1, VARIANTS=None,
                            # the felt (stich.web.ui.felt, .sheet): seat order around it, the state
                            # rows shown on it, the score sheet's look and a struck column
                            SEATING="clockwise", FELT_ROWS=(), SHEET=None, struck=None,
                            # words (issue #34): an action by its role in the hand, each decision's
                            # explanation, a list's label, an unseen hand's note, the options' words
                            action_words=None, HELP=_EMPTY, CHOICE_LABELS=_EMPTY, HIDDEN_HAND=None,
                            OPTION_WORDS=_EMPTY)),
    Role("bets", "what a raise, an answer and a give-away are (stich.bots.bets.Declaration)",
         optional=_optional(RAISE=None, ACCEPT=None, FOLD=None, GO_ON=_EMPTY, POLL_PASS=None,
                            GO_ON_STAKE=0, GO_ON_GIVES=0, DECIDED=frozenset(), UNINFORMATIVE=frozenset(),
                            SEARCH_WORLDS=_EMPTY, stake=None, state_stake=None)),
    Role("kernel", "the fast card-play path of the search bots (stich.bots.search.fastplay)",
         required=("of",)),   # of(state) -> a kernel, or None where it does not apply
    # facts(events, seat) -> {name: int}: a seat's counts of one finished match, read from the
    # match's public events (stich.roles.stats: "hands", "won", "points" and the game's own);
    # FIGURES: the game's own rows of the player's profile (stich.roles.stats.Figure)
    Role("stats", "a seat's figures of a finished match (stich.web.stats: the player's profile)",
         required=("facts", "FIGURES")),
)}


def role(name: str) -> Role:
    try:
        return ROLES[name]
    except KeyError:
        raise KeyError(f"no companion role {name!r} (roles: {', '.join(ROLES)})") from None


def declaration_problems(cls) -> list[str]:
    """What is wrong with the shape of ``cls.companions`` (no module imported): every role named
    once, as a module path or None, and nothing else."""
    declared = cls.companions
    if not isinstance(declared, dict):
        return [f"companions must be a dict of role -> module path or None, not {type(declared).__name__}"]
    out = []
    for key, value in declared.items():
        if key not in ROLES:
            near = difflib.get_close_matches(str(key), ROLES, n=1)
            out.append(f"role {key!r} is unknown" + (f" ({near[0]!r} was meant?)" if near else "")
                       + f"; roles: {', '.join(ROLES)}")
        elif value is not None and not (isinstance(value, str) and value):
            out.append(f"role {key!r}: a module path or None, not {value!r}")
    missing = [r for r in ROLES if r not in declared]
    if missing:
        out.append(f"it does not declare {', '.join(map(repr, missing))} (a module path, or None for none)")
    return out


def check_declaration(cls) -> None:
    """Raise :class:`CompanionError` when ``cls.companions`` is not a whole declaration."""
    problems = declaration_problems(cls)
    if problems:
        raise CompanionError(f"game {cls.name!r}: its companions are declared wrongly: " + "; ".join(problems))


def check_module(cls, role_name: str, module) -> None:
    """Raise :class:`CompanionError` when ``module`` does not fill ``role_name`` for game ``cls``."""
    problems = role(role_name).problems(module)
    if problems:
        raise CompanionError(f"game {cls.name!r}: its {role_name!r} companion {module.__name__} is broken: "
                             + "; ".join(problems))
