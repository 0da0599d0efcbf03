"""A format-neutral game record: what every log importer produces and every exporter reads.

Importers (Tenhou mjlog XML, tenhou.net/6 JSON, mjai, Majiang) turn a file into a
:class:`GameRecord`; the replayer (``engine.logs.replay``) maps its events onto engine actions
and compares the recorded outcomes (deltas, final scores) with the engine's.

Tiles are **tile codes** (see :mod:`engine.tiles`: kind ``0..33`` with the ``RED`` bit for a red
five), because that is the common denominator of the formats (only Tenhou XML has physical ids).
Seats are absolute seat indices ``0..n-1`` in the order of the log's player list; the dealer of a
hand is ``HandRecord.dealer``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class LogFormatError(ValueError):
    """A log file that cannot be read: malformed, truncated or of an unknown format."""


class CallKind(StrEnum):
    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    ANKAN = "ankan"
    KAKAN = "kakan"
    KITA = "kita"


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    tile: int
    rinshan: bool = False  # replacement draw after a kan or kita, when the format says so


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    tile: int
    tsumogiri: bool | None = None  # None = the format does not say
    riichi: bool = False  # this discard declares riichi


@dataclass(frozen=True, slots=True)
class Call:
    """chi / pon / daiminkan (``from_seat`` set, ``tile`` = the claimed tile), ankan, kakan, kita.

    ``consumed`` are the caller's own tiles that go into the meld: two for chi/pon, three for
    daiminkan, four for ankan, one (the added tile, same as ``tile``) for kakan, one for kita.
    """

    seat: int
    kind: CallKind
    tile: int
    consumed: tuple[int, ...]
    from_seat: int | None = None


@dataclass(frozen=True, slots=True)
class NewDora:
    indicator: int


@dataclass(frozen=True, slots=True)
class RiichiAccepted:
    seat: int


@dataclass(frozen=True, slots=True)
class Win:
    """One winner. A double ron is two consecutive ``Win`` events."""

    seat: int
    from_seat: int  # == seat for tsumo
    win_tile: int
    deltas: tuple[int, ...]  # score change of every seat in points, honba and sticks included
    hand: tuple[int, ...] = ()  # the winner's concealed tiles including the winning tile, if given
    ura_indicators: tuple[int, ...] = ()
    dora_indicators: tuple[int, ...] = ()  # all revealed indicators at the win, if given
    fu: int | None = None
    han: int | None = None
    points: int | None = None  # hand value without honba and sticks (Tenhou's ten[1])
    yakuman: int | None = None  # number of yakuman (0 for an ordinary hand), if given
    yaku: tuple[tuple[str, int], ...] = ()  # (format's yaku id or name, han) as recorded
    pao_seat: int | None = None


class DrawKind(StrEnum):
    EXHAUSTIVE = "exhaustive"
    NAGASHI = "nagashi_mangan"  # exhaustive draw settled by nagashi mangan
    NINE_TERMINALS = "kyuushu_kyuuhai"
    FOUR_WINDS = "suufon_renda"
    FOUR_RIICHI = "suucha_riichi"
    FOUR_KANS = "suukaikan"
    TRIPLE_RON = "sanchahou"


@dataclass(frozen=True, slots=True)
class HandDraw:
    kind: DrawKind
    deltas: tuple[int, ...]
    tenpai: tuple[int, ...] | None = None  # seats shown tenpai, if the format says


Event = Draw | Discard | Call | NewDora | RiichiAccepted | Win | HandDraw


@dataclass(slots=True)
class HandRecord:
    round_wind: int  # 0 East, 1 South, 2 West, 3 North
    hand_number: int  # 0-based hand within the round (E1 = 0)
    honba: int
    sticks: int  # riichi sticks on the table at the start of the hand
    dealer: int  # absolute seat
    scores: tuple[int, ...]  # each seat's points at the start of the hand
    dora_indicators: tuple[int, ...]  # indicators shown at the start (normally one)
    haipai: tuple[tuple[int, ...], ...]  # each seat's 13 starting tiles (dealer's 14th is its first Draw)
    events: list[Event] = field(default_factory=list)
    wall: tuple[int, ...] | None = None  # physical wall, when the format gives it (Tenhou seed)


@dataclass(slots=True)
class RuleInfo:
    players: int = 4
    red_fives: bool = True
    kuitan: bool = True
    hanchan: bool = True  # False = tonpuu (East only)
    start_points: int = 25000
    standard: bool = True  # False = a lobby with non-standard rules (chips, skill games, custom)
    why_nonstandard: str = ""
    source: str = ""  # "tenhou" | "mahjongsoul" | "majiang" | "mjai" | ...
    # The exact engine ruleset, when the log names it (Jantaku's own exports, under the key
    # RULESET_KEY): its registered name and the options that differ from that ruleset's preset, as
    # JSON values. engine.logs.replay.ruleset_for prefers it to the fields above.
    ruleset: str = ""
    ruleset_options: dict[str, Any] = field(default_factory=dict)


#: The key of a Jantaku export's ruleset entry: top level in tenhou.net/6 JSON, a field of mjai's
#: ``start_game``: ``{"ruleset": "mleague", "options": {"hanchan": false}}``.
RULESET_KEY = "jantaku"


def read_ruleset_entry(entry: object) -> tuple[str, dict[str, Any]]:
    """The ruleset name and changed options of a :data:`RULESET_KEY` entry (checked)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("ruleset"), str) or not entry["ruleset"]:
        raise LogFormatError(f'"{RULESET_KEY}" is not {{"ruleset": name, "options": {{...}}}}')
    options = entry.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise LogFormatError(f'"{RULESET_KEY}": "options" is not an object of option values')
    return entry["ruleset"], dict(options)


@dataclass(slots=True)
class GameRecord:
    path: str
    format: str  # "tenhou_xml" | "tenhou6" | "mjai" | "majiang"
    rules: RuleInfo
    names: tuple[str, ...]
    hands: list[HandRecord] = field(default_factory=list)
    final_scores: tuple[int, ...] | None = None  # in points, leftover sticks included; None if not given
    final_results: tuple[float, ...] | None = None  # uma/oka-adjusted, if given
    complete: bool = True  # False when the log is a single-hand excerpt or stops early
