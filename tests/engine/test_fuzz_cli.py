"""Fuzz tests of ``python -m engine score | shanten | replay`` as a user runs them (subprocesses).

* ``score --json -`` answers exactly one JSON line per input line, in order, for a batch of
  generated and mutated lines with blank lines, invalid UTF-8, non-ASCII digits and huge numbers
  mixed in, under a UTF-8 and an ASCII locale; real hands among them keep their data's points.
* ``score`` and ``shanten`` with one bad argument answer one sentence and exit 1, no traceback.
* ``replay`` over a folder of malicious files and one real game reports every file and replays
  the real one exactly.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

from tests.engine.datasets import DATA_DIR
from tests.engine.test_fuzz_logs import BILLION_LAUGHS, LOGS, SAMPLES, sample
from tests.engine.test_fuzz_notation import assert_readable, generated_lines, mutated_lines, real_lines

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not (DATA_DIR.is_dir() and LOGS.is_dir()), reason="shared data not found beside the checkout"
)


def run(args: list[str | bytes], stdin: bytes = b"", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, timeout=300, cwd=REPO, env=full_env
    )


def batch_of_lines(n: int) -> tuple[list[bytes], dict[int, int]]:
    """``n`` input lines drawn from the notation fuzzers (fixed seed) with blank, non-UTF-8 and
    real lines mixed in; returns the lines and {index: points} for the real ones."""
    rng = random.Random(20261126)
    mutated: list[str] = []
    generated: list[str] = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None)
    @given(mutated_lines(), generated_lines())
    def collect(a: str, b: str) -> None:
        mutated.append(a)
        generated.append(b)

    collect()
    lines: list[bytes] = []
    real: dict[int, int] = {}
    pool = [*mutated, *generated]
    for i in range(n):
        r = rng.random()
        if r < 0.1:
            line, points = rng.choice(real_lines())
            real[i] = points
            lines.append(line.encode())
        elif r < 0.15:
            lines.append(rng.choice([b"", b"   ", b"\t"]))
        elif r < 0.2:
            good = rng.choice(real_lines())[0].encode()
            at = rng.randrange(len(good))
            lines.append(good[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]) + good[at:])
        else:
            text = pool[i % len(pool)].replace("\n", " ").replace("\r", " ")
            lines.append(text.encode("utf-8", "surrogatepass"))
    return lines, real


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_score_stdin_answers_one_json_line_per_input_line(encoding: str) -> None:
    lines, real = batch_of_lines(400)
    out = run(["score", "--json", "-"], b"\n".join(lines) + b"\n", {"PYTHONIOENCODING": encoding, "LC_ALL": "C"})
    assert out.returncode == 0 and out.stderr == b"", out.stderr[-2000:]
    answers = out.stdout.decode("utf-8").split("\n")  # strict: never raw bytes of the input
    assert answers[-1] == "" and len(answers) - 1 == len(lines)
    for i, (raw, answer) in enumerate(zip(lines, answers)):
        r = json.loads(answer)
        assert isinstance(r, dict), answer
        if i in real:
            assert r["points"] == real[i], (raw, r)
        elif not raw.strip():
            assert r["error"] == f"line {i + 1} is blank: write one hand per line"
        if "error" in r:
            assert_readable(r["error"])
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            assert r["error"].startswith(f"line {i + 1} is not UTF-8 text")


def test_score_stdin_keeps_windows_line_ends_and_a_last_line_without_newline() -> None:
    line, points = real_lines()[0]
    out = run(["score", "--json", "-"], f"{line}\r\n\r\n{line}".encode())
    answers = [json.loads(a) for a in out.stdout.decode().splitlines()]
    assert [a.get("points") for a in answers] == [points, None, points]
    assert "blank" in answers[1]["error"]


@pytest.mark.parametrize(
    "hand",
    [b"12\xc2\xb23m456p789s1122z ron 2z", b"123m ron 1m honba=" + b"9" * 5000, b"12\xff3m ron 1m", b"\x1b[2J ron 1m"],
    ids=["superscript_two", "huge_honba", "not_utf8", "escape"],
)
def test_score_argument_answers_one_sentence(hand: bytes) -> None:
    for extra in ([], ["--json"]):
        out = run(["score", hand, *extra])
        assert out.returncode == 1 and b"Traceback" not in out.stderr, out.stderr
        text = out.stdout.decode("utf-8").rstrip("\n")
        msg = json.loads(text)["error"] if extra else text.removeprefix("error: ")
        assert_readable(msg)


@pytest.mark.parametrize(
    "tiles",
    [b"12\xc2\xb23m456p789s11z", b"1m" * 600, b"9" * 5000 + b"m", b"12\xff3m", b"\xd9\xa3m" * 14, b""],
    ids=["superscript_two", "too_long", "huge_number", "not_utf8", "arabic_digits", "empty"],
)
def test_shanten_argument_answers_one_sentence(tiles: bytes) -> None:
    out = run(["shanten", tiles, "--json"])
    assert out.returncode == 1 and out.stderr == b"", out.stderr
    assert_readable(json.loads(out.stdout)["error"])


def test_replay_reports_every_malicious_file_and_replays_the_real_one(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "deep.json").write_bytes(b"[" * 200_000)
    tenhou6 = sample("tenhou6")
    at = tenhou6.index(b"25000")
    (bad / "huge_score.json").write_bytes(tenhou6[:at] + b"7" * 100_000 + tenhou6[at + 5 :])
    (bad / "laughs.xml").write_bytes(BILLION_LAUGHS)
    (bad / "utf16.json").write_bytes(sample("majiang").decode().encode("utf-16"))
    (bad / "cut.jsonl").write_bytes(sample("mjai")[:5000])
    (bad / "nan.json").write_bytes(b'{"name": ["a", "b", "c", "d"], "log": [[[NaN]]]}')
    (bad / os.fsdecode(b"name\xff.json")).write_bytes(b"[[[")  # a file name that is not UTF-8
    good = LOGS / SAMPLES["tenhou6"]
    out = run(["replay", str(bad), str(good), "--json"], env={"LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    assert b"Traceback" not in out.stderr, out.stderr[-2000:]
    report = json.loads(out.stdout.decode("utf-8"))
    errors = {Path(e["file"]).name: e["error"] for e in report["errors"]}
    assert set(errors) == {
        "deep.json", "huge_score.json", "laughs.xml", "utf16.json", "cut.jsonl", "nan.json", "name\udcff.json"
    }
    for name, msg in errors.items():
        assert name in msg
        assert_readable(msg.split(name, 1)[1], limit=300)
    assert report["games"] == 1 and report["hands"] == report["hands_exact"] > 0 and not report["mismatches"]
    assert out.returncode == 1
