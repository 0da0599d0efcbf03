"""``/result import`` of every tenhou.net/6 game in shared/data/logs/tenhou6_json: the scores recorded
equal the logs' own final scores.

Where the expected scores come from, never from our output:
* the file's ``sc`` field (score, result per seat) when it has one;
* else, for mjx's one-hand-per-line files, the ``owari`` attribute of the same game's Tenhou XML in
  shared/data/logs/tenhou_xml (the README says they are the same games);
* else (single-hand excerpts of riichi-rs): the hand's starting scores plus the result's score
  changes, less 1000 for each riichi declared in the hand that was not ronned on its declaration
  tile (tenhou.net/6 score changes leave the riichi stick out); when a score falls below zero the
  game ends there (R-2.4) and the sticks on the table go to the top (R-2.9).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from tests.bot.harness import club


def _hand_expectation(hand: list[Any]) -> list[int]:
    (_, _, sticks), start = hand[0], list(hand[1])
    res = hand[-1]
    deltas = [0, 0, 0, 0]
    wins = []
    i = 1
    while i < len(res):
        if isinstance(res[i], list) and len(res[i]) == 4 and all(isinstance(x, int) for x in res[i]):
            deltas = [a + b for a, b in zip(deltas, res[i])]
            if i + 1 < len(res) and isinstance(res[i + 1], list):
                wins.append(res[i + 1])
            i += 2
        else:
            i += 1
    discards = [hand[6 + 3 * s] for s in range(4)]
    riichi = [0, 0, 0, 0]
    for s in range(4):
        for k, d in enumerate(discards[s]):
            if isinstance(d, str) and d.startswith("r"):
                ronned_on_it = k == len(discards[s]) - 1 and any(w[1] == s and w[0] != s for w in wins)
                if not ronned_on_it:
                    riichi[s] += 1
    final = [start[s] + deltas[s] - 1000 * riichi[s] for s in range(4)]
    if min(final) < 0:
        left = sticks + sum(riichi) if not wins else 0
        top = sorted(range(4), key=lambda s: (-final[s], s))[0]
        final[top] += 1000 * left
    return final


def expected_scores(path: Path, xml_dir: Path) -> list[int]:
    text = path.read_text(encoding="utf-8")
    objs = [json.loads(x) for x in text.splitlines() if x.strip()] if path.suffix == ".jsonl" else [json.loads(text)]
    last = objs[-1]
    if "sc" in last:
        return [round(x) for x in last["sc"][0::2]]
    xml = list(xml_dir.rglob(f"{path.stem}.xml"))
    if xml:
        owari = re.search(r'owari="([^"]+)"', xml[0].read_text(encoding="utf-8"))
        assert owari, xml[0]
        return [round(float(x) * 100) for x in owari[1].split(",")[0::2]]
    return _hand_expectation(last["log"][-1])


def test_import_of_every_tenhou6_game_records_the_logs_final_scores(tmp_path: Path, shared_dir: Path) -> None:
    logs = shared_dir / "data" / "logs"
    files = sorted(p for p in (logs / "tenhou6_json").rglob("*") if p.is_file())
    assert len(files) >= 60

    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result"], c.guild_id, timeout=10)
            role = c.server.add_role(c.guild_id, "Organiser")
            c.server.add_member(c.guild_id, c.users["alice"].id, roles=[role.id])
            await asyncio.sleep(0.1)
            await c.slash("alice", "season start", {"name": "Online", "ruleset": "tenhou"})
            repo = c.bot.repo
            recorded = 0
            for f in files:
                want = expected_scores(f, logs / "tenhou_xml")
                opts: dict[str, Any] = {"file": (f.name, f.read_bytes())}
                rec = await c.slash("bob", "result import", opts)
                text = "\n".join(c.replies(rec))
                if "would both be" in text:
                    # two seats with one name: the plain answer says how to map them; map them by seat
                    dup = re.search(r"seats ([ESWN]), ([ESWN]) would both be (.+?):", text)
                    assert dup, text
                    opts["names"] = f"{dup[1]}=guest:{dup[3]} ({dup[1]}), {dup[2]}=guest:{dup[3]} ({dup[2]})"
                    rec = await c.slash("bob", "result import", opts)
                    text = "\n".join(c.replies(rec))
                m = re.search(r"Game #(\d+) imported", text)
                assert m, (f.name, text)
                g = await repo.get_game(int(m[1]))
                assert g is not None and g.source == "import"
                assert [p.points for p in sorted(g.players, key=lambda p: p.seat)] == want, f.name
                recorded += 1
            assert recorded == len(files)
            # importing the same file twice is refused
            rec = await c.slash("bob", "result import", {"file": (files[0].name, files[0].read_bytes())})
            assert "already imported" in "\n".join(c.replies(rec))

    asyncio.run(main())


def test_import_of_the_bots_own_export_maps_names_to_members(tmp_path: Path) -> None:
    async def main() -> None:
        async with club(tmp_path) as c:
            await c.server.wait_for_commands(["season", "result", "table"], c.guild_id, timeout=10)
            role = c.server.add_role(c.guild_id, "Organiser")
            c.server.add_member(c.guild_id, c.users["alice"].id, roles=[role.id])
            await asyncio.sleep(0.1)
            await c.slash("alice", "season start", {"name": "Exports", "ruleset": "tenhou"})
            # an all-AI tonpuu at a bot table under Tenhou rules, exported as tenhou.net/6 JSON
            await c.slash("alice", "table open", {"length": "tonpuu", "ruleset": "tenhou"})
            await c.slash("alice", "table leave", {})
            await c.slash("alice", "table add-ai", {"seats": 4, "table": 1})
            await c.slash("alice", "table start", {"table": 1})
            await c.server.wait_for(lambda: c.bot.service.tables[1].game is not None and c.bot.service.tables[1].game.over, timeout=30)
            game = c.bot.service.tables[1].game
            rec = await c.slash("alice", "table export", {"table": 1})
            msg = next(m for m in c.server.visible_to(c.users["alice"].id) if m.interaction_id == rec.id)
            data = next(a.data for a in msg.attachments if a.filename == "table-1.json")
            names = json.loads(data)["name"]
            mapping = f"{names[0]}=<@{c.users['bob'].id}>, {names[1]}=<@{c.users['carol'].id}>"
            rec = await c.slash("alice", "result import", {"file": ("table-1.json", data), "names": mapping})
            text = "\n".join(c.replies(rec))
            m = re.search(r"Game #(\d+) imported", text)
            assert m, text
            g = await c.bot.repo.get_game(int(m[1]))
            assert g is not None
            assert [p.points for p in g.players] == list(json.loads(data)["sc"][0::2]) == list(game.final_scores)
            assert [p.player for p in g.players][:2] == [f"u:{c.users['bob'].id}", f"u:{c.users['carol'].id}"]
            assert [p.kind for p in g.players][2:] == ["guest", "guest"]

    asyncio.run(main())
