"""Every option of a ruleset, described, shown and set from text: what a house-rule profile edits.

``option_specs(rs)`` walks the ruleset's option values (the riichi options and the variant's own
group, nested dataclasses flattened into dotted keys such as ``abortive_draws.sanchahou`` or
``tw.tai.sanankou``) and describes each one: its value here, its value in the registered ruleset,
what kind of value it takes, the allowed values, a one-line description and the rule id, read from
the field's metadata (``opt(...)``). ``set_option(rs, key, text)`` parses a value as a person types
it, applies it through ``Ruleset.with_options`` and refuses, in one sentence (:class:`OptionError`),
an unknown key, a malformed value, a value outside its choices, or a combination the rules cannot
play (``option_problems``), so that a bad profile is refused when it is set, never mid-game.

Limits: a key is the ``with_options`` path, not the spec's ``riichi.``/``taiwan16.`` prefix; a
field without ``opt`` metadata is still listed and settable, with an empty description (a test
names the ones left). A variant that plays only some of riichi's options says which
(``Ruleset.riichi_options_read``); the others are neither listed nor settable.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from engine.rules.base import Ruleset, find_ruleset
from engine.rules.options import opt  # noqa: F401  (re-exported: variants describe their options with it)

MAX_INT = 1_000_000  # no option of any ruleset needs more; a bigger number overflows storage (SQLite INTEGER)
MAX_ITEMS = 34  # a list option names at most every tile kind
NOT_SETTABLE = frozenset({"players"})  # the seat count is the ruleset's, not an option to change
_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")
_NONE = ("none", "null", "off", "no")


class OptionError(ValueError):
    """One sentence for the person who typed the option."""


@dataclass(frozen=True)
class OptionSpec:
    key: str  # the with_options path: "kuitan", "abortive_draws.sanchahou", "pk.ron_only"
    value: Any  # in the ruleset asked about
    default: Any  # in the registered ruleset of the same name
    kind: str  # "bool" | "int" | "int?" | "text" | "choice" | "ints" | "choices" | "pairs"
    choices: tuple[str, ...]  # allowed values of a "choice", allowed items of "choices"
    help: str
    rule: str

    @property
    def changed(self) -> bool:
        return bool(self.value != self.default)

    def allowed(self) -> str:
        """The allowed values, as a person reads them."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "choices":
            return "a comma list of " + ", ".join(self.choices) + " (or none)"
        if self.kind == "pairs":
            return "key:value pairs, comma separated"
        if self.kind == "ints":
            n = len(self.value) if isinstance(self.value, tuple) else 0
            return f"{n} whole numbers, comma separated" if n else "whole numbers, comma separated"
        if self.kind == "int?":
            return "a whole number, or none"
        if self.kind == "int":
            return "a whole number"
        return "text"


def show_value(v: Any) -> str:
    """An option's value as it would be typed: ``true``, ``20,10,-10,-20``, ``none``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, tuple) and v and all(isinstance(x, tuple) for x in v):
        return ",".join(":".join(show_value(y) for y in x) for x in v)
    if isinstance(v, (tuple, list, frozenset, set)):
        items = sorted(v) if isinstance(v, (frozenset, set)) else list(v)
        return ",".join(show_value(x) for x in items) if items else "none"
    return str(v)


def option_specs(rs: Ruleset) -> list[OptionSpec]:
    """Every settable option of ``rs``, riichi options first, then the variant's group(s)."""
    try:
        base: Ruleset | None = find_ruleset(rs.name)
    except ValueError:
        base = None
    out: list[OptionSpec] = []
    _walk(rs.options, base.options if base else None, "", out)
    read = rs.riichi_options_read
    if read is not None:  # the variant plays only these of riichi's options (its group has the rest)
        out = [s for s in out if s.key.split(".")[0] in read]
    for name in _groups(rs):
        _walk(getattr(rs, name), getattr(base, name, None) if base else None, name + ".", out)
    return out


def find_spec(rs: Ruleset, key: str) -> OptionSpec:
    key = key.strip().removeprefix("riichi.")
    for spec in option_specs(rs):
        if spec.key == key:
            return spec
    read = rs.riichi_options_read
    if read is not None and key.split(".")[0] in {f.name for f in fields(rs.options)} - read:
        own = ", ".join(f"{g}." for g in _groups(rs)) or "none"
        raise OptionError(f"{rs.name} plays by its own rules, not riichi's {_clip(key)}: its options start with {own}")
    raise OptionError(f"{rs.name} has no option '{_clip(key)}'")


def set_option(rs: Ruleset, key: str, text: str) -> Ruleset:
    """``rs`` with one option set from text; OptionError (one sentence) when it cannot be."""
    spec = find_spec(rs, key)
    value = parse_value(spec, text)
    changes: Any = value
    parts = spec.key.split(".")
    for part in reversed(parts[1:]):
        changes = {part: changes}
    try:
        new = rs.with_options(**{parts[0]: changes})
    except (TypeError, ValueError) as e:  # a variant's own check (its __post_init__)
        raise OptionError(_sentence(str(e))) from None
    if _get(new, spec.key) != value:  # the variant derives it from its own options
        raise OptionError(f"{spec.key} follows from {rs.name}'s own rules and cannot be set")
    # what the registered ruleset already plays is not a problem of this change (a variant that
    # counts points in its own unit keeps riichi's point checks out of its way)
    try:
        known = set(option_problems(find_ruleset(rs.name)))
    except ValueError:
        known = set()
    problems = [p for p in option_problems(new) if p not in known]
    if problems:
        raise OptionError(problems[0])
    return new


def parse_value(spec: OptionSpec, text: str) -> Any:
    """A value of ``spec``'s kind from what a person typed (case and spaces do not matter)."""
    raw = text.strip()
    low = raw.lower()
    bad = f"{spec.key} takes {spec.allowed()}, not '{_clip(raw)}'"
    if spec.kind == "bool":
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionError(bad)
    if spec.kind in ("int", "int?"):
        if spec.kind == "int?" and low in _NONE:
            return None
        try:
            value = int(low.replace("_", ""))
        except ValueError:
            raise OptionError(bad) from None
        if abs(value) > MAX_INT:
            raise OptionError(f"{spec.key} takes a number from {-MAX_INT:,} to {MAX_INT:,}")
        return value
    if spec.kind == "choice":
        if low not in spec.choices:
            raise OptionError(bad)
        return low
    items = [x for x in low.replace(" ", ",").split(",") if x]
    if spec.kind == "ints":
        try:
            values = tuple(int(x) for x in items)
        except ValueError:
            raise OptionError(bad) from None
        if len(values) > MAX_ITEMS or any(abs(v) > MAX_INT for v in values):
            raise OptionError(f"{spec.key} takes at most {MAX_ITEMS} numbers from {-MAX_INT:,} to {MAX_INT:,}")
        if isinstance(spec.default, tuple) and _fixed_length(spec) and len(values) != len(spec.default):
            raise OptionError(bad)
        return values
    if spec.kind == "pairs":
        try:
            pairs = tuple(tuple(int(y) for y in x.split(":")) for x in items)
        except ValueError:
            raise OptionError(bad) from None
        if any(len(p) != 2 for p in pairs) or len(pairs) > MAX_ITEMS or any(abs(v) > MAX_INT for p in pairs for v in p):
            raise OptionError(bad)
        return pairs
    if spec.kind == "choices":
        if low in _NONE:
            return ()
        unknown = [x for x in items if x not in spec.choices]
        if unknown or len(set(items)) != len(items):
            raise OptionError(bad)
        return tuple(items)
    return raw


def option_problems(rs: Ruleset) -> list[str]:
    """Combinations of riichi options the game cannot be played with, one sentence each."""
    o = rs.options
    out: list[str] = []
    n = rs.players
    copies = rs.copies
    for suit, count in zip("mps", o.red_fives):
        if not 0 <= count <= copies:
            out.append(f"red_fives: {count} red 5{suit} is more than the {copies} copies of a five")
    if n == 3 and o.red_fives[0] and any(k == 4 for k in rs.removed_kinds):  # 5m is kind 4
        out.append("red_fives: this game has no 5m, so it cannot have a red 5m")
    if len(o.uma) != n:
        out.append(f"uma needs {n} values, one per place (it has {len(o.uma)})")
    elif sum(o.uma) != 0:
        out.append(f"uma must add up to 0 (these add up to {sum(o.uma)})")
    elif list(o.uma) != sorted(o.uma, reverse=True):
        out.append("uma must go down from 1st place to last")
    if o.start_points <= 0 or o.start_points % 100:
        out.append("start_points must be a positive multiple of 100")
    if o.return_points < o.start_points or o.return_points % 100:
        out.append("return_points must be a multiple of 100 no lower than start_points")
    for key in ("honba_ron", "honba_tsumo"):
        v = getattr(o, key)
        if v < 0 or v % 100:
            out.append(f"{key} must be a multiple of 100, 0 or more")
    # the noten payment must split evenly among 1..n-1 tenpai players, in whole hundreds
    step = 100 * math.lcm(*range(1, n))
    if o.noten_total < 0 or o.noten_total % step:
        out.append(f"noten_total must be a multiple of {step} (it is split among 1 to {n - 1} players)")
    if not 1 <= o.riichi_min_live <= 30:
        out.append("riichi_min_live must be 1 to 30 tiles")
    if o.double_wind_pair_fu not in (2, 4):
        out.append("double_wind_pair_fu is 2 or 4")
    if o.kita and n != 3:
        out.append("kita (North set aside) is a 3-player rule")
    return out


# -- walking the option dataclasses -------------------------------------------------------------


def _groups(rs: Ruleset) -> list[str]:
    return [f.name for f in fields(rs) if f.name != "options" and is_dataclass(getattr(rs, f.name))]


def _walk(value: Any, base: Any, prefix: str, out: list[OptionSpec]) -> None:
    hints = typing.get_type_hints(type(value))
    for f in fields(value):
        if not prefix and f.name in NOT_SETTABLE:
            continue
        v = getattr(value, f.name)
        b = getattr(base, f.name, v) if base is not None else v
        if is_dataclass(v):
            _walk(v, b, f"{prefix}{f.name}.", out)
            continue
        meta: Mapping[str, Any] = f.metadata
        choices = tuple(meta.get("choices", ()))
        out.append(
            OptionSpec(
                key=prefix + f.name,
                value=v,
                default=b,
                kind=_kind(hints.get(f.name), v, choices),
                choices=choices,
                help=str(meta.get("help", "")),
                rule=str(meta.get("rule", "")),
            )
        )


def _kind(hint: Any, value: Any, choices: tuple[str, ...]) -> str:
    if isinstance(value, bool) or hint is bool:
        return "bool"
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args and int in args:
        return "int?"
    if hint is int or isinstance(value, int):
        return "int"
    if origin in (tuple, frozenset):
        item = args[0] if args else int
        if typing.get_origin(item) is tuple:
            return "pairs"
        return "choices" if item is str else "ints"
    return "choice" if choices else "text"


def _get(rs: Ruleset, key: str) -> Any:
    first, *rest = key.split(".")
    obj: Any = (
        getattr(rs, first) if first in {f.name for f in fields(rs)} and first != "options" else rs.options
    )
    if obj is rs.options:
        rest = key.split(".")
    for part in rest:
        obj = getattr(obj, part)
    return obj


def _fixed_length(spec: OptionSpec) -> bool:
    """red_fives has one count per suit; uma's length is checked against the players later."""
    return spec.key.rsplit(".", 1)[-1] != "uma"


def _clip(text: str, n: int = 40) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= n else text[: n - 1] + "…"


def _sentence(text: str) -> str:
    text = text.strip().splitlines()[0] if text.strip() else "that value cannot be played"
    return _clip(text, 200)


def differences(a: Ruleset, b: Ruleset) -> list[str]:
    """How ``b``'s rules differ from ``a``'s, one line per option (``kuitan: true here, false
    there``), or one line when they are different rulesets altogether. Empty when they play alike."""
    if a.name != b.name or a.players != b.players:
        return [f"a different ruleset: {b.name} ({b.players} players), not {a.name} ({a.players} players)"]
    theirs = {s.key: s.value for s in option_specs(b)}
    return [
        f"{s.key}: {show_value(s.value)} here, {show_value(theirs[s.key])} there"
        for s in option_specs(a)
        if s.key in theirs and theirs[s.key] != s.value
    ]
