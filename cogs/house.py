"""``/house`` commands: a club's own rule profiles — new, set, show, list, default, delete.

Thin: each command calls :class:`~bot.house.HouseRules` (the bot's ``house``) and answers; a
refusal (:class:`~bot.house.HouseError`, or an organisers' command asked by someone else,
:func:`~bot.command_tree.organiser_only`) is answered, ephemeral, by the command tree's one error
handler. Answers follow the look-ups' visibility rule: a change, a card or the list is public, a
refusal only for the asker. ``option`` autocompletes every option of the profile's base (one line:
key, value, allowed values, description, within Discord's 100 characters) and ``value`` the values
of the option chosen when they are a list.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_tree import choices, complete, organiser_only
from bot.house import HouseError, HouseRules, option_line
from bot.house_text import PRESETS, changed_rule_lines, preset_text
from bot.i18n import Lang, lang_of, t, term, tn
from bot.render.rules_card import card_lines, render_card
from engine.rules.base import rulesets_in_menu_order
from engine.rules.catalog import OptionError, find_spec, option_specs, show_value

if TYPE_CHECKING:
    from bot.client import JantakuBot

log = logging.getLogger(__name__)

CHOICE_LIMIT = 100  # Discord: a choice's name and value
MESSAGE_LIMIT = 2000


def _clip(text: str, n: int = CHOICE_LIMIT) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _choice_label(lang: Lang, value: str, *, now: bool, usual: bool) -> str:
    """An option value as the autocomplete offers it, marked when it is the current or usual one."""
    if now and usual:
        return t(lang, "{value} (now) (usual)", value=value)
    if now:
        return t(lang, "{value} (now)", value=value)
    if usual:
        return t(lang, "{value} (usual)", value=value)
    return value


def _card_text(lines: list[str], lang: Lang = "en") -> str:
    out = ""
    for i, line in enumerate(lines):
        if len(out) + len(line) + 1 > MESSAGE_LIMIT - 40:
            out += t(lang, "… and {n} more", n=len(lines) - i)
            break
        out += line + "\n"
    return out.rstrip()


class House(commands.GroupCog, group_name="house", group_description="This club's own house rules"):
    def __init__(self, bot: JantakuBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def svc(self) -> HouseRules:
        return self.bot.house

    # ---------------------------------------------------------------- commands

    @app_commands.command(name="new", description="Make house rules from a base ruleset (organisers)")
    @app_commands.describe(name="the profile's name, e.g. club", base="the ruleset it starts from (riichi, tenhou, ema, …)")
    @organiser_only("make house rules")
    async def new(self, interaction: discord.Interaction, name: str, base: str) -> None:
        p = await self.svc.create(interaction.guild_id, interaction.user.id, name, base)
        await interaction.response.send_message(t(
            lang_of(interaction.locale),
            "House rules **{name}** made from {base}: change an option with `/house set name:{name} option:… value:…`, see them with `/house show`.",
            name=p.name, base=p.base,
        ))

    @app_commands.command(name="set", description="Change one option of house rules (organisers)")
    @app_commands.describe(name="the house rules", option="the option (autocompletes)", value="its new value (autocompletes where it is a list)")
    @organiser_only("change house rules")
    async def set_(self, interaction: discord.Interaction, name: str, option: str, value: str) -> None:
        p, spec = await self.svc.set(interaction.guild_id, interaction.user.id, name, option, value)
        rule = f" ({spec.rule})" if spec.rule else ""
        await interaction.response.send_message(t(
            lang_of(interaction.locale),
            "House rules **{name}**: `{key}` is now **{value}**{rule} (usually {usual}). Tables opened from now on play it; games already open keep their rules.",
            name=p.name, key=spec.key, value=show_value(spec.value), rule=rule, usual=show_value(spec.default),
        ))

    @app_commands.command(name="show", description="A house rules card: the base and every changed option")
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        lang = lang_of(interaction.locale)
        try:
            p = await self.svc.get(interaction.guild_id, name)
        except HouseError:
            preset = " ".join(name.split()).casefold()
            if preset not in PRESETS:
                raise
            await interaction.response.send_message(_card_text(preset_text(preset, lang), lang))  # a preset, option by option
            return
        png = await asyncio.to_thread(render_card, p.name, p.rules, lang=lang)
        lines = card_lines(p.name, p.rules, lang=lang)
        own = changed_rule_lines(p.rules, lang)  # against the rulebook: a preset's own changes too
        if own:
            lines += ["", t(lang, "Each rule as played:"), *own]
        await interaction.response.send_message(_card_text(lines, lang), file=discord.File(io.BytesIO(png), filename="house-rules.png"))

    @app_commands.command(name="list", description="This club's house rules")
    async def list_(self, interaction: discord.Interaction) -> None:
        lang = lang_of(interaction.locale)
        profiles, damaged = await self.svc.profiles(interaction.guild_id, lang)
        if not profiles and not damaged:
            raise HouseError("this club has no house rules yet: an organiser can make some with /house new")
        try:
            default = await self.svc.default(interaction.guild_id)
        except HouseError as e:
            default, damaged = None, [*damaged, e.sentence(lang)]
        lines = []
        for p in profiles:
            changed = sum(1 for s in option_specs(p.rules) if s.changed)
            if default is not None and default.row.id == p.row.id:
                lines.append(tn(lang, "**{name}** (the club's default) — {base} with {n} change", "**{name}** (the club's default) — {base} with {n} changes",
                                changed, name=p.name, base=p.base))
            else:
                lines.append(tn(lang, "**{name}** — {base} with {n} change", "**{name}** — {base} with {n} changes", changed, name=p.name, base=p.base))
        lines += [d[:1].upper() + d[1:] for d in dict.fromkeys(damaged)]
        await interaction.response.send_message(_card_text(lines, lang))

    @app_commands.command(name="default", description="The house rules a table, look-up or season uses when none is named (organisers)")
    @organiser_only("choose the club's default house rules")
    async def default(self, interaction: discord.Interaction, name: str) -> None:
        p = await self.svc.set_default(interaction.guild_id, interaction.user.id, name)
        await interaction.response.send_message(t(
            lang_of(interaction.locale),
            "**{name}** ({base}) are now this club's house rules wherever no ruleset or house rules are named.", name=p.name, base=p.base,
        ))

    @app_commands.command(name="delete", description="Delete house rules (organisers)")
    @organiser_only("delete house rules")
    async def delete(self, interaction: discord.Interaction, name: str) -> None:
        label = await self.svc.delete(interaction.guild_id, interaction.user.id, name)
        await interaction.response.send_message(t(
            lang_of(interaction.locale), "House rules **{name}** deleted; tables and seasons that started with them keep their rules.", name=label,
        ))

    # ---------------------------------------------------------------- autocomplete

    async def _names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        profiles, _ = await self.svc.profiles(interaction.guild_id)
        base = {p.name: p.base for p in profiles}
        return choices(base, current.strip(), lambda name: _clip(f"{name} ({base[name]})"))

    async def _bases(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = lang_of(interaction.locale)
        cur = current.lower().strip()
        out = []
        for rs in rulesets_in_menu_order():
            about = f"{rs.name} — {term(lang, 'ruleset', rs.description)}"
            if cur in about.lower():
                out.append(app_commands.Choice(name=_clip(about), value=rs.name))
        return out[:25]

    async def _options(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        name = str(getattr(interaction.namespace, "name", "") or "")
        try:
            p = await self.svc.get(interaction.guild_id, name)
        except HouseError:
            return []
        lang = lang_of(interaction.locale)
        cur = current.lower().strip()
        specs = [s for s in option_specs(p.rules) if cur in s.key.lower() or cur in s.help.lower() or cur in term(lang, "option", s.help).lower()]
        return [app_commands.Choice(name=option_line(s, CHOICE_LIMIT, lang), value=s.key) for s in specs[:25]]

    async def _values(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        name = str(getattr(interaction.namespace, "name", "") or "")
        key = str(getattr(interaction.namespace, "option", "") or "")
        try:
            p = await self.svc.get(interaction.guild_id, name)
            spec = find_spec(p.rules, key)
        except (HouseError, OptionError):
            return []
        if spec.kind == "bool":
            values = ["true", "false"]
        elif spec.kind == "choice":
            values = list(spec.choices)
        elif spec.kind == "choices":
            values = [show_value(spec.value), "none", *spec.choices]
        else:
            values = [show_value(spec.value), show_value(spec.default)]
        lang = lang_of(interaction.locale)
        cur = current.lower().strip()
        out = []
        for v in dict.fromkeys(values):
            if cur in v.lower():
                label = _choice_label(lang, v, now=v == show_value(spec.value), usual=v == show_value(spec.default))
                out.append(app_commands.Choice(name=_clip(label), value=_clip(v)))
        return out[:25]

    new.autocomplete("base")(_bases)
    set_.autocomplete("option")(_options)
    set_.autocomplete("value")(_values)
    complete("name", _names, set_, show, default, delete)


async def setup(bot: JantakuBot) -> None:
    await bot.add_cog(House(bot))
