"""Loaders that turn the third-party hand datasets into scoring lines plus expected values.

This is a helper for the data-driven tests; it holds no tests itself. The datasets and their
formats are described in ``/work/shared/data/hands/README.md`` (override the directory with the
``JANTAKU_HANDS_DIR`` environment variable).

Every winning hand becomes one line of the CLI scoring grammar::

    <concealed tiles> [<meld> ...] (ron|tsumo) <winning tile> [flags]

* concealed tiles in compressed notation, sorted, **without** the winning tile (red five = ``0``,
  placed before the plain fives of its suit: ``4056p``);
* melds ``chi(345m) pon(555z) minkan(5555m) ankan(7777s) kakan(5055p)`` in call order, each
  sorted the same way;
* flags: ``seat= round= [from=] [dora=] [ura=] [riichi|double_riichi] [ippatsu] [haitei] [houtei]
  [rinshan] [chankan] [tenhou] [chiihou] [honba=N] [sticks=N] [kita=N] [players=N] ruleset=NAME``
  (optional flags only when they apply / are non-zero; ``kita=`` is always given for 3p).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypedDict

__all__ = [
    "DATA_DIR",
    "MAJIANG_YAKU",
    "MAJIANG_YAKUMAN",
    "MJSOUL_FAN_IDS",
    "SHANTEN_FILES",
    "KobalabExpected",
    "RiichienvExpected",
    "kobalab_cases",
    "negative_cases",
    "riichienv_cases",
    "shanten_cases",
]

# ``shared/`` sits beside the repository checkout (…/main and …/shared).
SHARED_DIR = Path(__file__).resolve().parents[3] / "shared"
DATA_DIR = Path(os.environ.get("JANTAKU_HANDS_DIR", str(SHARED_DIR / "data" / "hands")))

SHANTEN_FILES: tuple[str, ...] = (
    "p_normal_10000.txt",
    "p_hon_10000.txt",
    "p_tin_10000.txt",
    "p_koku_10000.txt",
)

WINDS = "ESWN"
RED_IDS_136 = frozenset({16, 52, 88})

# A tile here is (kind 0..33, is_red).
Tile = tuple[int, bool]


class KobalabExpected(TypedDict):
    yaku: list[tuple[str, int]]
    fu: int
    han: int
    yakuman: int
    points: int
    payments: dict[str, int]


class RiichienvExpected(TypedDict):
    han: int
    fu: int
    yaku: list[str]


# --------------------------------------------------------------------------------------------
# Yaku names
# --------------------------------------------------------------------------------------------

# Majiang (電脳麻将) yaku names → our ids. Every name lib/hule.js can emit is listed.
MAJIANG_YAKU: dict[str, str] = {
    "立直": "riichi",
    "ダブル立直": "double_riichi",
    "一発": "ippatsu",
    "門前清自摸和": "menzen_tsumo",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "翻牌 白": "haku",
    "翻牌 發": "hatsu",
    "翻牌 中": "chun",
    "場風 東": "round_wind",
    "場風 南": "round_wind",
    "場風 西": "round_wind",
    "場風 北": "round_wind",
    "自風 東": "seat_wind",
    "自風 南": "seat_wind",
    "自風 西": "seat_wind",
    "自風 北": "seat_wind",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "嶺上開花": "rinshan",
    "槍槓": "chankan",
    "七対子": "chiitoitsu",
    "三色同順": "sanshoku",
    "一気通貫": "ittsu",
    "混全帯幺九": "chanta",
    "対々和": "toitoi",
    "三暗刻": "sanankou",
    "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu",
    "小三元": "shousangen",
    "混老頭": "honroutou",
    "混一色": "honitsu",
    "純全帯幺九": "junchan",
    "二盃口": "ryanpeikou",
    "清一色": "chinitsu",
    "ドラ": "dora",
    "裏ドラ": "ura_dora",
    "赤ドラ": "aka_dora",
}

MAJIANG_YAKUMAN: dict[str, str] = {
    "天和": "tenhou",
    "地和": "chiihou",
    "国士無双": "kokushi",
    "国士無双十三面": "kokushi_13",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou_tanki",
    "大三元": "daisangen",
    "小四喜": "shousuushii",
    "大四喜": "daisuushii",
    "字一色": "tsuuiisou",
    "清老頭": "chinroutou",
    "緑一色": "ryuuiisou",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "junsei_chuuren",
    "四槓子": "suukantsu",
}

# Mahjong Soul fan ids (RiichiEnv yaku.rs) → our ids. 46 is unused by the data.
MJSOUL_FAN_IDS: dict[int, str] = {
    1: "menzen_tsumo",
    2: "riichi",
    3: "chankan",
    4: "rinshan",
    5: "haitei",
    6: "houtei",
    7: "haku",
    8: "hatsu",
    9: "chun",
    10: "seat_wind",
    11: "round_wind",
    12: "tanyao",
    13: "iipeikou",
    14: "pinfu",
    15: "chanta",
    16: "ittsu",
    17: "sanshoku",
    18: "double_riichi",
    19: "sanshoku_doukou",
    20: "sankantsu",
    21: "toitoi",
    22: "sanankou",
    23: "shousangen",
    24: "honroutou",
    25: "chiitoitsu",
    26: "junchan",
    27: "honitsu",
    28: "ryanpeikou",
    29: "chinitsu",
    30: "ippatsu",
    31: "dora",
    32: "aka_dora",
    33: "ura_dora",
    34: "kita",
    35: "tenhou",
    36: "chiihou",
    37: "daisangen",
    38: "suuankou",
    39: "tsuuiisou",
    40: "ryuuiisou",
    41: "chinroutou",
    42: "kokushi",
    43: "shousuushii",
    44: "suukantsu",
    45: "chuuren",
    47: "junsei_chuuren",
    48: "suuankou_tanki",
    49: "kokushi_13",
    50: "daisuushii",
}


# --------------------------------------------------------------------------------------------
# Notation helpers
# --------------------------------------------------------------------------------------------


def _tile_name(tile: Tile) -> tuple[str, str]:
    """(digit, suit letter) of a tile."""
    kind, red = tile
    if kind >= 27:
        return str(kind - 27 + 1), "z"
    suit = "mps"[kind // 9]
    return ("0" if red else str(kind % 9 + 1)), suit


def _compress(tiles: Iterable[Tile], *, sort: bool) -> str:
    """Compressed notation; with ``sort`` the tiles are ordered by kind, red five first."""
    seq = list(tiles)
    if sort:
        seq.sort(key=lambda t: (t[0], not t[1]))
    out: list[str] = []
    digits: list[str] = []
    cur = ""
    for tile in seq:
        d, s = _tile_name(tile)
        if s != cur and digits:
            out.append("".join(digits) + cur)
            digits = []
        cur = s
        digits.append(d)
    if digits:
        out.append("".join(digits) + cur)
    return "".join(out)


def _majiang_tile(suit: str, digit: str) -> Tile:
    n = int(digit)
    if suit == "z":
        if not 1 <= n <= 7:
            raise ValueError(f"bad honour tile {suit}{digit}")
        return 27 + n - 1, False
    base = "mps".index(suit) * 9
    if n == 0:
        return base + 4, True
    return base + n - 1, False


def _majiang_tiles(text: str) -> list[Tile]:
    """Parse Majiang's suit-first notation (``m345p406``) keeping order; direction markers are skipped."""
    out: list[Tile] = []
    suit = ""
    for ch in text:
        if ch in "mpsz":
            suit = ch
        elif ch.isdigit():
            if not suit:
                raise ValueError(f"digit before suit letter in {text!r}")
            out.append(_majiang_tile(suit, ch))
        elif ch in "+=-_":
            continue
        else:
            raise ValueError(f"unexpected character {ch!r} in {text!r}")
    return out


_MAJIANG_MELD = re.compile(r"^([mpsz])(\d+)([+=-]?)(\d?)([+=-]?)$")


def _majiang_meld(text: str) -> str:
    """``m3-45`` → ``chi(345m)``, ``z555=`` → ``pon(555z)``, ``s555+5`` → ``kakan(5555s)``,
    ``p5555`` → ``ankan(5555p)``, ``m5555+`` → ``minkan(5555m)``."""
    digits = [c for c in text[1:] if c.isdigit()]
    markers = [i for i, c in enumerate(text) if c in "+=-"]
    tiles = _majiang_tiles(text)
    kinds = sorted(t[0] for t in tiles)
    if len(markers) > 1:
        raise ValueError(f"meld {text!r} has more than one direction marker")
    if len(digits) == 3:
        if not markers:
            raise ValueError(f"three-tile meld {text!r} without a direction marker")
        if kinds[0] == kinds[1] == kinds[2]:
            kind = "pon"
        elif kinds[1] == kinds[0] + 1 and kinds[2] == kinds[0] + 2 and text[0] != "z":
            kind = "chi"
        else:
            raise ValueError(f"meld {text!r} is neither a run nor a triplet")
    elif len(digits) == 4:
        if len(set(kinds)) != 1:
            raise ValueError(f"kan {text!r} has mixed tiles")
        if not markers:
            kind = "ankan"
        elif markers[0] == len(text) - 1:
            kind = "minkan"
        else:
            kind = "kakan"
    else:
        raise ValueError(f"meld {text!r} has {len(digits)} tiles")
    return f"{kind}({_compress(tiles, sort=True)})"


def _tile136(tile_id: int) -> Tile:
    if not 0 <= tile_id < 136:
        raise ValueError(f"bad 136-id {tile_id}")
    return tile_id // 4, tile_id in RED_IDS_136


# --------------------------------------------------------------------------------------------
# kobalab / majiang-core hule.json
# --------------------------------------------------------------------------------------------

_DIRECTION_OFFSET = {"-": 3, "=": 2, "+": 1}  # kamicha, toimen, shimocha


def _kobalab_yaku(hupai: Sequence[dict[str, Any]]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for h in hupai:
        name = h["name"]
        fanshu = h["fanshu"]
        if name in MAJIANG_YAKUMAN:
            if not isinstance(fanshu, str) or set(fanshu) != {"*"}:
                raise ValueError(f"yakuman {name} with fanshu {fanshu!r}")
            out.append((MAJIANG_YAKUMAN[name], 13 * len(fanshu)))
        elif name in MAJIANG_YAKU:
            if not isinstance(fanshu, int) or isinstance(fanshu, bool):
                raise ValueError(f"yaku {name} with fanshu {fanshu!r}")
            out.append((MAJIANG_YAKU[name], fanshu))
        else:
            raise ValueError(f"unknown Majiang yaku name {name!r}")
    return sorted(out)


def _kobalab_line(case_in: dict[str, Any]) -> str:
    parts = case_in["shoupai"].split(",")
    concealed = _majiang_tiles(parts[0])
    melds = [_majiang_meld(m) for m in parts[1:] if m]
    param = case_in["param"]
    seat = int(param["menfeng"])
    rongpai = case_in.get("rongpai")
    flags = [f"seat={WINDS[seat]}", f"round={WINDS[int(param['zhuangfeng'])]}"]
    if rongpai:
        m = re.fullmatch(r"([mpsz]\d)([+=-])", rongpai)
        if not m:
            raise ValueError(f"bad rongpai {rongpai!r}")
        win = _majiang_tiles(m.group(1))[0]
        how = "ron"
        flags.append(f"from={WINDS[(seat + _DIRECTION_OFFSET[m.group(2)]) % 4]}")
    else:
        win = concealed.pop()
        how = "tsumo"
    hupai: dict[str, Any] = param.get("hupai") or {}
    lizhi = int(hupai.get("lizhi") or 0)
    if param.get("baopai"):
        flags.append("dora=" + _compress(_majiang_tiles("".join(param["baopai"])), sort=False))
    if lizhi and param.get("fubaopai"):
        flags.append("ura=" + _compress(_majiang_tiles("".join(param["fubaopai"])), sort=False))
    if lizhi == 1:
        flags.append("riichi")
    elif lizhi == 2:
        flags.append("double_riichi")
    if hupai.get("yifa"):
        flags.append("ippatsu")
    haidi = int(hupai.get("haidi") or 0)
    if haidi == 1:
        flags.append("haitei")
    elif haidi == 2:
        flags.append("houtei")
    if hupai.get("lingshang"):
        flags.append("rinshan")
    if hupai.get("qianggang"):
        flags.append("chankan")
    tianhu = int(hupai.get("tianhu") or 0)
    if tianhu == 1:
        flags.append("tenhou")
    elif tianhu == 2:
        flags.append("chiihou")
    jicun = param.get("jicun") or {}
    if jicun.get("changbang"):
        flags.append(f"honba={int(jicun['changbang'])}")
    if jicun.get("lizhibang"):
        flags.append(f"sticks={int(jicun['lizhibang'])}")
    flags.append("ruleset=majiang")
    return " ".join([_compress(concealed, sort=True), *melds, how, _compress([win], sort=False), *flags])


def kobalab_cases() -> list[tuple[str, KobalabExpected]]:
    """The 10,000 majiang-core hands: (line, expected yaku/fu/han/yakuman/points/payments)."""
    data = json.loads((DATA_DIR / "kobalab_majiang-core_hule.json").read_text(encoding="utf-8"))
    out: list[tuple[str, KobalabExpected]] = []
    for case in data:
        res = case["out"]
        expected: KobalabExpected = {
            "yaku": _kobalab_yaku(res["hupai"]),
            "fu": int(res["fu"] or 0),
            "han": int(res["fanshu"] or 0),
            "yakuman": int(res["damanguan"] or 0),
            "points": int(res["defen"]),
            "payments": {WINDS[i]: int(v) for i, v in enumerate(res["fenpei"])},
        }
        out.append((_kobalab_line(case["in"]), expected))
    return out


# --------------------------------------------------------------------------------------------
# RiichiEnv agari_4p.json / agari_3p.json
# --------------------------------------------------------------------------------------------

_RIICHIENV_MELD = {"chi": "chi", "pon": "pon", "daiminkan": "minkan", "kakan": "kakan", "ankan": "ankan"}


def _riichienv_meld(meld: dict[str, Any]) -> str:
    kind = _RIICHIENV_MELD.get(meld["meld_type"])
    if kind is None:
        raise ValueError(f"unknown meld type {meld['meld_type']!r}")
    tiles = [_tile136(t) for t in meld["tiles"]]
    want = 3 if kind in ("chi", "pon") else 4
    if len(tiles) != want:
        raise ValueError(f"{kind} with {len(tiles)} tiles: {meld}")
    return f"{kind}({_compress(tiles, sort=True)})"


def _riichienv_line(case: dict[str, Any], players: int) -> str:
    cond = case["conditions"]
    seat = int(cond["player_wind"])
    ids = list(case["tiles_136"])
    if len(ids) + 3 * len(case["melds"]) == 14 and case["win_tile_136"] in ids:
        # One synthetic 4p case (tsuuiisou/daisuushii/suuankou tanki) lists the winning tile
        # inside tiles_136 as well; drop that copy so the hand has 14 tiles.
        ids.remove(case["win_tile_136"])
    concealed = [_tile136(t) for t in ids]
    melds = [_riichienv_meld(m) for m in case["melds"]]
    win = _tile136(case["win_tile_136"])
    how = "tsumo" if cond["tsumo"] else "ron"
    flags = [f"seat={WINDS[seat]}", f"round={WINDS[int(cond['round_wind'])]}"]
    if case.get("dora_indicators"):
        flags.append("dora=" + _compress([_tile136(t) for t in case["dora_indicators"]], sort=False))
    riichi = bool(cond.get("riichi") or cond.get("double_riichi"))
    if riichi and case.get("ura_indicators"):
        flags.append("ura=" + _compress([_tile136(t) for t in case["ura_indicators"]], sort=False))
    if cond.get("double_riichi"):
        flags.append("double_riichi")
    elif cond.get("riichi"):
        flags.append("riichi")
    for key in ("ippatsu", "haitei", "houtei", "rinshan", "chankan"):
        if cond.get(key):
            flags.append(key)
    if cond.get("tsumo_first_turn"):
        flags.append("tenhou" if seat == 0 else "chiihou")
    if cond.get("honba"):
        flags.append(f"honba={int(cond['honba'])}")
    if players == 3:
        flags += [f"kita={int(cond.get('kita_count') or 0)}", "players=3", "ruleset=tenhou"]
    else:
        flags.append("ruleset=riichi")
    return " ".join([_compress(concealed, sort=True), *melds, how, _compress([win], sort=False), *flags])


def riichienv_cases(players: int) -> list[tuple[str, RiichienvExpected]]:
    """RiichiEnv's 816 (4p) or 402 (3p) hands: (line, expected han/fu/yaku set)."""
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players}")
    path = DATA_DIR / f"riichienv_agari_{players}p.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    out: list[tuple[str, RiichienvExpected]] = []
    for case in data["cases"]:
        if int(case["conditions"]["num_players"]) != players:
            raise ValueError(f"{path.name}: case for {case['conditions']['num_players']} players")
        exp = case["expected"]
        yaku: list[str] = []
        for fan_id in exp["yaku"]:
            if fan_id not in MJSOUL_FAN_IDS:
                raise ValueError(f"unknown Mahjong Soul fan id {fan_id}")
            yaku.append(MJSOUL_FAN_IDS[fan_id])
        expected: RiichienvExpected = {"han": int(exp["han"]), "fu": int(exp["fu"]), "yaku": sorted(yaku)}
        out.append((_riichienv_line(case, players), expected))
    return out


# --------------------------------------------------------------------------------------------
# Tenpai negatives and shanten sets
# --------------------------------------------------------------------------------------------


def negative_cases() -> list[tuple[list[int], bool]]:
    """RiichiEnv's 200 13-tile hands: (counts per kind 0..33, is_tenpai)."""
    data = json.loads((DATA_DIR / "riichienv_hands_negative.json").read_text(encoding="utf-8"))
    out: list[tuple[list[int], bool]] = []
    for case in data["cases"]:
        counts = [int(c) for c in case["counts_34"]]
        if len(counts) != 34 or sum(counts) != 13:
            raise ValueError(f"bad counts_34 {counts}")
        out.append((counts, bool(case["is_tenpai"])))
    return out


def shanten_cases() -> list[tuple[str, list[int], tuple[int, int, int]]]:
    """The 4 × 10,000 shanten vectors: (file name, 14 kinds, (standard, kokushi, chiitoitsu))."""
    out: list[tuple[str, list[int], tuple[int, int, int]]] = []
    for name in SHANTEN_FILES:
        for lineno, line in enumerate((DATA_DIR / "shanten" / name).read_text().splitlines(), 1):
            if not line.strip():
                continue
            nums = [int(x) for x in line.split()]
            if len(nums) != 17:
                raise ValueError(f"{name}:{lineno}: expected 17 numbers, got {len(nums)}")
            out.append((name, nums[:14], (nums[14], nums[15], nums[16])))
    return out
