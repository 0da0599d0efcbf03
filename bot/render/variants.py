"""What the variants show beyond riichi, for the presenter and its pictures.

The presenter (:mod:`bot.presenter`) asks here for everything that depends on the ruleset, and
these helpers ask the ruleset itself: its facts (``Ruleset``'s typed members with riichi's values as
defaults, :mod:`engine.rules.base`), never its name, so a new ruleset shows what it declares:

* seats and rounds: taiwan16's dice seating (``seat_wind_of``, TW-5), its rounds and continuation
  count (TW-3); chinitsu_toutenkou's numbered one-hand settlements (CT-A12);
* rivers: seigou's one slot per go-around, a claimed discard or a kan turn left blank
  (``river_slots``, SG-2) — blanks are :data:`~bot.render.canvas.BLANK` codes;
* what lies face up beside a seat: taiwan16's flowers (TW-7), nuki/kita (CT-D1, sanma), an open
  riichi's shown hand (``shown_tiles``, CT-F2); shoukou melds with each tile's effective kind
  (SK-D4);
* warnings under a hand: furiten and "complete but cannot win" with the ruleset's reason (pk
  PK-4/PK-6/PK-7, taiwan16 TW-10), discards that deal into an open riichi (CT-F2);
* a win's picture: every winner's hand, melds, flowers and indicators; its words (the ruleset's
  units, pk's bazoro, taiwan16's tai, shoukou's transformations ...) are :mod:`bot.render.wins`'s.

Every text here is in the ``lang`` keyword's language (English unless given), from the message
catalogs (:mod:`bot.i18n`): the rulesets' own words (``score_unit``, ``riichi_word``,
``furiten_warning`` ...) are catalog messages listed in :data:`RULESET_WORDS`, yaku and tiles are
named by :mod:`bot.render.names`.

Pure functions of a :class:`~engine.table.game.Game` (no Discord, no I/O).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import i18n
from bot.i18n import DEFAULT, N_, Lang
from engine.notation import HandSpec, MeldType
from engine.notation import Meld as EngineMeld
from engine.scoring.result import NO_YAKU
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase, TableMeld
from engine.tiles import FLOWER_BASE, NORTH, RED, kind_of, parse_tiles

from .canvas import BLANK
from .names import kind_label, picture_order, sort_tiles, tile_name, tile_order
from .views import Meld, ResultView, WinView
from .wins import shoukou, win_lines, win_summary

__all__ = [
    "BLANK",
    "ROUND",
    "RULESET_WORDS",
    "claim_text",
    "dangerous_discards",
    "declare_word",
    "declares_ready",
    "final_unit",
    "hand_extras",
    "hand_tiles",
    "in_hand_order",
    "is_nuki",
    "meld_of",
    "pass_word",
    "result_label",
    "result_view",
    "river",
    "round_text",
    "score_unit",
    "seat_extras",
    "seat_wind",
    "spec_melds",
    "table_footer",
    "warnings",
    "win_extras",
    "win_lines",
    "win_summary",
    "winning_tiles",
]

A = ActionType
ROUND = (N_("East"), N_("South"), N_("West"), N_("North"))
_MELD = {MeldType.CHI: "chi", MeldType.PON: "pon", MeldType.MINKAN: "minkan", MeldType.ANKAN: "ankan", MeldType.KAKAN: "kakan"}
#: the meld types as the footer names them
_MELD_WORDS = {"chi": N_("chi"), "pon": N_("pon"), "minkan": N_("kan"), "ankan": N_("closed kan"), "kakan": N_("added kan")}

#: the rulesets' own words (engine.rules: ``score_unit``, ``honba_word``, ``riichi_word``,
#: ``furiten_warning``, ``why_tsumo_blocked``), shown through the catalogs; tests check that every
#: ruleset's words are here
RULESET_WORDS = (
    N_("points"),
    N_("chips"),
    N_("Riichi"),
    N_("Declare ready"),
    N_("You are furiten: you cannot win by ron."),
    N_("You are furiten: you cannot win by ron or by tsumo (PK-6, PK-7)."),
    N_("You passed a win: no ron until your next turn (TW-10)."),
    N_("you passed a winning tile since your last discard: no win at all until you discard (PK-7)"),
    N_("you passed a winning tile after riichi: furiten blocks tsumo too (PK-6)"),
    N_("a tile you wait on is in your own discards: furiten blocks tsumo too (PK-6)"),
)


def _tile(code: int, lang: Lang = DEFAULT) -> str:
    return tile_name(code, lang)


def _hand_name(lang: Lang, wind: int, number: int, honba: int, word: str) -> str:
    """``East 2, 1 honba`` / ``South 1, 2 continuation`` (taiwan16) in ``lang``."""
    name = i18n.t(lang, "{wind} {n}", wind=i18n.t(lang, ROUND[min(wind, 3)]), n=number)
    return _with_honba(lang, name, honba, word)


def _with_honba(lang: Lang, name: str, honba: int, word: str) -> str:
    if not honba:
        return name
    if word == "continuation":  # taiwan16's dealer continuations (TW-3)
        return i18n.t(lang, "{hand}, {n} continuation", hand=name, n=honba)
    if word == "honba":
        return i18n.t(lang, "{hand}, {n} honba", hand=name, n=honba)
    return f"{name}, {honba} {word}"


# -- seats, rounds, units ------------------------------------------------------------------------


def seat_wind(g: Game, seat: int) -> int:
    """The seat's wind this hand: taiwan16 seats by the dealer's dice (TW-5), others from the dealer."""
    return g.ruleset.seat_wind_of(g, seat)


def round_text(g: Game, *, lang: Lang = DEFAULT) -> str:
    """``East 2, 1 honba``; taiwan16 ``East 2, 1 continuation`` (the dealer's continuations, TW-3);
    chinitsu_toutenkou ``Hand 3 of 6, 1 honba`` (CT-A12)."""
    rs = g.ruleset
    hands = rs.fixed_hands()
    if hands:
        n = min(len(g.results) + 1, hands) if not g.over else len(g.results)
        return _with_honba(lang, i18n.t(lang, "Hand {n} of {hands}", n=n, hands=hands), g.honba, rs.honba_word)
    return _hand_name(lang, g.round_wind, g.hand_number + 1, g.honba, rs.honba_word)


def score_unit(g: Game, *, lang: Lang = DEFAULT) -> str:
    """What the scores count: taiwan16 chips (底 + tai × rate, TW-13), else points."""
    return i18n.t(lang, g.ruleset.score_unit)


def final_unit(g: Game, *, lang: Lang = DEFAULT) -> str:
    """"" when the final result is uma/oka-adjusted (riichi family), else the score unit (no uma)."""
    return "" if g.ruleset.final_with_uma else score_unit(g, lang=lang)


def pass_word(g: Game, *, lang: Lang = DEFAULT) -> str:
    """What passing means now: "Pass" on a discard; in a turn-start window, "Draw" (seigou SG-D3,
    taiwan16's T-19 window) or "Pass it on" (taiwan16's last tile, TW-11 haitei_pass)."""
    if g.phase is not Phase.CLAIM:
        return i18n.t(lang, "Pass")
    if g.ruleset.turn_window(g) == "haitei":
        return i18n.t(lang, "Pass it on")
    return i18n.t(lang, "Draw")


def declare_word(g: Game, *, lang: Lang = DEFAULT) -> str:
    """The riichi action's name: taiwan16's declared tenpai has no stick (TW-12)."""
    return i18n.t(lang, g.ruleset.riichi_word)


def declares_ready(g: Game) -> bool:
    """Whether riichi is a declared tenpai without a stick (taiwan16 TW-12): the table marks the
    seat "ready" instead of showing a stick."""
    return not g.ruleset.riichi_stick


# -- rivers and melds ----------------------------------------------------------------------------


def river(g: Game, seat: int) -> tuple[list[int], list[int], list[int]]:
    """(tile codes, sideways indices, dimmed indices) of the seat's river as the table shows it.

    Seigou (SG-2): one slot per go-around the seat has finished, a claimed discard or a kan turn
    left as a :data:`BLANK` slot, so every river lines up by go-around (rows of 6)."""
    st = g.seats[seat]
    slots = g.ruleset.river_slots(g, seat)
    if slots is None:
        codes = [g.code(x) for x in st.river]
        side = [st.riichi_index] if st.riichi_index >= 0 else []
        return codes, side, [i for i, c in enumerate(st.river_called) if c]
    if slots and slots[-1] is None and seat == g.current and g.phase in (Phase.TURN, Phase.CLAIM) and not g.over:
        slots = slots[:-1]  # the go-around being played now has no discard yet
    codes = [BLANK if x is None else g.code(x) for x in slots]
    riichi_tile = st.river[st.riichi_index] if st.riichi_index >= 0 else None
    return codes, [i for i, x in enumerate(slots) if riichi_tile is not None and x == riichi_tile], []


def meld_of(g: Game, m: TableMeld) -> Meld:
    """A table meld for the pictures: codes in the meld's order, each transformed tile shown as
    the kind it counts as (shoukou SK-D4), the called tile's index or -1."""
    codes = [g.code(x) for x in m.tiles]
    if m.effective:
        codes = [c if (c & ~RED) == e else e for c, e in zip(codes, m.effective)]
    return (_MELD[m.type], codes, len(m.tiles) - 1 if m.called >= 0 else -1)


def spec_melds(melds: Sequence[EngineMeld]) -> list[Meld]:
    """The melds of a scored hand for the result picture (effective kinds, as :func:`meld_of`)."""
    out: list[Meld] = []
    for m in melds:
        codes = list(m.tiles)
        if m.effective:
            codes = [c if (c & ~RED) == e else e for c, e in zip(codes, m.effective)]
        out.append((_MELD[m.type], codes, -1 if m.type is MeldType.ANKAN else 0))
    return out


def seat_extras(g: Game, seat: int) -> list[Meld]:
    """Tiles face up beside the seat besides its melds: taiwan16 flowers (TW-7), extracted
    nuki/kita (CT-D1, sanma), and an open riichi's shown hand (CT-F2) for everyone to see."""
    st = g.seats[seat]
    out: list[Meld] = []
    if st.kita:
        out.append((g.ruleset.set_aside, [g.code(x) for x in st.kita], -1))
    codes = list(g.ruleset.shown_tiles(g, seat))
    if codes:
        out.append(("shown", sort_tiles(codes), -1))
    return out


def hand_extras(g: Game, seat: int) -> list[Meld]:
    """What the seat's own hand picture adds after its melds: flowers, nuki/kita."""
    st = g.seats[seat]
    if not st.kita:
        return []
    return [(g.ruleset.set_aside, [g.code(x) for x in st.kita], -1)]


def hand_tiles(g: Game, seat: int) -> tuple[list[int], int | None]:
    """The seat's concealed tiles as its hand picture shows them: sorted by
    :func:`~bot.render.names.tile_order`, and the tile just drawn (set apart at the right end),
    or ``None`` outside its own turn."""
    st = g.seats[seat]
    tiles = [g.code(x) for x in st.tiles]
    drawn = None
    if g.current == seat and g.drawn >= 0 and g.phase is Phase.TURN and g.drawn in st.tiles:
        drawn = g.code(g.drawn)
        tiles.remove(drawn)
    return sort_tiles(tiles), drawn


def in_hand_order(g: Game, seat: int, actions: Sequence[Action]) -> list[Action]:
    """``actions`` (discards, riichi discards) ordered by their tile's place in the hand picture
    (:func:`~bot.render.names.picture_order`), so the buttons read like the picture."""
    rank = {c: i for i, c in enumerate(picture_order(*hand_tiles(g, seat)))}
    return sorted(actions, key=lambda a: (rank.get(a.tile, len(rank)), tile_order(a.tile)))


def _as(lang: Lang, tile: str, kind: str) -> str:
    """A transformed tile: ``4m as 7m`` (shoukou SK-D4)."""
    return shoukou.as_kind(tile, kind, lang)


def _list(lang: Lang, items: Sequence[str]) -> str:
    return i18n.t(lang, ", ").join(items)


def table_footer(g: Game, names: Sequence[str], *, lang: Lang = DEFAULT) -> str:
    """A line under the table: shoukou's transformed melds (SK-D4), open riichi hands (CT-F2),
    taiwan16's dice seating (TW-5) and declared tenpai (TW-12)."""
    parts: list[str] = []
    for s, st in enumerate(g.seats):
        for m in st.melds:
            if m.effective:
                moved = [
                    _as(lang, _tile(g.code(x), lang), kind_label(e, lang))
                    for x, e in zip(m.tiles, m.effective)
                    if (g.code(x) & ~RED) != e
                ]
                if moved:
                    meld = i18n.t(lang, _MELD_WORDS[_MELD[m.type]])
                    parts.append(i18n.t(lang, "{name}'s {meld}: {tiles}", name=names[s], meld=meld, tiles=_list(lang, moved)))
    rs = g.ruleset
    for s in sorted(rs.open_riichi_seats(g)):
        waits = " ".join(kind_label(k, lang) for k in g.seats[s].waits)
        parts.append(i18n.t(lang, "{name}: open riichi, waits {tiles}", name=names[s], tiles=waits))
    if rs.seats_by_dice:
        east = next(s for s in range(g.players) if seat_wind(g, s) == 0)
        dice = rs.dice(g)
        seating = i18n.t(lang, "{east} is East, {dealer} deals", east=names[east], dealer=names[g.dealer])
        if dice:  # TW-5 (A15: hand 1 has no roll)
            seating = i18n.t(lang, "dice {dice}: {seating}", dice="+".join(str(d) for d in dice), seating=seating)
        parts.insert(0, seating)
    if declares_ready(g):
        ready = [names[s] for s, st in enumerate(g.seats) if st.riichi]
        if ready:
            parts.append(i18n.t(lang, "ready: {names}", names=_list(lang, ready)))
    return " · ".join(parts)


# -- warnings ------------------------------------------------------------------------------------


def _why_no_tsumo(g: Game, seat: int, lang: Lang = DEFAULT) -> str:
    """Why a complete hand may not win by tsumo now, in the ruleset's words."""
    blocked = g.ruleset.why_tsumo_blocked(g, seat)
    if blocked is not None:
        return i18n.t(lang, blocked)
    try:
        res = g.win_value(seat, g.drawn, tsumo=True)
    except ValueError:
        return i18n.t(lang, "it has no yaku")
    if res.reason == "no_common_yaku":
        return i18n.t(lang, "no yaku is common to every tile you wait on (PK-4)")
    if res.reason == NO_YAKU or not res.reason:
        return i18n.t(lang, "it has no yaku")
    return i18n.t(lang, "it cannot win with this tile")


def warnings(
    g: Game, seat: int, legal: Sequence[Action], names: Sequence[str] = (), *, lang: Lang = DEFAULT
) -> list[str]:
    """The ⚠ lines under a seat's hand while it must act (furiten, a complete hand that cannot
    win and why, discards that deal into an open riichi)."""
    if g.over or seat not in g.to_act():
        return []
    st = g.seats[seat]
    out: list[str] = []
    rs = g.ruleset
    if st.waits and rs.furiten(g, seat):
        out.append(f"⚠ {i18n.t(lang, rs.furiten_warning)}")
    if g.phase is Phase.TURN and g.drawn >= 0 and sum(st.counts) % 3 == 2 and g.calc.is_agari(st.counts):
        if not any(a.type is A.TSUMO for a in legal):
            why = _why_no_tsumo(g, seat, lang)
            out.append(i18n.t(lang, "⚠ Your hand is complete but you cannot win with it: {why}.", why=why))
    if g.phase is Phase.TURN and rs.open_riichi_seats(g) - {seat}:
        for code in dict.fromkeys(a.tile for a in in_hand_order(g, seat, [a for a in legal if a.type is A.DISCARD])):
            into = rs.deals_into_open_riichi(g, seat, code)
            if into:
                who = _list(lang, [names[s] if s < len(names) else i18n.t(lang, "seat {n}", n=s) for s in into])
                if st.riichi:
                    text = i18n.t(lang, "⚠ Discarding {tile} deals into the open riichi of {who}.", tile=_tile(code, lang), who=who)
                else:
                    text = i18n.t(
                        lang,
                        "⚠ Discarding {tile} deals into the open riichi of {who} (+50 points for them).",
                        tile=_tile(code, lang),
                        who=who,
                    )
                out.append(text)
    return out


def dangerous_discards(g: Game, seat: int, legal: Sequence[Action]) -> dict[int, list[int]]:
    """Discard code → open-riichi seats it deals into (CT-F2: the bot asks to confirm these)."""
    rs = g.ruleset
    if g.phase is not Phase.TURN or not rs.open_riichi_seats(g) - {seat}:
        return {}  # only an open riichi of another seat can be dealt into
    out: dict[int, list[int]] = {}
    for a in legal:
        if a.type is A.DISCARD and a.tile not in out:
            into = rs.deals_into_open_riichi(g, seat, a.tile)
            if into:
                out[a.tile] = into
    return out


# -- wins ----------------------------------------------------------------------------------------


def win_extras(spec_options: dict[str, str], kita: int = 0) -> list[Meld]:
    """Flowers (taiwan16) and nuki (chinitsu_toutenkou) of a scored hand, for its picture; ``kita``
    Norths set aside (sanma, ``WinContext.kita``) when the options list none."""
    out: list[Meld] = []
    for key, label in (("flowers", "flower"), ("nuki", "kita")):
        text = spec_options.get(key)
        if text:
            try:
                out.append((label, parse_tiles(text, allow_flowers=True), -1))
            except ValueError:
                continue
    if kita and not out:
        out.append(("kita", [NORTH] * kita, -1))
    return out


def winning_tiles(spec: HandSpec) -> list[int]:
    """The concealed tiles of a scored hand without its winning tile, in picture order.

    ``HandSpec.concealed`` excludes the winning tile (engine.notation), but the table's ron and
    taiwan16's self-draw specs hold it: a concealed part of 3n+2 tiles that holds the winning tile
    is a complete hand, and one copy of the winning tile is taken out (it is drawn framed, apart)."""
    tiles = list(spec.concealed)
    if len(tiles) % 3 == 2 and spec.win_tile in tiles:
        tiles.remove(spec.win_tile)
    return sort_tiles(tiles)


def result_view(g: Game, idx: int, names: Sequence[str], *, lang: Lang = DEFAULT) -> ResultView | None:
    """The picture of hand ``idx``'s result: every winner (a double ron shows both hands), each
    hand's tiles exactly once, the dora and ura indicators it counted, the breakdown in display
    names, and every seat's payment; ``None`` for a hand without a win (the text says it all)."""
    r = g.results[idx]
    if not r.wins:
        return None

    def who(s: int) -> str:
        return names[s] if 0 <= s < len(names) else i18n.t(lang, "seat {n}", n=s)

    wins: list[WinView] = []
    for w in r.wins:
        spec = w.hand
        if spec is None:
            continue
        if kind_of(spec.win_tile) >= FLOWER_BASE and w.from_seat not in (-1, w.seat):
            heading = i18n.t(lang, "{name} wins with flowers, paid by {payer}", name=who(w.seat), payer=who(w.from_seat))
        elif kind_of(spec.win_tile) >= FLOWER_BASE:
            heading = i18n.t(lang, "{name} wins with flowers", name=who(w.seat))
        elif w.seat == w.from_seat or w.from_seat < 0:
            heading = i18n.t(lang, "{name} wins by tsumo", name=who(w.seat))
        else:
            heading = i18n.t(lang, "{name} wins by ron from {payer}", name=who(w.seat), payer=who(w.from_seat))
        ctx = spec.ctx
        wins.append(
            WinView(
                heading=heading,
                hand=winning_tiles(spec),
                win_tile=spec.win_tile,
                melds=spec_melds(spec.melds) + win_extras(dict(spec.options), ctx.kita),
                lines=win_lines(g, w.score, lang=lang),
                dora=list(ctx.dora_indicators),
                ura=list(ctx.ura_indicators) if (ctx.riichi or ctx.double_riichi) else [],
            )
        )
    tsumo = all(w.seat == w.from_seat or w.from_seat < 0 for w in r.wins)
    if tsumo:
        kind = i18n.t(lang, "Tsumo")
    elif len(r.wins) == 2:
        kind = i18n.t(lang, "Double ron")
    elif len(r.wins) == 3:
        kind = i18n.t(lang, "Triple ron")
    elif len(r.wins) > 3:
        kind = i18n.t(lang, "ron")
    else:
        kind = i18n.t(lang, "Ron")
    payments = [(who(s), d) for s, d in enumerate(r.deltas)]
    return ResultView(f"{result_label(g, idx, lang=lang)} · {kind}", wins, payments)


def is_nuki(a: Action) -> bool:
    """A kita action that sets aside something other than North (chinitsu_toutenkou's gari)."""
    return a.type is A.KITA and a.tile >= 0 and kind_of(a.tile) != NORTH


def result_label(g: Game, idx: int, *, lang: Lang = DEFAULT) -> str:
    """The name of the hand ``idx`` for its result: ``East 2, 1 honba``; ``Hand 3``
    (chinitsu_toutenkou); ``South 1, 2 continuation`` (taiwan16)."""
    r = g.results[idx]
    word = g.ruleset.honba_word
    if g.ruleset.fixed_hands():
        return _with_honba(lang, i18n.t(lang, "Hand {n}", n=idx + 1), r.honba, word)
    return _hand_name(lang, r.round_wind, r.hand_number + 1, r.honba, word)


def claim_text(g: Game, seat: int, names: Sequence[str], *, lang: Lang = DEFAULT) -> str:
    """A turn-start window: seigou's claim of an earlier discard (SG-1), taiwan16's last tile
    (TW-11 haitei_pass) or declaration on the dealt hand (T-19)."""
    window = g.ruleset.turn_window(g)
    if window == "haitei":
        return i18n.t(lang, "**Your turn.** Take the last tile, or pass it on to the next player (TW-11).")
    if window == "tenting":
        return i18n.t(lang, "**Your turn.** You may declare ready on your dealt hand (T-19), or draw.")
    targets = sorted({a.src for a in g.legal_actions(seat) if a.src >= 0})
    took = _list(
        lang,
        [
            i18n.t(
                lang,
                "{name}'s {tile}",
                name=names[s] if s < len(names) else i18n.t(lang, "seat {n}", n=s),
                tile=_tile(g.code(g.seats[s].river[-1]), lang),
            )
            for s in targets
            if g.seats[s].river
        ],
    )
    return i18n.t(lang, "**Your turn.** You may claim {discards} instead of drawing, or press Draw.", discards=took)
