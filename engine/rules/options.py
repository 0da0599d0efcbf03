"""Riichi options (riichi.md §16) as one frozen object, with the presets of §18.

Every key of §16 is a field with the spec's default. Variants and presets are
``dataclasses.replace`` of the default; nothing reads a global.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


def opt(help: str, rule: str = "", choices: tuple[str, ...] = ()) -> dict[str, Any]:
    """An option field's metadata, read by engine.rules.catalog (the house-rule editor): a one-line
    description, the rule id and, for a text option, its allowed values."""
    return {"help": help, "rule": rule, "choices": choices}


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortiveDraws:
    kyuushu_kyuuhai: bool = field(
        default=True,
        metadata=opt("Nine different terminals and honours on the first draw may abort the hand", "R-12.1"),
    )
    suufon_renda: bool = field(
        default=True,
        metadata=opt("Four identical wind discards in the first go-around abort the hand", "R-12.2"),
    )
    suucha_riichi: bool = field(
        default=True, metadata=opt("Riichi by all four players aborts the hand", "R-12.3")
    )
    suukaikan: bool = field(
        default=True, metadata=opt("A fourth kan by a second player aborts the hand", "R-12.4")
    )
    sanchahou: bool = field(
        default=True,
        metadata=opt("Three rons on one discard abort the hand (when multi_ron is not triple)", "R-12.5"),
    )  # a triple ron is an abortive draw (only with multi_ron != "triple")


@dataclass(frozen=True, slots=True, kw_only=True)
class RiichiOptions:
    players: int = 4
    red_fives: tuple[int, int, int] = field(
        default=(1, 1, 1), metadata=opt("Red fives per suit: man, pin, sou", "R-1.2")
    )  # m, p, s
    start_points: int = field(default=25000, metadata=opt("Points each player starts with", "R-2.2"))
    return_points: int = field(
        default=30000, metadata=opt("Points returned at the end (the rest is the top bonus, oka)", "R-2.2")
    )
    uma: tuple[int, ...] = field(
        default=(20, 10, -10, -20), metadata=opt("Placement bonus in thousands, 1st to last", "R-2.7")
    )
    tobi: bool = field(default=True, metadata=opt("The game ends when a player drops below zero", "R-2.4"))
    agari_yame: bool = field(
        default=True, metadata=opt("The dealer may stop the last hand after winning in the lead", "R-2.5")
    )
    tenpai_yame: bool = field(
        default=False, metadata=opt("The dealer may stop the last hand when tenpai in the lead", "R-2.5")
    )  # no tenpai-yame by default; Tenhou itself stops on it
    west_extension: bool = field(
        default=False,
        metadata=opt("Play on into the next round when nobody reached the return points", "R-2.6"),
    )
    # In the extension, does a dealer renchan continue even when someone has the return points?
    # says the game ends after any such hand; Tenhou's logs show the renchan going on.
    extension_renchan_continues: bool = field(
        default=False,
        metadata=opt(
            "In the extension, a dealer repeat goes on even when someone has the return points", "R-2.6"
        ),
    )
    hanchan: bool = field(
        default=True, metadata=opt("East and South rounds (false: East round only, tonpuusen)", "R-2.1")
    )  # False = tonpuu (East round only)
    kuitan: bool = field(default=True, metadata=opt("All simples (tanyao) counts on an open hand", "R-6.5"))
    atozuke: bool = field(
        default=True, metadata=opt("A yaku may come only from the winning tile or a later call", "R-6.5")
    )
    multi_ron: str = field(
        default="double",
        metadata=opt(
            "Two rons on one discard: both win (double), the first in turn order wins (head_bump), or three may win (triple)",
            "R-6.7",
            ("double", "head_bump", "triple"),
        ),
    )  # "double" | "head_bump" | "triple"
    kiriage: bool = field(
        default=False, metadata=opt("4 han 30 fu and 3 han 60 fu are rounded up to mangan", "R-10.2")
    )
    kazoe: str = field(
        default="yakuman",
        metadata=opt(
            "13 han or more from ordinary yaku is a yakuman, or only sanbaiman",
            "R-8.3",
            ("yakuman", "sanbaiman"),
        ),
    )  # "yakuman" | "sanbaiman"
    double_yakuman: bool = field(
        default=False,
        metadata=opt(
            "Suuankou tanki, 13-sided kokushi, 9-sided chuuren and daisuushii count double", "R-8.2"
        ),
    )
    yakuman_stacking: bool = field(
        default=True, metadata=opt("Different yakuman in one hand add up", "R-8.2")
    )
    nagashi_mangan: bool = field(
        default=True,
        metadata=opt("Only terminals and honours discarded and none called: mangan at the draw", "R-11.3"),
    )
    abortive_draws: AbortiveDraws = field(default_factory=AbortiveDraws)  # each kind: ..R-12.5
    pao: tuple[str, ...] = field(
        default=("daisangen", "daisuushii"),
        metadata=opt(
            "Yakuman whose completing feed makes the feeder liable",
            "R-6.8",
            ("daisangen", "daisuushii", "suukantsu"),
        ),
    )
    renhou: str = field(
        default="off",
        metadata=opt(
            "A win before your first draw: not a yaku (off), mangan, or yakuman",
            "§7",
            ("off", "mangan", "yakuman"),
        ),
    )  # "off" | "mangan" | "yakuman"
    double_wind_pair_fu: int = field(
        default=4, metadata=opt("Fu for a pair of a wind that is both seat and round wind (2 or 4)", "R-9.5")
    )
    # -- 3-player (Tenhou sanma) ---------------------------------------------------------------
    kita: bool = field(
        default=False, metadata=opt("3 players: North is set aside as a dora (nukidora)", "sanma")
    )  # North is set aside as nuki-dora
    tsumo_loss: bool = field(
        default=True, metadata=opt("3 players: the absent North share of a tsumo is not paid", "sanma")
    )  # 3p tsumo: the absent North share is not paid
    honba_ron: int = field(
        default=300, metadata=opt("Honba bonus per counter on a ron, paid by the discarder", "R-10.4")
    )  # per honba, paid by the discarder
    honba_tsumo: int = field(
        default=100, metadata=opt("Honba bonus per counter on a tsumo, paid by each payer", "R-10.4")
    )  # per honba, paid by each payer
    noten_total: int = field(
        default=3000,
        metadata=opt("Points the noten players pay the tenpai players at an exhaustive draw", "R-11.1"),
    )  # R-11.1 (2000 in sanma)
    riichi_min_live: int = field(
        default=4, metadata=opt("Tiles that must be left in the live wall to declare riichi", "R-5.1")
    )  # tiles left in the live wall to declare (Tenhou sanma: 3)

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
