"""Riichi options (riichi.md §16) as one frozen object, with the presets of §18.

Every key of §16 is a field with the spec's default. Variants and presets are
``dataclasses.replace`` of the default; nothing reads a global.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortiveDraws:
    kyuushu_kyuuhai: bool = True
    suufon_renda: bool = True
    suucha_riichi: bool = True
    suukaikan: bool = True
    sanchahou: bool = True  # a triple ron is an abortive draw (only with multi_ron != "triple")


@dataclass(frozen=True, slots=True, kw_only=True)
class RiichiOptions:
    players: int = 4
    red_fives: tuple[int, int, int] = (1, 1, 1)  # m, p, s
    start_points: int = 25000
    return_points: int = 30000
    uma: tuple[int, ...] = (20, 10, -10, -20)
    tobi: bool = True
    agari_yame: bool = True
    tenpai_yame: bool = False  # no tenpai-yame by default; Tenhou itself stops on it
    west_extension: bool = False
    # In the extension, does a dealer renchan continue even when someone has the return points?
    # says the game ends after any such hand; Tenhou's logs show the renchan going on.
    extension_renchan_continues: bool = False
    hanchan: bool = True  # False = tonpuu (East round only)
    kuitan: bool = True
    atozuke: bool = True
    multi_ron: str = "double"  # "double" | "head_bump" | "triple"
    kiriage: bool = False
    kazoe: str = "yakuman"  # "yakuman" | "sanbaiman"
    double_yakuman: bool = False
    yakuman_stacking: bool = True
    nagashi_mangan: bool = True
    abortive_draws: AbortiveDraws = field(default_factory=AbortiveDraws)
    pao: tuple[str, ...] = ("daisangen", "daisuushii")
    renhou: str = "off"  # "off" | "mangan" | "yakuman"
    double_wind_pair_fu: int = 4
    # -- 3-player (Tenhou sanma) ---------------------------------------------------------------
    kita: bool = False  # North is set aside as nuki-dora
    tsumo_loss: bool = True  # 3p tsumo: the absent North share is not paid
    honba_ron: int = 300  # per honba, paid by the discarder
    honba_tsumo: int = 100  # per honba, paid by each payer
    noten_total: int = 3000  # R-11.1 (2000 in sanma)
    riichi_min_live: int = 4  # tiles left in the live wall to declare (Tenhou sanma: 3)

    def with_(self, **changes: Any) -> RiichiOptions:
        return replace(self, **changes)

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in fields(cls)]


DEFAULT = RiichiOptions()
# What Tenhou itself does where riichi.md picks a simpler default (checked on the Tenhou logs):
# West (or South, in tonpuu) sudden-death extension, and the all-last dealer stopping when tenpai
# and top.
TENHOU = DEFAULT.with_(west_extension=True, tenpai_yame=True, extension_renchan_continues=True)
TENHOU_SANMA = RiichiOptions(
    players=3,
    red_fives=(0, 1, 1),
    start_points=35000,
    return_points=40000,
    uma=(15, 0, -15),
    kita=True,
    tsumo_loss=True,
    honba_ron=200,
    honba_tsumo=100,
    noten_total=2000,
    riichi_min_live=3,
    west_extension=True,
    extension_renchan_continues=True,
    tenpai_yame=True,
    abortive_draws=AbortiveDraws(suufon_renda=False),
)
MLEAGUE = RiichiOptions(
    uma=(30, 10, -10, -30),
    tobi=False,
    agari_yame=False,
    multi_ron="head_bump",
    kiriage=True,
    nagashi_mangan=False,
    abortive_draws=AbortiveDraws(
        kyuushu_kyuuhai=True, suufon_renda=False, suucha_riichi=True, suukaikan=True, sanchahou=False
    ),
    kazoe="sanbaiman",
    pao=("daisangen", "daisuushii", "suukantsu"),
)
# kobalab/majiang-core's default rule (lib/rule.js): Tenhou-like, but double yakuman count double.
MAJIANG = RiichiOptions(double_yakuman=True, west_extension=True, tenpai_yame=True)
# Mahjong Soul's 4-player rule as far as hand value goes: the pure yakuman forms count double.
MAHJONGSOUL = RiichiOptions(double_yakuman=True)

PRESETS: dict[str, RiichiOptions] = {
    "riichi": DEFAULT,
    "tenhou": TENHOU,
    "mleague": MLEAGUE,
    "majiang": MAJIANG,
    "mahjongsoul": MAHJONGSOUL,
    "sanma": TENHOU_SANMA,
}
