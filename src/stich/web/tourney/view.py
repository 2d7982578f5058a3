"""What ``GET /api/tournaments/{ID}`` answers, and the standings as CSV; built from a loaded tournament."""

from __future__ import annotations

import csv
import io

from stich.web.tourney import scoring


def group_result(matches: list[dict], games: int) -> dict | None:
    """A table's result over its round: per seat the match points summed and the matches won (None until
    every match is over)."""
    done = [m["result"] for m in matches if m["finished"] and m["result"] is not None]
    if len(done) < games:
        return None
    n = len(done[0]["scores"])
    return {"scores": [scoring.num(sum(r["scores"][s] for r in done)) for s in range(n)],
            "won": [sum(1 for r in done if r["won"][s]) for s in range(n)],
            "bots_played": sorted({s for r in done for s in r.get("bots_played", [])}),
            "entered": any(r.get("entered") for r in done)}


def duplicate_points(t, round_no: int) -> dict[int, list[float]]:
    """Duplicate: each table's match points per seat in one round (against the other tables' same seat)."""
    rows = [r for r in t.rows if r["round"] == round_no and r["finished"] and r["result"] is not None]
    out = {}
    for r in rows:
        points = []
        for seat, mine in enumerate(r["result"]["scores"]):
            others = [o["result"]["scores"][seat] for o in rows if o is not r]
            points.append(sum(1.0 if mine > x else 0.5 if mine == x else 0.0 for x in others))
        out[r["number"]] = [scoring.num(p) for p in points]
    return out


def rounds(t) -> list[dict]:
    names = [p["name"] for p in t.players]
    games = t.matches
    out = []
    for round_no in range(1, t.row["drawn"] + 1):
        mp = duplicate_points(t, round_no) if t.fmt["kind"] == "duplicate" else {}
        tables = []
        numbers = sorted({r["number"] for r in t.rows if r["round"] == round_no})
        for number in numbers:
            matches = [r for r in t.rows if r["round"] == round_no and r["number"] == number]
            first = matches[0]
            result = group_result(matches, games)
            if result is not None and number in mp:
                result["match_points"] = mp[number]
            tables.append({"table": first["table_id"], "number": number, "paper": bool(first["paper"]),
                           "players": [names[p] for p in first["seats"]],
                           "finished": result is not None, "result": result,
                           "matches": [{"table": m["table_id"], "finished": bool(m["finished"]), "result": m["result"]}
                                       for m in matches]})
        out.append({"round": round_no, "tables": tables})
    return out


def document(t, corrections: list[dict]) -> dict:
    return {"tournament": t.id, "game": t.game.name, "variant": t.game.variant, "options": dict(t.game.options),
            "format": t.fmt, "drawn": t.row["drawn"], "rounds": rounds(t), "standings": t.standings(),
            "finished": t.finished, "corrections": corrections,
            # open now (/tournaments/ID/join): until round 1, unless the director closed it (tourney.register)
            "registration": bool(t.row["registration"]) and not t.row["registration_closed"] and t.row["drawn"] == 0,
            "players": [{"name": p["name"], "kind": p["kind"], "bot": p["bot"]} for p in t.players]}


def standings_csv(t) -> str:
    """The ranking as CSV (rank, name, score, each tie-break, matches, bot)."""
    table = t.standings()
    keys = list(table[0]["tiebreaks"]) if table else []
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["rank", "name", "score", *keys, "matches", "bot"])
    for s in table:
        w.writerow(["" if s["rank"] is None else s["rank"], _safe(s["name"]), s["score"],
                    *(s["tiebreaks"][k] for k in keys), s["matches"], "yes" if s["bot"] else ""])
    return buf.getvalue()


def _safe(text: str) -> str:
    """A name that a spreadsheet would take for a formula gets a leading quote (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
