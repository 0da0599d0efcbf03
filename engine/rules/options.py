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
            "Renhou, a ron before your first draw with no call made: off, a 5-han yaku (mangan) or yakuman",
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
    # -- chombo (a false win or another hand-ending foul), as a score sheet keeps it ------------------
    chombo: str = field(
        default="mangan",
        metadata=opt(
            "Chombo: the offender pays a mangan as if the others had won by tsumo and the hand is replayed, "
            "or loses chombo_penalty points from the final result (EMA, WRC)",
            "chombo",
            ("mangan", "penalty"),
        ),
    )  # the table never sees a chombo; the score sheet (engine.sheet) applies it
    chombo_penalty: int = field(
        default=20000, metadata=opt("Chombo as a penalty: points taken off the offender's final result", "chombo")
    )

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

# -- Presets from published rulebooks ---------------------------------------------------------
# Every option is written out, even where it equals the default, so that each line can be checked
# against the book. "§" numbers are the book's own; where the value comes from the governing
# body's notes or from a secondary source instead of the book's text, the comment says so.

# EMA Riichi Competition Rules ("Rules for Japanese Mahjong", European Mahjong Association,
# 2016 edition, in force from 1 April 2016). Read: the 2016 text as published on ooyamaneko.net
# (RCR_2016_en, §3.4, §3.4.2, §3.4.9, §3.4.10, §4.3 and its table of contents) and the EMA's
# announcement of the 2016 revision on mahjong-europe.org ("Revised EMA Riichi rules are ready",
# called "2016 notes" below).
EMA = RiichiOptions(
    players=4,
    red_fives=(0, 0, 0),  # EMA 2016 notes: "Red fives have been removed"
    start_points=30000,  # EMA 2016 §5.9 (not read; as Pantheon's EMA ruleset)
    return_points=30000,  # no oka (not read; Pantheon's EMA ruleset has oka 0)
    uma=(15, 5, -5, -15),  # EMA 2016 notes: "Uma is changed to 15,000/5,000/-5,000/-15,000"
    tobi=False,  # EMA 2016 §3.6: the hanchan is played out below zero (not read; Pantheon's EMA)
    agari_yame=False,  # EMA 2016 §3.6 (not read): riichi.wiki, "End game scenarios": a dealer
    # who wins all last always starts a new renchan "in WRC rules, EMA rules"
    tenpai_yame=False,  # EMA 2016 §3.4.11: the tenpai dealer repeats (not read; as WRC §5.7.8)
    west_extension=False,  # EMA 2016 §3.6: the game is the East and South rounds
    extension_renchan_continues=False,  # no extension round, so nothing to continue
    hanchan=True,  # EMA 2016 §3.5: East then South round (not read; as WRC §5.8)
    kuitan=True,  # EMA 2016 notes: "Tanyao (All Simples) can be an open hand"
    atozuke=True,  # EMA 2016 §3.3.11: a win needs at least one yaku, wherever it comes from
    multi_ron="triple",  # EMA 2016 §3.4.9: "one or more players declaring a win", each paid in
    # full; notes: "Multiple winners are allowed"
    kiriage=False,  # EMA 2016 notes: "4-30 is not rounded to mangan"; §4.3 example 2 pays 7700
    kazoe="sanbaiman",  # EMA 2016 notes: "A hand with 13+ fan is scored as a sanbaiman"
    double_yakuman=False,  # EMA 2016 notes: "Dai suushii is a yakuman, not a double yakuman"
    yakuman_stacking=False,  # EMA §4.2.5 (2016 not read): "Yakuman are not cumulative" (riichi.wiki's
    # EMA page, written for the 2012 rules)
    nagashi_mangan=False,  # EMA 2016 notes: "Nagashi Mangan is not allowed" (§4.2.6 obsolete)
    abortive_draws=AbortiveDraws(  # EMA 2016 §3.4: a hand ends by exhaustive draw or by a win;
        kyuushu_kyuuhai=False,  # notes: "Abortive draws are not allowed"
        suufon_renda=False,
        suucha_riichi=False,
        suukaikan=False,
        sanchahou=False,  # three rons are three wins (§3.4.9), never a draw
    ),
    pao=("daisangen", "daisuushii"),  # EMA 2016 §3.3.9 "Liability: third melded dragon pung
    # and fourth melded wind pung"
    renhou="mangan",  # EMA 2016 notes: "Renho (Blessing of Man) is a mangan, not a yakuman"
    double_wind_pair_fu=4,  # EMA 2016 §4.1.1: not found in the text read. Public scorers differ
    # (riichi-pointer-js adds the seat and prevalent wind pair minipoints: 4; a Rust scorer's
    # EMA2016 says 2 "TODO: verify"); the sum of the two pair items chosen (check the book)
    kita=False,  # a 4-player rule
    tsumo_loss=True,  # 3-player only: unused with 4 players
    honba_ron=300,  # EMA 2016 §3.4.10: each counter adds 300 to a winning hand
    honba_tsumo=100,  # EMA 2016 §3.4.10: "each opponent pays 100 points for each counter"
    noten_total=3000,  # EMA 2016 §3.4.2: "The total noten penalty amounts to 3000 points"
    riichi_min_live=4,  # EMA §3.3.14: no riichi with fewer than four tiles left in the wall (the
    # 2012 text; the 2016 section was not read)
    chombo="penalty",  # EMA 2016 notes: the chombo penalty is 20,000 points after uma
    chombo_penalty=20000,
)
# Not played as the EMA 2016 book says (no engine option):
# - equal final scores share the uma (Pantheon's EMA ruleset; §3.6 not read); the engine ranks
#   equal scores by seat order.
# - the other penalties of §5 (the chombo penalty is the score sheet's, options chombo/chombo_penalty).
# - with several rons, riichi sticks left on the table go to the winner nearest the discarder's
#   right (§4.1, 2012 text); the engine's own multi-ron split applies.
# - liability (§3.3.9): on a ron the liable player shares the hand but "only the discarder pays
#   for any counters" (2012 text); the engine charges the counters to the liable player.
# - renhou "is a mangan": played as a 5-han yaku counted with the other yaku (the WRC reading);
#   the book's text read here does not say whether it adds to them.
# - dora from a kan are turned at once (riichi.wiki's EMA page); the engine keeps its own timing.
# - temporary furiten, claim timing (pung before chow) and etiquette rules.
# Played as the book says without an option: kuikae (swap-calling) is forbidden (§3.3.2), and
# riichi sticks left at the end of the game go to the winner (2016 notes; §3.6.1 "Winner bonus").

# World Riichi Championship Rules, 2022 edition (worldriichi.org, WRC_Rules_2022_20220708). The
# 2022 PDF itself could not be read here: the values below come from the 2015 edition's text on
# ooyamaneko.net (WRC_2015: §5.7, §5.7.6, §5.7.7, §5.7.8 and the table of contents; section
# numbers below are the 2015 edition's), the 2022 changes as summarised by the Belgian federation
# (mahjongbelgium.be, "Aangepaste spelregels WRC", 2 April 2022: "2022 changes" below) and
# riichi.wiki's "World Riichi Championship rules" page.
WRC = RiichiOptions(
    players=4,
    red_fives=(0, 0, 0),  # WRC §3.3 (not read): none assumed; riichi.wiki does not mention them,
    # and a public Rust WRC2022 scorer counts red fives (check the book)
    start_points=30000,  # WRC §4.1 "Starting points" (30,000: riichi.wiki)
    return_points=30000,  # WRC §5.9.2: score = (points - 30,000) / 1,000 + uma, no oka
    uma=(15, 5, -5, -15),  # WRC §5.9.2: +15 / +5 / -5 / -15 (riichi.wiki)
    tobi=False,  # WRC §5.9: no bust (not read; Pantheon's WRC ruleset; riichi.wiki's infobox
    # says "Game end": ambiguous, tournament practice chosen)
    agari_yame=False,  # WRC §5.9.1 "No agari yame" (and riichi.wiki, "End game scenarios")
    tenpai_yame=False,  # WRC §5.7.8: the tenpai dealer stays East
    west_extension=False,  # WRC §5.8-5.9: East and South rounds only
    extension_renchan_continues=False,  # no extension round, so nothing to continue
    hanchan=True,  # WRC §5.8: the South round follows the East round
    kuitan=True,  # WRC §6.5.1: open tanyao allowed (riichi.wiki; the 2014 errata)
    atozuke=True,  # riichi.wiki: "Kuitan, atozuke: Ari-Ari"
    multi_ron="head_bump",  # WRC §5.7.6: "only the player closer to the discarder ... will win"
    kiriage=True,  # WRC §6.1: 4-30 pays mangan (EMA 2016 notes list "4-30 is not rounded to
    # mangan" as a difference from WRC 2015)
    kazoe="sanbaiman",  # 2022 changes: 13+ fan without a yakuman is capped at sanbaiman
    double_yakuman=False,  # riichi.wiki: "Every yakuman is counted as single yakuman"
    yakuman_stacking=True,  # 2022 changes: several yakuman in one hand count double or triple
    nagashi_mangan=False,  # not among the WRC yaku (not read in the book; Pantheon's WRC)
    abortive_draws=AbortiveDraws(  # WRC §5.7: "There are no abortive draws."
        kyuushu_kyuuhai=False,
        suufon_renda=False,
        suucha_riichi=False,
        suukaikan=False,
        sanchahou=False,  # three rons: the head bump gives the win to one player (§5.7.6)
    ),
    pao=("daisangen", "daisuushii"),  # WRC §6.2 "Liability payment" (2022 changes: third dragon,
    # fourth wind); the 2014 errata: "There is no daiminkan liability"
    renhou="mangan",  # WRC §6.5.4 "Mangan yaku" (2014 errata: cumulative with yaku and dora)
    double_wind_pair_fu=4,  # WRC §6.3: not read; public scorers differ (riichi-pointer-js 4, a
    # Rust WRC2022 scorer 2); as EMA, the seat and prevailing wind items added (check the book)
    kita=False,  # a 4-player rule
    tsumo_loss=True,  # 3-player only: unused with 4 players
    honba_ron=300,  # WRC §5.7.7: each continuance counter adds 300 points
    honba_tsumo=100,  # WRC §5.7.7: "each opponent pays 100 points for each continuance counter"
    noten_total=3000,  # WRC §5.7.2: 3,000 noten penalty (as EMA §3.4.2; not read in WRC text)
    riichi_min_live=4,  # WRC §5.3: riichi needs four tiles left in the wall (not read)
    chombo="penalty",  # WRC §7 (not read): a penalty on the final result, 30,000 in 2022 (as noted below)
    chombo_penalty=30000,
)
# Not played as the WRC 2022 book says (no engine option):
# - ties share the uma (riichi.wiki: "uma is averaged"); the engine ranks ties by seat order.
# - riichi sticks left at the end of the game: the EMA 2016 notes list "Riichi bets at game end
#   go to the winner" as an EMA difference from WRC 2015; the engine gives them to the top player.
# - dead hands and the other penalties of §7 (chombo, 30,000 in 2022: the score sheet's, options
#   chombo/chombo_penalty).
# - a hand of four kans and 16 dora stays a single yakuman (2022 changes): no engine option.
# Played as the book says without an option: kuikae (swap-calling) is forbidden (§5.4).

PRESETS: dict[str, RiichiOptions] = {
    "riichi": DEFAULT,
    "tenhou": TENHOU,
    "mleague": MLEAGUE,
    "majiang": MAJIANG,
    "mahjongsoul": MAHJONGSOUL,
    "sanma": TENHOU_SANMA,
    "ema": EMA,
    "wrc": WRC,
}
