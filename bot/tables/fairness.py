"""Fairness at a table: the commitment posted at the start, the seed revealed at the end, the
export anyone may ask for, and the answer of ``/table verify``.

A table's walls all come from its seed, so while a game runs the seed is the one secret that
reveals every hidden hand and every future draw. Nothing here lets it out before the game is over:
:func:`export_files` of a running game holds its finished hands only (the tenhou.net/6 and mjai
files leave the hand in play out, the project's own ``.jantaku.json`` drops the seed and the
action log), :func:`status_line` shows the commitment only. The texts are plain sentences for
the cog and the presenter, in the ``lang`` they are asked in (English by default; the engine's
verdict of :mod:`engine.verify` is English, read here for the other languages); no Discord types
here, and no rule logic (that is :mod:`engine.verify`).

Limits: the commitment shows that the walls were fixed before play; it cannot show that the seed
was drawn at random (``TableService.new_seed`` draws 128 bits with :mod:`secrets`, too many to
search from the commitment). A table started before commitments were stored (schema version 4) is
checked against the commitment its stored seed gives, which proves only that its log replays.
Reads storage only for ``/table verify`` (:func:`verify_table`, which the service calls); the
commitment is stored by the lifecycle (:meth:`~bot.tables.lifecycle.Lifecycle.commit_seed`).
"""

from __future__ import annotations

import asyncio
import json
import re

from bot import i18n
from bot.i18n import Lang
from bot.storage.repository import Repository, TableRow
from bot.tables.model import Table
from bot.tables.rules import table_ruleset
from engine.logs.export import dumps_mjai, to_jantaku, to_tenhou6
from engine.table.actions import Action
from engine.table.game import Game, IllegalActionError
from engine.verify import commitment, verify

__all__ = [
    "commitment_text",
    "export_files",
    "reveal_text",
    "status_line",
    "table_commitment",
    "verify_table",
]


def table_commitment(row: TableRow) -> str:
    """The commitment stored with the table, or (a table older than schema 4) the one its seed gives."""
    return row.commitment or commitment(row.ruleset, table_ruleset(row).options_dict(), row.seed)


def commitment_text(t: Table, lang: Lang = "en") -> str:
    """The start announcement's line: the commitment, and how the seed will be checked."""
    return i18n.t(
        lang,
        "Fairness: the walls come from a secret seed, committed to as `{commitment}` (SHA-256 of ruleset, options and seed). "
        "The seed is revealed when the game ends; `/table verify {table}` then checks the game against this commitment.",
        commitment=table_commitment(t.row), table=t.id,
    )


def _over(t: Table) -> bool:
    return t.row.status == "finished" and t.game is not None and t.game.over


def reveal_text(t: Table, lang: Lang = "en") -> str:
    """The final standings' line: the seed, now that the game is over ('' while it runs)."""
    if not _over(t):
        return ""
    return i18n.t(
        lang,
        "Seed `{seed}` (commitment `{commitment}`): `/table verify {table}` or `python -m engine verify` on the "
        "`/table export` file checks the walls and every hand.",
        seed=t.row.seed, commitment=table_commitment(t.row), table=t.id,
    )


def status_line(t: Table, lang: Lang = "en") -> str:
    """``/table status``'s fairness line: the commitment while the game runs, the seed after."""
    if t.game is None:
        return ""
    if _over(t):
        return reveal_text(t, lang)
    return i18n.t(lang, "Commitment `{commitment}` (the seed is revealed when the game ends)", commitment=table_commitment(t.row))


def _export(game: Game, names: list[str], commit: str, table_id: int) -> list[tuple[str, bytes]]:
    own = json.dumps(to_jantaku(game, names=names, commitment=commit), ensure_ascii=False).encode()
    files = [(f"table-{table_id}.jantaku.json", own)]
    try:
        t6 = json.dumps(to_tenhou6(game, names=names, ref=f"jantaku-table-{table_id}"), ensure_ascii=False).encode()
        mj = dumps_mjai(game, names=names).encode()
    except ValueError:  # taiwan16, chinitsu_toutenkou: no tenhou.net/6 or mjai form
        return files
    return [(f"table-{table_id}.json", t6), (f"table-{table_id}.mjai.jsonl", mj), *files]


async def export_files(t: Table, lang: Lang = "en") -> tuple[str, list[tuple[str, bytes]]]:
    """The sentence and the files of ``/table export``: the finished hands only while the game
    runs (no seed, nothing of the hand in play); the whole game with its seed once it is over."""
    g = t.game
    assert g is not None
    snapshot = g.copy()  # the replays run in a thread while the table may move on
    names = [s.name for s in t.seats]
    files = await asyncio.to_thread(_export, snapshot, names, table_commitment(t.row), t.id)
    done = len(snapshot.results)
    if _over(t):
        text = i18n.t(
            lang,
            "Table #{table}, the whole game with its seed: `python -m engine verify table-{table}.jantaku.json` "
            "checks it against the commitment posted at the start.",
            table=t.id,
        )
    else:
        text = i18n.tn(
            lang,
            "Table #{table} is still being played: this export holds its {n} finished hand only; "
            "the hand in play and the seed stay hidden until the game ends.",
            "Table #{table} is still being played: this export holds its {n} finished hands only; "
            "the hand in play and the seed stay hidden until the game ends.",
            done, table=t.id,
        )
    if len(files) > 1:
        text += " " + i18n.t(lang, "Open the .json in a tenhou.net/6 viewer.")
    else:
        text += " " + i18n.t(
            lang, "{ruleset} games have no tenhou.net/6 or mjai form: the .jantaku.json is the project's own.", ruleset=t.row.ruleset
        )
    return text, files


#: engine.verify's sentence for a game that verifies (its fields read back for other languages)
_VERIFIED = re.compile(
    r"verified: the seed matches the commitment (?P<commitment>\S+), and its walls with the (?P<actions>\d+) actions "
    r"replay the (?P<hands>\d+) hands and the final scores (?P<scores>\[.*\]) recorded"
)


def _verdict(lang: Lang, table_id: int, ok: bool, sentence: str) -> str:
    m = _VERIFIED.fullmatch(sentence) if ok and lang != "en" else None
    if m is not None:
        return i18n.t(
            lang,
            "Table #{table}: verified: the seed matches the commitment {commitment}, and its walls with the {actions} actions "
            "replay the {hands} hands and the final scores {scores} recorded.",
            table=table_id, **m.groupdict(),
        )
    if ok:
        return i18n.t(lang, "Table #{table}: {verdict}.", table=table_id, verdict=sentence)
    return i18n.t(lang, "Table #{table} does NOT verify: {reason}.", table=table_id, reason=sentence)


def _check(row: TableRow, actions: list[str], names: list[str], recorded: list[int] | None, lang: Lang = "en") -> str:
    try:
        rs = table_ruleset(row)
        g = Game(rs, row.seed)
    except Exception:  # a ruleset this version cannot build
        return i18n.t(
            lang, "Table #{table}: its ruleset '{ruleset}' cannot be rebuilt, so it cannot be verified.", table=row.id, ruleset=row.ruleset
        )
    computed = commitment(row.ruleset, rs.options_dict(), row.seed)
    if row.commitment is not None and computed != row.commitment:
        return i18n.t(
            lang,
            "Table #{table} does NOT verify: its stored seed, ruleset and options hash to `{computed}`, "
            "not to the commitment `{commitment}` posted when it started.",
            table=row.id, computed=computed, commitment=row.commitment,
        )
    for i, text in enumerate(actions):
        try:
            g.play(Action.parse(text))
        except (ValueError, IllegalActionError) as e:
            return i18n.t(
                lang,
                "Table #{table} does NOT verify: stored action {n} ({action}) cannot be played on the walls of its seed ({error}).",
                table=row.id, n=i + 1, action=text, error=e,
            )
    if not g.over:
        return i18n.t(
            lang,
            "Table #{table} does NOT verify: its stored action log stops after {n} actions, before the end of the game.",
            table=row.id, n=len(actions),
        )
    if recorded is not None and list(g.final_scores) != recorded:
        return i18n.t(
            lang,
            "Table #{table} does NOT verify: the standings recorded {recorded}, the stored log replays to {replayed}.",
            table=row.id, recorded=recorded, replayed=list(g.final_scores),
        )
    commit = table_commitment(row)
    verdict = verify(to_jantaku(g, names=names, commitment=commit), expected=commit)
    head = _verdict(lang, row.id, verdict.ok, verdict.sentence)
    if row.commitment is None:
        return i18n.t(lang, "{verdict} (It started before commitments were posted, so only its log's replay is checked.)", verdict=head)
    return head


async def verify_table(repo: Repository, table_id: int, lang: Lang = "en") -> str:
    """``/table verify``: one sentence on whether a finished table's stored seed and action log
    match its commitment and replay to its recorded standings."""
    row = await repo.get_table(table_id)
    if row is None:
        return i18n.t(lang, "there is no table #{table}", table=table_id)
    if row.status == "playing":
        return i18n.t(
            lang,
            "Table #{table} is still being played: its seed is revealed, and the game can be verified, when it ends. "
            "Its commitment is `{commitment}`.",
            table=row.id, commitment=table_commitment(row),
        )
    if row.status == "open":
        return i18n.t(lang, "Table #{table} has not started: only a finished game can be verified.", table=row.id)
    if row.status == "abandoned":
        return i18n.t(lang, "Table #{table} was abandoned: only a finished game can be verified.", table=row.id)
    if row.status != "finished":
        return i18n.t(lang, "Table #{table} {state}: only a finished game can be verified.", table=row.id, state=row.status)
    actions = [a for _, a in await repo.actions(table_id)]
    game = await repo.game_for_table(table_id)
    recorded: list[int] | None = None
    if game is not None and game.players:
        recorded = [p.points for p in sorted(game.players, key=lambda p: p.seat)]
    names = [s.name for s in row.seats]
    answer: str = await asyncio.to_thread(_check, row, actions, names, recorded, lang)
    return answer
