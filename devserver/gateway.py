"""The gateway half of the fake server: HELLO, heartbeats, IDENTIFY/READY, RESUME and dispatches.

Frames go out as TEXT JSON even when the client asks for ``compress=zlib-stream`` (discord.py only
decompresses BINARY frames). Each session keeps its recent dispatches so a RESUME can replay them.
A dispatch goes only to the sessions holding its shard, and IDENTIFY obeys Discord's sharding limits
(4010, 4011, ``max_concurrency`` per 5 s, the daily session starts): the rules are in ``shards.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import deque
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .shards import Sharding, receives, valid_shard
from .state import State, dumps

log = logging.getLogger("devserver.gateway")

JSON = dict[str, Any]


class GatewayHost(Protocol):
    """What the gateway asks of the server it belongs to (``server.DiscordServer``), named here so that this
    module does not import the server back."""

    token: str
    state: State
    sharding: Sharding

    @property
    def gateway_url(self) -> str: ...

    def _notify(self) -> None: ...

# Intents
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13
MESSAGE_CONTENT = 1 << 15

# a client that sends no heartbeat for this many intervals is closed with 4009 (real time, not the
# server's clock: discord.py heartbeats on real time)
HEARTBEAT_GRACE = 1.5


class Connection:
    """One websocket; sends are serialised by the owning session's lock."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: Session | None = None
        self.closed_by_server = False
        self.last_heartbeat = time.monotonic()

    async def send_raw(self, text: str) -> None:
        if self.ws.closed:
            return
        try:
            await self.ws.send_str(text)
        except (ConnectionError, RuntimeError) as exc:  # peer went away mid-send
            log.debug("gateway send failed: %r", exc)


class Session:
    def __init__(self, intents: int, shard: list[int] | None) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.conn: Connection | None = None
        self.lock = asyncio.Lock()
        self.buffer: deque[tuple[int, str]] = deque(maxlen=5000)
        self.ready = False

    def wants(self, intent: int) -> bool:
        return intent == 0 or bool(self.intents & intent)

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets an event of ``guild_id`` (None: DMs, shard 0 only)."""
        return receives(self.shard, guild_id)

    async def send(self, event: str, data_json: str) -> None:
        async with self.lock:
            self.seq += 1
            frame = f'{{"op":0,"s":{self.seq},"t":"{event}","d":{data_json}}}'
            self.buffer.append((self.seq, frame))
            if self.conn is not None:
                await self.conn.send_raw(frame)


class Gateway:
    def __init__(self, server: GatewayHost, *, heartbeat_interval: float, enforce_heartbeats: bool = True) -> None:
        self.server = server
        self.heartbeat_interval = heartbeat_interval
        self.enforce_heartbeats = enforce_heartbeats
        self.timed_out = 0  # connections closed with 4009
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.identify_payloads: list[JSON] = []

    @property
    def ready_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.ready and s.conn is not None]

    # --- the websocket handler -------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoclose=True, autoping=True)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        await conn.send_raw(json.dumps({"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}))
        conn.last_heartbeat = time.monotonic()
        watchdog = asyncio.get_running_loop().create_task(self._watch_heartbeats(conn)) if self.enforce_heartbeats else None
        try:
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                await self._on_frame(conn, frame)
        finally:
            if watchdog is not None:
                watchdog.cancel()
            self.connections.discard(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                if ws.close_code in (1000, 1001) and not conn.closed_by_server:
                    # the client closing cleanly ends the session, as on Discord; anything else may RESUME
                    # (aiohttp reports 1000 after a close the server started, whatever code it sent)
                    self.sessions.pop(session.id, None)
                    session.ready = False
            self.server._notify()
        return ws

    async def _on_frame(self, conn: Connection, frame: JSON) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:
            conn.last_heartbeat = time.monotonic()
            await conn.send_raw('{"op":11,"s":null,"t":null,"d":null}')
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8:
            await self._request_members(conn, d or {})
        elif op in (3, 4):
            pass  # presence / voice state updates: accepted, ignored
        else:
            log.warning("gateway: unhandled op %r", op)

    async def _watch_heartbeats(self, conn: Connection) -> None:
        """Close with 4009 (Session timed out) when the client stops heartbeating; the session ends."""
        limit = self.heartbeat_interval * HEARTBEAT_GRACE
        while not conn.ws.closed:
            await asyncio.sleep(max(0.02, self.heartbeat_interval / 4))
            if time.monotonic() - conn.last_heartbeat > limit and not conn.ws.closed:
                log.warning("gateway: no heartbeat for %.1fs, closing with 4009", time.monotonic() - conn.last_heartbeat)
                self.timed_out += 1
                conn.closed_by_server = True
                session = conn.session
                if session is not None:  # 4009: reconnect and start a new session (no RESUME)
                    self.sessions.pop(session.id, None)
                    session.ready = False
                await conn.ws.close(code=4009, message=b"Session timed out.")
                return

    def _token_ok(self, token: Any) -> bool:
        expected = self.server.token
        if self.server.sharding.token_reset:
            return False
        return expected is None or token in (expected, f"Bot {expected}")

    async def _identify(self, conn: Connection, d: JSON) -> None:
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identify_payloads.append(d)
        shard = d.get("shard")
        if not valid_shard(shard):
            conn.closed_by_server = True
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        verdict = self.server.sharding.identify(shard[0] if shard else 0)
        if verdict == "too fast":  # Discord's answer to an IDENTIFY over max_concurrency per 5 s
            await conn.send_raw('{"op":9,"s":null,"t":null,"d":false}')
            return
        if verdict == "exhausted":  # no session start left today: every session ends, the token is reset
            for other in list(self.connections):
                other.closed_by_server = True
                await other.ws.close(code=4004, message=b"Authentication failed.")
            self.sessions.clear()
            return
        st = self.server.state
        my_guilds = [g for g in st.guilds.values() if st.bot.id in g.members and receives(shard, g.id)]
        if len(my_guilds) > self.server.sharding.max_guilds_per_session:
            conn.closed_by_server = True
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return
        session = Session(int(d.get("intents", 0)), shard)
        session.conn = conn
        conn.session = session
        self.sessions[session.id] = session
        ready: JSON = {
            "v": 10,
            "user": {**st.bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in my_guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.server.gateway_url,
            "application": {"id": str(st.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["devserver"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await session.send("READY", dumps(ready))
        for g in my_guilds:
            payload = st.guild_payload(g, members=session.wants(GUILD_MEMBERS), full=True)
            await session.send("GUILD_CREATE", dumps(payload))
        session.ready = True
        self.server._notify()

    async def _resume(self, conn: Connection, d: JSON) -> None:
        session = self.sessions.get(str(d.get("session_id")))
        if session is None or not self._token_ok(d.get("token")):
            await conn.send_raw('{"op":9,"s":null,"t":null,"d":false}')
            return
        seq = int(d.get("seq") or 0)
        async with session.lock:
            session.conn = conn
            conn.session = session
            for s, frame in list(session.buffer):
                if s > seq:
                    await conn.send_raw(frame)
            session.seq += 1
            frame = f'{{"op":0,"s":{session.seq},"t":"RESUMED","d":{{"_trace":["devserver"]}}}}'
            session.buffer.append((session.seq, frame))
            await conn.send_raw(frame)
        self.server._notify()

    async def _request_members(self, conn: Connection, d: JSON) -> None:
        session = conn.session
        st = self.server.state
        if session is None:
            return
        gids = d.get("guild_id")
        for gid in gids if isinstance(gids, list) else [gids]:
            guild = st.guilds.get(int(gid)) if gid is not None else None
            if guild is None or not session.receives(guild.id):
                continue
            query = (d.get("query") or "").lower()
            user_ids = {int(u) for u in d.get("user_ids") or []} if d.get("user_ids") is not None else None
            limit = int(d.get("limit") or 0)
            members = []
            for uid in guild.members:
                if user_ids is not None and uid not in user_ids:
                    continue
                if query and not st.user_payload(uid)["username"].lower().startswith(query):
                    continue
                members.append(st.member_payload(guild.id, uid))
                if limit and len(members) >= limit:
                    break
            chunk: JSON = {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [str(u) for u in (user_ids or set()) if u not in guild.members],
            }
            if d.get("presences"):
                chunk["presences"] = []
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            await session.send("GUILD_MEMBERS_CHUNK", dumps(chunk))

    # --- sending -----------------------------------------------------------------------------------------
    async def dispatch(
        self, event: str, data: JSON, *, intent: int = 0, without_content: JSON | None = None, guild_id: int | None = None
    ) -> list[Session]:
        """Send a dispatch to every ready session that asked for ``intent`` and holds the event's shard;
        returns the sessions that got it.

        The shard is the one of ``guild_id``, else of ``data["guild_id"]``; an event with neither goes
        to shard 0 only (DMs). ``without_content`` is the variant for sessions lacking the
        MESSAGE_CONTENT intent.
        """
        gid = guild_id if guild_id is not None else data.get("guild_id")
        target = int(gid) if gid is not None else None
        sessions = [s for s in self.sessions.values() if s.ready and s.wants(intent) and s.receives(target)]
        if not sessions:
            return sessions
        full = dumps(data)
        stripped = dumps(without_content) if without_content is not None else full
        for s in sessions:
            await s.send(event, full if s.wants(MESSAGE_CONTENT) else stripped)
        return sessions

    # --- fault injection -----------------------------------------------------------------------------------
    async def send_op(self, op: int, d: Any) -> None:
        text = json.dumps({"op": op, "s": None, "t": None, "d": d})
        for conn in list(self.connections):
            await conn.send_raw(text)

    async def drop(self, code: int = 4000) -> None:
        for conn in list(self.connections):
            conn.closed_by_server = True
            await conn.ws.close(code=code, message=b"devserver: connection dropped")

    async def invalidate(self, resumable: bool = False) -> None:
        await self.send_op(9, resumable)
        if not resumable:
            for s in list(self.sessions.values()):
                s.ready = False
            self.sessions.clear()

    async def close_all(self) -> None:
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close(code=1001, message=b"devserver stopping")
