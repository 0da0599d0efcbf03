"""Tables: everything that changes a table, one module per job (README, "Architecture").

* :mod:`bot.tables.model`: a table in memory, its refusals, its events (:class:`Update`);
* :mod:`bot.tables.rules`: which rulesets a table plays, and for how long;
* :mod:`bot.tables.restore`: the tables in memory, rebuilt from storage, damaged ones named;
* :mod:`bot.tables.lifecycle`: open, join, add AI seats, start, abandon;
* :mod:`bot.tables.acting`: a move validated, stored, then applied, under the table's lock;
* :mod:`bot.tables.autoplay`: AI seats, standing orders, mjai programs;
* :mod:`bot.tables.clocks`: turn clocks and time banks;
* :mod:`bot.tables.fairness`: the seed's commitment, reveal, export and ``/table verify``;
* :mod:`bot.tables.refusals`: the engine's refusal of a move, in the player's language;
* :mod:`bot.tables.service`: :class:`TableService`, the one object callers use.

This package's own names are the ones callers import (``from bot.tables import TableService,
Table, TableError``); the modules of the package import each other directly, never this
``__init__``, and nothing here imports a module outside the package that imports the package back
(tests/test_import_graph.py).
"""

from bot.tables.model import (
    ENGINE_FAILED,
    SAVE_FAILED,
    Damage,
    EngineFault,
    Listener,
    StorageError,
    Table,
    TableError,
    Update,
    quoted,
)
from bot.tables.rules import length_of, length_text, lengths, playable, ruleset_for_table, table_ruleset
from bot.tables.service import TableService

__all__ = [
    "ENGINE_FAILED",
    "SAVE_FAILED",
    "Damage",
    "EngineFault",
    "Listener",
    "StorageError",
    "Table",
    "TableError",
    "TableService",
    "Update",
    "length_of",
    "length_text",
    "lengths",
    "playable",
    "quoted",
    "ruleset_for_table",
    "table_ruleset",
]
