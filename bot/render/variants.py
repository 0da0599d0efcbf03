"""What the variants show beyond riichi, for the presenter and its pictures.

The presenter (:mod:`bot.presenter`) asks here for everything that depends on the ruleset, and
these helpers ask the ruleset itself: its facts (``Ruleset``'s typed members with riichi's values as
defaults, :mod:`engine.rules.base`), never its name, so a new ruleset shows what it declares:

* seats and rounds: taiwan16's dice seating (``seat_wind_of``, TW-5), its rounds and continuation
  count (TW-3); chinitsu_toutenkou's numbered one-hand settlements (CT-A12);
* rivers: seigou's one slot per go-around, a claimed discard or a kan turn left blank
  (``river_slots``, SG-2) — blanks are :data:`~bot.render.pictures.BLANK` codes;
* what lies face up beside a seat: taiwan16's flowers (TW-7), nuki/kita (CT-D1, sanma), an open
  riichi's shown hand (``shown_tiles``, CT-F2); shoukou melds with each tile's effective kind
  (SK-D4);
* warnings under a hand: furiten and "complete but cannot win" with the ruleset's reason (pk
  PK-4/PK-6/PK-7, taiwan16 TW-10), discards that deal into an open riichi (CT-F2);
* a win in the ruleset's units: han/fu and points, pk's han + bazoro on the PK-0 table, taiwan16's
  tai and chips (TW-13), chinitsu_toutenkou's point items, shoukou's transformations (SK-10).

Pure functions of a :class:`~engine.table.game.Game` (no Discord, no I/O).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.notation import HandSpec, MeldType
from engine.notation import Meld as EngineMeld
from engine.scoring.result import NO_YAKU, ScoreResult
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase, TableMeld
from engine.tiles import FLOWER_BASE, NORTH, RED, kind_of, parse_tiles

from .names import kind_label, picture_order, sort_tiles, tile_name, tile_order, yaku_name
from .pictures import BLANK
from .views import Meld, ResultView, WinView

__all__ = [
    "BLANK",
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
ROUND = ("East", "South", "West", "North")
_MELD = {MeldType.CHI: "chi", MeldType.PON: "pon", MeldType.MINKAN: "minkan", MeldType.ANKAN: "ankan", MeldType.KAKAN: "kakan"}


def _tile(code: int) -> str:
    return tile_name(code)


# -- seats, rounds, units ------------------------------------------------------------------------


def seat_wind(g: Game, seat: int) -> int:
    """The seat's wind this hand: taiwan16 seats by the dealer's dice (TW-5), others from the dealer."""
    return g.ruleset.seat_wind_of(g, seat)


def round_text(g: Game) -> str:
    """``East 2, 1 honba``; taiwan16 ``East 2, 1 continuation`` (the dealer's continuations, TW-3);
    chinitsu_toutenkou ``Hand 3 of 6, 1 honba`` (CT-A12)."""
    rs = g.ruleset
    hands = rs.fixed_hands()
    if hands:
        n = min(len(g.results) + 1, hands) if not g.over else len(g.results)
        return f"Hand {n} of {hands}" + (f", {g.honba} {rs.honba_word}" if g.honba else "")
    return f"{ROUND[min(g.round_wind, 3)]} {g.hand_number + 1}" + (f", {g.honba} {rs.honba_word}" if g.honba else "")


def score_unit(g: Game) -> str:
    """What the scores count: taiwan16 chips (底 + tai × rate, TW-13), else points."""
    return g.ruleset.score_unit


def final_unit(g: Game) -> str:
    """"" when the final result is uma/oka-adjusted (riichi family), else the score unit (no uma)."""
    return "" if g.ruleset.final_with_uma else score_unit(g)


def pass_word(g: Game) -> str:
    """What passing means now: "Pass" on a discard; in a turn-start window, "Draw" (seigou SG-D3,
    taiwan16's T-19 window) or "Pass it on" (taiwan16's last tile, TW-11 haitei_pass)."""
    if g.phase is not Phase.CLAIM:
        return "Pass"
    return "Pass it on" if getattr(g.hand_state, "window", "") == "haitei" else "Draw"


def declare_word(g: Game) -> str:
    """The riichi action's name: taiwan16's declared tenpai has no stick (TW-12)."""
    return g.ruleset.riichi_word


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


def _shift_text(shift: Sequence[int]) -> str:
    return f"{_tile(shift[0])} as {kind_label(shift[1])}"


def table_footer(g: Game, names: Sequence[str]) -> str:
    """A line under the table: shoukou's transformed melds (SK-D4), open riichi hands (CT-F2),
    taiwan16's dice seating (TW-5) and declared tenpai (TW-12)."""
    parts: list[str] = []
    for s, st in enumerate(g.seats):
        for m in st.melds:
            if m.effective:
                moved = [
                    f"{_tile(g.code(x))} as {kind_label(e)}" for x, e in zip(m.tiles, m.effective) if (g.code(x) & ~RED) != e
                ]
                if moved:
                    parts.append(f"{names[s]}'s {_MELD[m.type]}: {', '.join(moved)}")
    rs = g.ruleset
    for s in sorted(rs.open_riichi_seats(g)):
        parts.append(f"{names[s]}: open riichi, waits {' '.join(kind_label(k) for k in g.seats[s].waits)}")
    if rs.seats_by_dice:
        east = next(s for s in range(g.players) if seat_wind(g, s) == 0)
        dice = getattr(g.deal, "dice", ())
        roll = f"dice {'+'.join(str(d) for d in dice)}: " if dice and g.hand_index else ""
        parts.insert(0, f"{roll}{names[east]} is East, {names[g.dealer]} deals")  # TW-5 (A15: hand 1)
    if declares_ready(g):
        ready = [names[s] for s, st in enumerate(g.seats) if st.riichi]
        if ready:
            parts.append("ready: " + ", ".join(ready))
    return " · ".join(parts)


# -- warnings ------------------------------------------------------------------------------------


def _why_no_tsumo(g: Game, seat: int) -> str:
    """Why a complete hand may not win by tsumo now, in the ruleset's words."""
    blocked = g.ruleset.why_tsumo_blocked(g, seat)
    if blocked is not None:
        return blocked
    try:
        res = g.win_value(seat, g.drawn, tsumo=True)
    except ValueError:
        return "it has no yaku"
    if res.reason == "no_common_yaku":
        return "no yaku is common to every tile you wait on (PK-4)"
    if res.reason == NO_YAKU or not res.reason:
        return "it has no yaku"
    return "it cannot win with this tile"


def warnings(g: Game, seat: int, legal: Sequence[Action], names: Sequence[str] = ()) -> list[str]:
    """The ⚠ lines under a seat's hand while it must act (furiten, a complete hand that cannot
    win and why, discards that deal into an open riichi)."""
    if g.over or seat not in g.to_act():
        return []
    st = g.seats[seat]
    out: list[str] = []
    rs = g.ruleset
    if st.waits and rs.furiten(g, seat):
        out.append(f"⚠ {rs.furiten_warning}")
    if g.phase is Phase.TURN and g.drawn >= 0 and sum(st.counts) % 3 == 2 and g.calc.is_agari(st.counts):
        if not any(a.type is A.TSUMO for a in legal):
            out.append(f"⚠ Your hand is complete but you cannot win with it: {_why_no_tsumo(g, seat)}.")
    if g.phase is Phase.TURN and rs.open_riichi_seats(g) - {seat}:
        for code in dict.fromkeys(a.tile for a in in_hand_order(g, seat, [a for a in legal if a.type is A.DISCARD])):
            into = rs.deals_into_open_riichi(g, seat, code)
            if into:
                bonus = "" if st.riichi else " (+50 points for them)"
                who = ", ".join(names[s] if s < len(names) else f"seat {s}" for s in into)
                out.append(f"⚠ Discarding {_tile(code)} deals into the open riichi of {who}{bonus}.")
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


def _tai_items(sc: ScoreResult) -> list[tuple[str, int]]:
    return [(yaku_name(str(it.get("name"))), int(it.get("tai", 0))) for it in sc.details.get("tai_items") or []]


def _transformations(sc: ScoreResult) -> list[str]:
    out = []
    for t in sc.details.get("transformations") or []:
        phys, _, eff = str(t).partition(">")
        out.append(f"{phys} as {eff}" if eff else str(t))
    return out


def win_summary(g: Game, sc: ScoreResult) -> str:
    """One win's breakdown and value for the result message, in the ruleset's units."""
    how = g.ruleset.hand_value
    if how == "tai":
        items = _tai_items(sc)
        listed = ", ".join(f"{n} {v}" for n, v in items) or "no tai items"
        d = sc.details
        return (
            f"{listed} — {sc.han} tai; each payer pays {d.get('base', '')} + {d.get('rate', '')} × tai chips "
            f"(+{d.get('dealer_tai', 0)} dealer tai when the dealer wins or pays)"
        )
    if how == "points":
        listed = ", ".join(f"{yaku_name(y.name)} {y.han}" for y in sc.yaku)
        text = f"{listed} — {sc.points} points"
        wild = sc.details.get("wildcards") or []
        if wild:
            text += " (White as " + " ".join(str(w.get("as")) for w in wild) + ")"
        return text
    yaku = ", ".join(f"{yaku_name(y.name)} {y.han if not sc.yakuman else 'yakuman'}" for y in sc.yaku)
    bazoro = sc.details.get("bazoro")
    if sc.yakuman:
        value = f"{sc.yakuman}× yakuman"
    elif isinstance(bazoro, int):  # pk's PK-0 table (only its results carry bazoro)
        value = f"{sc.han} han + {bazoro} bazoro = {sc.details.get('table_han', sc.han + bazoro)} han (PK-0 table, no fu)"
    else:
        value = f"{sc.han} han {sc.fu} fu"
    text = f"{yaku} — {value}, {sc.points:,} points"
    moved = _transformations(sc)
    if moved:
        text += f"; transformations: {', '.join(moved)}"
    return text


def win_lines(g: Game, sc: ScoreResult) -> list[str]:
    """The result picture's lines (``name\\tvalue``) for one win, in the ruleset's units, the
    yaku by the names ``/score`` uses (:func:`~bot.render.names.yaku_name`)."""
    how = g.ruleset.hand_value
    if how == "tai":
        d = sc.details
        lines = [f"{n}\t{v} tai" for n, v in _tai_items(sc)]
        lines.append(f"Total\t{sc.han} tai")
        lines.append(f"Each payer: {d.get('base', '')} + {d.get('rate', '')} × (tai + dealer tai)")
        return lines
    if how == "points":
        lines = [f"{yaku_name(y.name)}\t{y.han} pts" for y in sc.yaku]  # as /score writes them
        lines.append(f"Total\t{sc.points:,} points")
        return lines
    if sc.yakuman:
        lines = [f"{yaku_name(y.name)}\tyakuman" for y in sc.yaku]
    else:
        lines = [f"{yaku_name(y.name)}\t{y.han} han" for y in sc.yaku]
    bazoro = sc.details.get("bazoro")
    if sc.yakuman:
        lines.append(f"Total\t{'' if sc.yakuman == 1 else f'{sc.yakuman}× '}yakuman = {sc.points:,}")
    elif isinstance(bazoro, int):  # pk's PK-0 table
        lines.append(f"Bazoro\t{bazoro} han")
        lines.append(f"Table\t{sc.details.get('table_han', sc.han + bazoro)} han = {sc.points:,}")
    else:
        lines.append(f"Total\t{sc.han} han {sc.fu} fu = {sc.points:,}")
    for m in _transformations(sc):
        lines.append(f"Transformation\t{m}")
    return lines


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


_MANY = {1: "", 2: "Double ", 3: "Triple "}


def result_view(g: Game, idx: int, names: Sequence[str]) -> ResultView | None:
    """The picture of hand ``idx``'s result: every winner (a double ron shows both hands), each
    hand's tiles exactly once, the dora and ura indicators it counted, the breakdown in display
    names, and every seat's payment; ``None`` for a hand without a win (the text says it all)."""
    r = g.results[idx]
    if not r.wins:
        return None

    def who(s: int) -> str:
        return names[s] if 0 <= s < len(names) else f"seat {s}"

    wins: list[WinView] = []
    for w in r.wins:
        spec = w.hand
        if spec is None:
            continue
        if kind_of(spec.win_tile) >= FLOWER_BASE:
            how = "with flowers" + (f", paid by {who(w.from_seat)}" if w.from_seat not in (-1, w.seat) else "")
        elif w.seat == w.from_seat or w.from_seat < 0:
            how = "by tsumo"
        else:
            how = f"by ron from {who(w.from_seat)}"
        ctx = spec.ctx
        wins.append(
            WinView(
                heading=f"{who(w.seat)} wins {how}",
                hand=winning_tiles(spec),
                win_tile=spec.win_tile,
                melds=spec_melds(spec.melds) + win_extras(dict(spec.options), ctx.kita),
                lines=win_lines(g, w.score),
                dora=list(ctx.dora_indicators),
                ura=list(ctx.ura_indicators) if (ctx.riichi or ctx.double_riichi) else [],
            )
        )
    tsumo = all(w.seat == w.from_seat or w.from_seat < 0 for w in r.wins)
    kind = "Tsumo" if tsumo else f"{_MANY.get(len(r.wins), '')}{'ron' if len(r.wins) > 1 else 'Ron'}"
    payments = [(who(s), d) for s, d in enumerate(r.deltas)]
    return ResultView(f"{result_label(g, idx)} · {kind}", wins, payments)


def is_nuki(a: Action) -> bool:
    """A kita action that sets aside something other than North (chinitsu_toutenkou's gari)."""
    return a.type is A.KITA and a.tile >= 0 and kind_of(a.tile) != NORTH


def result_label(g: Game, idx: int) -> str:
    """The name of the hand ``idx`` for its result: ``East 2, 1 honba``; ``Hand 3``
    (chinitsu_toutenkou); ``South 1, 2 continuation`` (taiwan16)."""
    r = g.results[idx]
    word = g.ruleset.honba_word
    if g.ruleset.fixed_hands():
        return f"Hand {idx + 1}" + (f", {r.honba} {word}" if r.honba else "")
    return f"{ROUND[min(r.round_wind, 3)]} {r.hand_number + 1}" + (f", {r.honba} {word}" if r.honba else "")


def claim_text(g: Game, seat: int, names: Sequence[str]) -> str:
    """A turn-start window: seigou's claim of an earlier discard (SG-1), taiwan16's last tile
    (TW-11 haitei_pass) or declaration on the dealt hand (T-19)."""
    window = getattr(g.hand_state, "window", "")
    if window == "haitei":
        return "**Your turn.** Take the last tile, or pass it on to the next player (TW-11)."
    if window == "tenting":
        return "**Your turn.** You may declare ready on your dealt hand (T-19), or draw."
    targets = sorted({a.src for a in g.legal_actions(seat) if a.src >= 0})
    took = ", ".join(
        f"{names[s] if s < len(names) else f'seat {s}'}'s {_tile(g.code(g.seats[s].river[-1]))}" for s in targets if g.seats[s].river
    )
    return f"**Your turn.** You may claim {took} instead of drawing, or press Draw."
