"""The table: the one place where bots are asked for actions, and a whole match between bots.

Bots only ever receive views.  :func:`ask` gives a bot a private, JSON round-tripped copy of
``state.view(seat)`` and the legal action texts as plain strings, never the state: a bot
cannot reach the state through what it is given, and whatever it does to the copy changes
nothing.  The one exception is a bot class that declares ``sees_everything = True`` (the
``cheat`` upper bound): it gets ``choose_with_state(clone_of_state, seat, legal)``.

A bot that raises, returns something that is not a legal action, or breaks the stich-bot
protocol does not stop the table: the fault is reported (who, what it sent, why) and the
**fallback** is played instead: a uniformly random legal action from a generator seeded by
the match seed and the seat, so a match with faults still replays identically.
"""

from __future__ import annotations

import json
import random
import time

from stich.bots.base import Bot
from stich.engine.turns import WAIT, Turns
from stich.engine.views import seat_scores

#: a match that needs more actions than this is stopped (a game or bot bug)
MAX_ACTIONS = 200_000


def legal_texts(state) -> list[str]:
    """The legal actions as plain ``str`` texts (no engine objects)."""
    return [str(a) for a in state.legal_actions()]


def private_view(state, seat: int) -> dict:
    """A deep, JSON-only copy of ``state.view(seat)``: nothing in it leads back to the state."""
    return json.loads(json.dumps(state.view(seat)))


def fallback_rng(seed, seat: int) -> random.Random:
    """The generator of a seat's fallback actions in a match (deterministic per match seed and seat)."""
    return random.Random(f"stich-fallback/{seed}/{seat}")


def bot_label(bot: Bot) -> str:
    return getattr(bot, "label", None) or bot.name


def ask(bot: Bot, state, seat: int, rng: random.Random, legal: list[str] | None = None) -> tuple[str, dict | None]:
    """Ask ``bot`` (seated at ``seat``, which is to act) for an action: ``(action, fault)``.

    ``legal``: the choices (default: the legal actions of the seat on turn; at a poll of
    :class:`stich.engine.Turns` the seat's actions and ``wait``).  ``fault`` is None when the bot
    answered a legal action; otherwise a dict ``{seat, bot, move, kind, error, fallback}`` and
    ``action`` is the fallback (a random legal action from ``rng``).
    """
    if legal is None:
        legal = legal_texts(state)
    try:
        if getattr(bot, "sees_everything", False):
            answer = bot.choose_with_state(state.clone(), seat, list(legal))
        else:
            answer = bot.choose(private_view(state, seat), list(legal))
        if not isinstance(answer, str):
            raise TypeError(f"returned {repr(answer)[:200]} ({type(answer).__name__}), not an action text")
        if answer not in legal:
            raise ValueError(f"chose {answer[:200]!r}, which is not legal (legal: {', '.join(legal)})")
        return str(answer), None
    except Exception as exc:  # noqa: BLE001 - every bot fault is reported, none stops the table
        fallback = legal[rng.randrange(len(legal))]
        kind = getattr(exc, "kind", None) or ("illegal" if isinstance(exc, ValueError) and "not legal" in str(exc)
                                              else "error")
        message = str(exc) if getattr(exc, "kind", None) else f"{type(exc).__name__}: {exc}"
        if len(message) > 2000:  # a bot's exception may quote anything; a fault report stays readable
            message = message[:1500] + f"… ({len(message)} characters)"
        return fallback, {"seat": seat, "bot": bot_label(bot), "move": len(state.history), "kind": kind,
                          "error": message, "fallback": fallback}


def seat_points(state) -> list[float] | None:
    """Per seat, the match points of the last ``scores`` event (a side's points go to each of its seats).

    Scores per seat are used as they are; scores per side use the event's ``teams`` when it has
    them, otherwise side ``seat % sides``.  None when the game emits no usable ``scores``.
    """
    n = state.game.num_players
    last = None
    for aud, ev in reversed(state.events):
        if aud is None and ev.get("type") == "scores":
            last = ev
            break
    if last is None or not isinstance(last.get("scores"), list) or not last["scores"]:
        return None
    try:
        return seat_scores(last, n)
    except (TypeError, ValueError, IndexError):
        return None
    return None


def play_match(game, seed: int, bots: list[Bot], on_fault=None) -> dict:
    """Play one whole match of ``game`` from ``new_state(seed=seed)`` with ``bots[seat]`` at each seat.

    Returns ``{returns, hands, points, actions, faults, seconds}``; every bot gets ``end`` and
    ``close``.  ``on_fault(fault)`` is called for each fault as it happens.
    """
    start = time.perf_counter()
    state = game.new_state(seed=seed)
    turns = Turns(state)   # one seat at a time; seats that may act out of turn are polled first
    n = game.num_players
    rngs = [fallback_rng(seed, s) for s in range(n)]
    faults: list[dict] = []
    try:
        while not state.is_terminal():
            if len(state.history) >= MAX_ACTIONS:
                raise RuntimeError(f"the match did not end within {MAX_ACTIONS} actions")
            seat = turns.seat()
            bot = bots[seat]
            if seat != state.current_player and (not bot.answers_polls or bot.sees_everything):
                turns.apply(WAIT)   # a bot that does not take part in polls acts on its turns only
                continue
            legal = [str(a) for a in turns.legal_actions()]
            action, fault = ask(bots[seat], state, seat, rngs[seat], legal)
            if fault is not None:
                faults.append(fault)
                if on_fault is not None:
                    on_fault(fault)
            turns.apply(action)
        returns = [float(r) for r in state.returns()]
        for s, bot in enumerate(bots):
            try:
                bot.end(private_view(state, s), list(returns))
            except Exception:  # noqa: BLE001 - the match is over either way
                pass
    finally:
        for bot in bots:
            try:
                bot.close()
            except Exception:  # noqa: BLE001
                pass
    return {"returns": returns, "hands": state.hand_number, "points": seat_points(state),
            "actions": len(state.history), "faults": faults, "seconds": round(time.perf_counter() - start, 4)}
