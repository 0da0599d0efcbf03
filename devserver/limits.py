"""Discord's rate limits for the fake server: one clock, the buckets, and the count of every request.

What it models (Discord's documentation, ``docs/topics/rate-limits``; unpublished numbers are the ones
commonly observed, collected in ``/work/shared/notes/discord-limits.md``):

- the global limit, 50 requests per second per bot token; interaction endpoints (the callback and the
  ``/webhooks/{app}/{token}`` routes an interaction token opens) are exempt but keep their own buckets;
- per-route buckets keyed by route + major parameter (``channel_id``, ``guild_id``, webhook id + token),
  answered with ``X-RateLimit-*`` headers on every reply and a 429 ``{message, retry_after, global}``;
- the shared limit on edits of messages older than an hour (error 30046).

Limits: fixed windows (a bucket's window starts at its first request, as Discord's ``Reset-After``
suggests), not Discord's exact algorithm; the per-route numbers for routes Discord does not publish are
generous defaults. ``time_scale`` divides every rate-limit window (not the 3 s callback deadline, the
15-minute token lifetime or the one-hour age of a message: those are moved with ``Clock.advance``).
Nothing here touches sockets.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from dataclasses import dataclass, field

GLOBAL_LIMIT = 50  # requests per GLOBAL_WINDOW per bot token
GLOBAL_WINDOW = 1.0
OLD_MESSAGE_AGE = 3600.0  # seconds after which edits fall under the 30046 limit
OLD_EDIT_LIMIT = 3  # edits of old messages per OLD_EDIT_WINDOW per channel (unofficial numbers)
OLD_EDIT_WINDOW = 6.0
TOKEN_LIFETIME = 15 * 60.0  # interaction tokens


class Clock:
    """The server's one clock: real time plus what tests ``advance``.

    Message ages, interaction token lifetimes, the callback deadline, snowflake timestamps and the
    rate-limit windows all read it, so ``advance(3600)`` ages every message by an hour at once.
    """

    def __init__(self) -> None:
        self.offset = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def time(self) -> float:
        """Epoch seconds as the server sees them."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the server clock only moves forward")
        self.offset += seconds


@dataclass(frozen=True)
class RouteLimit:
    """One bucket kind: ``limit`` requests per ``window`` seconds per major parameter."""

    name: str
    limit: int
    window: float

    @property
    def hash(self) -> str:
        """What ``X-RateLimit-Bucket`` says: stable per bucket kind, without the major parameter."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:16]


CHANNEL_MESSAGES = RouteLimit("channel-messages", 5, 5.0)  # sends and edits share it, per channel
OLD_MESSAGE_EDITS = RouteLimit("old-message-edits", OLD_EDIT_LIMIT, OLD_EDIT_WINDOW)

# (methods, route template after /api/v10) -> bucket; the first match wins; templates are aiohttp's
ROUTE_LIMITS: list[tuple[frozenset[str], re.Pattern[str], RouteLimit]] = [
    (frozenset({"POST"}), re.compile(r"^/channels/\{channel_id\}/messages$"), CHANNEL_MESSAGES),
    (frozenset({"PATCH"}), re.compile(r"^/channels/\{channel_id\}/messages/\{message_id\}$"), CHANNEL_MESSAGES),
    (frozenset({"DELETE"}), re.compile(r"^/channels/\{channel_id\}/messages/\{message_id\}$"), RouteLimit("message-delete", 5, 1.0)),
    (frozenset({"PUT", "DELETE"}), re.compile(r"/reactions/"), RouteLimit("reactions", 1, 0.25)),
    (frozenset({"POST"}), re.compile(r"^/interactions/"), RouteLimit("interaction-callback", 5, 5.0)),
    (frozenset({"POST", "PATCH", "DELETE", "GET"}), re.compile(r"^/webhooks/"), RouteLimit("interaction-webhook", 5, 2.0)),
    (frozenset({"PUT", "POST", "PATCH", "DELETE"}), re.compile(r"^/applications/"), RouteLimit("commands", 5, 20.0)),
]
DEFAULT_LIMIT = 50  # other routes: per route + major parameter, per DEFAULT_WINDOW (unpublished)
DEFAULT_WINDOW = 1.0


def route_limit(method: str, template: str) -> RouteLimit:
    for methods, pattern, limit in ROUTE_LIMITS:
        if method in methods and pattern.search(template):
            return limit
    return RouteLimit(f"{method} {template}", DEFAULT_LIMIT, DEFAULT_WINDOW)


def major_parameter(match_info: dict[str, str]) -> str:
    """The top-level resource of a request, as Discord keys buckets by it."""
    if "channel_id" in match_info:
        return f"channel:{match_info['channel_id']}"
    if "guild_id" in match_info:
        return f"guild:{match_info['guild_id']}"
    if "token" in match_info:  # webhook id (or interaction id) + token
        owner = match_info.get("app_id") or match_info.get("interaction_id") or ""
        return f"webhook:{owner}+{match_info['token']}"
    return ""


@dataclass
class Window:
    """A fixed window: ``remaining`` of ``limit`` until ``reset_at`` (server clock)."""

    limit: int
    remaining: int
    reset_at: float


@dataclass(frozen=True)
class Verdict:
    """The outcome of taking one request from a bucket; ``retry_after`` > 0 means refused."""

    limit: int
    remaining: int
    reset_after: float
    retry_after: float

    @property
    def allowed(self) -> bool:
        return self.retry_after <= 0


class Buckets:
    """Fixed-window counters keyed by (bucket kind, major parameter), windows divided by ``time_scale``."""

    def __init__(self, clock: Clock, time_scale: float) -> None:
        self.clock = clock
        self.time_scale = time_scale
        self._windows: dict[tuple[str, str], Window] = {}
        self._taken = 0

    def take(self, kind: RouteLimit, major: str) -> Verdict:
        now = self.clock.monotonic()
        self._taken += 1
        if self._taken % 4096 == 0:  # forget finished windows (one per interaction token adds up)
            self._windows = {k: w for k, w in self._windows.items() if w.reset_at > now}
        key = (kind.name, major)
        w = self._windows.get(key)
        if w is None or now >= w.reset_at:
            w = Window(kind.limit, kind.limit, now + kind.window / self.time_scale)
            self._windows[key] = w
        reset_after = max(0.0, w.reset_at - now)
        if w.remaining <= 0:
            return Verdict(w.limit, 0, reset_after, reset_after)
        w.remaining -= 1
        return Verdict(w.limit, w.remaining, reset_after, 0.0)

    def peek(self, kind: RouteLimit, major: str) -> Verdict:
        """The bucket's state without taking from it."""
        now = self.clock.monotonic()
        w = self._windows.get((kind.name, major))
        if w is None or now >= w.reset_at:
            return Verdict(kind.limit, kind.limit, kind.window / self.time_scale, 0.0)
        return Verdict(w.limit, w.remaining, max(0.0, w.reset_at - now), 0.0)


def rate_limit_headers(kind: RouteLimit, v: Verdict) -> dict[str, str]:
    """The ``X-RateLimit-*`` headers of one answer (Reset in real epoch seconds, for ``use_clock`` clients)."""
    return {
        "X-RateLimit-Limit": str(v.limit),
        "X-RateLimit-Remaining": str(v.remaining),
        "X-RateLimit-Reset": f"{time.time() + v.reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{v.reset_after:.3f}",
        "X-RateLimit-Bucket": kind.hash,
    }


def too_many_headers(scope: str, retry_after: float) -> dict[str, str]:
    """Headers every 429 carries; discord.py reads a 429 without ``Via`` as a Cloudflare ban."""
    headers = {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
    if scope == "global":
        headers["X-RateLimit-Global"] = "true"
    return headers


# ---------------------------------------------------------------------------------------------------------
# accounting


@dataclass
class RouteCount:
    """Requests to one route (method + template): all, those on the bot token's global budget, 429s."""

    requests: int = 0
    global_budget: int = 0
    rate_limited: int = 0


@dataclass(frozen=True)
class RateLimitHit:
    """One 429 the server returned."""

    method: str
    route: str  # "POST /channels/{channel_id}/messages"
    path: str  # the concrete path
    scope: str  # user | global | shared
    retry_after: float
    injected: bool  # from ``inject_rate_limit`` rather than a real limit
    code: int | None = None  # 30046 for old-message edits


@dataclass
class RequestStats:
    """What ``DiscordServer.request_stats()`` returns: every API request since start (or ``reset_stats``)."""

    requests: int = 0
    global_budget: int = 0  # requests counted against the bot token's 50/s
    exempt: int = 0  # interaction endpoints (callback, interaction webhooks)
    # 401, 403 and 429 answers (but 429s of scope shared): Discord bans an IP for a while past
    # 10,000 of these in 10 minutes (rate-limits.mdx, "Invalid Request Limit")
    invalid: int = 0
    by_route: dict[str, RouteCount] = field(default_factory=dict)
    rate_limited: list[RateLimitHit] = field(default_factory=list)

    def count(self, route: str, *, on_global: bool) -> None:
        self.requests += 1
        rc = self.by_route.setdefault(route, RouteCount())
        rc.requests += 1
        if on_global:
            self.global_budget += 1
            rc.global_budget += 1
        else:
            self.exempt += 1

    def record_429(self, hit: RateLimitHit) -> None:
        self.rate_limited.append(hit)
        self.by_route.setdefault(hit.route, RouteCount()).rate_limited += 1

    @property
    def not_injected(self) -> list[RateLimitHit]:
        """429s a real limit produced (what a test asserts empty when it expects none)."""
        return [h for h in self.rate_limited if not h.injected]

    def by_scope(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for h in self.rate_limited:
            out[h.scope] = out.get(h.scope, 0) + 1
        return out

    def summary(self) -> str:
        """One line a test or bench can print: totals, and 429s by scope and route."""
        routes: dict[str, int] = {}
        for h in self.not_injected:
            key = f"{h.route} ({h.scope})"
            routes[key] = routes.get(key, 0) + 1
        injected = len(self.rate_limited) - len(self.not_injected)
        where = "".join(f"; {n} on {r}" for r, n in sorted(routes.items()))
        return (
            f"{self.requests} requests ({self.global_budget} on the bot token's global budget, {self.exempt} to "
            f"interaction endpoints); {len(self.not_injected)} 429s from limits{where}; {injected} injected 429s; "
            f"{self.invalid} invalid requests (401/403/429)"
        )
