"""A real-socket fake of Discord (HTTP API + gateway) for tests and the token-less demo.

See ``server.py`` for the driver API and ``/work/shared/notes/local-discord-server.md`` for why.
"""

from .limits import RateLimitHit, RequestStats
from .server import ApiError, DiscordServer, point_discord_py_at
from .state import (
    Attachment,
    Channel,
    Command,
    Guild,
    InteractionFailed,
    InteractionRecord,
    Message,
    MessageVersion,
    Role,
    User,
)

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "Command",
    "DiscordServer",
    "Guild",
    "InteractionFailed",
    "InteractionRecord",
    "Message",
    "MessageVersion",
    "RateLimitHit",
    "RequestStats",
    "Role",
    "User",
    "point_discord_py_at",
]
