"""HouseRules: a club's own rule profiles (a name, a base ruleset and the options it changes).

A profile is stored as its base's name and ``Ruleset.options_dict()`` (bot/storage, table
``house_rules``); :meth:`HouseRules.resolve` turns a profile name (or a ruleset name, or nothing:
the club's default profile, else riichi) into the :class:`~engine.rules.base.Ruleset` a table, a
look-up or a season plays. Every option is set through the engine's catalog
(:func:`engine.rules.catalog.set_option`), which refuses, in one sentence, an unknown option, a
bad value or a combination the game cannot play, before anything is stored. Every change is one
write with its audit-log entry (before/after).

A stored profile the engine can no longer play (bad JSON, an unknown base, options it refuses) is
named in one sentence (:class:`HouseError`) and never used; :meth:`HouseRules.check` lists such
rows for ``python -m bot db check``.

No Discord types here; the cog (cogs/house.py) checks who is an organiser.
Limits: a profile cannot be renamed; two names that differ only in case are one name.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.i18n import N_, Lang, t, term, tn
from bot.storage import repository as sql
from bot.storage.clubs import every_house_row, house_options_in
from bot.storage.repository import CorruptRow, HouseRow, Repository
from engine.rules.base import Ruleset, find_ruleset, ruleset_names
from engine.rules.catalog import (
    OptionError,
    OptionSpec,
    differences,
    find_spec,
    option_problems,
    option_specs,
    parse_value,
    set_option,
    show_value,
)

log = logging.getLogger(__name__)

NAME_LIMIT = 40
PROFILES_LIMIT = 50  # per club: /house list and the autocompletes stay readable
DEFAULT_RULESET = "riichi"


class HouseError(UserError):
    """A house-rules request refused; the message is one plain sentence."""

    full_stop = True


@dataclass(frozen=True, slots=True)
class Profile:
    """A stored profile and the ruleset it plays."""

    row: HouseRow
    rules: Ruleset

    @property
    def name(self) -> str:
        return self.row.name

    @property
    def base(self) -> str:
        return self.row.base


def clean_name(text: str) -> str:
    """A profile's name as typed, spaces collapsed; :class:`HouseError` if it cannot be one."""
    name = " ".join((text or "").split())
    if not name or len(name) > NAME_LIMIT:
        raise HouseError("a house rules profile needs a name of 1 to {limit} characters", limit=NAME_LIMIT)
    if not re.fullmatch(r"[\w .'+-]+", name):
        raise HouseError("a house rules profile's name may hold letters, digits, spaces and . ' + - _ only")
    return name


class Damaged(ValueError):
    """Why a stored profile cannot be played: a catalog message and its fields (``str()``: the English)."""

    def __init__(self, msgid: str, /, **kw: Any) -> None:
        self.msgid = msgid
        self.kw = kw
        super().__init__(msgid.format(**kw) if kw else msgid)


def rules_of(base: Any, options: Any) -> Ruleset:
    """The ruleset a stored profile plays: its base with its options, checked as ``set_option``
    checks one change. :class:`Damaged` (a ValueError), one sentence, when the engine cannot play it."""
    if not isinstance(base, str) or base.lower() not in ruleset_names():
        raise Damaged(N_("its base ruleset {base} is not one this bot knows"), base=repr(str(base)[:40]))
    if not isinstance(options, dict):
        raise Damaged(N_("its options are not a JSON object"))
    rs = find_ruleset(base)
    try:
        new = rs.with_options(**options) if options else rs
    except (TypeError, ValueError, AttributeError) as e:
        why = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
        raise Damaged(N_("its options are not ones {ruleset} has ({why})"), ruleset=rs.name, why=why) from None
    # every stored value must be one the option takes, as /house set would have parsed it: a
    # hand-edited row ("25000" as text, a choice that does not exist) is damaged, not played
    for spec in option_specs(new):
        if not spec.changed:
            continue
        try:
            typed = parse_value(spec, show_value(spec.value))
        except OptionError as e:
            raise Damaged(N_("its option {key} is not one it takes ({why})"), key=spec.key, why=str(e)) from None
        if typed != spec.value or type(typed) is not type(spec.value):
            raise Damaged(N_("its option {key} holds {value}, which is not one it takes"), key=spec.key, value=repr(show_value(spec.value)[:40]))
    try:
        known = set(option_problems(rs))
        problems = [p for p in option_problems(new) if p not in known]
    except (TypeError, ValueError) as e:
        raise Damaged(N_("its options cannot be read ({why})"), why=str(e)) from None
    if problems:
        raise Damaged(N_("its options cannot be played ({why})"), why=problems[0])
    return new


def plays_alike(name: str, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether ``name`` with options ``a`` and with options ``b`` play the same rules, leaving the
    game's length out (a season takes hanchan and tonpuu games alike). False when either cannot
    be read."""
    try:
        ra, rb = rules_of(name, a), rules_of(name, b)
        length = find_ruleset(name).lengths()[0].options
        if length:
            ra, rb = ra.with_options(**length), rb.with_options(**length)
        return ra.options_dict() == rb.options_dict()
    except (ValueError, TypeError, IndexError):
        return False


def rule_differences(a: Ruleset, b: Ruleset) -> list[str]:
    """How ``b`` plays differently from ``a`` (``catalog.differences``), one line each, the game's
    length left out as :func:`plays_alike` leaves it out."""
    if a.name == b.name:
        length = find_ruleset(a.name).lengths()[0].options
        if length:
            a, b = a.with_options(**length), b.with_options(**length)
    return differences(a, b)


def allowed_text(spec: OptionSpec, lang: Lang = "en") -> str:
    """The values an option takes, as a person reads them, in ``lang`` (the engine's
    ``OptionSpec.allowed`` says it in English only)."""
    if spec.kind == "bool":
        return t(lang, "true or false")
    if spec.kind == "choice":
        return " | ".join(spec.choices)
    if spec.kind == "choices":
        return t(lang, "a comma list of {items} (or none)", items=", ".join(spec.choices))
    if spec.kind == "pairs":
        return t(lang, "key:value pairs, comma separated")
    if spec.kind == "ints":
        n = len(spec.value) if isinstance(spec.value, tuple) else 0
        return tn(lang, "{n} whole number, comma separated", "{n} whole numbers, comma separated", n) if n else t(lang, "whole numbers, comma separated")
    if spec.kind == "int?":
        return t(lang, "a whole number, or none")
    if spec.kind == "int":
        return t(lang, "a whole number")
    return t(lang, "text")


#: the engine's sentences for rules that cannot be played together (catalog.option_problems), as
#: catalog messages with the same fields
_PROBLEMS = [
    (re.compile(r"red_fives: (?P<a>\d+) red 5(?P<b>[mps]) is more than the (?P<c>\d+) copies of a five"),
     N_("red_fives: {a} red 5{b} is more than the {c} copies of a five")),
    (re.compile(r"red_fives: this game has no 5m, so it cannot have a red 5m"), N_("red_fives: this game has no 5m, so it cannot have a red 5m")),
    (re.compile(r"uma needs (?P<a>\d+) values, one per place \(it has (?P<b>\d+)\)"), N_("uma needs {a} values, one per place (it has {b})")),
    (re.compile(r"uma must add up to 0 \(these add up to (?P<a>-?\d+)\)"), N_("uma must add up to 0 (these add up to {a})")),
    (re.compile(r"uma must go down from 1st place to last"), N_("uma must go down from 1st place to last")),
    (re.compile(r"start_points must be a positive multiple of 100"), N_("start_points must be a positive multiple of 100")),
    (re.compile(r"return_points must be a multiple of 100 no lower than start_points"),
     N_("return_points must be a multiple of 100 no lower than start_points")),
    (re.compile(r"(?P<a>\w+) must be a multiple of 100, 0 or more"), N_("{a} must be a multiple of 100, 0 or more")),
    (re.compile(r"noten_total must be a multiple of (?P<a>\d+) \(it is split among 1 to (?P<b>\d+) players\)"),
     N_("noten_total must be a multiple of {a} (it is split among 1 to {b} players)")),
    (re.compile(r"riichi_min_live must be 1 to 30 tiles"), N_("riichi_min_live must be 1 to 30 tiles")),
    (re.compile(r"double_wind_pair_fu is 2 or 4"), N_("double_wind_pair_fu is 2 or 4")),
    (re.compile(r"kita \(North set aside\) is a 3-player rule"), N_("kita (North set aside) is a 3-player rule")),
]


def _set_refusal(rules: Ruleset, key: str, value: str, why: str = "") -> HouseError:
    """Why ``key = value`` cannot be set, one catalog sentence (the engine's reason is English only)."""
    try:
        spec = find_spec(rules, key)
    except OptionError:
        own = re.search(r"plays by its own rules, not riichi's (?P<key>.*): its options start with (?P<groups>.*)$", why)
        if own:
            return HouseError("{ruleset} plays by its own rules, not riichi's {key}: its options start with {groups}", ruleset=rules.name,
                              key=own["key"], groups=own["groups"])
        return HouseError("{ruleset} has no option '{key}'", ruleset=rules.name, key=_clip(key))
    try:
        parse_value(spec, value)
    except OptionError:
        return HouseError("{key} takes {allowed}, not '{value}'", key=spec.key, allowed=_Allowed(spec), value=_clip(value))
    for pattern, msgid in _PROBLEMS:
        m = pattern.search(why)
        if m:
            return HouseError(msgid, **m.groupdict())
    return HouseError("{key} = {value} cannot be played with the other rules of {ruleset}", key=spec.key, value=_clip(value), ruleset=rules.name)


class _Allowed(UserError):
    """An option's allowed values as a field of a refusal: read in the reader's language."""

    def __init__(self, spec: OptionSpec) -> None:
        super().__init__()
        self.args = (allowed_text(spec),)  # str(): the English
        self.spec = spec

    def sentence(self, lang: Lang = "en") -> str:
        return allowed_text(self.spec, lang)


def option_line(spec: OptionSpec, limit: int = 100, lang: Lang = "en") -> str:
    """One line for an option menu: key, current value, allowed values, description (clipped; in
    ``lang``: the catalog's entry of context ``option`` for the engine's English description)."""
    head = f"{spec.key} = {show_value(spec.value)} · {allowed_text(spec, lang)}"
    if spec.help:
        head += f" · {term(lang, 'option', spec.help)}"
    return head if len(head) <= limit else head[: limit - 1] + "…"


class _Changed(Exception):
    """A profile's stored options are no longer those a change was made from."""


class HouseRules:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    # ---------------------------------------------------------------- reading

    def _profile(self, r: Any) -> Profile:
        """A stored row as a profile; HouseError naming it when it is damaged."""
        label = r["name"] if isinstance(r["name"], str) and r["name"].strip() else f"#{r['id']}"
        try:
            row = Repository.house_row(r)
            return Profile(row, rules_of(row.base, row.options))
        except (CorruptRow, ValueError) as e:
            # a field that is a refusal is read in the reader's language
            why: Any = e.why if isinstance(e, CorruptRow) else UserError(e.msgid, **e.kw) if isinstance(e, Damaged) else str(e)
            raise HouseError(
                "the house rules '{name}' are damaged in the database ({why}), so they cannot be used; an organiser can "
                "delete them with /house delete, and the bot's host can repair row {row} of the house_rules table",
                name=label, why=why, row=r["id"],
            ) from None

    async def profiles(self, guild_id: int | None, lang: Lang = "en") -> tuple[list[Profile], list[str]]:
        """The club's profiles that can be played, and one sentence per damaged one (in ``lang``)."""
        good: list[Profile] = []
        bad: list[str] = []
        for r in await self.repo.house_rows(guild_id):
            try:
                good.append(self._profile(r))
            except HouseError as e:
                bad.append(e.sentence(lang))
        return good, bad

    async def _row(self, guild_id: int | None, name: str) -> Any:
        want = " ".join((name or "").split()).casefold()
        for r in await self.repo.house_rows(guild_id):
            if isinstance(r["name"], str) and r["name"].casefold() == want:
                return r
        raise HouseError("this club has no house rules called '{name}': /house list shows them, /house new makes one", name=_clip(name))

    async def get(self, guild_id: int | None, name: str) -> Profile:
        """The profile named (case does not matter); HouseError if there is none or it is damaged."""
        return self._profile(await self._row(guild_id, name))

    async def default(self, guild_id: int | None) -> Profile | None:
        """The club's default profile, or None; HouseError when it is damaged."""
        hid = await self.repo.default_house_id(guild_id)
        if hid is None:
            return None
        for r in await self.repo.house_rows(guild_id):
            if r["id"] == hid:
                return self._profile(r)
        return None

    async def resolve(self, guild_id: int | None, house: str | None = None, ruleset: str | None = None) -> tuple[Ruleset, str | None]:
        """The rules to play and the profile's name (None for a plain ruleset): the profile named,
        else the ruleset named, else the club's default profile, else riichi."""
        if house and house.strip():
            if ruleset and ruleset.strip():
                raise HouseError("name either a ruleset or house rules, not both: house rules already name their base ruleset")
            p = await self.get(guild_id, house)
            return p.rules, p.name
        if ruleset and ruleset.strip():
            return find_ruleset(ruleset.strip()), None
        club = await self.default(guild_id)
        if club is not None:
            return club.rules, club.name
        return find_ruleset(DEFAULT_RULESET), None

    # ---------------------------------------------------------------- changing

    async def create(self, guild_id: int | None, actor_id: int | None, name: str, base: str) -> Profile:
        if guild_id is None:
            raise HouseError("house rules belong to a server: use /house in a server's channel")
        name = clean_name(name)
        key = (base or "").strip().lower()
        if key not in ruleset_names():
            raise HouseError("unknown base ruleset '{base}': choose one of {names}", base=_clip(base), names=", ".join(ruleset_names()))
        rows = await self.repo.house_rows(guild_id)
        if any(isinstance(r["name"], str) and r["name"].casefold() == name.casefold() for r in rows):
            raise HouseError("this club already has house rules called '{name}'", name=name)
        if len(rows) >= PROFILES_LIMIT:
            raise HouseError("a club can keep at most {limit} house rules profiles: delete one first", limit=PROFILES_LIMIT)
        rs = find_ruleset(key)

        def write(conn: sqlite3.Connection) -> int:
            hid = sql.insert_house(conn, guild_id, name, rs.name, {}, actor_id)
            sql.audit(conn, guild_id=guild_id, actor_id=actor_id, action="house new", after={"name": name, "base": rs.name, "options": {}})
            return hid

        try:
            await self.repo.write(write)
        except sqlite3.IntegrityError:  # the same name written a moment earlier
            raise HouseError("this club already has house rules called '{name}'", name=name) from None
        return await self.get(guild_id, name)

    async def set(self, guild_id: int | None, actor_id: int | None, name: str, key: str, value: str) -> tuple[Profile, OptionSpec]:
        """Set one option of a profile; the option as it is now. OptionError (one sentence) and
        nothing stored when the engine refuses it."""
        for _ in range(8):  # another organiser's change in between: made again from theirs
            done = await self._set_once(guild_id, actor_id, name, key, value)
            if done is not None:
                return done
        raise HouseError("the house rules '{name}' kept changing while you set them: please try again", name=name)

    async def _set_once(
        self, guild_id: int | None, actor_id: int | None, name: str, key: str, value: str
    ) -> tuple[Profile, OptionSpec] | None:
        """One try of :meth:`set`; None when the stored options changed since they were read."""
        p = await self.get(guild_id, name)
        try:
            new = set_option(p.rules, key, value)
        except OptionError as e:
            raise _set_refusal(p.rules, key, value, str(e)) from None
        spec = find_spec(new, key)
        options = new.options_dict()
        before = p.row.to_json()
        after = {"name": p.name, "base": p.base, "options": options}
        read = p.row.options

        def write(conn: sqlite3.Connection) -> None:
            # compare and set, on the one writer: the options this change was made from are still
            # the stored ones, or nothing is written
            stored = house_options_in(conn, p.row.id)
            if stored is None or json.loads(stored) != read:
                raise _Changed
            sql.set_house(conn, p.row.id, options=options)
            sql.audit(conn, guild_id=guild_id, actor_id=actor_id, action="house set", before=before, after=after)

        try:
            await self.repo.write(write)
        except _Changed:
            return None
        return await self.get(guild_id, p.name), spec

    async def set_default(self, guild_id: int | None, actor_id: int | None, name: str) -> Profile:
        if guild_id is None:
            raise HouseError("house rules belong to a server: use /house in a server's channel")
        p = await self.get(guild_id, name)
        try:
            old = await self.default(guild_id)
        except HouseError:  # a damaged default: replacing it is the repair
            old = None

        def write(conn: sqlite3.Connection) -> None:
            sql.set_default_house(conn, guild_id, p.row.id)
            sql.audit(conn, guild_id=guild_id, actor_id=actor_id, action="house default",
                      before={"default": old.name if old else None}, after={"default": p.name})

        await self.repo.write(write)
        return p

    async def delete(self, guild_id: int | None, actor_id: int | None, name: str) -> str:
        """Delete a profile (a damaged one too); its name. Tables and seasons already started with
        it keep their rules (they store them)."""
        r = await self._row(guild_id, name)
        label = str(r["name"])
        before = {"name": label, "base": r["base"], "options": r["options"]}

        def write(conn: sqlite3.Connection) -> None:
            sql.delete_house(conn, int(r["id"]))
            sql.audit(conn, guild_id=guild_id, actor_id=actor_id, action="house delete", before=before)

        await self.repo.write(write)
        return label

    # ---------------------------------------------------------------- maintenance

    async def check(self) -> list[str]:
        """Every stored profile the engine cannot play, one line each (``db check``; the columns
        themselves are the repository's check)."""
        out = []
        rows = await every_house_row(self.repo.db)
        for r in rows:
            if sql.bad_columns(r, sql.HOUSE_RULES):
                continue  # listed by Repository.check
            try:
                rules_of(r["base"], json.loads(r["options"] or "{}"))
            except ValueError as e:
                out.append(f"house_rules row {r['id']}: {e}")
        return out


def _clip(text: str, n: int = 40) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in str(text)).replace("`", "'")
    return text if len(text) <= n else text[: n - 1] + "…"
