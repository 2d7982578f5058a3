"""OpenSpiel (``pyspiel``) Python games for every stich game and variant.

Importing this module registers one game per (game, variant) with ``pyspiel.register_game``::

    import pyspiel, stich.openspiel
    game = pyspiel.load_game("python_stich_watten_euregio")          # or stich.openspiel.load("watten")
    game = pyspiel.load_game("python_stich_watten_bavarian_3(target=5)")   # options are game parameters

**One OpenSpiel episode is one hand (deal) of the stich game**, the first hand of a match from
0 : 0.  The deal really is chance, as explicit chance nodes:

1. the dealer: ``num_players`` equally likely outcomes;
2. the engine seed of the hand, ``NUM_SEEDS`` equally likely outcomes (it drives what the engine
   draws by itself inside the hand: a Watten redeal after a Maschine, the stock shuffle of a
   Schönere exchange, ...);
3. the pack, card by card: ``len(deck)`` nodes, each picks one of the cards not yet placed
   (outcome = card index in ``game.deck``), so every permutation is equally likely.

The permutation is the whole pack top first; the game's ``Game.pack_setup`` turns it into the set-up
of its first hand (e.g. Watten's ``pack=``, then the cutter cuts; by default ``len(deck) / n``
consecutive cards per seat, ``hands=``).  The episode ends when the hand is scored (the engine's
``hand_number`` moves on or the match is over).  Returns: the per-hand score change of each seat minus the mean change,
each change clipped to ``±scale`` and divided by ``scale``
(:func:`stich.encoding.rewards.hand_rewards`), so utilities lie in ``[-2, 2]`` and sum to zero.

``max_game_length`` is the parameter ``max_decisions`` (the game's ``Game.max_decisions``, far
above any real hand): Watten's raises are not capped by the rules, so a hand stopped after ``max_decisions``
player decisions scores 0 for everybody; this keeps the bound true.

Players' actions are indices into ``game.action_space``.  One player decides at a time, through
:class:`stich.engine.Turns`: a seat that may act out of turn (a Euregio Ansager's request, a Battn
raise) is asked first and may answer ``wait`` (the last action index).  Information-state strings are the
seat's view of the hand with its events (perfect recall); observation strings the view without
events; both tensors are :func:`stich.encoding.encode` of the view.  ``resample_from_infostate``
redeals the cards the player has never seen (and the seed) and replays the hand's actions,
accepting a world only if the player's information state is unchanged — OpenSpiel's ISMCTS bot
uses it.
"""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pyspiel

import stich
import stich.engine
from stich.encoding import encode, observation_size
from stich.encoding.rewards import hand_rewards
from stich.engine.turns import Turns

__all__ = ["NUM_SEEDS", "game_names", "load", "register", "short_name"]

NUM_SEEDS = 16
RESAMPLE_TRIES = 400
#: Counters of resample_from_infostate: calls, worlds tried, fallbacks to the true state.
RESAMPLE_STATS = {"calls": 0, "tries": 0, "kept_seed": 0, "fallbacks": 0}

_REGISTERED: dict[str, tuple[str, str]] = {}
_STICH_GAMES: dict[tuple, object] = {}


def short_name(name: str, variant: str | None = None) -> str:
    g = stich.game(name, variant=variant)
    return f"python_stich_{g.name}_{g.variant}"


def game_names() -> list[str]:
    """Short names of every registered stich game."""
    return list(_REGISTERED)


def load(name: str, variant: str | None = None, **params):
    """``pyspiel.load_game`` of a stich game; ``params``: game options and ``max_decisions``."""
    register()
    return pyspiel.load_game(short_name(name, variant), {k: _to_param(v) for k, v in params.items()})


def _game_key(name: str, variant: str, options: dict) -> tuple:
    return (name, variant, tuple(sorted(options.items())))


def _stich_game_by_key(key: tuple):
    g = _STICH_GAMES.get(key)
    if g is None:
        name, variant, options = key
        g = _STICH_GAMES[key] = stich.game(name, variant=variant, **dict(options))
    return g


def _stich_game(name: str, variant: str, options: dict):
    return _stich_game_by_key(_game_key(name, variant, options))


class _Cache:
    """Holds the live stich state; pickles to an empty cache (it is rebuilt from the history)."""

    __slots__ = ("state", "turns")

    def __init__(self):
        self.state = None
        self.turns = None   # the one-seat-at-a-time walk of ``state`` (stich.engine.Turns)

    def __reduce__(self):
        return (_Cache, ())

    def __deepcopy__(self, memo):
        new = _Cache()
        if self.state is not None:
            new.turns = self.turns.clone()
            new.state = new.turns.state
        return new

    def __copy__(self):
        return self.__deepcopy__({})


_NUMERIC = re.compile(r"[+\-0-9.e]+")


def _to_param(value):
    """An option value as an OpenSpiel game parameter that survives the game string round trip.

    OpenSpiel reads ``true``/``false`` as booleans and ``3+2`` as a number: such string values
    become booleans or get ``+`` written as ``p`` (``3p2``); :func:`_from_param` maps them back.
    """
    if isinstance(value, str):
        if value.lower() in ("true", "false"):
            return value.lower() == "true"
        if _NUMERIC.fullmatch(value):
            enc = value.replace("+", "p")
            return enc if not _NUMERIC.fullmatch(enc) else "v" + value
    return value


def _from_param(spec, value):
    if spec.values is int or not isinstance(spec.values, tuple):
        return value
    for allowed in spec.values:
        if _to_param(allowed) == value:
            return allowed
    return value


def _game_type(name: str, variant: str, g) -> pyspiel.GameType:
    params = {k: _to_param(v) for k, v in dict(g.options).items()}
    params["max_decisions"] = g.max_decisions
    return pyspiel.GameType(
        short_name=f"python_stich_{name}_{variant}",
        long_name=f"stich {g.title or name} ({variant}), one hand",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.num_players,
        min_num_players=g.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class StichSpielGame(pyspiel.Game):
    """A stich game/variant as a Python OpenSpiel game (one hand per episode)."""

    stich_name = ""
    stich_variant = ""
    game_type: pyspiel.GameType
    option_specs: tuple = ()

    def __init__(self, params=None):
        params = dict(params or {})
        spec = dict(self.game_type.parameter_specification)
        full = {**spec, **params}
        self.max_decisions = int(full.pop("max_decisions"))
        specs = {o.name: o for o in type(self).option_specs}
        # pyspiel hands over every parameter, the defaults of its table filled in.  An option at
        # that default is left to the game, whose defaults can follow from other options (Watten's
        # lock_at is target - 2, R12): the table's fixed lock_at 9 beside a given target of 5
        # would contradict it.
        options = {k: _from_param(specs[k], v) for k, v in full.items() if k in specs and v != spec[k]}
        self.stich_options = options
        g = _stich_game(self.stich_name, self.stich_variant, options)
        self.stich_game = g
        info = pyspiel.GameInfo(
            num_distinct_actions=len(g.action_space),
            max_chance_outcomes=max(len(g.deck), g.num_players, NUM_SEEDS),
            num_players=g.num_players,
            min_utility=-2.0,
            max_utility=2.0,
            utility_sum=0.0,
            max_game_length=self.max_decisions,
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self):
        return StichSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return StichObserver(self, iig_obs_type, params)


def _card_codes_seen(obj, is_card, out: set) -> None:
    if isinstance(obj, str):
        if is_card(obj):
            out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _card_codes_seen(v, is_card, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _card_codes_seen(v, is_card, out)


class StichSpielState(pyspiel.State):
    """One hand: chance nodes for dealer, seed and pack, then the stich hand."""

    def __init__(self, game: StichSpielGame):
        super().__init__(game)
        self._gkey = _game_key(game.stich_name, game.stich_variant, game.stich_options)
        self._deck_size = len(game.stich_game.deck)
        self._max_decisions = game.max_decisions
        self.dealer: int | None = None
        self.seed: int | None = None
        self.pack: list[int] = []
        self.actions: list[int] = []
        self.deciders: list[int] = []   # the seat that took each of ``actions`` (a poll's wait too)
        self._cache = _Cache()

    # --- helpers ---------------------------------------------------------------------------------
    @property
    def stich_game(self):
        g = _STICH_GAMES.get(self._gkey)
        return g if g is not None else _stich_game_by_key(self._gkey)

    @property
    def stich_state(self):
        """The live stich state (None while the deal is being drawn)."""
        c = self._cache
        if c.state is None and self._dealt():
            c.turns = self._build(self.dealer, self.seed, self.pack, self.actions)
            c.state = c.turns.state
        return c.state

    @property
    def turns(self) -> Turns:
        """The walk of the live state: who decides now (seats acting out of turn are polled first)."""
        return self._cache.turns if self.stich_state is not None else None

    def _dealt(self) -> bool:
        return self.seed is not None and len(self.pack) == self._deck_size

    def _build(self, dealer, seed, pack, actions):
        g = self.stich_game
        codes = [g.deck.code(i) for i in pack]
        st = g.new_state(seed=seed, dealer=dealer, **g.pack_setup(codes))
        space = g.action_space
        turns = Turns(st)
        for a in actions:
            turns.apply(space[a])
        return turns

    def _hand_over(self, st) -> bool:
        return st.is_terminal() or st.hand_number > 1

    # --- OpenSpiel API -----------------------------------------------------------------------------
    def current_player(self):
        if not self._dealt():
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.turns.seat()

    def is_terminal(self):
        if not self._dealt():
            return False
        return len(self.actions) >= self._max_decisions or self._hand_over(self.stich_state)

    def _legal_actions(self, player):
        st = self.stich_state
        if st is None or self.is_terminal() or player != self.turns.seat():
            return []
        index = self.stich_game.action_index
        return sorted(index[str(a)] for a in self.turns.legal_actions())

    def chance_outcomes(self):
        g = self.stich_game
        if self.dealer is None:
            n = g.num_players
            return [(i, 1.0 / n) for i in range(n)]
        if self.seed is None:
            return [(i, 1.0 / NUM_SEEDS) for i in range(NUM_SEEDS)]
        used = set(self.pack)
        left = [c for c in range(len(g.deck)) if c not in used]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action):
        action = int(action)
        if self.is_chance_node():
            if self.dealer is None:
                self.dealer = action
            elif self.seed is None:
                self.seed = action
            else:
                self.pack.append(action)
            return
        self.deciders.append(self.turns.seat())
        self.turns.apply(self.stich_game.action_space[action])
        self.actions.append(action)

    def _action_to_string(self, player, action):
        g = self.stich_game
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"dealer {int(action) + 1}"
            if self.seed is None:
                return f"seed {int(action)}"
            return f"pack {g.deck.code(int(action))}"
        return str(g.action_space[int(action)])

    def returns(self):
        g = self.stich_game
        if not self._dealt() or not self.is_terminal():
            return [0.0] * g.num_players
        st = self.stich_state
        if not self._hand_over(st):
            return [0.0] * g.num_players  # stopped at max_decisions
        return hand_rewards(g, None, st.view(None).get("scores"), clip=True)

    def __str__(self):
        g = self.stich_game
        head = (f"dealer={self.dealer} seed={self.seed} pack={' '.join(g.deck.code(c) for c in self.pack)}")
        actions = " ".join(f"{s + 1}:{a}" for s, a in self.stich_state.history) if self.stich_state else ""
        return head + "\n" + actions

    # --- information -------------------------------------------------------------------------------
    def view(self, player: int) -> dict | None:
        st = self.stich_state
        return None if st is None else st.view(player)

    def info_state_string(self, player: int) -> str:
        v = self.view(player)
        if v is None:
            return f"p{player} dealing dealer={self.dealer}"
        v.pop("options", None)
        return json.dumps(v, sort_keys=True, separators=(",", ":"))

    def obs_string(self, player: int) -> str:
        v = self.view(player)
        if v is None:
            return f"p{player} dealing dealer={self.dealer}"
        v.pop("options", None)
        v.pop("events", None)
        return json.dumps(v, sort_keys=True, separators=(",", ":"))

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state the player cannot tell from this one, drawn by rejection sampling.

        Cards the player has seen (anywhere in its view, its events included) keep their place in
        the pack; the others are shuffled among their places and the seed is redrawn.  The hand's
        actions are then replayed; another seat's action that the new world makes illegal (a
        hidden ``show`` of a card that seat no longer holds) is replaced by a random legal action
        with the same verb.  The world is kept if the player's information state is unchanged.
        After ``RESAMPLE_TRIES`` rejections the seed is kept as it is; after twice as many the
        true state is returned (a clone; counted in ``RESAMPLE_STATS["fallbacks"]``).
        """
        if not self._dealt() or self.is_terminal():
            return self.clone()
        try:
            rng = random.Random(int(probability_sampler() * 2**52)) if callable(probability_sampler) else random
        except Exception:  # noqa: BLE001 - a sampler we cannot call: use the module RNG
            rng = random
        g = self.stich_game
        target = self.info_state_string(player_id)
        seen: set = set()
        _card_codes_seen(self.view(player_id), g.deck.is_card, seen)
        seen_idx = {g.deck.parse(c) for c in seen}
        free_pos = [i for i, c in enumerate(self.pack) if c not in seen_idx]
        free_cards = [self.pack[i] for i in free_pos]
        seats = list(self.deciders)
        RESAMPLE_STATS["calls"] += 1
        for attempt in range(2 * RESAMPLE_TRIES):
            RESAMPLE_STATS["tries"] += 1
            if attempt == RESAMPLE_TRIES:
                RESAMPLE_STATS["kept_seed"] += 1
            cards = free_cards[:]
            rng.shuffle(cards)
            pack = self.pack[:]
            for i, c in zip(free_pos, cards, strict=True):
                pack[i] = c
            seed = rng.randrange(NUM_SEEDS) if attempt < RESAMPLE_TRIES else self.seed
            new = self._replay_world(player_id, seed, pack, seats, rng)
            if new is not None and new.info_state_string(player_id) == target:
                return new
        RESAMPLE_STATS["fallbacks"] += 1
        return self.clone()

    def _replay_world(self, player_id, seed, pack, seats, rng):
        new = self.get_game().new_initial_state()
        new.apply_action(self.dealer)
        new.apply_action(seed)
        for c in pack:
            new.apply_action(c)
        space = self.stich_game.action_space
        for seat, a in zip(seats, self.actions, strict=True):
            if new.is_terminal() or new.current_player() != seat:
                return None
            legal = new.legal_actions()
            if a not in legal:
                if seat == player_id:
                    return None
                verb = space[a].verb
                alts = [b for b in legal if space[b].verb == verb]
                if not alts:
                    return None
                a = rng.choice(alts)
            new.apply_action(a)
        return new


class StichObserver:
    """PyObserver: the tensor is :func:`stich.encoding.encode` of the seat's view."""

    def __init__(self, game: StichSpielGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.game = game.stich_game
        self.tensor = np.zeros(observation_size(self.game), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StichSpielState, player: int) -> None:
        v = state.view(player)
        if v is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode(v, self.game)

    def string_from(self, state: StichSpielState, player: int) -> str:
        return state.info_state_string(player) if self.perfect_recall else state.obs_string(player)


def register() -> None:
    """Register every stich game and variant with pyspiel (idempotent)."""
    for name in stich.engine.games():
        base = stich.game(name)
        for variant in type(base).variants:
            short = f"python_stich_{name}_{variant}"
            if short in _REGISTERED:
                continue
            g = stich.game(name, variant=variant)
            gt = _game_type(name, variant, g)
            cls = type(f"Stich_{name}_{variant}", (StichSpielGame,),
                       {"stich_name": name, "stich_variant": variant, "game_type": gt,
                        "option_specs": tuple(g.option_specs)})
            pyspiel.register_game(gt, cls)
            _REGISTERED[short] = (name, variant)


register()
