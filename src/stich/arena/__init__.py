"""The arena: measure bots against each other (``stich arena``; see ``docs/arena.md``).

    from stich.arena import Arena, parse_bots, run_arena, summarize
    arena = Arena("watten", parse_bots("heuristic,random"), games=100, variant="bavarian_2", duplicate=True)
    records = run_arena(arena, out="results.jsonl", jobs=4)       # or ray="auto"; rerun: resumes

Without ``seed=`` the base seed is secret and random, kept in the results file's header; a
later ``run_arena`` of an arena without ``seed=`` on the same file continues with it.
    summary = summarize(records)
"""

from stich.arena.runner import Arena, Entrant, derive, load_results, parse_bots, run_arena, run_match, seatings
from stich.arena.stats import Summary, mean_ci, summarize, wilson
from stich.arena.table import ask, play_match, private_view

__all__ = ["Arena", "Entrant", "Summary", "ask", "derive", "load_results", "mean_ci", "parse_bots", "play_match",
           "private_view", "run_arena", "run_match", "seatings", "summarize", "wilson"]
