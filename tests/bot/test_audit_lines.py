"""``/result audit``'s lines name what changed in a reader's words: a recorded score sheet lists its
scores (not the stored game's JSON), and a penalty entered with only a player's key names the member."""

from __future__ import annotations

from bot.standings.audit import audit_line
from bot.storage.audit import AuditRow


def _row(action: str, after: object) -> AuditRow:
    return AuditRow(id=1, guild_id=5, season_id=2, game_id=7, actor_id=42, action=action, at=1_700_000_000.0, before=None, after=after)


def test_a_recorded_score_sheet_lists_its_scores() -> None:
    game = {"players": [{"seat": 0, "player": "u:11", "name": "alice", "points": 43300},
                        {"seat": 1, "player": "g:bob", "name": "bob", "points": -1200}]}
    line = audit_line(_row("sheet end", game), "en")
    assert "score sheet recorded game #7 — alice 43,300, bob -1,200" in line
    assert "{" not in line and "'seat'" not in line


def test_a_penalty_stored_with_a_members_key_names_the_member() -> None:
    line = audit_line(_row("league penalty", {"player": "u:1576391346690719750", "points": 10, "reason": "slow play"}), "en")
    assert line.endswith("— <@1576391346690719750> −10: slow play")
    guest = audit_line(_row("season penalty", {"player": "g:carol", "points": 5, "reason": "late"}), "en")
    assert guest.endswith("— carol −5: late")
