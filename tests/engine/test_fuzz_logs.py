"""Fuzz and malicious-input tests of every log importer (issue 16 item 5).

Real logs of every format (``../shared/data/logs/``: Tenhou XML, tenhou.net/6 JSON and mjx
lines, mjai, Majiang) are mutated by hypothesis (fixed example counts, derandomized): bit flips,
truncation, numbers swapped for huge, negative, fractional or non-ASCII ones, deep nesting,
other encodings. Hand-written files add the XML entity tricks (billion laughs, external and
parameter entities) and the issue's examples (200,000 ``[``, a 100,000-digit score).

Each case either reads (and then replays without any exception but ``LogFormatError``) or raises
:class:`LogFormatError` with one readable sentence naming the file - never another exception; the
file on disk is never changed, and the untouched logs still read exactly as before the fuzzing.
"""

from __future__ import annotations

import json
import re
import time
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.logs.detect import load_any, parse_any
from engine.logs.record import GameRecord, LogFormatError
from engine.logs.replay import ReplayReport, replay_record
from tests.engine.test_fuzz_notation import assert_readable

LOGS = Path(__file__).resolve().parents[3] / "shared" / "data" / "logs"

pytestmark = pytest.mark.skipif(not LOGS.is_dir(), reason=f"shared logs not found at {LOGS}")

#: One small real log of each format and shape.
SAMPLES = {
    "tenhou6": "tenhou6_json/riichi-rs/2022013100gm-00a9-0000-af91b2de.json",
    "mjx_lines": "tenhou6_json/mjx_mjscore_per_hand/2017040900gm-00a9-0000-af5434e3.jsonl",
    "mjai": "mjai_jsonl/riichienv_126_204_0_mjai.jsonl",
    "majiang": "majiang_json/kobalab_scenarios/scenario_08.json",
    "tenhou_xml": "tenhou_xml/mixed_4p/2017040900gm-00a9-0000-af5434e3.xml",
}


@cache
def sample(name: str) -> bytes:
    return (LOGS / SAMPLES[name]).read_bytes()


@cache
def baseline(name: str) -> GameRecord:
    (rec,) = load_any(LOGS / SAMPLES[name])
    return rec


def assert_log_error(err: LogFormatError, where: str) -> None:
    msg = str(err)
    assert msg.startswith(where), msg
    assert_readable(msg[len(where) :], limit=300)


def read_or_refuse(data: bytes, path: Path) -> list[GameRecord]:
    """Write ``data`` to ``path`` and read it back: records, or [] after a well-formed refusal.
    The file is never changed by reading it."""
    path.write_bytes(data)
    try:
        records = load_any(path)
    except LogFormatError as e:
        assert_log_error(e, str(path))
        records = []
    assert path.read_bytes() == data
    return records


def replay_or_refuse(records: list[GameRecord]) -> None:
    for rec in records:
        report = ReplayReport()
        try:
            replay_record(rec, report)
        except LogFormatError as e:
            assert_readable(str(e), limit=400)
        for m in report.mismatches:
            assert isinstance(m.what, str) and m.what
        for e in report.errors:
            assert_readable(e["error"], limit=400)


NUMBER_RE = re.compile(rb"-?[0-9]+")
#: A JSON number token (not a digit inside a string): after [ , or : and before , ] or }.
JSON_NUMBER_RE = re.compile(rb"(?<=[\[,:])-?[0-9]+(?=[,\]}])")
ODD_NUMBERS = [
    b"9" * 5000, b"-9" + b"9" * 100_000, b"-1", b"1e999", b"-1e999", b"0.5", b"NaN", b"Infinity",
    b"\xd9\xa3", b"\xef\xbc\x91", b"2147483648", b"99999999999", b"100", b"1_0", b"0x10", b"",
]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    """(format name, a real log with one mutation)."""
    name = draw(st.sampled_from(sorted(SAMPLES)))
    data = bytearray(sample(name))
    kind = draw(st.sampled_from(["flip", "truncate", "number", "nest", "encoding", "splice", "small", "small"]))
    if kind == "flip":
        for _ in range(draw(st.integers(1, 8))):
            at = draw(st.integers(0, len(data) - 1))
            data[at] ^= 1 << draw(st.integers(0, 7))
    elif kind == "truncate":
        data = data[: draw(st.integers(0, len(data) - 1))]
    elif kind == "number":
        numbers = list(NUMBER_RE.finditer(bytes(data)))
        for _ in range(draw(st.integers(1, 3))):
            m = numbers[draw(st.integers(0, len(numbers) - 1))]
            odd = draw(st.sampled_from(ODD_NUMBERS))
            data = data[: m.start()] + odd + data[m.end() :]
            numbers = list(NUMBER_RE.finditer(bytes(data)))
    elif kind == "nest":
        at = draw(st.integers(0, len(data)))
        depth = draw(st.sampled_from([50, 1000, 200_000]))
        opener = draw(st.sampled_from([b"[", b'{"a":']))
        data = data[:at] + opener * depth + data[at:]
    elif kind == "encoding":
        text = bytes(data).decode("utf-8")
        codec = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32", "latin-1", "cp932", "utf-8-sig"]))
        data = bytearray(text.encode(codec, errors="replace"))
    elif kind == "small":  # a plausible number in the wrong place: the log reads, the replay must cope
        numbers = list((NUMBER_RE if name == "tenhou_xml" else JSON_NUMBER_RE).finditer(bytes(data)))
        for _ in range(draw(st.integers(1, 3))):
            m = numbers[draw(st.integers(0, len(numbers) - 1))]
            small = str(draw(st.sampled_from([0, 1, 2, 3, 4, 5, 9, 13, 33, 37, 51, 60, 135, 136, -1]))).encode()
            data[m.start() : m.end()] = small
            numbers = list((NUMBER_RE if name == "tenhou_xml" else JSON_NUMBER_RE).finditer(bytes(data)))
    else:  # splice: a piece of another format inside this one
        other = sample(draw(st.sampled_from(sorted(SAMPLES))))
        at = draw(st.integers(0, len(data)))
        start = draw(st.integers(0, len(other) - 1))
        data = data[:at] + other[start : start + draw(st.integers(1, 400))] + data[at:]
    return name, bytes(data)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzzlogs")


@settings(
    max_examples=500,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=mutated())
def test_mutated_real_logs_read_and_replay_or_answer_one_sentence(case: tuple[str, bytes], scratch: Path) -> None:
    name, data = case
    records = read_or_refuse(data, scratch / Path(SAMPLES[name]).name)
    replay_or_refuse(records)
    event(f"{name}: {'read and replayed' if records else 'refused with a sentence'}")


def test_untouched_logs_read_the_same_after_fuzzing(scratch: Path) -> None:
    """No state change: after hundreds of bad files the real logs give the same records."""
    before = {name: baseline(name) for name in SAMPLES}
    for name in SAMPLES:
        for cut in (0.1, 0.5, 0.9):
            read_or_refuse(sample(name)[: int(len(sample(name)) * cut)], scratch / f"cut_{name}")
    for name, rec in before.items():
        (again,) = load_any(LOGS / SAMPLES[name])
        assert again == rec


# --- the issue's examples and the malicious files, one by one -----------------------------------


def _refused(data: bytes, path: Path, *fragments: str) -> str:
    path.write_bytes(data)
    t = time.perf_counter()
    with pytest.raises(LogFormatError) as err:
        load_any(path)
    assert time.perf_counter() - t < 5, "a malicious file must be refused quickly"
    assert_log_error(err.value, str(path))
    for f in fragments:
        assert f in str(err.value), str(err.value)
    return str(err.value)


@pytest.mark.parametrize("opener", ["[", '{"log":'])
def test_issue_16_deep_nesting_is_refused_before_parsing(opener: str, tmp_path: Path) -> None:
    _refused((opener * 200_000).encode(), tmp_path / "deep.json", "nested more than 40 levels")


@pytest.mark.parametrize("name", ["tenhou6", "majiang", "mjai", "mjx_lines"])
def test_issue_16_a_100000_digit_number_is_refused_naming_its_size(name: str, tmp_path: Path) -> None:
    data = sample(name)
    numbers = list(JSON_NUMBER_RE.finditer(data))
    assert len(numbers) > 20
    for m in numbers[1], numbers[len(numbers) // 2], numbers[-1]:
        huge = data[: m.start()] + b"1" * 100_000 + data[m.end() :]
        _refused(huge, tmp_path / Path(SAMPLES[name]).name, "a number 100,000 characters long")


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        ("tenhou6", "honba", 100),
        ("mjai", "honba", 100),
        ("majiang", "changbang", 100),
        ("tenhou6", "scores", 10**12),
    ],
)
def test_numbers_out_of_a_sane_range_are_named(name: str, field: str, value: int, tmp_path: Path) -> None:
    text = sample(name).decode("utf-8")
    if name == "tenhou6":
        obj = json.loads(text)
        if field == "honba":
            obj["log"][0][0][1] = value
        else:
            obj["log"][0][1][0] = value
        text = json.dumps(obj)
    elif name == "mjai":
        text = re.sub(r'"honba":\s*0', f'"honba": {value}', text, count=1)
    else:
        text = re.sub(r'"changbang":\s*0', f'"changbang": {value}', text, count=1)
    msg = _refused(text.encode(), tmp_path / Path(SAMPLES[name]).name)
    assert field in msg, msg
    assert str(value) in msg or "out of range" in msg or "from 0 to 99" in msg, msg


def test_tenhou_xml_huge_and_non_ascii_numbers_are_named(tmp_path: Path) -> None:
    text = sample("tenhou_xml").decode("utf-8")
    big = re.sub(r'ten="[0-9]+', 'ten="' + "9" * 100_000, text, count=1)
    msg = _refused(big.encode(), tmp_path / "big.xml", "ten=")
    assert len(msg) < len(str(tmp_path)) + 200
    arabic = re.sub(r'(<INIT [^>]*?)oya="[0-9]"', '\\1oya="\u0663"', text, count=1)
    _refused(arabic.encode(), tmp_path / "arabic.xml", "oya=", "not an integer")
    honba = re.sub(r'seed="([0-9]+),[0-9]+,', r'seed="\1,100,', text, count=1)
    _refused(honba.encode(), tmp_path / "honba.xml", "honba and sticks must be at most 99")


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<mjloggm ver="2.3"><UN n0="&lol9;" n1="a" n2="b" n3="c"/></mjloggm>
"""


def test_xml_billion_laughs_is_refused_without_expanding(tmp_path: Path) -> None:
    _refused(BILLION_LAUGHS, tmp_path / "laughs.xml", "document type declaration")


@pytest.mark.parametrize(
    "dtd",
    [
        '<!DOCTYPE m [<!ENTITY secret SYSTEM "file://{secret}">]>',
        '<!DOCTYPE m [<!ENTITY % p SYSTEM "file://{secret}"> %p;]>',
        '<!DOCTYPE m SYSTEM "file://{secret}">',
    ],
    ids=["external_entity", "parameter_entity", "external_dtd"],
)
def test_xml_external_entities_are_refused_and_never_read(dtd: str, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-SEED-1234")
    text = sample("tenhou_xml").decode("utf-8")
    head = text.index("<mjloggm")
    bad = text[:head] + dtd.format(secret=secret) + text[head:].replace('n0="', 'n0="&secret;', 1)
    msg = _refused(bad.encode(), tmp_path / "xxe.xml", "document type declaration")
    assert "TOP-SECRET" not in msg


def test_xml_undeclared_entity_is_a_sentence(tmp_path: Path) -> None:
    text = sample("tenhou_xml").decode("utf-8").replace('n0="', 'n0="&lol;', 1)
    _refused(text.encode(), tmp_path / "entity.xml", "not well-formed XML")


@pytest.mark.parametrize("codec", ["utf-16", "utf-32", "cp932"])
def test_other_encodings_are_named(codec: str, tmp_path: Path) -> None:
    data = sample("majiang").decode("utf-8").encode(codec)
    _refused(data, tmp_path / "enc.json", "UTF-8")


def test_parse_any_text_path_refuses_the_same_way() -> None:
    for text in ("[" * 200_000, '{"log": [' + "7" * 100_000 + "]}", "[NaN]", '{"qijia": 1e999}'):
        with pytest.raises(LogFormatError) as err:
            parse_any(text, "given.json")
        assert_log_error(err.value, "given.json")


# --- format detection on generated documents ------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["log", "name", "qijia", "player", "type", "rule", "title", "point", "x"]), inner, max_size=5
    ),
    max_leaves=30,
)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(
    doc=st.one_of(
        JSON_VALUES.map(json.dumps),
        st.lists(JSON_VALUES.map(json.dumps), min_size=1, max_size=4).map("\n".join),
        st.text(max_size=200),
        st.text(max_size=100).map(lambda t: "<mjloggm>" + t),
        st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    )
)
def test_format_detection_on_generated_documents_answers_or_refuses(doc: str) -> None:
    try:
        records = parse_any(doc, "generated.json")
    except LogFormatError as e:
        assert_log_error(e, "generated.json")
        event("refused with a sentence")
        return
    event("read")
    replay_or_refuse(records)


@pytest.mark.parametrize("value", ["nan", "1e999", "\u0663", "Infinity", "9" * 40])
def test_majiang_final_points_are_numbers_a_person_wrote(value: str, tmp_path: Path) -> None:
    text = sample("majiang").decode("utf-8")
    assert re.search(r'"point":\s*\["', text)
    bad = re.sub(r'("point":\s*\[)"[^"]*"', lambda m: m.group(1) + json.dumps(value), text, count=1)
    _refused(bad.encode(), tmp_path / "point.json", '"point"')
