"""The arena: schedule matches between bots, run them on all cores or a Ray cluster, keep the results.

Scheduling (see ``docs/arena.md``):

* every pair of bots (a round robin for three or more) plays ``games`` **matches**, each from its
  own starting deal and played to its end; deal ``d`` has the seed ``derive(seed, "deal", d)``,
  the same for every pair;
* a **seating** puts the pair's two bots at the seats: the first bot at the even seats, the
  second at the odd ones (partners sit opposite: seats {0, 2} against {1, 3}), rotated around
  the table, with the roles swapped too; distinct seatings only: 2 for 2 and 4 seats, 6 for 3,
  10 for 5;
* ``duplicate``: every deal is replayed in every seating (``games`` × seatings matches per pair),
  so deal luck cancels; otherwise deal
  ``d`` is played once, in seating ``d mod (number of seatings)``;
* each seat gets its own bot instance with the seed ``derive(seed, "bot", pair, d, seating, seat)``.

The base ``seed`` is secret unless given: a bot that knew it could compute every deal.  A
match is a pure function of its spec, so the serial, process and Ray backends give identical
results.  Results are JSON lines appended as matches finish, after a first header line that
keeps the base seed (so a rerun resumes with it); rerunning the same arena skips the matches
already in the file (resume).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import secrets
from dataclasses import dataclass, field
from functools import lru_cache

import stich.engine
from stich.arena.table import play_match
from stich.bots.base import Budget, bot_class, make_bot

RESULT_FORMAT = "stich-arena/1"


def derive(*parts) -> int:
    """A seed from parts, stable across processes, machines and Python versions."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()
    return int(digest[:16], 16) % 2**63


@dataclass(frozen=True)
class Entrant:
    """One bot of the arena: its label in the results, its spec (a bot name or ``cmd:...``), its budget."""

    label: str
    spec: str
    budget: str | None = None


def parse_bots(text: str, budget=None) -> list[Entrant]:
    """``"ismcts@2s,pimc,cmd:./mybot"`` -> entrants.

    Bots are separated by commas; a registered name may carry its own budget after ``@``;
    ``budget`` applies to the others.  Unknown names and bad budgets raise ValueError.  The
    same bot twice gets labels ``random`` and ``random#2``.
    """
    items = [s.strip() for s in str(text or "").split(",") if s.strip()]
    if len(items) < 2:
        raise ValueError(f"--bots needs at least two bots separated by commas, not {text!r}")
    default = str(Budget.parse(budget)) if Budget.parse(budget) else None
    out: list[Entrant] = []
    seen: dict[str, int] = {}
    for item in items:
        if item.lower().startswith("cmd:"):
            if not item[4:].strip():
                raise ValueError("cmd: needs a program, e.g. cmd:./mybot")
            spec, own = "cmd:" + item[4:].strip(), None
        else:
            name, _, own = item.partition("@")
            spec = bot_class(name).name
            own = own.strip() or None
            if own is not None:
                own = str(Budget.parse(own))
        b = own or default
        base = spec + (f"@{b}" if b else "")
        seen[base] = seen.get(base, 0) + 1
        label = base if seen[base] == 1 else f"{base}#{seen[base]}"
        out.append(Entrant(label, spec, b))
    return out


def seatings(num_players: int) -> list[tuple[int, ...]]:
    """The distinct seatings of a pair: per seat 0 (the pair's first bot) or 1 (the second)."""
    base = [s % 2 for s in range(num_players)]
    out: list[tuple[int, ...]] = []
    for pattern in (base, [1 - x for x in base]):
        for r in range(num_players):
            rotated = tuple(pattern[(s + r) % num_players] for s in range(num_players))
            if rotated not in out:
                out.append(rotated)
    return out


@dataclass
class Arena:
    """What to play: the game, the bots, the matches per pair, duplicate or not, the base seed (None: secret)."""

    game: str
    bots: list[Entrant]
    games: int = 10
    variant: str | None = None
    options: dict = field(default_factory=dict)
    duplicate: bool = False
    seed: int | None = None  # None: a secret random base seed (kept in the results file's header)
    timeout: float | None = None  # per answer of cmd: bots (default: budget + 10 s)

    def __post_init__(self):
        g = stich.engine.game(self.game, self.variant, **self.options)
        self.game = g.name
        self.variant = g.variant
        self.options = dict(g.options)
        self.num_players = g.num_players
        if self.games < 1:
            raise ValueError("--games must be at least 1")
        self.secret = self.seed is None  # a secret base seed: resumed from a results file's header
        if self.seed is None:
            self.seed = secrets.randbits(63)
        labels = [b.label for b in self.bots]
        if len(set(labels)) != len(labels):
            raise ValueError(f"bot labels must differ: {labels}")

    def resume_seed(self, out) -> None:
        """With a secret base seed, take the one in ``out``'s header (the file this arena continues)."""
        head = read_header(out)
        if self.secret and head is not None:
            self.seed = head["seed"]

    def header(self) -> dict:
        """The first line of a results file: what was played, and the base seed to resume with."""
        return {"format": RESULT_FORMAT, "type": "arena", "game": self.game, "variant": self.variant,
                "options": self.options, "bots": [b.label for b in self.bots], "seed": self.seed}

    @property
    def config(self) -> str:
        """An id of what makes a match's result: game, variant, options, base seed."""
        blob = json.dumps([self.game, self.variant, self.options, self.seed], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    def schedule(self) -> list[dict]:
        """Every match of the arena, as JSON-ready specs, in a fixed order."""
        seats = seatings(self.num_players)
        specs = []
        for d in range(self.games):
            deal_seed = derive(self.seed, "deal", d)
            chosen = range(len(seats)) if self.duplicate else [d % len(seats)]
            for i, j in itertools.combinations(range(len(self.bots)), 2):
                pair = (self.bots[i], self.bots[j])
                for k in chosen:
                    at = [pair[x] for x in seats[k]]
                    key = f"{self.config}:{pair[0].label}|{pair[1].label}:{d}:{k}"
                    specs.append({
                        "key": key, "config": self.config, "game": self.game, "variant": self.variant,
                        "options": self.options, "deal": d, "seating": k, "seed": deal_seed,
                        "pair": [pair[0].label, pair[1].label], "seats": [e.label for e in at],
                        "specs": [e.spec for e in at], "budgets": [e.budget for e in at],
                        "bot_seeds": [derive(self.seed, "bot", pair[0].label, pair[1].label, d, k, s)
                                      for s in range(self.num_players)],
                        "timeout": self.timeout,
                    })
        return specs


@lru_cache(maxsize=32)
def _game(name: str, variant: str, options_json: str):
    return stich.engine.game(name, variant, **json.loads(options_json))


def run_match(spec: dict) -> dict:
    """Play one scheduled match; the result record (a JSON-ready dict)."""
    game = _game(spec["game"], spec["variant"], json.dumps(spec["options"], sort_keys=True))
    bots = []
    for name, seed, budget in zip(spec["specs"], spec["bot_seeds"], spec["budgets"], strict=True):
        kw = {"timeout": spec["timeout"]} if name.startswith("cmd:") and spec.get("timeout") else {}
        bots.append(make_bot(name, seed=seed, budget=budget, **kw))
    result = play_match(game, spec["seed"], bots)
    keep = ("key", "config", "game", "variant", "options", "deal", "seating", "seed", "pair", "seats")
    return {"format": RESULT_FORMAT, **{k: spec[k] for k in keep}, **result}


def run_matches(specs: list[dict]) -> list[dict]:
    """A chunk of matches (the unit of work sent to a process or a Ray task)."""
    return [run_match(s) for s in specs]


# --- results files ------------------------------------------------------------------------------------
def read_header(path) -> dict | None:
    """The header line of a results file (``{"type": "arena", "seed": ..., "bots": [...]}``), or None."""
    if not path or not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        first = f.readline(1 << 20)
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        return None
    ok = isinstance(head, dict) and head.get("format") == RESULT_FORMAT and head.get("type") == "arena"
    return head if ok and type(head.get("seed")) is int else None


def open_results(path, arena: Arena):
    """Open a results file to append to: a new one gets the header; a torn last line (a run killed while
    writing it) is cut off first, so the next record starts on a line of its own."""
    with open(path, "ab+") as f:
        end = size = f.seek(0, os.SEEK_END)
        f.seek(max(0, size - 1))
        if size and f.read(1) != b"\n":
            while end > 0:  # back to the last newline, a block at a time
                start = max(0, end - (1 << 16))
                f.seek(start)
                cut = f.read(end - start).rfind(b"\n")
                if cut >= 0:
                    end = start + cut + 1
                    break
                end = start
            f.truncate(end)
    sink = open(path, "a", encoding="utf-8")  # noqa: SIM115 - the caller closes it
    if sink.tell() == 0:
        sink.write(json.dumps(arena.header(), ensure_ascii=False) + "\n")
        sink.flush()
    return sink


def default_out(arena: Arena) -> str:
    """``stich-arena-GAME-VARIANT-BOTS.jsonl``: the bots are in the name, so another line-up never resumes
    (or mixes its results into) this one's file."""
    names = "_".join(re.sub(r"[^A-Za-z0-9.@#+-]+", "-", b.label).strip("-") for b in arena.bots)
    if len(names) > 60:
        digest = hashlib.sha256("\n".join(b.label for b in arena.bots).encode()).hexdigest()[:8]
        names = names[:50].rstrip("-_") + "-" + digest
    return f"stich-arena-{arena.game}-{arena.variant}-{names}.jsonl"


def load_results(path) -> dict[str, dict]:
    """The match records of a JSON-lines results file by key (a torn last line is ignored)."""
    out: dict[str, dict] = {}
    if not path or not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except (ValueError, RecursionError):
                continue  # a line cut short by an interrupted run, or junk
            if isinstance(rec, dict) and rec.get("format") == RESULT_FORMAT and "key" in rec:
                out[rec["key"]] = rec
    return out


def _chunks(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def run_arena(arena: Arena, out: str | None = None, jobs: int | None = None, ray: str | None = None,
              progress=None, chunk: int | None = None) -> list[dict]:
    """Run every match of ``arena`` not already in ``out``; return the records of the whole schedule.

    ``jobs``: worker processes (default: all cores; 1 = in this process); ``ray``: ``"auto"``,
    ``"local"`` or a cluster address to run on Ray instead (an already initialised Ray is used as
    it is); ``progress(done, total)`` is called as matches finish.  New records are appended to
    ``out`` (JSON lines) as they arrive, so an interrupted run resumes where it stopped.
    """
    arena.resume_seed(out)
    specs = arena.schedule()
    done = load_results(out)
    todo = [s for s in specs if s["key"] not in done]
    total = len(specs)
    count = total - len(todo)
    if progress:
        progress(count, total)
    jobs = max(1, jobs or os.cpu_count() or 1)
    if chunk is None:  # one match per task (results saved as they finish) unless there are very many
        chunk = max(1, min(20, len(todo) // (jobs * 200)))
    sink = open_results(out, arena) if out else None
    try:
        def take(records):
            nonlocal count
            for rec in records:
                done[rec["key"]] = rec
                if sink:
                    sink.write(json.dumps(rec, ensure_ascii=False) + "\n")
            if sink:
                sink.flush()
            count += len(records)
            if progress:
                progress(count, total)

        if not todo:
            pass
        elif ray:
            _run_ray(todo, ray, chunk, take)
        elif jobs == 1:
            for spec in todo:
                take([run_match(spec)])
        else:
            _run_processes(todo, jobs, chunk, take)
    finally:
        if sink:
            sink.close()
    return [done[s["key"]] for s in specs]


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the command, which stops them (no traceback per worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_processes(todo, jobs, chunk, take) -> None:
    """Worker processes (``multiprocessing.Pool``: on Ctrl-C or an error the workers are terminated at
    once; what finished is already saved)."""
    import multiprocessing

    with multiprocessing.Pool(processes=jobs, initializer=_ignore_sigint) as pool:  # __exit__ terminates them
        for records in pool.imap_unordered(run_matches, _chunks(todo, chunk)):
            take(records)


def ray_connect(address: str) -> None:
    """Start or join Ray: ``auto`` (the running cluster: RAY_ADDRESS or ``ray start``), ``local`` (a
    private instance on this machine), or an address (``ray://host:10001``, ``host:6379``)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'stich[ray]'") from None
    if ray.is_initialized():
        return
    kw = {"include_dashboard": False, "log_to_driver": False, "ignore_reinit_error": True}
    if address == "local":
        ray.init(**kw)
    else:
        ray.init(address=address, **kw)


def _run_ray(todo, address, chunk, take) -> None:
    ray_connect(address)
    import ray

    remote = ray.remote(num_cpus=1, max_retries=2)(run_matches)
    pending = [remote.remote(part) for part in _chunks(todo, chunk)]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                take(ray.get(ref))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise

