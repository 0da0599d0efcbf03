"""``/result audit``'s lines (issue 30): each audit entry with what it changed, not only its
action's name — a result's scores (and, for an edit, each score that changed), a void's reason, a
penalty's player, points and reason, a substitute's seat, a house rule's values; any other entry
lists the values that differ between its before and after.

Plain text in a reader's language from :class:`~bot.storage.repository.AuditRow`; no storage, no
Discord types (a mention ``<@id>`` names who did it).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, Lang, t
from bot.storage.repository import AuditRow

#: the actions' names as a reader sees them
ACTIONS = {
    "result add": N_("result added"), "result edit": N_("result corrected"), "result void": N_("result voided"),
    "result import": N_("result imported"), "sheet end": N_("score sheet recorded"), "season penalty": N_("penalty"), "season chombo": N_("chombo"),
    "league penalty": N_("league penalty"), "league substitute": N_("substitute"), "season start": N_("season started"),
    "season end": N_("season ended"), "season rename": N_("season renamed"), "season rebuild": N_("season rebuilt"),
    "guest link": N_("guest linked"), "house new": N_("house rules made"), "house set": N_("house rule changed"),
    "house default": N_("default house rules"), "house delete": N_("house rules deleted"), "league new": N_("league started"),
    "league round": N_("league round opened"), "league round closed": N_("league round closed"), "league join": N_("joined a league"),
    "league leave": N_("left a league"), "league add": N_("added to a league"), "league remove": N_("removed from a league"),
}
#: the values an entry lists by name (any other is left out: its name would be a column's English)
LABELS = {
    "name": N_("name"), "ruleset": N_("ruleset"), "players": N_("players"), "start_points": N_("starting points"),
    "return_points": N_("return points"), "uma": N_("uma"), "rating": N_("rating"), "house": N_("house rules"), "base": N_("base"),
    "round": N_("round"), "table": N_("table"), "seat": N_("seat"), "misses": N_("missed turns"), "games": N_("games"),
    "points": N_("points"), "reason": N_("reason"), "option": N_("option"), "value": N_("value"),
}
LIMIT = 300  # characters of detail per entry


def _scores(game: Any) -> dict[str, tuple[str, Any]]:
    """``{player key: (name, final score)}`` of a stored game's JSON."""
    out: dict[str, tuple[str, Any]] = {}
    if isinstance(game, dict):
        for p in game.get("players") or []:
            if isinstance(p, dict):
                out[str(p.get("player"))] = (str(p.get("name")), p.get("points"))
    return out


def _player(key: Any) -> str:
    """A player's stored key as a reader sees it: a member's mention, a guest's name."""
    k = str(key)
    if k.startswith("u:") and k[2:].isdigit():
        return f"<@{k[2:]}>"
    return k.split(":", 1)[1] if k.startswith("g:") else k


def _points(v: Any) -> str:
    return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list | dict):
        return str(v)[:60]
    return str(v)


def detail(r: AuditRow, lang: Lang) -> str:
    """What the entry changed, in ``lang`` ("" if nothing can be said)."""
    before, after = r.before, r.after
    if r.action in ("result add", "result import", "sheet end") and isinstance(after, dict):
        return ", ".join(f"{n} {_points(p)}" for n, p in _scores(after).values())
    if r.action == "result edit":
        old, new = _scores(before), _scores(after)
        parts = []
        for k in dict.fromkeys([*old, *new]):
            if k not in new:
                parts.append(t(lang, "{name} taken out ({points})", name=old[k][0], points=_points(old[k][1])))
            elif k not in old:
                parts.append(t(lang, "{name} put in ({points})", name=new[k][0], points=_points(new[k][1])))
            elif old[k][1] != new[k][1]:
                parts.append(f"{new[k][0]} {_points(old[k][1])} → {_points(new[k][1])}")
        return ", ".join(parts) or t(lang, "no score changed")
    if r.action == "result void" and isinstance(after, dict):
        return t(lang, "reason: {reason}", reason=after["reason"]) if after.get("reason") else ""
    if r.action in ("season penalty", "season chombo", "league penalty") and isinstance(after, dict):
        who = after.get("name") or _player(after.get("player"))
        return t(lang, "{who} −{points}: {reason}", who=who, points=_value(after.get("points")), reason=after.get("reason", ""))
    if isinstance(before, dict) and isinstance(after, dict):
        changed = [k for k in dict.fromkeys([*before, *after]) if k in LABELS and before.get(k) != after.get(k)]
        return ", ".join(f"{t(lang, LABELS[k])}: {_value(before.get(k))} → {_value(after.get(k))}" for k in changed)
    if isinstance(after, dict):
        return ", ".join(f"{t(lang, LABELS[k])}: {_value(v)}" for k, v in after.items() if k in LABELS and v is not None)
    return ""


def audit_line(r: AuditRow, lang: Lang) -> str:
    """One line: when, who, what, the game, and what changed."""
    when = f"<t:{int(r.at)}:f>" if isinstance(r.at, int | float) and 0 <= r.at < 1e11 else t(lang, "(time damaged)")
    who = f" <@{r.actor_id}>" if isinstance(r.actor_id, int) else ""
    action = t(lang, ACTIONS[r.action]) if r.action in ACTIONS else r.action
    game = " " + t(lang, "game #{game}", game=r.game_id) if r.game_id else ""
    more = detail(r, lang)
    more = f" — {more[:LIMIT]}" if more else ""
    return f"{when}{who} {action}{game}{more}"
