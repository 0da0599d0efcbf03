"""The subset of Discord's message checks a bot is likely to trip over (limits, empty messages).

Each check returns Discord's ``errors`` tree for a 400 ``50035 Invalid Form Body`` reply, or None.
The limits are Discord's documented ones; the server refuses what Discord would refuse so a test
notices before production does.
"""

from __future__ import annotations

from typing import Any

from .state import COMPONENTS_V2, iter_components

JSON = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_ATTACHMENTS = 10
MAX_V2_COMPONENTS = 40
MAX_FILE_BYTES = 10 * 1024 * 1024


def _err(code: str, message: str) -> JSON:
    return {"_errors": [{"code": code, "message": message}]}


def _embed_errors(embed: JSON) -> tuple[JSON, int]:
    errors: JSON = {}
    total = 0
    limits = {"title": 256, "description": 4096}
    for key, limit in limits.items():
        value = embed.get(key)
        if value is not None:
            total += len(str(value))
            if len(str(value)) > limit:
                errors[key] = _err("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors["fields"] = _err("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, f in enumerate(fields):
        name, value = str(f.get("name", "")), str(f.get("value", ""))
        total += len(name) + len(value)
        ferr: JSON = {}
        if not name or len(name) > 256:
            ferr["name"] = _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 256 in length.")
        if not value or len(value) > 1024:
            ferr["value"] = _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1024 in length.")
        if ferr:
            errors.setdefault("fields", {})[str(i)] = ferr
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        total += len(footer)
        if len(footer) > 2048:
            errors["footer"] = {"text": _err("BASE_TYPE_MAX_LENGTH", "Must be 2048 or fewer in length.")}
    author = (embed.get("author") or {}).get("name")
    if author:
        total += len(author)
        if len(author) > 256:
            errors["author"] = {"name": _err("BASE_TYPE_MAX_LENGTH", "Must be 256 or fewer in length.")}
    return errors, total


def _component_errors(components: list[JSON], flags: int) -> JSON:
    errors: JSON = {}
    seen: set[str] = set()
    if flags & COMPONENTS_V2:
        if sum(1 for _ in iter_components(components)) > MAX_V2_COMPONENTS:
            errors["_errors"] = [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Too many components."}]
    elif len(components) > MAX_ROWS:
        errors["_errors"] = [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {MAX_ROWS} or fewer in length."}]
    for i, row in enumerate(components):
        rerr: JSON = {}
        if not flags & COMPONENTS_V2 and row.get("type") != 1:
            rerr["type"] = _err("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Top-level components must be action rows.")
        children = row.get("components") or []
        if row.get("type") == 1:
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if len(children) > MAX_ROW_ITEMS or (selects and len(children) > 1):
                rerr["components"] = _err("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
            if not children:
                rerr["components"] = _err("BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        for comp in iter_components([row]):
            cid = comp.get("custom_id")
            if cid is not None:
                if len(cid) > 100:
                    rerr.setdefault("custom_id", _err("BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
                if cid in seen:
                    rerr.setdefault("custom_id", _err("COMPONENT_CUSTOM_ID_DUPLICATED", f"Component custom id {cid!r} is duplicated"))
                seen.add(cid)
            if comp.get("type") == 2:
                label = comp.get("label")
                if label is not None and len(label) > 80:
                    rerr.setdefault("label", _err("BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."))
                if comp.get("style") == 5 and not comp.get("url"):
                    rerr.setdefault("url", _err("BASE_TYPE_REQUIRED", "Link buttons need a url."))
                if comp.get("style") != 5 and comp.get("style") != 6 and not cid:
                    rerr.setdefault("custom_id", _err("BASE_TYPE_REQUIRED", "This field is required"))
                if label is None and comp.get("emoji") is None and comp.get("style") != 6:
                    rerr.setdefault("label", _err("BASE_TYPE_REQUIRED", "A button needs a label or an emoji."))
            if comp.get("type") == 3:
                options = comp.get("options") or []
                if not 1 <= len(options) <= 25:
                    rerr.setdefault("options", _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."))
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    rerr.setdefault("options", _err("SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique"))
        if rerr:
            errors[str(i)] = rerr
    return errors


def check_message(
    *,
    content: str,
    embeds: list[JSON],
    components: list[JSON],
    attachment_count: int,
    flags: int,
    sticker_ids: list[Any] | None = None,
    poll: Any = None,
) -> tuple[int, str, JSON] | None:
    """(code, message, errors) if Discord would refuse a message in this final state, else None."""
    errors: JSON = {}
    if flags & COMPONENTS_V2 and (content or embeds):
        errors["content"] = _err("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'content' and 'embeds' fields cannot be used with components v2")
    if len(content) > MAX_CONTENT:
        errors["content"] = _err("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
    if len(embeds) > MAX_EMBEDS:
        errors["embeds"] = _err("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        eerr, n = _embed_errors(embed)
        total += n
        if eerr:
            errors.setdefault("embeds", {})[str(i)] = eerr
    if total > MAX_EMBED_TOTAL:
        errors.setdefault("embeds", {})["_errors"] = [
            {"code": "MAX_EMBED_SIZE_EXCEEDED", "message": "Embed size exceeds maximum size of 6000"}
        ]
    cerr = _component_errors(components, flags)
    if cerr:
        errors["components"] = cerr
    if attachment_count > MAX_ATTACHMENTS:
        errors["attachments"] = _err("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ATTACHMENTS} or fewer in length.")
    if errors:
        return 50035, "Invalid Form Body", errors
    if not (content.strip() or embeds or components or attachment_count or sticker_ids or poll):
        return 50006, "Cannot send an empty message", {}
    return None
