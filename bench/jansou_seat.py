"""Bench-only: jansou's SmartEfficiencyAgent playing a seat of our engine, in process.

jansou's agents know only what their events tell them (``observe``) and choose among the legal
actions they are offered (``act``). This seat translates the seat's masked mjai events
(engine/logs/mjai_live.py) into jansou's events and our legal actions into jansou's actions, and
maps the choice back. Needs ``jansou`` importable (bench/opponents_env.py).
"""

from __future__ import annotations

from typing import Any

from jansou.core.hand import MeldType
from jansou.core.tiles import Tile, TileKind, Wind
from jansou.game import actions as ja
from jansou.game import events as je
from jansou.game.agents import SmartEfficiencyAgent
from jansou.game.flow import DecisionKind

from engine.logs.mjai import tile_code
from engine.logs.mjai_live import MjaiStream
from engine.table.actions import Action, ActionType
from engine.table.game import Game, Phase
from engine.tiles import RED

A = ActionType
_MELDS = {"chi": MeldType.CHII, "pon": MeldType.PON, "daiminkan": MeldType.DAIMINKAN}


def _tile(code: int) -> Tile:
    return Tile(TileKind(code & ~RED), red=bool(code & RED))


def _pai(p: str) -> Tile:
    return _tile(tile_code(p))


class JansouSeat:
    """One SmartEfficiencyAgent, fed the seat's view of the stream."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.agent = SmartEfficiencyAgent(seed=seed)
        self.sent = 0

    def _observe(self, ev: dict[str, Any]) -> None:
        t = ev["type"]
        e: je.Event | None = None
        if t == "start_kyoku":
            hands = tuple(
                tuple(_pai(p) for p in h) if s == self.seat else None for s, h in enumerate(ev["tehais"])
            )
            e = je.DealStart(
                dealer=ev["oya"],
                round_wind=Wind("ESWN".index(ev["bakaze"])),
                round_number=ev["kyoku"] - 1,
                honba=ev["honba"],
                deposits=1000 * ev["kyotaku"],
                scores=tuple(ev["scores"]),
                hands=hands,
                dora_indicator=_pai(ev["dora_marker"]),
            )
        elif t == "tsumo":
            e = je.Draw(ev["actor"], _pai(ev["pai"]) if ev["actor"] == self.seat else None)
        elif t == "dahai":
            e = je.Discard(ev["actor"], _pai(ev["pai"]), bool(ev.get("tsumogiri")))
        elif t in _MELDS:
            tiles = tuple(_pai(p) for p in ev["consumed"]) + (_pai(ev["pai"]),)
            e = je.Call(_MELDS[t], ev["actor"], ev["target"], tiles)
        elif t == "ankan":
            e = je.Call(MeldType.ANKAN, ev["actor"], ev["actor"], tuple(_pai(p) for p in ev["consumed"]))
        elif t == "kakan":
            e = je.Call(MeldType.SHOUMINKAN, ev["actor"], ev["actor"], (_pai(ev["pai"]),))
        elif t == "nukidora":
            e = je.NorthExtraction(ev["actor"], _pai(ev["pai"]))
        elif t == "dora":
            e = je.IndicatorReveal(_pai(ev["dora_marker"]))
        if e is not None:
            self.agent.observe(e)

    def _offer(self, game: Game, a: Action) -> ja.Action:
        t = a.type
        if t is A.DISCARD or t is A.RIICHI:
            tsumogiri = game.drawn >= 0 and game.code(game.drawn) == a.tile
            cls = ja.Discard if t is A.DISCARD else ja.Riichi
            return cls(_tile(a.tile), tsumogiri)
        simple: dict[ActionType, ja.Action] = {
            A.TSUMO: ja.Tsumo(),
            A.RON: ja.Ron(),
            A.DAIMINKAN: ja.OpenKan(),
            A.KITA: ja.Nuki(),
            A.KYUUSHU: ja.NineTerminals(),
            A.PASS: ja.Pass(),
        }
        if t in simple:
            return simple[t]
        if t is A.CHI:
            return ja.Chii((_tile(a.tiles[0]), _tile(a.tiles[1])))
        if t is A.PON:
            return ja.Pon((_tile(a.tiles[0]), _tile(a.tiles[1])))
        if t is A.ANKAN:
            return ja.ClosedKan(TileKind(a.tile & ~RED))
        if t is A.KAKAN:
            return ja.AddedKan(_tile(a.tile))
        raise ValueError(f"no jansou action for {a.text}")

    def act(self, game: Game, stream: MjaiStream) -> Action:
        stream.sync(game.actions)
        for ev in stream.view(self.seat, self.sent):
            self._observe(ev)
        self.sent = len(stream.events)
        legal = list(game.legal_actions(self.seat))
        offers = [self._offer(game, a) for a in legal]
        if game.phase is Phase.TURN:
            kind = DecisionKind.SELF
        elif game.phase is Phase.CHANKAN:
            kind = DecisionKind.NORTH_REACTION if game.kakan_tile < 0 else DecisionKind.ROBBED_KAN
        else:
            kind = DecisionKind.DISCARD_REACTION
        choice = self.agent.act(self.seat, kind, offers)
        return legal[offers.index(choice)]

    def close(self) -> None:
        pass
