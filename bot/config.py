"""Typed settings, read once from the environment (and ``.env`` through python-dotenv)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv


class ConfigError(Exception):
    """A setting that cannot be used; the message is one plain sentence."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    dev_guild_id: int | None
    sync_global: bool
    database: Path
    organiser_role: str
    log_level: str
    ai_delay: float
    http_connections: int = 48  # HTTP connections to Discord kept open at most (0 = no limit)
    api_base: str = ""  # testing only: a local Discord-protocol server's REST base URL
    gateway: str = ""  # testing only: its gateway websocket URL

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
        return cls(
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
        )
