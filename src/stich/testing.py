"""The conformance kit every stich game passes: ``check_game(game_cls, golden=path)``.

Cross-game properties, over every variant, random seeds and random option combinations:

* every match ends; every legal action applies and is in ``game.action_space``; illegal ones are
  refused and change nothing; the cached view equals a fresh fold of the visible events;
* returns are zero-sum and a finished match has a winner; the same seed gives the same game;
* ``replay(record())`` reproduces the state exactly, also mid-match (and a pickled state too);
* **view invariance**: re-dealing the cards a seat has not seen (keeping everything it has
  seen) leaves that seat's view unchanged, while the hidden cards really differ;
* **hidden actions stay hidden**: an action some seats may not see (``State._hidden_verbs``)
  shows as ``None`` in their ``view["actions"]``, and no event they see at that moment names the
  card(s) it names (but a lawful reveal, ``Game.reveal_events``);
* **every pair of option values**: for each variant, a pairwise covering set of its options (every
  value of any option beside every value of any other, at least once, where the game's
  ``option_rules`` allow the two together) plays a match each with the checks above, and the pairs
  left out are exactly those a declared constraint refuses;
* **companions**: every role of ``stich.engine.ROLES`` declared (a module or None), and every
  declared module imports and fills its role (its required members there, none misspelled);
* **score layout**: ``State.scores`` holds one score per seat or per side, as ``Game.scores_by`` says;
* **the lean path**: random matches played through a lean state (``new_state(lean=True)``,
  ``step`` with action numbers, clones taken on the way) and a full one with the same seeds and
  choices are in the same position at every step: every field of the state, every seat's legal
  actions, the returns and the public hand summary (:func:`check_lean`);
* **perft**: for fixed seeds and each variant, the number of distinct legal action sequences to
  a small depth from fixed positions, compared with golden counts stored in a JSON file, so any
  change in move generation shows up as a changed number; the same for a few non-default option
  sets per variant (stored with their counts), so an option that changes move generation does too.

``check_game`` raises ``AssertionError`` on the first failure and returns a short report.  A game
without golden counts yet writes them with ``write_golden(game_cls, path)`` (review the numbers:
from then on they are the rules' fingerprint).  Uses only the standard library.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import stich
from stich.engine import IllegalActionError, OptionError, fold_events
from stich.engine.options import broken_rules, resolve_options
from stich.engine.registry import check_words, load_companion
from stich.engine.roles import check_declaration

__all__ = ["check_companions", "check_game", "check_lean", "option_values", "pairwise_options", "perft", "perft_counts",
           "random_options", "write_golden"]

MAX_ACTIONS = 60_000
#: (seed, random actions played before counting, depth) of each perft position
PERFT_POSITIONS = ((1, 0, 4), (2, 0, 3), (3, 12, 4), (4, 30, 5))
#: how many non-default option sets per variant the golden perft counts cover
PERFT_OPTION_SETS = 2


# --- one match ------------------------------------------------------------------------------------
def snapshot(state):
    return (len(state.history), len(state.events), state.current_player, state.hand_number)


def check_illegal_refused(state, rng):
    """A few well-formed actions that are not legal now are refused, and nothing changes."""
    legal = set(state.legal_actions())
    others = [a for a in state.game.action_space if a not in legal]
    before = snapshot(state)
    events = list(state.events)
    for act in rng.sample(others, min(3, len(others))):
        try:
            state.apply(act)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{act} was accepted although it is not legal now")
        assert snapshot(state) == before and state.events == events, f"refusing {act} changed the state"


def check_cached_view(state, seat):
    """The cached, incremental view equals a fold of all visible events from scratch."""
    view = state.view(seat)
    json.dumps(view)
    reference = fold_events(state.visible_events(seat), seat, state.game.num_players, state._fold_event)
    for key, value in reference.items():
        assert view[key] == value, f"cached view differs from a fresh fold in {key!r}"


def check_hidden_actions(state):
    """Each seat outside a hidden action's audience sees ``None`` for it, and no event it sees at
    that moment names the action's card."""
    hidden = state._action_hidden
    if not hidden:
        return
    codes = set(state.game.deck.codes)
    marks = state._action_marks + [len(state.events)]
    for seat in range(state.game.num_players):
        shown = {i: text for i, (_s, text, _c) in enumerate(state.view(seat)["actions"])}
        first = len(state.history) - len(shown)
        for k, aud in hidden.items():
            if aud >> seat & 1:
                continue
            if k >= first:
                assert shown[k - first] is None, f"seat {seat} sees the hidden action {state.history[k][1]}"
            arg = state.history[k][1].arg
            secret = {c for c in str(arg or "").split() if c in codes}
            for audience, ev in state.events[marks[k]:marks[k + 1]]:
                if (audience is None or audience >> seat & 1) and ev["type"] not in state.game.reveal_events:
                    assert not secret & cards_in(ev, codes, set()), \
                        f"seat {seat} learns the card of the hidden action {state.history[k][1]} from {ev}"


def play_match(state, rng, checks=True):
    """Play a match to its end with random legal actions; return the number of actions.

    The checks draw from their own generator, so the moves depend on ``rng`` alone."""
    check_rng = random.Random(rng.random())
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action for seat {state.current_player} in a live game"
        seats = state.seats_to_act()
        assert state.current_player in seats, "the seat on turn is not among seats_to_act()"
        if len(seats) > 1 and rng.random() < 0.5:   # a seat out of turn acts first
            seat = rng.choice([s for s in seats if s != state.current_player])
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
            n += 1
            continue
        if checks and check_rng.random() < 0.05:
            for act in legal:  # every legal action is accepted, and is in the fixed action space
                assert str(act) in state.game.action_index, f"{act} is not in the action space"
                state.clone().apply(act)
            check_illegal_refused(state, check_rng)
            check_cached_view(state, check_rng.randrange(state.game.num_players))
            check_hidden_actions(state)
        state.apply(rng.choice(legal))
        n += 1
        assert n < MAX_ACTIONS, "the match did not end"
    return n


# --- the lean path -------------------------------------------------------------------------------
#: the state's bookkeeping that a lean state keeps otherwise or not at all (the rest must be equal)
_NOT_COMPARED = frozenset({"_events", "history", "_action_marks", "_action_hidden", "_folds", "emit", "lean",
                           "_hidden_verbs", "_legal"})


def _fields(state) -> dict:
    names = [n for k in type(state).__mro__ for n in k.__dict__.get("__slots__", ())]
    out = {n: getattr(state, n) for n in names if n not in ("__dict__", "__weakref__")}
    out.update((k, v) for k, v in state.__dict__.items() if k not in _NOT_COMPARED)
    return out


def same_position(full, lean, where: str = "") -> None:
    """Assert that a lean state is where the full state is (see :func:`check_lean`)."""
    seats = full.seats_to_act()   # (observes both: a deferred deal runs in each)
    assert lean.seats_to_act() == seats, f"{where}: seats to act {lean.seats_to_act()} != {seats}"
    for s in seats:
        assert lean.legal_ids(s) == full.legal_ids(s), f"{where}: seat {s}'s legal actions differ"
    assert lean.is_terminal() == full.is_terminal() and lean.returns() == full.returns(), f"{where}: returns"
    assert lean.hand_summary() == full.hand_summary(), f"{where}: hand summaries differ"
    a, b = _fields(full), _fields(lean)
    diff = sorted(k for k in a.keys() | b.keys() if a.get(k, KeyError) != b.get(k, KeyError))
    assert not diff, f"{where}: fields differ: " + ", ".join(f"{k}={a.get(k)!r:.80} / {b.get(k)!r:.80}" for k in diff)


def check_lean(game, positions: int, seed: int = 0) -> int:
    """Play random matches of ``game`` (a game object) through a full state (``apply``) and a lean
    one (``new_state(lean=True)``, ``step`` with action numbers) with the same seeds and the same
    choices (seats out of turn included), and assert at every position that they are the same
    (:func:`same_position`); now and then the lean state is replaced by its clone.  Returns the
    number of positions compared (``positions``)."""
    rng = random.Random(f"check_lean/{game.name}/{game.variant}/{seed}")
    done = 0
    while done < positions:
        match_seed = rng.getrandbits(63)
        full = game.new_state(seed=match_seed)
        lean = game.new_state(seed=match_seed, lean=True)
        n = 0
        while True:
            same_position(full, lean, f"{game!r} seed {match_seed}, after {n} actions")
            done += 1
            if full.is_terminal() or done >= positions:
                break
            seats = full.seats_to_act()
            seat = rng.choice(seats) if len(seats) > 1 and rng.random() < 0.3 else full.current_player
            act = rng.choice(full.legal_actions(seat))
            full.apply(act, seat=seat)
            if rng.random() < 0.05:
                lean = lean.clone()
            lean.step(act.id, seat=None if seat == lean.current_player else seat)
            n += 1
    return done


# --- options --------------------------------------------------------------------------------------
def option_values(spec, variant: str) -> tuple:
    """The values of one option the kit plays: every value of a finite option; for a whole-number
    option its default and the samples the game declares (``OptionSpec.samples``)."""
    if spec.values is int:
        return tuple(dict.fromkeys((spec.default_for(variant), *spec.samples)))
    return tuple(spec.values)


def makes_a_game(game_cls, variant: str, options: dict) -> bool:
    """Whether these options make a game: every value allowed and no declared constraint broken."""
    try:
        game_cls.options_for(variant, **options)
    except OptionError:
        return False
    return True


def random_options(game_cls, variant: str, rng, share: float = 0.5) -> dict:
    """Options for ``variant`` drawn at random: each option with a finite set of values, with
    probability ``share``, set to one of them; a value that contradicts those drawn before it (the
    game's ``option_rules``) is left out, so the result always makes a game.  Whole-number options
    stay at their defaults here (the pairwise sets play their samples)."""
    out = {}
    for spec in game_cls.option_specs:
        if spec.applies_to(variant) and spec.values is not int and rng.random() < share:
            value = rng.choice(spec.values)
            if makes_a_game(game_cls, variant, out | {spec.name: value}):
                out[spec.name] = value
    return out


def configurations(game_cls, rng, count):
    """``count`` (variant, options) pairs: every variant in turn, options drawn at random."""
    return [(v, random_options(game_cls, v, rng))
            for v in (game_cls.variants[i % len(game_cls.variants)] for i in range(count))]


def pairwise_options(game_cls, variant: str, tries: int = 12) -> tuple[list[dict], list[tuple]]:
    """A pairwise covering set of ``variant``'s options: complete assignments such that every value
    of any option stands beside every value of any other option in at least one of them, and the
    pairs no assignment can hold (``(a, value, b, value)``, refused by the game's ``option_rules``).

    Greedy, as the classic all-pairs generators: each assignment starts from a pair not yet
    covered and gives every other option the value that covers most new pairs; one that breaks a
    constraint is mended an option at a time.  Deterministic for a game and variant."""
    rng = random.Random(f"pairwise/{game_cls.name}/{variant}")
    values = {s.name: option_values(s, variant) for s in game_cls.option_specs if s.applies_to(variant)}
    names = list(values)
    if len(names) < 2:   # no pairs: each value of the one option, if there is one
        return [{n: v} for n in names for v in values[n] if makes_a_game(game_cls, variant, {n: v})], []
    uncovered = {(a, va, b, vb) for i, a in enumerate(names) for b in names[i + 1:]
                 for va in values[a] for vb in values[b]}
    order = {n: i for i, n in enumerate(names)}

    def gain(assignment, name, value):
        return sum(((name, value, o, v) if order[name] < order[o] else (o, v, name, value)) in uncovered
                   for o, v in assignment.items())

    configs, refused = [], []
    while uncovered:
        a, va, b, vb = min(uncovered, key=lambda p: (order[p[0]], order[p[2]], str(p[1]), str(p[3])))
        best = None
        for _ in range(tries):
            assignment = {a: va, b: vb}
            rest = [n for n in names if n not in assignment]
            rng.shuffle(rest)
            for name in rest:
                scores = [(gain(assignment, name, v), rng.random(), v) for v in values[name]]
                assignment[name] = max(scores)[2]
            if not mend(game_cls, variant, assignment, rest, values):
                continue
            covered = {(x, assignment[x], y, assignment[y]) for i, x in enumerate(names)
                       for y in names[i + 1:]} & uncovered
            if best is None or len(covered) > len(best[1]):
                best = (assignment, covered)
        if best is None:
            refused.append((a, va, b, vb))
            uncovered.discard((a, va, b, vb))
            continue
        configs.append({n: best[0][n] for n in names})
        uncovered -= best[1]
    return configs, refused


def broken_count(game_cls, variant: str, assignment: dict) -> int:
    """How many of the game's option rules a complete, valid-valued assignment breaks."""
    options = resolve_options(game_cls.name, game_cls.option_specs, variant, assignment)
    return len(broken_rules(game_cls.option_rules, options))


def mend(game_cls, variant: str, assignment: dict, free: list, values: dict) -> bool:
    """Change options of ``free``, one at a time, each time the change that leaves the fewest
    constraints broken, until none is; False where no change helps any more."""
    broken = broken_count(game_cls, variant, assignment)
    while broken:
        best = min((broken_count(game_cls, variant, assignment | {n: v}), i, n, v)
                   for i, n in enumerate(free) for v in values[n] if v != assignment[n])
        if best[0] >= broken:
            return False
        broken, _i, name, value = best
        assignment[name] = value
    return True


def check_refused_pairs(game_cls, variant: str, refused) -> None:
    """Every pair the covering set leaves out is one a declared constraint between those two options
    refuses (with the other options at their defaults): nothing is left out by accident."""
    for a, va, b, vb in refused:
        assert not makes_a_game(game_cls, variant, {a: va, b: vb}), \
            f"{game_cls.name} {variant}: the option pair {a}={va}, {b}={vb} makes a game but no covering set holds it"
        assert any({a, b} == set(rule.names) for rule in game_cls.option_rules), \
            f"{game_cls.name} {variant}: the option pair {a}={va}, {b}={vb} is refused, but by no declared option rule"


def check_pairwise(game_cls, rng) -> int:
    """A match for every assignment of every variant's pairwise covering set; returns their number."""
    played = 0
    for variant in game_cls.variants:
        configs, refused = pairwise_options(game_cls, variant)
        check_refused_pairs(game_cls, variant, refused)
        check_matches(game_cls, rng, [(variant, options) for options in configs])
        played += len(configs)
    return played


def check_matches(game_cls, rng, configs):
    """Random matches, one for each (variant, options) of ``configs``, end, replay, are
    deterministic and zero-sum."""
    for variant, options in configs:
        game = stich.game(game_cls.name, variant=variant, **options)
        seed = rng.randrange(2**32)
        state = game.new_state(seed=seed)
        play_match(state, random.Random(seed))
        returns = state.returns()
        assert len(returns) == game.num_players
        assert abs(sum(returns)) < 1e-9, f"returns are not zero-sum: {returns}"
        assert any(r > 0 for r in returns), "a finished match has a winner"
        assert state.legal_actions() == []
        try:
            state.apply(game.action_space[0])
        except IllegalActionError:
            pass
        else:
            raise AssertionError("an action was accepted after the end of the match")
        record = json.loads(json.dumps(state.record()))
        assert stich.replay(record).record() == state.record(), "replay(record()) differs"
        twin = game.new_state(seed=seed)
        play_match(twin, random.Random(seed), checks=False)
        assert twin.record() == state.record(), "the same seed and moves gave another match"


def check_mid_match(game_cls, rng, count):
    """Records taken mid-match replay and continue; pickled states too; views are the same."""
    for variant, options in configurations(game_cls, rng, count):
        seed, steps = rng.randrange(2**32), rng.randrange(200)
        state = stich.game(game_cls.name, variant=variant, **options).new_state(seed=seed)
        moves = random.Random(seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply(moves.choice(state.legal_actions()))
        again = stich.replay(json.loads(json.dumps(state.record())))
        assert again.record() == state.record()
        pickled = pickle.loads(pickle.dumps(state))  # for multiprocessing and Ray
        assert pickled.record() == state.record() and pickled.legal_actions() == state.legal_actions()
        assert again.legal_actions() == state.legal_actions()
        for seat in [None, *range(state.game.num_players)]:
            assert again.view(seat) == state.view(seat)


# --- view invariance ------------------------------------------------------------------------------
def random_setup(game, rng):
    codes = list(game.deck.codes)
    rng.shuffle(codes)
    size = game.cards_per_hand
    n = game.num_players
    hands = [codes[i * size:(i + 1) * size] for i in range(n)]
    stock = codes[n * size:]
    setup = {"hands": hands, "dealer": rng.randrange(n)}
    if stock:
        setup["stock"] = stock
    return setup


def lawfully_seen(game, state, seat):
    """The cards the rules let ``seat`` know: its own deals, public plays, declared reveals."""
    codes = set(game.deck.codes)
    seen = set()
    for audience, ev in state.events:
        if audience is not None and not audience >> seat & 1:
            continue
        t = ev["type"]
        if (t == "deal" and ev["seat"] == seat) or (t == "play" and audience is None) or t in game.reveal_events:
            cards_in(ev, codes, seen)
    return seen


def cards_in(value, codes, out):
    """Collect every card code mentioned anywhere in a JSON value."""
    if isinstance(value, str):
        if value in codes:
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            cards_in(v, codes, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            cards_in(v, codes, out)
    return out


def redeal_hidden(setup, seat, seen, rng):
    """The same set-up with the cards ``seat`` has not seen shuffled among their places."""
    slots = []
    for s, hand in enumerate(setup["hands"]):
        if s != seat:
            slots += [("hand", s, i) for i, c in enumerate(hand) if c not in seen]
    slots += [("stock", None, i) for i, c in enumerate(setup.get("stock", [])) if c not in seen]

    def get(slot):
        kind, s, i = slot
        return setup["hands"][s][i] if kind == "hand" else setup["stock"][i]

    cards = [get(slot) for slot in slots]
    rng.shuffle(cards)
    new = {"hands": [list(h) for h in setup["hands"]], "dealer": setup["dealer"]}
    if "stock" in setup:
        new["stock"] = list(setup["stock"])
    for (kind, s, i), card in zip(slots, cards, strict=True):
        if kind == "hand":
            new["hands"][s][i] = card
        else:
            new["stock"][i] = card
    return new


def replay_history(game, seed, setup, history):
    state = game.new_state(seed=seed, **setup)
    for seat, action in history:
        state.apply(action, seat=seat)
    return state


def check_view_invariance(game_cls, trials=12):
    """Re-dealing what a seat has not seen changes nothing it sees (needs ``Game.cards_per_hand``)."""
    assert game_cls.cards_per_hand, f"{game_cls.__name__}.cards_per_hand is not declared"
    compared = 0
    for variant in game_cls.variants:
        game = stich.game(game_cls.name, variant=variant)
        for trial in range(trials):
            rng = random.Random(f"{game_cls.name}/{variant}/{trial}")
            setup = random_setup(game, rng)
            state = game.new_state(seed=trial, **setup)
            for _ in range(rng.randrange(60)):  # stay inside the first hand
                if state.is_terminal():
                    break
                actor = rng.choice(state.seats_to_act())   # out-of-turn actions too
                act = rng.choice(state.legal_actions(actor))
                probe = state.clone()
                probe.apply(act, seat=actor)
                if probe.hand_number != 1:
                    break
                state = probe
            seat = rng.randrange(game.num_players)
            seen = lawfully_seen(game, state, seat)
            view = state.view(seat)
            for _attempt in range(30):
                other = redeal_hidden(setup, seat, seen, rng)
                if other == setup:
                    continue
                try:
                    twin = replay_history(game, trial, other, state.history)
                except IllegalActionError:
                    continue  # the re-deal contradicts a constraint the history revealed
                assert twin.view(seat) == view, f"{variant}: seat {seat}'s view depends on cards it has not seen"
                # the twin really is another deal (a shuffle that only reorders a hand deals the same cards)
                same_cards = [sorted(h) for h in other["hands"]] == [sorted(h) for h in setup["hands"]]
                assert twin.record()["events"] != state.record()["events"] or same_cards
                compared += 1
                break
    assert compared >= 2 * len(game_cls.variants), f"too few comparisons ({compared}) for {game_cls.name}"
    return compared


# --- perft ----------------------------------------------------------------------------------------
def perft(state, depth: int) -> int:
    """The number of distinct legal action sequences of length ``depth`` from ``state`` (a
    sequence that ends the match earlier counts once).  An action is a (seat, action) pair: a seat
    that may act out of turn (``seats_to_act()``) adds its own branches."""
    if depth == 0 or state.is_terminal():
        return 1
    moves = [(seat, a) for seat in state.seats_to_act() for a in state.legal_actions(seat)]
    if depth == 1:
        return len(moves)
    total = 0
    for seat, a in moves:
        child = state.clone()
        child.apply(a, seat=seat)
        total += perft(child, depth - 1)
    return total


def position_counts(game) -> dict:
    """``{"seed S, after K actions, depth D": count}`` of ``game`` for :data:`PERFT_POSITIONS`."""
    counts = {}
    for seed, before, depth in PERFT_POSITIONS:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(before):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        counts[f"seed {seed}, after {before} actions, depth {depth}"] = perft(state, depth)
    return counts


def perft_counts(game_cls) -> dict:
    """Per variant, at the default options, ``{"seed S, after K actions, depth D": count}``."""
    return {variant: position_counts(stich.game(game_cls.name, variant=variant)) for variant in game_cls.variants}


def perft_option_sets(game_cls, variant: str) -> list[dict]:
    """The first :data:`PERFT_OPTION_SETS` assignments of the variant's pairwise covering set that
    differ from its defaults, each as the options it changes."""
    defaults = {s.name: s.default_for(variant) for s in game_cls.option_specs if s.applies_to(variant)}
    out = []
    for options in pairwise_options(game_cls, variant)[0]:
        changed = {k: v for k, v in options.items() if v != defaults[k]}
        if changed and changed not in out:
            out.append(changed)
        if len(out) == PERFT_OPTION_SETS:
            break
    return out


def write_golden(game_cls, path) -> dict:
    """Compute the perft counts of ``game_cls`` (at the default options, and for a few option sets
    of each variant) and store them in ``path`` (JSON)."""
    counts = perft_counts(game_cls)
    with_options = {variant: [{"options": o, "perft": position_counts(stich.game(game_cls.name, variant=variant, **o))}
                              for o in perft_option_sets(game_cls, variant)]
                    for variant in game_cls.variants}
    data = {"game": game_cls.name, "perft": counts, "perft_options": with_options}
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return counts


def compare_counts(name: str, counts: dict, expected: dict) -> int:
    for key, value in expected.items():
        assert counts.get(key) == value, f"perft {name} ({key}): {counts.get(key)}, golden {value}"
    return len(expected)


def check_perft(game_cls, golden) -> int:
    """The golden counts of ``golden`` equal this code's; returns how many were compared."""
    path = Path(golden)
    how = f"write them once with stich.testing.write_golden({game_cls.__name__}, {str(path)!r}) and review them"
    if not path.exists():
        raise AssertionError(f"no golden perft counts at {path}: {how}")
    data = json.loads(path.read_text(encoding="utf-8"))
    stored = data["perft"]
    counts = perft_counts(game_cls)
    compared = 0
    for variant, expected in stored.items():
        assert variant in counts, f"the golden file names a variant {variant!r} the game no longer has"
        compared += compare_counts(f"{game_cls.name} {variant}", counts[variant], expected)
    missing = set(counts) - set(stored)
    assert not missing, f"no golden perft counts for the variants {sorted(missing)}"
    assert "perft_options" in data, f"no golden perft counts for option sets in {path}: {how}"
    for variant, sets in data["perft_options"].items():
        for entry in sets:
            game = stich.game(game_cls.name, variant=variant, **entry["options"])
            shown = ", ".join(f"{k}={v}" for k, v in entry["options"].items())
            compared += compare_counts(f"{game_cls.name} {variant} with {shown}", position_counts(game), entry["perft"])
    return compared


# --- companions -----------------------------------------------------------------------------------
def check_companions(game_cls) -> int:
    """Every role declared and every declared companion module importing and filling its role, and
    every variant's words there (``CompanionError`` naming the game and the role, or the variant and
    the missing word, otherwise).  Returns the modules checked."""
    check_declaration(game_cls)
    count = sum(load_companion(game_cls, role) is not None for role in game_cls.companions)
    check_words(game_cls)   # each variant's title, in every language (the name is no word)
    return count


def check_score_layout(game_cls) -> None:
    """Each variant's match scores are laid out as ``Game.scores_by`` says: one per seat, or one
    per side of ``State.side_of`` (the bots' bet arithmetic reads the layout from there)."""
    for variant in game_cls.variants:
        game = stich.game(game_cls.name, variant=variant)
        state = game.new_state(seed=0)
        n = game.num_players
        if game.scores_by == "seat":
            expected = n
        else:
            assert game.scores_by == "side", \
                f"{game_cls.name} {variant}: scores_by is 'seat' or 'side', not {game.scores_by!r}"
            expected = len({state.side_of(s) for s in range(n)})
        assert len(state.scores) == expected, \
            f"{game_cls.name} {variant}: {len(state.scores)} scores, but scores_by={game.scores_by!r} means {expected}"


# --- the kit --------------------------------------------------------------------------------------
def check_game(game_cls, golden=None, *, matches: int = 12, seed: int = 0, pairwise: bool = True) -> dict:
    """Run every property on the game class ``game_cls`` (its name must be registered, e.g. by an
    installed ``stich.games`` entry point).  ``golden``: the JSON file of its perft counts (None:
    skip perft).  ``matches``: random matches (and mid-match records) per property; ``pairwise``:
    also a match for every assignment of each variant's pairwise covering set.  Returns
    ``{"matches": ..., "pairwise_matches": ..., "view_comparisons": ..., "companions": ...,
    "perft_counts": ...}``."""
    assert stich.engine.game_class(game_cls.name) is game_cls, f"{game_cls.name} is not registered as this class"
    companions = check_companions(game_cls)
    check_score_layout(game_cls)
    rng = random.Random(f"check_game/{game_cls.name}/{seed}")
    check_matches(game_cls, rng, configurations(game_cls, rng, matches))
    check_mid_match(game_cls, rng, matches)
    report = {"matches": matches, "pairwise_matches": check_pairwise(game_cls, rng) if pairwise else 0,
              "view_comparisons": check_view_invariance(game_cls), "companions": companions}
    if golden is not None:
        report["perft_counts"] = check_perft(game_cls, golden)
    return report
