"""What a table shows: the frame of one connection, the seats, the chat, the table's facts and its
record.  Nothing here changes a table; every frame is built from ``state.view(seat)`` and that seat's
legal actions only (a spectator's from ``view(None)``), on whichever process holds the socket."""

from __future__ import annotations

import html
import json
import logging
import time

log = logging.getLogger("stich.web")


def legal_for(state, seat: int | None) -> list[str]:
    """The legal action texts of ``seat`` (None: a spectator, who has none).

    The one place that decides which seats may act: the seat on turn and any seat the rules let act
    out of turn (e.g. the other Ansager's ``ask_exchange`` in Euregio Watten); empty once it is over."""
    if seat is None or state.is_terminal():
        return []
    return [str(a) for a in state.legal_actions(seat)]


def escape(text: str | None) -> str | None:
    return None if text is None else html.escape(text, quote=True)


def _render_html():
    try:
        from stich.web.ui import render_table
    except Exception:  # noqa: BLE001 - BROWSER's renderer absent or broken: an escaped <pre> instead
        return None
    return render_table


class Rendering:
    """The frames of :class:`~stich.web.table.actor.TableActor` (which has the fields they read)."""

    def seats_info(self, raw: bool = False) -> list[dict]:
        connected = self.connected()
        out = []
        for s in self.seats:
            name = s.name if raw else escape(s.name)
            item = {"seat": s.seat, "name": name, "kind": s.kind,
                    "connected": s.kind == "bot" or s.seat in connected,
                    "bot_playing": s.kind == "bot" or s.bot_playing, "taken": s.kind == "bot" or s.claimed,
                    "player": s.player_id is not None}   # the name is a player's (a profile at /players/NAME)
            if s.kind == "bot":
                item["bot"] = s.bot
            else:   # the table waits for this seat's person; seconds before its bot takes it over
                grace = self.grace_left(s)
                item["waiting"] = self.waiting_for(s)
                item["grace"] = None if grace is None else round(grace, 1)
            out.append(item)
        return out

    def meta(self) -> dict:
        return {"table": self.id, "game": self.game.name, "variant": self.game.variant,
                "options": dict(self.game.options), "settings": dict(self.settings), "public": self.public,
                "seats": self.seats_info(), "finished": self.finished, "seq": self.seq, "rematch": self.rematch,
                "rated": self.rated}

    def make_record(self, state) -> dict:
        rec = state.record()
        rec["web"] = {"table": self.id, "rated": self.rated, "seats": [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "player": s.player_id is not None}
            for s in self.seats]}
        return rec

    def _clock(self) -> dict | None:
        if self.turn_deadline is None:
            return None
        return {"seat": self.state.current_player, "seconds": round(max(0.0, self.turn_deadline - time.time()), 1)}

    def frame(self, seat: int | None, fmt: str, lang: str) -> dict:
        """The frame for one connection: built from ``view(seat)`` and that seat's legal actions only."""
        state = self.state
        view = state.view(seat)
        legal = legal_for(state, seat)
        base = {"seq": self.seq, "seat": seat}
        extra = {"finished": self.finished}
        clock = self._clock()
        if clock:
            extra["clock"] = clock
        if self.finished:
            extra["record"] = f"/api/tables/{self.id}/record"
        if self.rematch is not None:
            extra["rematch"] = self.rematch
        if fmt == "html":
            ctx = {"table": self.id, "game": self.game.name, "variant": self.game.variant,
                   "options": dict(self.game.options), "seat": seat, "view": view, "legal": legal,
                   "events": state.visible_events(seat), "seats": self.seats_info(raw=True), "lang": lang,
                   "seq": self.seq, "finished": self.finished, "chat": self.chat_for(seat, raw=True),
                   "waiting": self.waits_for_people(), "rematch": self.rematch}
            render = _render_html()
            fragment = None
            if render is not None:
                try:
                    fragment = render(ctx)
                except Exception:  # noqa: BLE001 - a page bug must not stop the table: the plain view instead
                    log.exception("render_table failed", extra={"fields": {"table": self.id}})
            if fragment is None:
                fragment = "<pre>" + html.escape(json.dumps(view, ensure_ascii=False, indent=1)) + "</pre>"
            return {"type": "html", **base, "legal": legal, "html": fragment, **extra}
        return {"type": "state", **base, "view": view, "legal": legal, **extra}

    @staticmethod
    def chat_frame(m: dict) -> dict:
        """The frame of one chat message (``{seat, name, text}`` as kept), name and text escaped."""
        return {"type": "chat", "seat": m["seat"], "name": escape(m["name"]), "text": escape(m["text"])}

    def chat_for(self, seat, raw: bool = False) -> list[dict]:
        return [dict(m) if raw else self.chat_frame(m) for m in self.chat]

    def missed(self, seat: int | None, since: int) -> list[dict]:
        """The events ``seat`` may see that happened after ``since`` (the engine's audience rule, as in
        ``state.visible_events(seat)``)."""
        bit = 0 if seat is None else 1 << seat
        return [dict(ev) for aud, ev in self.state.events[self.marks[since]:] if aud is None or aud & bit]
