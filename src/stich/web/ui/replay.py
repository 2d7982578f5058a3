"""The replay viewer's model: a finished match's record stepped to any action.

The match is over, so the replay shows every hand face up; ``step`` is the number of actions
applied (0 = the deal, ``len(actions)`` = the end), and a link with ``?step=n`` shows that moment.
"""

from __future__ import annotations

import stich
from stich.web.ui.table import render_table


def parse_step(raw, total: int) -> int:
    try:
        step = int(str(raw).strip())
    except ValueError:
        return total
    return min(max(step, 0), total)


def build(record: dict, raw_step, raw_seat, lang: str) -> dict:
    """Everything the replay page shows at one step; ``stich.RecordError`` if the record does not replay."""
    final = stich.replay(record)       # validates the whole record first
    g = final.game
    actions = record["actions"]
    total = len(actions)
    step = parse_step(raw_step, total)
    state = g.new_state(record["seed"], **(record.get("setup") or {}))
    for _seat, text in actions[:step]:
        state.apply(text)
    view = state.view(None)
    view["known_hands"] = [state.view(k).get("hand") for k in range(g.num_players)]
    events = [{k: v for k, v in ev.items() if k != "audience"} for ev in state.record()["events"]]
    ctx = {"table": None, "game": g.name, "variant": g.variant, "options": dict(g.options), "seat": None,
           "view": view, "legal": [], "events": events, "seats": [], "lang": lang, "seq": step,
           "finished": state.is_terminal(), "chat": []}
    last = None
    if step:
        seat, text = actions[step - 1]
        last = {"seat": seat + 1, "action": text}
    return {"html": render_table(ctx), "step": step, "total": total, "title": g.title, "variant": g.variant,
            "last": last, "hand": state.hand_number, "terminal": state.is_terminal(),
            "returns": state.returns() if state.is_terminal() else None}
