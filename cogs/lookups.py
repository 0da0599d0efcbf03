"""Look-ups: ``/score``, ``/shanten`` and ``/rule`` — the engine's answers, as a picture and text."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.pictures import render_hand, render_tiles
from engine.hand.report import shanten_report
from engine.notation import parse_hand
from engine.scoring import score
from engine.tiles import RED, parse_tiles

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)
_MELD = {"chi": "chi", "pon": "pon", "minkan": "minkan", "ankan": "ankan", "kakan": "kakan"}


class Lookups(commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    @app_commands.command(name="score", description="Score a hand, e.g. 22345678m234p56s ron 7s seat=S riichi")
    @app_commands.describe(hand="<concealed> [melds] ron|tsumo <tile> [flags]", ruleset="riichi, tenhou, mleague, …")
    async def score_cmd(self, interaction: discord.Interaction, hand: str, ruleset: str | None = None) -> None:
        line = hand if not ruleset else f"{hand} ruleset={ruleset}"
        try:
            spec = parse_hand(line)
            r = score(spec)
        except ValueError as e:
            await interaction.response.send_message(f"I could not read that hand: {e}.", ephemeral=True)
            return
        if not r.agari:
            why = "it has no yaku" if r.reason == "no_yaku" else "it is not a complete hand"
            await interaction.response.send_message(f"That hand cannot win: {why}.", ephemeral=True)
            return
        lines = [f"{y.name}: {'yakuman' if r.yakuman else f'{y.han} han'}" for y in r.yaku]
        head = f"{r.yakuman}× yakuman" if r.yakuman else f"{r.han} han {r.fu} fu"
        pay = ", ".join(f"{k} {v:+d}" for k, v in r.payments.items())
        text = "\n".join([f"**{head}** = {r.points} points" + (f" ({r.limit})" if r.limit else ""), *lines, f"payments: {pay}"])
        hand_codes = sorted(spec.concealed, key=lambda c: (c & ~RED, c & RED))
        melds = [(m.type.value, list(m.tiles), -1 if m.type.value == "ankan" else 0) for m in spec.melds]
        png = render_hand(hand_codes, melds, spec.win_tile, title=f"{'tsumo' if spec.ctx.tsumo else 'ron'} — {head}")
        await interaction.response.send_message(text, file=discord.File(io.BytesIO(png), filename="score.png"))

    @app_commands.command(name="shanten", description="Shanten, waits and the best discards for a hand")
    async def shanten_cmd(self, interaction: discord.Interaction, tiles: str) -> None:
        try:
            r = shanten_report(tiles)
            codes = parse_tiles(tiles, allow_flowers=False)
        except ValueError as e:
            await interaction.response.send_message(f"I could not read those tiles: {e}.", ephemeral=True)
            return
        sh = r["shanten"]
        head = "complete hand" if sh == -1 else ("tenpai" if sh == 0 else f"{sh}-shanten")
        lines = [f"**{head}**"]
        if "waits" in r:
            lines.append("waits: " + " ".join(r["waits"]))
        if "ukeire" in r:
            lines.append(f"ukeire {r['ukeire_total']}: " + " ".join(f"{k}×{c}" for k, c in r["ukeire"].items()))
        for d in r.get("discards", [])[:6]:
            lines.append(f"discard {d['discard']}: {d['total']} tiles (" + " ".join(f"{k}×{c}" for k, c in d["ukeire"].items()) + ")")
        png = render_tiles(sorted(codes, key=lambda c: (c & ~RED, c & RED)))
        await interaction.response.send_message("\n".join(lines), file=discord.File(io.BytesIO(png), filename="shanten.png"))


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Lookups(bot))
