"""Fairness at a table: the commitment posted at the start, the seed revealed at the end, the
export anyone may ask for, and the answer of ``/table verify``.

A table's walls all come from its seed, so while a game runs the seed is the one secret that
reveals every hidden hand and every future draw. Nothing here lets it out before the game is over:
:func:`export_files` of a running game holds its finished hands only (the tenhou.net/6 and mjai
files leave the hand in play out, the project's own ``.jantaku.json`` drops the seed and the
action log), :func:`status_line` shows the commitment only. The texts are plain sentences for
the cog and the presenter; no Discord types here, and no rule logic (that is :mod:`engine.verify`).

Limits: the commitment shows that the walls were fixed before play; it cannot show that the seed
was drawn at random (``TableService.new_seed`` draws 128 bits with :mod:`secrets`, too many to
search from the commitment). A table started before commitments were stored (schema version 4) is
checked against the commitment its stored seed gives, which proves only that its log replays.
"""

from __future__ import annotations

import asyncio
import json

from bot import i18n
from bot.i18n import DEFAULT, Lang
from bot.storage.repository import Repository, TableRow
from bot.tables import Table, table_ruleset
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


def commitment_text(t: Table) -> str:
    """The start announcement's line: the commitment, and how the seed will be checked."""
    return (
        f"Fairness: the walls come from a secret seed, committed to as `{table_commitment(t.row)}` "
        f"(SHA-256 of ruleset, options and seed). The seed is revealed when the game ends; "
        f"`/table verify {t.id}` then checks the game against this commitment."
    )


def _over(t: Table) -> bool:
    return t.row.status == "finished" and t.game is not None and t.game.over


def reveal_text(t: Table, lang: Lang = DEFAULT) -> str:
    """The final standings' line: the seed, now that the game is over ('' while it runs)."""
    if not _over(t):
        return ""
    return i18n.t(
        lang,
        "Seed `{seed}` (commitment `{commitment}`): `/table verify {table}` or "
        "`python -m engine verify` on the `/table export` file checks the walls and every hand.",
        seed=t.row.seed,
        commitment=table_commitment(t.row),
        table=t.id,
    )


def status_line(t: Table, lang: Lang = DEFAULT) -> str:
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


async def export_files(t: Table) -> tuple[str, list[tuple[str, bytes]]]:
    """The sentence and the files of ``/table export``: the finished hands only while the game
    runs (no seed, nothing of the hand in play); the whole game with its seed once it is over."""
    g = t.game
    assert g is not None
    snapshot = g.copy()  # the replays run in a thread while the table may move on
    names = [s.name for s in t.seats]
    files = await asyncio.to_thread(_export, snapshot, names, table_commitment(t.row), t.id)
    done = len(snapshot.results)
    if _over(t):
        text = (
            f"Table #{t.id}, the whole game with its seed: `python -m engine verify table-{t.id}.jantaku.json` "
            "checks it against the commitment posted at the start."
        )
    else:
        text = (
            f"Table #{t.id} is still being played: this export holds its {done} finished hand{'s' if done != 1 else ''} "
            "only; the hand in play and the seed stay hidden until the game ends."
        )
    if len(files) > 1:
        text += " Open the .json in a tenhou.net/6 viewer."
    else:
        text += f" {t.row.ruleset} games have no tenhou.net/6 or mjai form: the .jantaku.json is the project's own."
    return text, files


def _check(row: TableRow, actions: list[str], names: list[str], recorded: list[int] | None) -> str:
    try:
        rs = table_ruleset(row)
        g = Game(rs, row.seed)
    except Exception:  # a ruleset this version cannot build
        return f"Table #{row.id}: its ruleset '{row.ruleset}' cannot be rebuilt, so it cannot be verified."
    computed = commitment(row.ruleset, rs.options_dict(), row.seed)
    if row.commitment is not None and computed != row.commitment:
        return (
            f"Table #{row.id} does NOT verify: its stored seed, ruleset and options hash to `{computed}`, "
            f"not to the commitment `{row.commitment}` posted when it started."
        )
    for i, text in enumerate(actions):
        try:
            g.play(Action.parse(text))
        except (ValueError, IllegalActionError) as e:
            return f"Table #{row.id} does NOT verify: stored action {i + 1} ({text}) cannot be played on the walls of its seed ({e})."
    if not g.over:
        return f"Table #{row.id} does NOT verify: its stored action log stops after {len(actions)} actions, before the end of the game."
    if recorded is not None and list(g.final_scores) != recorded:
        return (
            f"Table #{row.id} does NOT verify: the standings recorded {recorded}, the stored log replays to "
            f"{list(g.final_scores)}."
        )
    commit = table_commitment(row)
    verdict = verify(to_jantaku(g, names=names, commitment=commit), expected=commit)
    head = f"Table #{row.id}: {verdict.sentence}." if verdict.ok else f"Table #{row.id} does NOT verify: {verdict.sentence}."
    if row.commitment is None:
        head += " (It started before commitments were posted, so only its log's replay is checked.)"
    return head


async def verify_table(repo: Repository, table_id: int) -> str:
    """``/table verify``: one sentence on whether a finished table's stored seed and action log
    match its commitment and replay to its recorded standings."""
    row = await repo.get_table(table_id)
    if row is None:
        return f"there is no table #{table_id}"
    if row.status != "finished":
        state = {"open": "has not started", "playing": "is still being played", "abandoned": "was abandoned"}.get(row.status, row.status)
        if row.status == "playing":
            return (
                f"Table #{row.id} {state}: its seed is revealed, and the game can be verified, when it ends. "
                f"Its commitment is `{table_commitment(row)}`."
            )
        return f"Table #{row.id} {state}: only a finished game can be verified."
    actions = [a for _, a in await repo.actions(table_id)]
    game = await repo.game_for_table(table_id)
    recorded: list[int] | None = None
    if game is not None and game.players:
        recorded = [p.points for p in sorted(game.players, key=lambda p: p.seat)]
    names = [s.name for s in row.seats]
    answer: str = await asyncio.to_thread(_check, row, actions, names, recorded)
    return answer
