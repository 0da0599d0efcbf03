"""Typed settings, read once from the environment (and ``.env`` through python-dotenv)."""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

from bot.shards import ShardPlan, ShardsError, parse_shards


class ConfigError(Exception):
    """A setting that cannot be used; the message is one plain sentence."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    dev_guild_id: int | None
    sync_global: bool
    database: Path  # the SQLite file (DATABASE_PATH), used when no DATABASE_URL is set
    organiser_role: str
    log_level: str
    ai_delay: float
    http_connections: int = 48  # HTTP connections to Discord kept open at most (0 = no limit)
    api_base: str = ""  # testing only: a local Discord-protocol server's REST base URL
    gateway: str = ""  # testing only: its gateway websocket URL
    #: the mjai programs a club may seat (``/table add-ai kind:mjai:<name>``): name -> argv
    mjai_bots: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the gateway shards this process holds (JANTAKU_SHARDS, bot/shards.py); None: one unsharded connection
    shards: ShardPlan | None = None
    #: a PostgreSQL server's database (``postgresql://user@host/db``, DATABASE_URL) instead of the file
    database_url: str = ""

    @property
    def database_target(self) -> str | Path:
        """What the repository opens: DATABASE_URL when set, else the SQLite file."""
        return self.database_url or self.database

    @classmethod
    def load(cls, env_file: str | Path | None = ".env") -> Settings:
        if env_file and Path(env_file).exists():
            load_dotenv(env_file, override=False)
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (a number), not {guild!r}")
        delay = os.environ.get("AI_DELAY_SECONDS", "0.4").strip() or "0"
        try:
            ai_delay = float(delay)
        except ValueError:
            raise ConfigError(f"AI_DELAY_SECONDS must be a number of seconds, not {delay!r}") from None
        conns = os.environ.get("HTTP_CONNECTIONS", "48").strip() or "48"
        if not conns.isdigit():
            raise ConfigError(f"HTTP_CONNECTIONS must be a whole number (0 = no limit), not {conns!r}")
        try:
            shards = parse_shards(os.environ.get("JANTAKU_SHARDS"))
        except ShardsError as e:
            raise ConfigError(str(e)) from None
        url = os.environ.get("DATABASE_URL", "").strip()
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(f"DATABASE_URL must be a postgresql:// address, not {url!r}")
        return cls(
            database_url=url,
            token=os.environ.get("DISCORD_TOKEN", "").strip(),
            dev_guild_id=int(guild) if guild else None,
            sync_global=os.environ.get("SYNC_GLOBAL", "").strip().lower() in ("1", "true", "yes"),
            database=Path(os.environ.get("DATABASE_PATH", "data/jantaku.sqlite3")),
            organiser_role=os.environ.get("ORGANISER_ROLE", "Organiser").strip() or "Organiser",
            log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            ai_delay=ai_delay,
            http_connections=int(conns),
            api_base=os.environ.get("JANTAKU_DISCORD_API", "").strip(),
            gateway=os.environ.get("JANTAKU_DISCORD_GATEWAY", "").strip(),
            mjai_bots=mjai_bots(os.environ),
            shards=shards,
        )


_MJAI_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")


def mjai_bots(env: dict[str, str] | os._Environ[str]) -> dict[str, tuple[str, ...]]:
    """The mjai programs the owner lists: ``JANTAKU_MJAI_BOTS=name1,name2`` and, for each name,
    ``JANTAKU_MJAI_<NAME>=<command line>`` (NAME upper-cased, ``-`` as ``_``). The command line is
    split as a shell would split it (shlex) but run without a shell."""
    listed = [n.strip() for n in env.get("JANTAKU_MJAI_BOTS", "").split(",") if n.strip()]
    out: dict[str, tuple[str, ...]] = {}
    for name in listed:
        if not _MJAI_NAME.fullmatch(name):
            raise ConfigError(
                f"JANTAKU_MJAI_BOTS lists {name!r}: a name is lower-case letters, digits, - and _ (at most 32)"
            )
        key = "JANTAKU_MJAI_" + name.upper().replace("-", "_")
        try:
            argv = tuple(shlex.split(env.get(key, "")))
        except ValueError as e:
            raise ConfigError(f"{key} is not a command line ({e})") from None
        if not argv:
            raise ConfigError(f"JANTAKU_MJAI_BOTS lists {name!r} but {key} gives no command line")
        out[name] = argv
    return out
