"""The arena: seatings, schedules and seeds, end-to-end runs, resume, statistics, bots see only views."""

import json
from collections import Counter

import pytest
from click.testing import CliRunner

import stich
from stich.arena import Arena, parse_bots, run_arena, run_match, seatings, summarize
from stich.arena.stats import match_outcome, mean_ci, wilson
from stich.arena.table import ask, fallback_rng, play_match
from stich.bots import Bot, RandomBot, base, make_bot, register_bot
from stich.cli.main import cli

GAME, VARIANT = "watten", "bavarian_2"  # two seats, short matches


def strip(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


@pytest.fixture
def temp_bots():
    """Register bots for one test and remove them afterwards."""
    added = []

    def add(name, cls):
        register_bot(name, cls)
        added.append(name)

    yield add
    for name in added:
        base._BOTS.pop(name, None)


# --- seating and scheduling --------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "count"), [(2, 2), (3, 6), (4, 2), (5, 10)])
def test_seatings_are_distinct_and_balanced(n, count):
    seats = seatings(n)
    assert len(seats) == count == len(set(seats))
    for s in range(n):  # every seat is held equally often by each bot of the pair
        assert Counter(p[s] for p in seats) == {0: count // 2, 1: count // 2}
    if n == 4:  # partners sit opposite
        assert seats == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_schedule_duplicate_round_robin_and_seeds():
    bots = parse_bots("random,random,random")
    assert [b.label for b in bots] == ["random", "random#2", "random#3"]
    plain = Arena(GAME, bots, games=4, variant=VARIANT, seed=5).schedule()
    dup = Arena(GAME, bots, games=4, variant=VARIANT, seed=5, duplicate=True).schedule()
    assert len(plain) == 3 * 4 and len(dup) == 3 * 4 * 2
    assert len({s["key"] for s in dup}) == len(dup)
    # every pair plays the same deals; a deal's replays share the deal seed, not the bot seeds
    by_deal = {}
    for s in dup:
        by_deal.setdefault(s["deal"], set()).add(s["seed"])
    assert all(len(v) == 1 for v in by_deal.values()) and len({min(v) for v in by_deal.values()}) == 4
    assert dup == Arena(GAME, parse_bots("random,random,random"), games=4, variant=VARIANT, seed=5,
                        duplicate=True).schedule()
    other = Arena(GAME, bots, games=4, variant=VARIANT, seed=6, duplicate=True).schedule()
    assert {s["seed"] for s in other}.isdisjoint({s["seed"] for s in dup})


def test_parse_bots_budgets_and_errors():
    bots = parse_bots("random@2s, random, cmd:./mybot --fast", budget="300")
    assert [(b.label, b.spec, b.budget) for b in bots] == [
        ("random@2s", "random", "2s"), ("random@300it", "random", "300it"),
        ("cmd:./mybot --fast@300it", "cmd:./mybot --fast", "300it")]
    for text, msg in (("random", "at least two"), ("random,genius", "unknown bot"), ("random,random@fast", "budget"),
                      ("random,cmd:", "needs a program")):
        with pytest.raises(ValueError, match=msg):
            parse_bots(text)


def test_four_seat_teams_sit_opposite_and_results_are_per_side():
    arena = Arena("watten", parse_bots("random,random"), games=1, variant="bavarian_4", duplicate=True, seed=2)
    recs = run_arena(arena, jobs=1)
    assert [r["seats"] for r in recs] == [["random", "random#2"] * 2, ["random#2", "random"] * 2]
    for rec in recs:
        out = match_outcome(rec)
        assert {o["result"] for o in out.values()} == {0.0, 1.0}
        assert out["random"]["delta"] == pytest.approx(-out["random#2"]["delta"])


# --- running ----------------------------------------------------------------------------------------------
def test_arena_end_to_end_with_processes_resume_table_and_plot(tmp_path):
    out, png = tmp_path / "results.jsonl", tmp_path / "arena.png"
    args = ["arena", GAME, "--variant", VARIANT, "--bots", "random,random", "--games", "3", "--duplicate",
            "--jobs", "2", "--seed", "11", "--out", str(out), "--no-progress"]
    result = CliRunner().invoke(cli, [*args, "--plot", str(png)])
    assert result.exit_code == 0, result.output
    for text in ("win rate (95% CI)", "pts/hand", "random#2", "6 matches in", "3 deals"):
        assert text in result.output
    head, *lines = out.read_text().splitlines()
    assert json.loads(head) == {"format": "stich-arena/1", "type": "arena", "game": GAME, "variant": VARIANT,
                                "options": json.loads(head)["options"], "bots": ["random", "random#2"], "seed": 11}
    assert len(lines) == 6
    recs = [json.loads(x) for x in lines]
    assert all(r["format"] == "stich-arena/1" and r["faults"] == [] for r in recs)
    assert all(sum(r["returns"]) == 0 and r["hands"] >= 1 for r in recs)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # rerunning adds nothing, and reports the same table
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 0, again.output
    assert out.read_text().splitlines() == [head, *lines]
    assert "Resuming: 6 of 6" in again.output
    table = lambda text: text[text.index("win rate"):text.index("matches in")]  # noqa: E731
    assert table(again.output) == table(result.output)
    # more deals: only the new matches are played, and they match a fresh serial run
    more = CliRunner().invoke(cli, ["arena", GAME, "-v", VARIANT, "--bots", "random,random", "--games", "5",
                                    "--duplicate", "--jobs", "1", "--seed", "11", "--out", str(out), "--json",
                                    "--no-progress"])
    assert more.exit_code == 0, more.output
    assert json.loads(more.output[more.output.index("{"):])["matches"] == 10
    grown = [json.loads(x) for x in out.read_text().splitlines()[1:]]
    assert len(grown) == 10 and grown[:6] == recs
    fresh = run_arena(Arena(GAME, parse_bots("random,random"), games=5, variant=VARIANT, duplicate=True, seed=11),
                      jobs=1)
    assert strip(fresh) == strip(sorted(grown, key=lambda r: (r["deal"], r["seating"])))


def test_interrupted_run_resumes_and_torn_lines_are_ignored(tmp_path):
    out = tmp_path / "r.jsonl"
    arena = Arena(GAME, parse_bots("random,random"), games=4, variant=VARIANT, seed=3)
    full = run_arena(arena, out=str(out), jobs=1)
    head, *lines = out.read_text().splitlines()
    out.write_text("\n".join([head, *lines[:2]]) + "\n" + lines[2][:30])  # two matches and a torn third
    calls = []
    again = run_arena(arena, out=str(out), jobs=1, progress=lambda d, t: calls.append(d))
    assert calls[0] == 2 and calls[-1] == 4
    assert strip(again) == strip(full)


def test_round_robin_prints_trueskill_and_pairwise(temp_bots):
    class FirstBot(Bot):
        """Always the first legal action."""

        def choose(self, view, legal):
            return legal[0]

    temp_bots("first-arena", FirstBot)
    result = CliRunner().invoke(cli, ["arena", GAME, "-v", VARIANT, "--bots", "random,first-arena,random", "-n", "4",
                                      "--duplicate", "-j", "1", "--no-progress", "--out", "/dev/null"])
    assert result.exit_code == 0, result.output
    assert "TrueSkill" in result.output and "row against column" in result.output and "24 matches" in result.output


def test_bad_arena_arguments_are_usage_errors():
    for args, text in ((["--bots", "random"], "at least two"), (["--bots", "random,genius"], "unknown bot"),
                       (["--bots", "random,random", "--games", "0"], "at least 1"),
                       (["--bots", "random,random", "--variant", "nope"], "variant"),
                       (["--bots", "random,cmd:/no/such/bot"], "cannot play")):
        result = CliRunner().invoke(cli, ["arena", GAME, *args, "--no-progress", "--out", "/dev/null"])
        assert result.exit_code == 2 and text in result.output, result.output


# --- statistics -------------------------------------------------------------------------------------------
def test_wilson_and_mean_intervals():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo == pytest.approx(2.5 - 1.96 * 0.6455, abs=1e-3)
    assert mean_ci([5.0]) == (5.0, 5.0, 5.0)


def test_summary_counts_wins_draws_losses_and_faults():
    recs = [{"key": str(i), "deal": i, "seating": 0, "pair": ["a", "b"], "seats": ["a", "b", "a"],
             "returns": r, "hands": 2, "points": [4, 2, 0], "faults": f}
            for i, (r, f) in enumerate([([1, -0.5, -0.5], []), ([-0.5, 1, -0.5], [{"seat": 1}]),
                                        ([0.5, -1, 0.5], []), ([0, 0, 0], [])])]
    s = summarize(recs)
    a, b = s.bots
    assert (a.wins, a.draws, a.losses) == (2, 1, 1) and (b.wins, b.draws, b.losses) == (1, 1, 2)
    assert a.points == [1.0] * 4 and a.delta == [0.0] * 4 and b.faults == 1 and a.faults == 0
    assert s.pairwise[("a", "b")] == [1.0, 0.0, 1.0, 0.5] and s.ratings is None


# --- faults and what bots receive --------------------------------------------------------------------------
def test_faulty_bots_are_recorded_and_the_match_finishes(temp_bots):
    class Broken(Bot):
        def choose(self, view, legal):
            if len(view["events"]) % 3 == 0:
                raise KeyError("no idea")
            return "play XX" if len(view["events"]) % 3 == 1 else legal[-1]

    temp_bots("broken-arena", Broken)
    arena = Arena(GAME, parse_bots("broken-arena,random"), games=2, variant=VARIANT, duplicate=True, seed=1)
    recs = run_arena(arena, jobs=1)
    faults = [f for r in recs for f in r["faults"]]
    assert faults and {f["bot"] for f in faults} == {"broken-arena"}
    assert {f["kind"] for f in faults} == {"error", "illegal"}
    assert any("KeyError" in f["error"] for f in faults) and any("'play XX'" in f["error"] for f in faults)
    assert all(r["returns"] and sum(r["returns"]) == 0 for r in recs)
    assert strip(recs) == strip(run_arena(arena, jobs=1))  # fallbacks are seeded too
    assert summarize(recs).bots[0].faults == len(faults)


def test_bots_only_ever_receive_private_views(temp_bots):
    calls = []

    class Spy(Bot):
        def choose(self, view, legal):
            calls.append((view, legal))
            assert type(view) is dict and all(type(a) is str for a in legal)
            json.dumps(view)  # nothing but JSON data
            view["hand"] = ["EA"] * 8  # vandalism changes nothing at the table
            view["events"].clear()
            legal.clear()
            return "resign"

    temp_bots("spy", Spy)
    g = stich.game(GAME, VARIANT)
    state = g.new_state(seed=4)
    before = state.view(state.current_player)
    action, fault = ask(make_bot("spy"), state, state.current_player, fallback_rng(4, 0))
    assert fault["kind"] == "illegal" and action in [str(a) for a in state.legal_actions()]
    assert state.view(state.current_player) == before
    seat = state.current_player
    view, _ = calls[0]
    assert view["seat"] == seat and "hands" not in view and not any(isinstance(v, stich.engine.State)
                                                                     for v in view.values())
    # the state never reaches a view-only bot, even one that asks for it
    assert not Spy.sees_everything
    with pytest.raises(NotImplementedError):
        make_bot("spy").choose_with_state(state, seat, [])


def test_only_bots_that_declare_it_get_the_state(temp_bots):
    seen = []

    class Cheat(RandomBot):
        """Sees every card (an upper bound only)."""

        sees_everything = True

        def choose(self, view, legal):
            raise AssertionError("a sees_everything bot is asked with the state")

        def choose_with_state(self, state, seat, legal):
            seen.append(state)
            assert state.current_player == seat
            state.apply(legal[0])  # a clone: playing on it changes nothing at the table
            return legal[0]

    temp_bots("cheat-arena", Cheat)
    g = stich.game(GAME, VARIANT)
    result = play_match(g, 8, [make_bot("cheat-arena", seed=1), make_bot("random", seed=2)])
    assert not result["faults"] and seen
    assert len(result["faults"]) == 0 and sum(result["returns"]) == 0
    assert all(isinstance(s, stich.engine.State) for s in seen)


def test_run_match_is_a_pure_function_of_its_spec():
    spec = Arena(GAME, parse_bots("random,random"), games=1, variant=VARIANT, seed=21).schedule()[0]
    assert strip([run_match(spec)]) == strip([run_match(dict(spec))])


# --- Ray ---------------------------------------------------------------------------------------------------
@pytest.mark.ray
def test_ray_gives_the_same_results_as_processes(tmp_path):
    ray = pytest.importorskip("ray")
    arena = Arena(GAME, parse_bots("random,random"), games=4, variant=VARIANT, duplicate=True, seed=17)
    local = run_arena(arena, jobs=2)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        out = tmp_path / "ray.jsonl"
        remote = run_arena(arena, out=str(out), ray="auto", chunk=2)
    finally:
        if started:
            ray.shutdown()
    assert strip(remote) == strip(local)
    assert len(out.read_text().splitlines()) == 1 + len(local) == 9  # the header, then one line per match


def test_a_cheat_is_labelled_in_the_results(temp_bots):
    class Cheat(RandomBot):
        sees_everything = True

        def choose_with_state(self, state, seat, legal):
            return legal[0]

    temp_bots("cheat-label", Cheat)
    result = CliRunner().invoke(cli, ["arena", GAME, "-v", VARIANT, "--bots", "cheat-label,random", "-n", "2",
                                      "-j", "1", "--no-progress", "--out", "/dev/null"])
    assert result.exit_code == 0, result.output
    assert "cheat-label (sees all)" in result.output and "sees every card" in result.output
