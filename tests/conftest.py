"""Shared fixtures: where the third-party data lives (``shared/`` beside the checkout), and the
database the storage tests run on (``database``: SQLite and PostgreSQL, one test each)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"

#: the PostgreSQL server the tests use (trust authentication, as on the project's machines and CI)
PG_SERVER = os.environ.get("JANTAKU_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.skip(f"shared data not found at {SHARED}")
    return SHARED


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(f"{PG_SERVER}/postgres", timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def postgres_database() -> Iterator[str]:
    """A fresh ``jantaku_test_<random>`` database's URL, dropped afterwards; skips in one line when
    no server answers (a failure with ``JANTAKU_REQUIRE_POSTGRES=1``, as CI sets)."""
    name = f"jantaku_test_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, ConnectionError, TimeoutError) as e:
        why = f"no PostgreSQL server answers at {PG_SERVER} ({type(e).__name__}: {e})"
        if os.environ.get("JANTAKU_REQUIRE_POSTGRES") == "1":
            pytest.fail(why + " and JANTAKU_REQUIRE_POSTGRES=1")
        pytest.skip(why)
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a test's Repository lives: a SQLite file, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "jantaku.sqlite3")
        return
    yield from postgres_database()
