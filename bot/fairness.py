"""The name :mod:`bot.fairness` kept for its callers (the presenter): fairness at a table is
:mod:`bot.tables.fairness`, in the tables package, whose lifecycle stores the commitment and whose
service answers ``/table verify``. Nothing else here."""

from bot.tables.fairness import (
    commitment_text,
    export_files,
    reveal_text,
    status_line,
    table_commitment,
    verify_table,
)

__all__ = ["commitment_text", "export_files", "reveal_text", "status_line", "table_commitment", "verify_table"]
