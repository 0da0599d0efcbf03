"""Shared fixtures: where the third-party data lives (``shared/`` beside the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.skip(f"shared data not found at {SHARED}")
    return SHARED
