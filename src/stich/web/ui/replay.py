"""The replay viewer's model: a finished match's record stepped to any action.

The match is over, so the replay shows every hand face up; ``step`` is the number of actions
applied (0 = the deal, ``len(actions)`` = the end), and a link with ``?step=n`` shows that moment.
"""

from __future__ import annotations

import stich
from stich.i18n import translator
from stich.web.ui.felt import RESULT_TYPES
from stich.web.ui.table import action_label, render_table


def parse_step(raw, total: int) -> int:
    """The step asked for, within 0..total; the deal (0) when none or not a number."""
    try:
        step = int(str(raw).strip())
    except ValueError:
        return 0
    return min(max(step, 0), total)


def build(record: dict, raw_step, raw_seat, lang: str) -> dict:
    """Everything the replay page shows at one step; ``stich.RecordError`` if the record does not replay."""
    final = stich.replay(record)       # validates the whole record first
    g = final.game
    actions = record["actions"]
    total = len(actions)
    step = parse_step(raw_step, total)
    _ = translator(lang).gettext
    marks = []   # (step, label): the end of every trick and of every hand, to jump there
    state = g.new_state(record["seed"], **(record.get("setup") or {}))
    at_step = closed = None
    seen, trick_no, hand = len(state.events), 0, state.hand_number
    for i, (_seat, text) in enumerate(actions):
        if i == step:
            at_step = state.clone()
        before = state.clone() if i + 1 == step else None
        state.apply(text)
        # the events say which hand a trick belongs to: the action that takes a hand's last trick
        # deals the next hand too, so the state's hand number after it is already the next one's
        for _aud, ev in state.events[seen:]:
            t = ev.get("type")
            if t == "trick":
                trick_no += 1
                marks.append((i + 1, _("Hand %(h)s, trick %(t)s") % {"h": hand, "t": trick_no}))
            elif t in RESULT_TYPES:
                marks.append((i + 1, _("Hand %(h)s, the end") % {"h": hand}))
                if before is not None:
                    closed = (before, hand)
            elif t == "hand_start":
                hand, trick_no = ev.get("hand", hand + 1), 0
        seen = len(state.events)
    if at_step is not None:
        state = at_step
    view = state.view(None)
    view["known_hands"] = [state.view(k).get("hand") for k in range(g.num_players)]
    if closed is not None:
        # the end of a hand: the hands as they were when it ended (what the players still held), not
        # the next deal; the trick that closed it and its result come from the events
        prev, number = closed
        played = actions[step - 1][1].split()
        view["known_hands"] = [[c for c in (prev.view(k).get("hand") or [])
                                if not (k == actions[step - 1][0] and played[1:] == [c])]
                               for k in range(g.num_players)]
        view["hand_number"] = number
    events = [{k: v for k, v in ev.items() if k != "audience"} for ev in state.record()["events"]]
    ctx = {"table": None, "game": g.name, "variant": g.variant, "options": dict(g.options), "seat": None,
           "view": view, "legal": [], "events": events, "seats": [], "lang": lang, "seq": step,
           "finished": state.is_terminal(), "chat": []}
    last = None
    if step:
        seat, text = actions[step - 1]
        # the action in the reader's words, as its button said it ("play: Schell-Sechser")
        last = {"seat": seat + 1, "action": text, "label": action_label(text, g, g.variant, _, lang)}
    return {"html": render_table(ctx), "step": step, "total": total, "title": g.title, "variant": g.variant,
            "players": g.num_players,
            "last": last, "hand": view.get("hand_number", state.hand_number), "marks": marks,
            "terminal": state.is_terminal(), "returns": state.returns() if state.is_terminal() else None}
