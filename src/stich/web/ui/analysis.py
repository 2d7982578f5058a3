"""The replay page's analysis of one seat (issue #38): the stored result of ``stich.web.analyses``
in the reader's words, at the replay's step.

Every decision of the seat is listed with its mark and a link that opens the replay at that moment
(``?step=i&analysis=K``: the table as it was when the seat chose, action ``i`` not yet played).  At
a decision's own step the page shows its alternatives with their values and one sentence of what
the seat could not know: in how many of the deals that fit what it had seen the best and the played
action win the hand (the analysis's sampled worlds; ``stich.bots.analysis``)."""

# ruff: noqa: E501  (each sentence is one literal: the msgid python -m stich.i18n.extract reads)
from __future__ import annotations

import stich
from stich.i18n import translator
from stich.web.ui.env import N_
from stich.web.ui.table import action_label

#: each mark's word (the template shows it with the mark's class: stich.css colours them)
MARK_WORDS = {"good": N_("good"), "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"),
              "blunder": N_("blunder")}


#: what the seat could not know, by how the decision was valued and whether its best was played;
#: "wins the hand" where a hand has two sides, "comes out ahead" where each plays for itself (Barbu)
SENTENCES = {
    "bet": N_("In %(k)s of %(n)s deals that fit what you had seen, your side wins the hand."),
    ("best", True): N_("In %(k)s of %(n)s deals that fit what you had seen, your choice wins the hand."),
    ("best", False): N_("In %(k)s of %(n)s deals that fit what you had seen, your choice comes out ahead in the hand."),
    ("other", True): N_("In %(k)s of %(n)s deals that fit what you had seen, %(best)s wins the hand; your choice wins it in %(mine)s."),
    ("other", False): N_("In %(k)s of %(n)s deals that fit what you had seen, %(best)s comes out ahead in the hand; your choice does in %(mine)s."),
}


def sentence(d: dict, two_sided: bool, label, _) -> str | None:
    """What the seat could not know, in the reader's words; None where the analysis cannot say it (a
    cut: chance; a decision valued without worlds)."""
    n = d.get("worlds") or 0
    wins = d.get("wins") or {}
    if not n:
        return None
    if d["action"] in wins and (d["best"] == d["action"] or d["best"] in wins):   # cards, declared decisions
        if d["best"] == d["action"]:
            return _(SENTENCES["best", two_sided]) % {"k": wins[d["action"]], "n": n}
        return _(SENTENCES["other", two_sided]) % {"k": wins[d["best"]], "n": n, "best": label(d["best"]),
                                                    "mine": wins[d["action"]]}
    if d.get("p") is not None:   # a bet (or a card where a raise was best): the chance to win the hand
        return _(SENTENCES["bet"]) % {"k": round(d["p"] * n), "n": n}
    return None


def build(result: dict, step: int, table_id: str, lang: str) -> dict:
    """The analysis part of the replay page at ``step``: ``rows`` (every decision), ``here`` (the
    decision at this step, with its alternatives and sentence, or None) and the counts of marks."""
    g = stich.game(result["game"], variant=result["variant"])
    _ = translator(lang).gettext

    def label(action: str) -> str:
        return action_label(action, g, g.variant, _, lang)

    seat = result["seat"]
    rows, here = [], None
    for d in result["decisions"]:
        row = {"step": d["step"], "mark": d["mark"], "mark_word": _(MARK_WORDS[d["mark"]]), "loss": d["loss"],
               "played": label(d["action"]), "best": label(d["best"]), "hand": d["hand"],
               "href": f"/replay/{table_id}?step={d['step']}&analysis={seat}&lang={lang}",
               "current": d["step"] == step}
        rows.append(row)
        if row["current"]:
            here = dict(row, alternatives=[{"label": label(a["action"]), "value": a["value"],
                                            "played": a["action"] == d["action"], "best": a["action"] == d["best"]}
                                           for a in d["alternatives"]],
                        sentence=sentence(d, g.two_sided, label, _))
    marked = [r for r in rows if r["mark"] != "good"]
    return {"seat": seat, "rows": rows, "here": here, "marks": result.get("marks", {}),
            "total_loss": result.get("total_loss", 0.0), "marked": len(marked),
            "first": marked[0]["step"] if marked else (rows[0]["step"] if rows else 0)}
