"""Every code block in README.md and docs/ runs (the project's docs convention).

```python blocks run as scripts, ```sh blocks in bash (``set -euo pipefail``), each in a fresh
temporary directory with this environment's ``stich`` first on the PATH; a block preceded by the line
``<!-- not run: REASON -->`` is skipped, and says why; ```text, ```console (output samples) and ```json
(which must parse) are not run. A fence without a language fails: say what the block is.

To stay fast, a file's blocks run in one subprocess per language: a small runner executes the blocks
one by one (each python block in its own namespace) and reports each block's failure with its line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUN = frozenset({"python", "sh"})
SAMPLES = frozenset({"text", "console", "json"})
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(\S.*?)\s*-->$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([^\s`]*)")


@dataclass
class Block:
    path: Path
    line: int          # 1-based line of the opening fence
    lang: str
    code: str
    not_run: str | None  # the reason, when the block is marked

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, with the ``not run`` mark before each, if any."""
    out, lines = [], path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.groups()
        start, body = i, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        prev = next((lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        mark = NOT_RUN.match(prev)
        out.append(Block(path, start + 1, lang.lower(), "\n".join(body) + "\n", mark.group(1) if mark else None))
    return out


ALL = [b for p in doc_files() for b in blocks(p)]

#: runs a file's python blocks in one interpreter, each in a fresh namespace and a fresh directory
PY_RUNNER = textwrap.dedent("""
    import json, os, sys, tempfile, traceback
    failures = []
    for where, code in json.load(sys.stdin):
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            try:
                exec(compile(code, where, "exec"), {"__name__": "__main__"})
            except BaseException:  # noqa: BLE001 - SystemExit too: a block must not exit
                failures.append((where, traceback.format_exc(limit=-4)))
            finally:
                os.chdir("/")
    with open(sys.argv[1], "w") as out:
        json.dump(failures, out)
""")


def _env() -> dict:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONSTARTUP", None)
    env.update(NO_COLOR="1", COLUMNS="100")
    return env


def run_python(found: list[Block], tmp_path: Path) -> list[tuple[str, str]]:
    payload, result = json.dumps([(b.where, b.code) for b in found]), tmp_path / "failures.json"
    proc = subprocess.run([sys.executable, "-c", PY_RUNNER, str(result)], input=payload, capture_output=True,
                          text=True, env=_env(), timeout=600)
    assert proc.returncode == 0 and result.exists(), proc.stderr
    return [tuple(f) for f in json.loads(result.read_text())]


def run_sh(found: list[Block], tmp_path: Path) -> list[tuple[str, str]]:
    failures = []
    for b in found:
        work = tmp_path / f"block{b.line}"
        work.mkdir()
        proc = subprocess.run(["bash", "-c", "set -euo pipefail\n" + b.code], cwd=work, capture_output=True,
                              text=True, env=_env(), timeout=600)
        if proc.returncode:
            failures.append((b.where, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"))
    return failures


def test_blocks_reads_languages_and_not_run_marks(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text("text\n\n<!-- not run: starts a server -->\n\n```sh\nstich serve\n```\n"
                   "```python\nprint(1)\n```\n  ```\n  bare\n  ```\n", encoding="utf-8")
    found = blocks(doc)
    assert [(b.line, b.lang, b.code, b.not_run) for b in found] == [
        (5, "sh", "stich serve\n", "starts a server"), (8, "python", "print(1)\n", None), (11, "", "bare\n", None)]


def test_a_failing_block_is_reported_with_its_place(tmp_path):
    doc = ROOT / "docs" / "x.md"   # a Block's place is shown relative to the repository; nothing is written
    found = [Block(doc, 3, "python", "x = 1\n", None), Block(doc, 9, "python", "assert x == 1\n", None)]
    failures = run_python(found, tmp_path)   # each block has its own namespace: x is unknown in the second
    assert [where for where, _ in failures] == ["docs/x.md:9"] and "NameError" in failures[0][1]
    bad = run_sh([Block(doc, 4, "sh", "true\nfalse\necho never\n", None)], tmp_path)
    assert [where for where, _ in bad] == ["docs/x.md:4"] and "never" not in bad[0][1]


def test_the_collector_finds_the_docs_blocks():
    files = {b.path.name for b in ALL}
    assert {"README.md", "engine.md", "barbu.md"} <= files
    assert any(b.lang == "python" and not b.not_run for b in ALL)
    assert any(b.lang == "sh" and not b.not_run for b in ALL)


@pytest.mark.parametrize("block", ALL, ids=lambda b: b.where)
def test_every_block_says_what_it_is(block):
    assert block.lang in RUN | SAMPLES, (
        f"{block.where}: a ```{block.lang or ''} block; write ```python or ```sh (run in CI, or marked "
        "'<!-- not run: REASON -->'), or ```text / ```console / ```json (a sample)")
    if block.lang == "json":
        json.loads(block.code)


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_documented_examples_run(path, tmp_path):
    mine = [b for b in ALL if b.path == path and b.lang in RUN]
    if not mine:
        pytest.skip("no python or sh block")
    runnable = [b for b in mine if not b.not_run]
    python = [b for b in runnable if b.lang == "python"]
    failures = run_python(python, tmp_path) if python else []
    failures += run_sh([b for b in runnable if b.lang == "sh"], tmp_path)
    assert not failures, "\n\n".join(f"{where}:\n{err}" for where, err in failures)


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_in_the_repository_and_finds_its_file(path):
    """A newcomer with only the repository follows every relative link to a file that is there."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)   # not in code blocks
    bad = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue   # a web address or a place on the same page
        file = (path.parent / target.split("#")[0]).resolve()
        if ROOT not in file.parents or not file.exists():
            bad.append(target)
    assert not bad, f"{path.relative_to(ROOT)}: links that leave the repository or find nothing: {bad}"
