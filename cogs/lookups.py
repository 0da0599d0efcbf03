"""Look-ups: ``/score``, ``/shanten`` and ``/rule`` — Discord's side of the look-ups service.

The cog only translates: it reads the command's options and the asker's language
(``i18n.lang_of(interaction.locale)``) and style, calls the service (:mod:`bot.lookups`: parsing,
scoring, shanten, rule search and paging), and turns its answers into embeds (cut to Discord's
limits), attached pictures and page buttons. The engine's work runs in a worker thread, deferred
("thinking…") when it is slow. A refusal is the service's :class:`~bot.lookups.LookupError_`,
answered by the command tree's error handler (:mod:`bot.command_tree`).

Long rule lists are paged with buttons whose ``custom_id`` carries what they show
(``lkr:<ruleset>:<page>:<user>``), so they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.house_text import PRESETS, preset_text
from bot.i18n import DEFAULT, Lang, t
from bot.lookups import (
    LookupError_,
    check_hand,
    check_tiles,
    find_rule,
    house_lines,
    keywords_shown,
    rule_page,
    ruleset_suggestions,
    score_hand,
    shanten_of,
    topic_suggestions,
)
from bot.lookups.refusals import clip as _clip
from bot.rules_text import RULESETS, Rulebook, RuleText, rulebook
from engine.rules.base import Ruleset

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)
T = TypeVar("T")

DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
MAX_EMBED_TOTAL = 6000


def rule_list_embed(book: Rulebook, page: int, lang: Lang = DEFAULT) -> tuple[discord.Embed, int]:
    """A page of ``book``'s list of rules (the book is in the reader's language; ``lang`` says the
    embed's own words)."""
    shown = rule_page(book, page)
    e = discord.Embed(
        title=_clip(t(lang, "{title} — rules", title=book.title), 256), description=shown.text, colour=discord.Colour.dark_green()
    )
    e.set_footer(
        text=t(
            lang, "page {page}/{pages} · /rule {ruleset} <id or keyword> explains one rule",
            page=shown.page + 1, pages=shown.pages, ruleset=book.ruleset,
        )
    )
    return e, shown.pages


def rule_embed(entry: RuleText, book: Rulebook, also: Sequence[RuleText] = (), lang: Lang = DEFAULT) -> discord.Embed:
    e = discord.Embed(
        title=_clip(f"{entry.id} · {entry.title}", 256),
        description=_clip(entry.text, DESCRIPTION_LIMIT),
        colour=discord.Colour.dark_green(),
    )
    if also:
        lines: list[str] = []
        for a in also:
            line = f"`{a.id}` {a.title}"
            if sum(len(x) + 1 for x in lines) + len(line) > FIELD_LIMIT - 40:
                lines.append(t(lang, "… and {n} more", n=len(also) - len(lines)))
                break
            lines.append(line)
        e.add_field(name=t(lang, "Also matching"), value="\n".join(lines), inline=False)
    foot = f"{book.title}"
    if entry.keywords:
        words = keywords_shown(entry, lang)
        foot = t(lang, "{title} · keywords: {keywords}", title=book.title, keywords=", ".join(words))
    e.set_footer(text=_clip(foot, 2048))
    return e


def house_embeds(name: str, rules: Ruleset, lang: Lang = DEFAULT) -> list[discord.Embed]:
    """``/rule house:<name>``: the rules card of a club's house rules and the texts of the rules
    they change (:func:`bot.lookups.house_lines`), in ``lang``."""
    lines = house_lines(name, rules, lang)
    return _embeds(t(lang, "House rules {name}", name=name), lines, "", discord.Colour.dark_green())[:10]


class RulePage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lkr:(?P<rs>[a-z0-9_]+):(?P<page>\d+):(?P<user>\d+)",
):
    """A page button of a ``/rule`` list: the ruleset, the page it opens and who asked."""

    def __init__(self, ruleset: str, page: int, user: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"lkr:{ruleset}:{page}:{user}",
                disabled=disabled,
            )
        )
        self.ruleset = ruleset
        self.page = page
        self.user = user

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RulePage:
        return cls(match["rs"], int(match["page"]), int(match["user"]), label=item.label or "")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.user:
            await interaction.response.send_message(
                t(
                    i18n.lang_of(interaction.locale),
                    "Only the person who asked can turn these pages; ask /rule {ruleset} yourself.",
                    ruleset=self.ruleset,
                ),
                ephemeral=True,
            )
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = i18n.lang_of(interaction.locale)
        if self.ruleset not in RULESETS:
            await interaction.response.send_message(t(lang, "that list is no longer available"), ephemeral=True)
            return
        book = rulebook(self.ruleset, lang)
        embed, pages = rule_list_embed(book, self.page, lang)
        await interaction.response.edit_message(
            embed=embed, view=page_view(self.ruleset, self.page, pages, self.user, lang)
        )


def page_view(ruleset: str, page: int, pages: int, user: int, lang: Lang = DEFAULT) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    page = max(0, min(page, pages - 1))
    prev_page = page - 1 if page > 0 else 0
    next_page = page + 1 if page + 1 < pages else pages - 1
    view.add_item(RulePage(ruleset, prev_page, user, label=t(lang, "◀ previous"), disabled=page == 0))
    view.add_item(RulePage(ruleset, next_page, user, label=t(lang, "next ▶"), disabled=page + 1 >= pages))
    return view


# --- the cog ---------------------------------------------------------------------------------


RULESET_CHOICES = [app_commands.Choice(name=rs, value=rs) for rs in (*RULESETS, *PRESETS)]  # presets: issue 30


def _ruleset_suggestions(current: str, lang: Lang = DEFAULT) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label, value=value) for label, value in ruleset_suggestions(current, lang)]


def _embeds(title: str, lines: Sequence[str], image: str, colour: discord.Colour) -> list[discord.Embed]:
    """``lines`` as one embed, or several (Discord: 4096 per description, 6000 per message); the
    picture goes in the first."""
    chunks: list[str] = []
    cur = ""
    for ln in lines:
        ln = _clip(ln, DESCRIPTION_LIMIT - 10)
        if len(cur) + len(ln) + 1 > DESCRIPTION_LIMIT - 10:
            chunks.append(cur)
            cur = ""
        cur += ln + "\n"
    chunks.append(cur)
    embeds: list[discord.Embed] = []
    used = len(title)
    for i, chunk in enumerate(chunks):
        room = MAX_EMBED_TOTAL - used - 40
        if room <= 0:
            break
        text = _clip(chunk.rstrip(), min(room, DESCRIPTION_LIMIT)) or "—"
        e = discord.Embed(title=_clip(title, 256) if i == 0 else None, description=text, colour=colour)
        if i == 0 and image:
            e.set_image(url=f"attachment://{image}")
        used += len(text)
        embeds.append(e)
    return embeds


DEFER_AFTER = 1.5  # seconds; Discord drops an interaction not answered within 3


async def _in_thread(interaction: discord.Interaction, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker thread (the engine is CPU work); when it is slow — a cold table
    cache, a busy machine — the interaction is deferred ("thinking…") so Discord keeps it."""
    task = asyncio.ensure_future(asyncio.to_thread(fn, *args))
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await interaction.response.defer(thinking=True)
    return await task


async def _reply(
    interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False, **kw: Any
) -> None:
    """Answer, or fill in the deferred "thinking" message (which keeps the defer's visibility)."""
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, ephemeral=ephemeral, **kw)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kw)


class Lookups(commands.Cog):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RulePage)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RulePage)

    @app_commands.command(
        name="score", description="Score a hand, e.g. 22345678m234p56s ron 7s seat=S riichi"
    )
    @app_commands.describe(
        hand="<concealed> [melds] ron|tsumo <tile> [flags]",
        ruleset="riichi, tenhou, mleague, … (default riichi)",
        house="this club's house rules (/house list) instead of a ruleset",
    )
    async def score_cmd(
        self, interaction: discord.Interaction, hand: str, ruleset: str | None = None, house: str | None = None
    ) -> None:
        rules, house = await self._house_rules(interaction, house, ruleset, "ruleset=" in hand)
        if rules is not None:
            ruleset = rules.name
        line = hand.strip() if not ruleset else f"{hand.strip()} ruleset={ruleset.strip()}"
        check_hand(line)  # a refusal is answered by the command tree's error handler (bot.command_tree)
        style = self.bot.prefs.player(interaction.guild_id, interaction.user.id)
        lang = i18n.lang_of(interaction.locale)
        ans = await _in_thread(interaction, score_hand, line, rules, house, style, lang)
        lines = [f"`{ans.hand}`", *ans.lines]
        embeds = _embeds(ans.title, lines, "score.png", discord.Colour.gold())
        await _reply(interaction, embeds=embeds, file=discord.File(io.BytesIO(ans.png), filename="score.png"))

    @app_commands.command(name="shanten", description="Shanten, waits and the ukeire of each useful discard")
    @app_commands.describe(
        tiles="13 or 14 tiles, e.g. 123m456p789s1123z", ruleset="riichi (default) or another ruleset",
        house="this club's house rules (/house list): their base ruleset's tiles",
    )
    async def shanten_cmd(
        self, interaction: discord.Interaction, tiles: str, ruleset: str | None = None, house: str | None = None
    ) -> None:
        rules, _ = await self._house_rules(interaction, house, ruleset, False)
        if rules is not None:
            ruleset = rules.name  # shanten depends on the tile set, which options do not change
        check_tiles(tiles, ruleset)
        style = self.bot.prefs.player(interaction.guild_id, interaction.user.id)
        ans = await _in_thread(interaction, shanten_of, tiles, ruleset, style, i18n.lang_of(interaction.locale))
        embeds = _embeds(ans.title, ans.lines, "shanten.png", discord.Colour.blue())
        await _reply(
            interaction, embeds=embeds, file=discord.File(io.BytesIO(ans.png), filename="shanten.png")
        )

    async def _house_rules(
        self, interaction: discord.Interaction, house: str | None, ruleset: str | None, named_in_line: bool
    ) -> tuple[Ruleset | None, str | None]:
        """The house rules to answer under: the ones named, else the club's default when no ruleset
        is named; (None, None) for a plain ruleset."""
        if not house and (ruleset or named_in_line):
            return None, None
        rs, name = await self.bot.house.resolve(interaction.guild_id, house, ruleset)
        return (rs, name) if name is not None else (None, None)

    @score_cmd.autocomplete("house")
    @shanten_cmd.autocomplete("house")
    async def house_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        profiles, _ = await self.bot.house.profiles(interaction.guild_id)
        return [
            app_commands.Choice(name=_clip(f"{p.name} ({p.base})", 100), value=p.name)
            for p in profiles
            if current.casefold() in p.name.casefold()
        ][:25]

    @score_cmd.autocomplete("ruleset")
    @shanten_cmd.autocomplete("ruleset")
    async def ruleset_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _ruleset_suggestions(current, i18n.lang_of(interaction.locale))

    @app_commands.command(
        name="rule",
        description="Explain a rule of one of the six rulesets, by id (R-6.4) or keyword (furiten)",
    )
    @app_commands.describe(
        ruleset="which rules", topic="a rule id such as R-6.4, or keywords such as furiten",
        house="this club's house rules (/house list): what they change, and those rules' texts",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def rule_cmd(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Choice[str] | None = None,
        topic: str | None = None,
        house: str | None = None,
    ) -> None:
        lang = i18n.lang_of(interaction.locale)
        if house:
            p = await self.bot.house.get(interaction.guild_id, house)
            await interaction.response.send_message(embeds=house_embeds(p.name, p.rules, lang))
            return
        if ruleset is None:
            raise LookupError_("Name a ruleset (`/rule ruleset:riichi`) or this club's house rules (`/rule house:<name>`).")
        name = ruleset.value
        if name in PRESETS:  # a preset of the riichi rules, option by option (issue 30)
            await interaction.response.send_message(embeds=_embeds(name.upper(), preset_text(name, lang), "", discord.Colour.dark_green())[:10])
            return
        if not topic or not topic.strip():
            embed, pages = rule_list_embed(rulebook(name, lang), 0, lang)
            view = page_view(name, 0, pages, interaction.user.id, lang)
            if view is None:
                await interaction.response.send_message(embed=embed)
            else:
                await interaction.response.send_message(embed=embed, view=view)
            return
        entry, book, also = find_rule(name, topic, lang)
        await interaction.response.send_message(embed=rule_embed(entry, book, also[:30], lang))

    @rule_cmd.autocomplete("topic")
    async def topic_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        chosen = getattr(interaction.namespace, "ruleset", None)
        name = getattr(chosen, "value", chosen) or "riichi"
        suggested = topic_suggestions(str(name), current, i18n.lang_of(interaction.locale))
        return [app_commands.Choice(name=label, value=rule_id) for label, rule_id in suggested]

    rule_cmd.autocomplete("house")(house_autocomplete)


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(Lookups(bot))
