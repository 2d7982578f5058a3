"""What the black-box tests check about a finished table: the record against the acks, and every
frame a connection received against what its seat may know (a local replay of the final record)."""

from __future__ import annotations

import json
import re

import stich

_RUN = re.compile(r"[A-Za-z0-9]+")


def canon(value):
    """The JSON form of a value (what it looks like after crossing the wire)."""
    return json.loads(json.dumps(value))


def replay_ok(record: dict):
    """The record replays with ``stich.replay`` (events included) and ends the match."""
    state = stich.replay(record)
    assert state.is_terminal(), "the record does not end the match"
    assert record.get("terminal") is True
    return state


def seat_actions(record: dict, seat: int) -> list[str]:
    return [a for s, a in record["actions"] if s == seat]


def check_acks_in_record(record: dict, clients) -> None:
    """Each human seat's actions in the record are exactly the actions its client got acks for,
    in order: nothing acknowledged is lost, nothing is applied twice, nothing unacknowledged is
    there (clients act only for themselves: no bot took over during these tests)."""
    for c in clients:
        got = seat_actions(record, c.seat)
        diff = next((i for i, (a, b) in enumerate(zip(got, c.acked, strict=False)) if a != b), None)
        assert got == c.acked, (f"seat {c.seat} of {c.table}: record has {len(got)} actions, the client got "
                                f"{len(c.acked)} acks; first difference at {diff}")
        assert len(c.acked_ids) == len(c.acked)


def new_state_of(record: dict):
    g = stich.game(record["game"], record["variant"], **dict(record["options"]))
    return g, g.new_state(record["seed"], **(record.get("setup") or {}))


def card_tokens(text: str, codes: frozenset[str]) -> set[str]:
    return {t for t in _RUN.findall(text) if t in codes}


#: Cards that a game's rules name whatever the deal (Watten's Kritische: Maxi, Belli, Spitz; the Weli).
RULE_CARDS = {"watten": {"HK", "L7", "E7", "S6"}}
WATTEN_RANKS = ("7", "8", "9", "10", "U", "O", "K", "A")


def derived_cards(view: dict, game: str) -> set[str]:
    """Cards a seat may name because rule facts it knows define them, not because anyone holds them:
    Battn's Il Buono (the Schlòk rank in the Trumpf suit); in Watten, once the seat knows the Schlag,
    the Rechte and the Linke (every card of the Schlag rank), and with the trump the Guate."""
    out = set(RULE_CARDS.get(game, ()))
    info = view.get("info") or {}
    if game == "battn" and info.get("schlok") and info.get("trumpf"):
        out.add(f"{info['trumpf']}{info['schlok']}")
    if game == "watten" and view.get("schlag"):
        schlag = view["schlag"]
        out |= {suit + schlag for suit in "HSEL"}
        if view.get("trump") and schlag in WATTEN_RANKS:      # the Guate: one rank above, Ace -> 7
            guate = WATTEN_RANKS[(WATTEN_RANKS.index(schlag) + 1) % len(WATTEN_RANKS)]
            out |= {view["trump"] + guate, view["trump"] + "7"}
    return out


class SeatOracle:
    """The local replay of a finished record, walked forward as one seat's frames arrive.

    ``match_state(frame)`` checks a ``state`` frame of seq n (the number of actions in the table's
    log) against the record's prefix of n actions (never going back): the view is ``view(seat)``
    there, ``legal`` that seat's legal actions, a resync's ``missed`` events exactly the events the
    seat may see between the two seqs, and the whole frame text names no card beyond those the
    engine's view and legal actions name.
    """

    def __init__(self, record: dict, seat: int | None, secrets: tuple[str, ...] = ()):
        self.record = record
        self.seat = seat
        self.game, self.state = new_state_of(record)
        self.codes = frozenset(self.game.deck.codes)
        self.k = 0               # actions applied to self.state
        self.secrets = tuple(s for s in secrets if s)
        self._view = None
        self._scanned = 0        # events of self.state scanned for visibility
        self._visible: list[dict] = []                  # the seat's visible events so far
        self.visible_at: dict[int, int] = {}            # prefix -> how many of them by then
        self._note_visible()

    def _note_visible(self) -> None:
        events = self.state.events          # (runs a deferred deal, as the server's view did)
        for aud, ev in events[self._scanned:]:
            if aud is None or (self.seat is not None and aud >> self.seat & 1):
                self._visible.append(ev)
        self._scanned = len(events)
        self.visible_at[self.k] = len(self._visible)

    def _advance(self) -> bool:
        if self.k >= len(self.record["actions"]):
            return False
        seat, text = self.record["actions"][self.k]
        self.state.apply(text, seat=seat)
        self.k += 1
        self._view = None
        self._note_visible()
        return True

    def view(self) -> dict:
        if self._view is None:
            self._view = canon(self.state.view(self.seat))
        return self._view

    def legal(self) -> list[str]:
        if self.seat is None or self.state.is_terminal():
            return []
        return [str(a) for a in self.state.legal_actions(self.seat)]

    def match_state(self, frame: dict, raw: str) -> None:
        assert frame.get("seat") == self.seat, f"frame for seat {frame.get('seat')} sent to seat {self.seat}"
        seq = frame["seq"]
        assert seq >= self.k, f"seat {self.seat}: seq went back from {self.k} to {seq}"
        while self.k < seq:
            if not self._advance():
                raise AssertionError(f"seat {self.seat}: frame seq {seq} but the record has only "
                                     f"{len(self.record['actions'])} actions")
        assert frame["view"] == self.view(), (f"seat {self.seat}: the view of frame seq {seq} is not view(seat) "
                                              f"after {seq} actions:\n{raw[:1500]}")
        assert sorted(frame.get("legal") or []) == sorted(self.legal()), (
            f"seat {self.seat} seq {seq}: legal {frame.get('legal')} != engine {self.legal()}")
        missed = frame.get("missed")
        if missed is not None:
            since = missed["since"]
            assert since in self.visible_at, f"seat {self.seat}: missed since {since}, a seq it never saw"
            want = self._visible[self.visible_at[since]:self.visible_at[seq]]
            assert canon(missed["events"]) == canon(want), (
                f"seat {self.seat}: the events missed from {since} to {seq} are not those the seat may see")
            raw = json.dumps({k: v for k, v in frame.items() if k != "missed"})   # checked exactly above
        self.check_text(raw)

    def check_text(self, raw: str, extra_allowed: set[str] = frozenset()) -> None:
        """No card in the frame text beyond those the seat's view and legal actions name."""
        text = raw
        for s in self.secrets:
            text = text.replace(s, " ")
        allowed = card_tokens(json.dumps(self.view()), self.codes) | card_tokens(" ".join(self.legal()), self.codes)
        extra = card_tokens(text, self.codes) - allowed - set(extra_allowed)
        assert not extra, (f"seat {self.seat} (record prefix {self.k}) received cards it may not know: "
                           f"{sorted(extra)} in {raw[:1500]}")


def check_frames(record: dict, client, secrets: tuple[str, ...] = ()) -> int:
    """Every frame one client received, against its seat's views along the record.  Returns how
    many state frames were checked."""
    oracle = SeatOracle(record, client.seat, secrets)
    seed = str(record["seed"])
    n = 0
    over = False
    for msg, raw in zip(client.frames, client.raw, strict=True):
        over = over or (msg.get("type") == "state" and msg["view"].get("terminal"))
        if not over:
            assert seed not in raw, f"seat {client.seat}: the deal seed appears in a frame before the end: {raw[:300]}"
        if msg.get("type") == "state":
            oracle.match_state(msg, raw)
            n += 1
        else:
            oracle.check_text(raw)
    return n
