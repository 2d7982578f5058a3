"""The Game / State protocol every stich game implements.

A :class:`Game` is a rule set with frozen options (``stich.game("watten", variant=...)``);
it makes :class:`State` objects.  A state covers a whole match.  Every change of state is
an **event** with an **audience** (``None`` = everybody, else a bitmask of seats); a seat's
view is the fold of the events it may see, so a view cannot leak what the seat may not know.

A game module subclasses both and implements a handful of hooks (``_start``,
``_legal_actions``, ``_apply``, ``is_terminal``, ``returns``, ``_hand_summary``); the base
classes do parsing, validation, errors, history, records, replay, views and cloning.
"""

from __future__ import annotations

import random
from collections import deque

from stich.cards import Deck
from stich.engine.actions import Action
from stich.engine.errors import IllegalActionError, MalformedActionError, OptionError, SetupError, StichError
from stich.engine.internals import _permutation, _slot_clearer, _slot_copier
from stich.engine.options import OptionRule, Options, OptionSpec, resolve_options
from stich.engine.views import ViewFolder, audience_list, copy_json, copy_payload

RECORD_FORMAT = "stich-record/1"
CHANCE = -1  # never a seat; used by no game yet (the deal is drawn from the seed)
#: the longest action text parsed; real ones are a few words (longer input is refused without quoting it)
MAX_ACTION_TEXT = 200
TERMINAL = -2


class Game:
    """A rule set: a game name, a variant and frozen, validated options."""

    name: str = ""
    title: str = ""
    variants: tuple[str, ...] = ("standard",)
    default_variant: str = "standard"
    option_specs: tuple[OptionSpec, ...] = ()
    #: the constraints between options (ranges, orderings, options that mean something only with
    #: another), declared beside the option table and checked whenever a game is made
    option_rules: tuple[OptionRule, ...] = ()
    deck: Deck
    num_players: int = 4
    state_class: type[State]
    #: Event types that lawfully show cards to their audience beyond the seat's own deal and
    #: the public plays (a peek, a card revealed at the cut, a partner's hand).  The
    #: view-invariance test treats cards in other events as unseen, so a leak is caught.
    reveal_events: frozenset[str] = frozenset()

    # --- what the layers above ask about a game (each game declares its own; docs/engine.md) ---
    #: the language its cards are named in by default (terminal, browser)
    default_language: str = "en"
    #: a directory of the game's own catalogues (``<lang>/LC_MESSAGES/<domain>.po``) for a game or a
    #: variant from another package, read when the class is loaded; None: its words are in stich's
    catalogues: str | None = None
    #: the cards each seat is dealt for a hand (an explicit set-up's ``hands``; the rest is stock)
    cards_per_hand: int | None = None
    #: the most decisions one hand may take before an adapter stops it (OpenSpiel's
    #: ``max_game_length``): far above any real hand
    max_decisions: int = 400
    #: the verb of playing a card (search plays cards by the playout policy and solves card play);
    #: None: the game has no card play search knows of
    card_verb: str | None = None
    #: the verbs the search bots decide by default; the ``heuristic`` bot takes the others
    #: (None: search decides everything)
    search_verbs: tuple[str, ...] | None = None
    #: verbs a playout avoids when anything else is legal (a random raise is noise, a random
    #: fold throws the hand away)
    rollout_avoid: frozenset[str] = frozenset()
    #: verbs the exact solver takes (the first legal one) at a decision that is no card play
    calm_verbs: frozenset[str] = frozenset()
    #: whether every hand is fought by two sides (``State.side_of``), so alpha-beta applies
    two_sided: bool = False
    #: whom the match scores (``State.scores``) count for: ``"seat"`` (one score per seat) or
    #: ``"side"`` (one per side of ``State.side_of``: partners share one); the bet arithmetic reads
    #: it (a list of two scores is two seats of a two-player game or two sides of four players)
    scores_by: str = "seat"
    #: the modules beside the game in higher layers, one per role of :data:`stich.engine.ROLES`
    #: (``"heuristic"``, ``"encoder"``, ``"narration"``, ``"help"``, ``"page"``, ``"bets"``,
    #: ``"kernel"``; each :class:`~stich.engine.Role` lists the members its module holds): a
    #: module path, imported only when asked for (:func:`stich.engine.companion`), or None where
    #: the game has none.  Every role is named: the registry refuses a game whose declaration
    #: misses one or names an unknown one (``CompanionError``), so "no kernel" is said, not guessed.
    companions: dict[str, str | None] = {}

    #: the signals partners may give each other at a live table where the rules allow them
    #: (Watten's Deuten): their words, () for a game without any.  The table server offers them as
    #: a table option, off by default, and sends each to the sender's partner only (``partner``).
    signal_words: tuple[str, ...] = ()
    #: one sentence saying which tables of this game may allow signals (shown when a table of a
    #: game without them asks for signals); "" when ``signal_words`` is empty
    signals_where: str = ""

    def signals_refused(self) -> str | None:
        """Why a table of this variant may not allow signals (the sentence to show); None if it may."""
        if self.signal_words:
            return None
        return f"{self.title or self.name} has no signals between partners"

    @property
    def variant_lineage(self) -> tuple[str, ...]:
        """This variant, then the variants it is made from, nearest first: where the layers above keep
        words or tuning per variant (a regional call, a measured number of worlds), a variant without
        an entry of its own reads its base's (a game whose variants are rows of a table says which
        row a new one derives from; ``stich.rulesets.watten.options.Variant.base``)."""
        return (self.variant,)

    def by_variant(self, mapping, default=None):
        """The entry of ``mapping`` for the nearest variant of :attr:`variant_lineage` that has one;
        ``default`` where none has."""
        for name in self.variant_lineage:
            if name in mapping:
                return mapping[name]
        return default

    def partner(self, seat: int) -> int | None:
        """The seat that plays with ``seat`` as a fixed partner known to everybody (where its signals
        go); None when it has none or the partner is secret (a called partner)."""
        return None

    def reward_scale(self) -> float:
        """The divisor of per-hand score changes for learning rewards (a typical big hand)."""
        return 1.0

    def pack_setup(self, codes: list[str]) -> dict:
        """The ``new_state`` set-up that deals this whole pack (card codes, top first): by
        default ``len(codes) / num_players`` consecutive cards per seat."""
        k = len(codes) // self.num_players
        return {"hands": [codes[i * k:(i + 1) * k] for i in range(self.num_players)]}

    #: ``stich bench``: a method ``(rng) -> action text`` that fixes the first action of each timed
    #: hand (the kind of deal timed), the OpenSpiel games its hands/s are compared with, and a
    #: footnote saying what its hands/s measure
    bench_first_action = None
    bench_references: tuple[str, ...] = ("euchre",)
    bench_note: str = ""

    #: the determinization hook of the search bots, a method ``world_spec(view) -> WorldSpec``
    #: (``stich.engine.worlds``); None: the game has none and no search bot plays it (declared here,
    #: so a hook that is missing is told from one that is misspelled by reading the class)
    world_spec = None
    #: optional with ``world_spec``: ``world_fixup(state, view, spec)`` brings a freshly dealt world's
    #: own fields in line with the view before its hand is replayed; None: nothing to fix
    world_fixup = None

    @classmethod
    def options_for(cls, variant: str | None = None, **options) -> tuple[str, Options]:
        """The variant's name and the options a game made with these arguments would have: every
        value checked, the constraints between them too (``option_rules``), without making the game
        (an ``OptionError`` says what is wrong)."""
        variant = cls.default_variant if variant is None else str(variant).strip().lower()
        if variant not in cls.variants:
            raise OptionError(
                f"{cls.name} has no variant {variant!r}; its variants are: {', '.join(cls.variants)}"
            )
        return variant, resolve_options(cls.name, cls.option_specs, variant, options, cls.option_rules)

    def __init__(self, variant: str | None = None, **options):
        self.variant, self.options = self.options_for(variant, **options)
        self._actions: dict[str, Action] = {}
        self._setup()
        #: The answer to a poll of :class:`stich.engine.turns.Turns` (never applied to a state); last
        #: in the action space so that the indices of the game's own actions stay as they were.
        self.a_wait = self.action("wait")
        self.wait_action = self.a_wait   # the name before the a_<verb> convention (docs/engine.md)
        #: Every action of this game (all seats, all phases) in a fixed order: the action space
        #: for learning environments (index = position; masks come from ``legal_actions()``).
        self.action_space: tuple[Action, ...] = tuple(self._actions.values())
        self.action_index: dict[str, int] = {str(a): i for i, a in enumerate(self.action_space)}
        # Search reads these in every playout step: an instance attribute is a fast load in
        # CPython 3.11, a class attribute read through the instance a slow lookup.
        self.card_verb = self.card_verb
        self.rollout_avoid = self.rollout_avoid

    # --- hooks for game modules -------------------------------------------------------------
    def _setup(self) -> None:
        """Precompute tables for this variant and options (called once per game)."""

    def _parse_arg(self, verb: str, arg: str) -> str:
        """Canonical text of an action argument; default: card codes are normalised."""
        if self.deck.is_card(arg):
            return self.deck.code(self.deck.parse(arg))
        return arg

    # --- actions ---------------------------------------------------------------------------
    def action(self, verb: str, arg: str | None = None, value: object = None) -> Action:
        """The interned action with this verb and (canonical) argument."""
        key = verb if arg is None else f"{verb} {arg}"
        a = self._actions.get(key.lower())
        if a is None:
            a = Action(verb, arg, value)
            a.id = len(self._actions)   # its index in action_space (built from _actions in this order)
            self._actions[key.lower()] = a
        return a

    def parse_action(self, text) -> tuple[int | None, Action]:
        """Parse action text into (1-based seat prefix or None, Action).

        Raises :class:`MalformedActionError` for text that is no action of this game.
        """
        if isinstance(text, Action):
            own = self._actions.get(str.lower(text))
            if own is not None and own == text:
                return None, own  # this game's own action of that text, never a foreign object's value
            text = str(text)
        if not isinstance(text, str):
            raise MalformedActionError(f"an action is text such as 'play EO', not {type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:  # no action is this long; and an error never quotes all of it
            raise MalformedActionError(f"{text[:40]!r}… ({len(text)} characters) is too long to be an action")
        raw = text.strip()
        seat = None
        if ":" in raw:
            prefix, raw = raw.split(":", 1)
            try:
                seat = int(prefix.strip())
            except ValueError:
                raise MalformedActionError(
                    f"{text!r}: the part before ':' must be a seat number (1-based), not {prefix!r}"
                ) from None
            raw = raw.strip()
        parts = raw.split(None, 1)
        if not parts:
            raise MalformedActionError("an empty string is not an action")
        verb = parts[0].lower()
        key = verb
        if len(parts) > 1:
            key = f"{verb} {self._parse_arg(verb, parts[1].strip())}"
        found = self._actions.get(key.lower())
        if found is None:
            verbs = sorted({a.verb for a in self._actions.values()})
            if verb not in verbs:
                raise MalformedActionError(
                    f"{text!r}: unknown action {verb!r} in {self.name}; actions are: {', '.join(verbs)}"
                )
            arg = parts[1].strip() if len(parts) > 1 else None
            examples = [a.arg for a in self._actions.values() if a.verb == verb and a.arg is not None]
            if arg is None:
                raise MalformedActionError(f"{text!r}: {verb!r} needs an argument, e.g. {verb} {examples[0]}")
            if examples and all(self.deck.is_card(x) for x in examples) and not self.deck.is_card(arg):
                self.deck.parse(arg)  # raises the deck's own "not a card" message
            shown = ", ".join(examples[:12]) + (", ..." if len(examples) > 12 else "")
            raise MalformedActionError(f"{text!r}: {arg!r} is not a valid argument for {verb!r} in "
                                       f"{self.name} (valid: {shown or 'none'})")
        return seat, found

    # --- states ----------------------------------------------------------------------------
    def new_state(self, seed: int | None = None, *, hands=None, stock=None, dealer=None, scores=None,
                  lean: bool = False, **setup) -> State:
        """A new match: a random deal from ``seed``, or an explicit set-up.

        ``hands``: per seat, a list of card codes; ``stock``: the undealt cards, top first;
        ``dealer``: the dealer's seat (0-based); ``scores``: the match scores so far (per
        side or per seat, as the game keeps them).  Other keyword arguments are game-specific
        set-up fields.  The set-up fixes the first hand; later hands are dealt from the seed.

        ``lean=True``: a simulation state (search, learning, ``stich bench``): the same rules and the
        same play, but no events and no history are kept, so ``view``, ``record`` and ``events``
        refuse (a :class:`~stich.StichError`); see ``State.step`` for the integer path.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"seed must be a whole number or None, not {seed!r}")
        if hands is None and stock is None and dealer is None and scores is None and not setup:
            explicit = {}   # a random deal: the common case
        else:
            explicit = {k: v for k, v in
                        dict(hands=hands, stock=stock, dealer=dealer, scores=scores, **setup).items()
                        if v is not None}
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < self.num_players):
            raise SetupError(f"dealer must be a seat 0..{self.num_players - 1}, not {dealer!r}")
        state = self.state_class.__new__(self.state_class)
        state._init_base(self, seed, _json_setup(explicit), lean)
        state._start(**explicit)
        return state

    def rules_summary(self) -> str:
        """A short line describing the table's rules, e.g. 'Watten bavarian_4 to 11, maschine on'."""
        changed = [f"{s.name}={self.options[s.name]}" for s in self.option_specs
                   if s.name in self.options and self.options[s.name] != s.default_for(self.variant)]
        base = f"{self.title or self.name} ({self.variant})"
        return base + (", " + ", ".join(changed) if changed else ", default rules")

    def __repr__(self) -> str:
        return f"stich.game({self.name!r}, variant={self.variant!r})"


def _json_setup(setup: dict) -> dict | None:
    """The set-up as the record keeps it: a JSON-ready deep copy (tuples become lists)."""
    if not setup:
        return None
    return _jsonable(setup)


def _jsonable(value):
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(x) for x in value]
    return value


class State:
    """One match in progress.  See the module docstring for the protocol.

    A game's state may keep its own fields in ``__slots__``: past 30 attributes CPython gives up
    the shared-key instance dict and every attribute access gets slower.  Every slot starts as
    None; :meth:`clone` copies the instance dict and every slot.

    A game may *defer* the deal of its next hand (:meth:`_defer`): the deal then runs the first
    time anything observes the state (``events``, ``legal_actions``, ``apply``, ``view``,
    ``record``, ``clone``).  The deal is a function of the seed and the hand number, so it is the
    same whenever it runs; a line of play that stops at the end of a hand (a search rollout,
    ``stich bench``) never pays for the next one."""

    game: Game
    seed: int
    setup: dict | None
    current_player: int = TERMINAL
    hand_number: int = 0
    lean: bool = False
    actions_taken: int = 0
    #: per seat, the cards held (a bitmask or a list) where the game keeps them so; None: unknown
    hands = None
    _copy_slots = None    # (a, b) -> None: b.<slot> = a.<slot> for every slot of the class
    _clear_slots = None   # (a) -> None: every slot of a new state starts as None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        names = [n for k in cls.__mro__ for n in k.__dict__.get("__slots__", ())
                 if n not in ("__dict__", "__weakref__")]
        cls._copy_slots = staticmethod(_slot_copier(names)) if names else None
        cls._clear_slots = staticmethod(_slot_clearer(names)) if names else None

    def _init_base(self, game: Game, seed: int, setup: dict | None, lean: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.setup = setup
        self.lean = lean
        #: actions applied so far (lean states included: what tells a walker that the state changed)
        self.actions_taken = 0
        self._deferred = False  # a deal waits for _settle (see _defer)
        self._action_hidden: dict[int, int] = {}  # history index -> audience, for non-public actions
        if lean:
            # One mechanism for both paths: the game emits as always, and a lean state discards it
            # at once (a deque of length 0 drops what is appended, in C; emit is a no-op).
            self._events = deque(maxlen=0)
            self.history = deque(maxlen=0)
            self._action_marks = deque(maxlen=0)
            self.emit = _discard
            self._hidden_verbs = frozenset()
        else:
            self._events: list[tuple[int | None, dict]] = []  # see the events property
            self.history: list[tuple[int, Action]] = []
            self._action_marks: list[int] = []  # per history entry: len(self.events) before it
        self._legal = None
        self.current_player = TERMINAL
        self.hand_number = 0
        if self._clear_slots is not None:
            self._clear_slots(self)   # so that clone() never meets an unset slot

    # --- hooks for game modules -------------------------------------------------------------
    def _start(self, **setup) -> None:
        """Set up the first hand (from the seed, or from the explicit set-up)."""
        raise NotImplementedError

    def position(self) -> dict:
        """This moment as a ``new_state(position=...)`` set-up (JSON-ready): set up again, it has the
        same legal actions for every seat and plays on identically.  A SetupError where the game
        describes no position for this moment (or none at all)."""
        raise SetupError(f"{self.game.name} does not describe positions")

    def _legal_actions(self):
        """The legal actions of ``current_player`` (a list or tuple of interned Actions)."""
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        """Apply a legal action (already validated)."""
        raise NotImplementedError

    def _why_illegal(self, action: Action) -> str | None:
        """A specific reason why a well-formed action is illegal now, if the game knows one."""
        return None

    #: Verbs of actions that not every seat may see; for these the game implements
    #: :meth:`_action_audience` (a set of verbs, so that ``apply`` stays fast for the others).
    _hidden_verbs: frozenset[str] = frozenset()

    def _action_audience(self, seat: int, action: Action) -> int | None:
        """Which seats see ``seat`` take ``action`` (one of ``_hidden_verbs``; called before it is
        applied): ``None`` = everybody, else a bitmask.  E.g. a blind Ansage card shown to one
        player only."""
        return None

    def _copy_into(self, other: State) -> None:
        """Copy mutable per-game containers into a clone (lists, dicts)."""

    def playout_card(self, plays: list, rng):
        """The card a search playout plays among ``plays`` (two or more legal card plays): the
        game's cheap playout policy, reading its own fields (a game overrides it); default: a
        random card."""
        return plays[rng.randrange(len(plays))]

    def known_hand(self, seat: int) -> int:
        """The mask of the cards ``seat`` holds and has seen (its ``view(seat)["hand"]``), read from
        the state's own fields, so that a lean state has it too (the batched environment's
        observation); default: ``hands[seat]``, for a game that keeps hands as masks and shows each
        seat its whole hand (a game whose players pick up their cards later overrides it)."""
        if self._deferred:
            self._settle()
        return self.hands[seat]

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for in this hand (a two-sided game: 0 or 1); default: its own."""
        return seat

    def _deferred_deal(self) -> None:
        """Deal the hand whose deal :meth:`_defer` put off (games that defer implement it)."""
        raise NotImplementedError

    # --- the deferred deal ----------------------------------------------------------------------
    def _defer(self) -> None:
        """Put off the next hand's deal until the state is observed (call at the end of a hand,
        with ``hand_number`` and ``current_player`` already those of the next hand)."""
        self._deferred = True

    def _settle(self) -> None:
        """Run a deferred deal now."""
        self._deferred = False
        self._deferred_deal()

    @property
    def events(self) -> list[tuple[int | None, dict]]:
        """Everything that happened, in order: ``(audience, payload)`` pairs, the audience None
        (everybody) or a bitmask of seats.  Do not mutate.  A lean state keeps none (an error)."""
        if self.lean:
            raise StichError(f"a lean {self.game.name} state keeps no events, so it has no views, records "
                             "or positions: make it with new_state(lean=False) for those")
        if self._deferred:
            self._settle()
        return self._events

    @events.setter
    def events(self, value: list) -> None:
        self._events = value

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def returns(self) -> list[float]:
        """Per seat: the match result (0 for every seat until the match is over)."""
        raise NotImplementedError

    def hand_summary(self) -> dict:
        """A JSON-ready summary of the current (or just finished) hand, public information only."""
        if self._deferred:
            self._settle()
        return self._hand_summary()

    def _hand_summary(self) -> dict:
        """The game's :meth:`hand_summary` (a deferred deal has run)."""
        return {}

    def _off_turn_actions(self, seat: int):
        """The legal actions of ``seat``, which is not ``current_player``: a decision the rules
        give a seat that is not on turn (a Schönere request by the other Ansager, a show in a
        simultaneous Ansage).  Default: none.  Must be a function of what ``seat`` may know."""
        return ()

    def _apply_off_turn(self, seat: int, action: Action) -> None:
        """Apply a legal action of a seat that is not ``current_player`` (already validated)."""
        raise NotImplementedError

    # --- the protocol ---------------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of ``seat`` now (possibly none); without a seat, those of the seat
        on turn, ``current_player`` (empty when the match is over). Do not mutate."""
        if seat is not None and seat != self.current_player:
            return self._seat_actions(seat)
        legal = self._legal
        if legal is None:
            if self._deferred:
                self._settle()
            legal = self._legal = [] if self.current_player < 0 else self._legal_actions()
        return legal

    def _seat_actions(self, seat) -> list[Action]:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be 0..{self.game.num_players - 1} or None, not {seat!r:.60}")
        if self._deferred:
            self._settle()
        if self.current_player < 0:
            return []
        if seat == self.current_player:
            return self.legal_actions()
        return list(self._off_turn_actions(seat))

    def seats_to_act(self) -> list[int]:
        """Every seat that has a decision now (the seat on turn and any seat that may act out of
        turn), in seat order; empty once the match is over."""
        if self._deferred:
            self._settle()
        cp = self.current_player
        if cp < 0:
            return []
        return [s for s in range(self.game.num_players) if s == cp or self._off_turn_actions(s)]

    def apply(self, action, seat: int | None = None) -> None:
        """Apply an action (an Action or its text) of the seat on turn, or of ``seat`` (0-based),
        or of the seat its text names ("4:ask_exchange", 1-based): any seat may take any of its
        legal actions, on turn or not; the first applied wins and the others' sets follow the
        new state.  Illegal or malformed: an error, no change."""
        legal = self._legal
        if seat is None and type(action) is Action and legal is not None and action in legal:
            act = legal[legal.index(action)]  # the hot path; by text, so a foreign Action is resolved too
            seat = self.current_player
        else:
            seat, act = self._checked(action, seat)
            if seat != self.current_player:
                self._apply_seat(seat, act)
                return
        hidden = self._hidden_verbs
        if hidden and act.verb in hidden:
            aud = self._action_audience(seat, act)
            if aud is not None:
                self._action_hidden[len(self.history)] = aud
        self.history.append((seat, act))
        self._action_marks.append(len(self._events))  # (a deferred deal ran in _checked)
        self.actions_taken += 1
        self._legal = None
        self._apply(act)

    def step(self, action_id: int, seat: int | None = None) -> None:
        """Apply action number ``action_id`` of ``game.action_space`` (the integer path of
        :meth:`apply`, for search and learning; ``legal_ids()`` lists the legal numbers): the same
        checks and errors, the same rules."""
        legal = self._legal
        if seat is None and legal is not None and type(action_id) is int and action_id >= 0:
            try:
                act = self.game.action_space[action_id]
            except IndexError:
                act = None
            if act in legal:   # an interned action of this game: identity, no text comparison
                if self.lean:
                    self.actions_taken += 1
                    self._legal = None
                    self._apply(act)
                else:
                    self.apply(act)
                return
        self.apply(self._action_of(action_id), seat)

    def _action_of(self, action_id):
        space = self.game.action_space
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < len(space):
            raise MalformedActionError(f"an action number is a whole number 0..{len(space) - 1} "
                                       f"(an index of game.action_space), not {action_id!r:.60}")
        return space[action_id]

    def legal_ids(self, seat: int | None = None) -> list[int]:
        """The numbers (indices of ``game.action_space``) of :meth:`legal_actions`, in its order."""
        if seat is not None:
            return [a.id for a in self.legal_actions(seat)]
        legal = self._legal
        if legal is None:   # legal_actions() inlined: this is half of the integer loop's engine calls
            if self._deferred:
                self._settle()
            legal = self._legal = [] if self.current_player < 0 else self._legal_actions()
        return [a.id for a in legal]

    def _apply_seat(self, seat: int, act: Action) -> None:
        """Apply a validated action of ``seat``, which is not on turn."""
        hidden = self._hidden_verbs
        if hidden and act.verb in hidden:
            aud = self._action_audience(seat, act)
            if aud is not None:
                self._action_hidden[len(self.history)] = aud
        self.history.append((seat, act))
        self._action_marks.append(len(self._events))
        self.actions_taken += 1
        self._legal = None
        self._apply_off_turn(seat, act)

    def _checked(self, action, seat: int | None = None) -> tuple[int, Action]:
        """(seat, the legal Action) that ``action`` (text or Action) names, or the specific error."""
        n = self.game.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise IllegalActionError(f"seat must be 0..{n - 1}, not {seat!r}")
        seat_prefix, act = self.game.parse_action(action)
        if self._deferred:
            self._settle()
        if self.current_player < 0:
            raise IllegalActionError(f"the match is over; {act!s} cannot be played")
        if seat_prefix is not None:
            if not 1 <= seat_prefix <= n:
                raise IllegalActionError(f"{action!s}: there is no seat {seat_prefix}; seats are 1..{n} in text")
            if seat is not None and seat_prefix - 1 != seat:
                raise IllegalActionError(f"{action!s}: names seat {seat_prefix}, but seat {seat + 1} acts")
            seat = seat_prefix - 1
        if seat is None:
            seat = self.current_player
        if seat != self.current_player:
            others = self._seat_actions(seat)
            if act in others:
                return seat, others[others.index(act)]
            shown = ", ".join(map(str, others))
            raise IllegalActionError(
                f"{action!s}: seat {seat + 1} is not to act; seat {self.current_player + 1} is (seats are "
                f"1-based in text)" + (f"; seat {seat + 1} may now: {shown}" if shown else
                                       f"; seat {seat + 1} has no decision now")
            )
        seat = self.current_player
        legal = self.legal_actions()
        if act not in legal:
            reason = self._why_illegal(act)
            shown = ", ".join(map(str, legal))
            raise IllegalActionError(
                f"{act!s} is not legal for seat {seat + 1} now"
                + (f": {reason}" if reason else "")
                + f" (legal: {shown})"
            )
        return seat, legal[legal.index(act)]

    def emit(self, type_: str, audience: int | None = None, **payload) -> None:
        """Record an event; ``audience`` None = everyone, else a bitmask of seats."""
        payload["type"] = type_
        self._events.append((audience, payload))

    def clone(self) -> State:
        """An independent copy (cheap: shallow copies of the containers)."""
        if self._deferred:
            self._settle()
        new = object.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        if not self.lean:   # a lean state's sinks hold nothing and are shared
            new._events = self._events.copy()
            new.history = self.history.copy()
            new._action_marks = self._action_marks.copy()
            new._action_hidden = self._action_hidden.copy()
            new._folds = {}  # cached view folds belong to one line of play
        if self._copy_slots is not None:
            self._copy_slots(self, new)
        self._copy_into(new)
        return new

    def hand_rng(self, *keys) -> random.Random:
        """A random generator for one hand, derived from the seed (cheap clones need no RNG state)."""
        return random.Random("/".join(map(str, (self.seed, *keys))))

    def shuffled(self, n: int, *keys) -> list[int]:
        """A uniformly random permutation of ``range(n)``, derived from the seed and ``keys``.

        The same seed and keys give the same permutation on every platform.  Sorting by 32-bit
        keys from SHAKE-128 costs about half of seeding and drawing from a ``random.Random``,
        and shuffles are on the hot path of random play (one or more per hand)."""
        return _permutation(n, f"{self.seed}/{'/'.join(map(str, keys))}".encode())

    # --- views ------------------------------------------------------------------------------------
    def visible_events(self, seat: int | None) -> list[dict]:
        """The events a seat (None = spectator) may see, as fresh JSON-ready dicts."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.game.num_players):
            raise ValueError(f"seat must be 0..{self.game.num_players - 1} or None, not {seat!r}")
        bit = 0 if seat is None else 1 << seat
        return [copy_payload(ev) for aud, ev in self.events if aud is None or aud & bit]

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know now, as a JSON-ready dict; ``None`` is the spectator.

        The folded fields (hand, known hands, trick, tricks, scores, info and the game's own
        fields) cover the whole match; ``events`` lists the visible events of the current hand
        (earlier hands are in ``record(seat)``).  Folding is incremental and cached per seat,
        so a view costs little even late in a long match.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.game.num_players):
            raise ValueError(f"seat must be 0..{self.game.num_players - 1} or None, not {seat!r}")
        folder = self._folder(seat)
        g = self.game
        v = {
            "game": g.name,
            "variant": g.variant,
            "options": dict(g.options),
            "seat": seat,
            "num_players": g.num_players,
            "current_player": self.current_player if self.current_player >= 0 else None,
            "terminal": self.is_terminal(),
        }
        v.update(copy_json(folder.view))
        known = folder.view["known_hands"]
        v["hand"] = list(known[seat]) if seat is not None and known[seat] is not None else []
        if seat is not None and seat == self.current_player:
            v["legal_actions"] = [str(a) for a in self.legal_actions()]
        v["events"] = [copy_payload(ev) for ev in folder.events[folder.hand_start:]]
        v["actions"] = self._visible_actions(seat, folder.abs_start)
        return v

    def _visible_actions(self, seat: int | None, start: int) -> list:
        """The current hand's actions as ``seat`` saw them: ``[seat, text or None, i]`` where the
        text is None for an action the seat did not see and ``i`` is the number of the hand's
        visible events (``view["events"]``) that came before the action."""
        marks = self._action_marks
        j = len(marks)
        while j and marks[j - 1] > start:  # an action taken at ``start`` ended the previous hand
            j -= 1
        if j == len(marks):
            return []
        bit = 0 if seat is None else 1 << seat
        hidden = self._action_hidden
        events = self.events
        out = []
        pos = max(start, 0)
        count = 0
        history = self.history
        for k in range(j, len(marks)):
            mark = marks[k]
            for i in range(pos, mark):
                aud = events[i][0]
                if aud is None or aud & bit:
                    count += 1
            pos = mark
            s, act = history[k]
            aud = hidden.get(k)
            out.append([s, str(act) if aud is None or aud & bit else None, count])
        return out

    def _folder(self, seat: int | None) -> ViewFolder:
        """The cached fold of ``seat``'s visible events, brought up to date."""
        folds = self.__dict__.get("_folds")
        if folds is None:
            folds = self._folds = {}
        folder = folds.get(seat)
        events = self.events
        if folder is None or (folder.done and (len(events) < folder.done
                                               or events[folder.done - 1][1] is not folder.last)):
            folder = folds[seat] = ViewFolder(seat, self.game.num_players)
        bit = 0 if seat is None else 1 << seat
        hook = self._fold_event
        for i in range(folder.done, len(events)):
            aud, ev = events[i]
            if aud is None or aud & bit:
                if ev["type"] == "hand_start":
                    folder.abs_start = i
                folder.feed(ev, hook)
        if len(events) > folder.done:
            folder.done = len(events)
            folder.last = events[-1][1]
        return folder

    def _fold_event(self, view: dict, event: dict, seat: int | None) -> bool:
        """Fold a game-specific event into a view; return True if handled."""
        return False

    # --- records ----------------------------------------------------------------------------------
    def record(self, seat: int | None | str = "all") -> dict:
        """The game record (JSON-ready).  With a seat (or None = spectator): what that seat saw."""
        g = self.game
        rec = {
            "format": RECORD_FORMAT,
            "game": g.name,
            "variant": g.variant,
            "options": dict(g.options),
        }
        if seat == "all":
            rec["seed"] = self.seed
            rec["setup"] = self.setup
            rec["actions"] = [[s, str(a)] for s, a in self.history]
            rec["events"] = [copy_payload(ev) | {"audience": audience_list(aud)} for aud, ev in self.events]
        else:
            rec["seat"] = seat
            rec["events"] = self.visible_events(seat)
        rec["terminal"] = self.is_terminal()
        if rec["terminal"]:
            rec["returns"] = list(self.returns())
        return rec

    def __repr__(self) -> str:
        return (f"<{self.game.name} {self.game.variant} state: hand {self.hand_number}, "
                f"to act: {self.current_player}>")


def _discard(*args, **kwargs) -> None:
    """A lean state's ``emit``: the event is not kept."""
