"""Player-facing rule texts for ``/rule``: one Markdown file per ruleset, bundled with the bot.

Each ``<ruleset>.md`` starts with a small header and then has one entry per rule id of the
ruleset's specification (``../shared/rules/<ruleset>.md``), rewritten for players::

    ---
    title: Riichi (base rules)
    summary: One paragraph about the ruleset.
    ---

    ## R-6.4 Furiten
    keywords: furiten, 振聴, ron, discards
    Plain-English text (Discord Markdown) ...

``ja/<ruleset>.md`` holds the same entries (same ids, same structure) written in Japanese, with
Japanese and English keywords. :func:`rulebook` loads a file once per ruleset and language; :class:`Rulebook` finds an entry by id (``R-6.4``, ``r6.4``
or just ``6.4``), by keywords (every word must match) or, failing that, by a free-text question
(``how does dora work``: the words of the question, without stop words, scored against each
entry's title, keywords and text, rarer words weighing more), and offers autocomplete suggestions.
A Japanese question (written without spaces) matches through the keywords it contains and
through the character bigrams it shares with an entry's title and keywords.
Limits: the question matcher knows English stop words and a plain ``-s`` plural only, and no
Japanese grammar (no particles, no word splitting beyond bigrams).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.rules.base import rulesets_in_menu_order

__all__ = ["LANGUAGES", "RULESETS", "Rulebook", "RuleText", "parse_rulebook", "rulebook"]



def _books() -> dict[str, str]:
    """Each registered ruleset's rule texts (``Ruleset.rule_book``) with the prefix of their rule
    ids (``Ruleset.rule_prefix``), in menu order; the riichi presets share riichi's."""
    books: dict[str, str] = {}
    for rs in rulesets_in_menu_order():
        books.setdefault(rs.rule_book, rs.rule_prefix)
    return books


#: The rulesets with rule texts (the six of the specification), with the prefix of their rule ids.
RULESETS: dict[str, str] = _books()

_HEAD_RE = re.compile(r"^## +(?P<id>[A-Z]{1,2}-[A-Z]?\d+(?:\.\d+)*[a-z]?) +(?P<title>\S.*?)\s*$")
_WORD_RE = re.compile(r"[\w.\-]+")
#: A run of Japanese script (kana, kanji, the long-vowel mark), where bigrams are taken.
_JA_RUN_RE = re.compile(r"[\u3041-\u30ff\u3400-\u9fff\uf900-\ufaff]+")

#: The languages with rule texts: ``en`` is ``<ruleset>.md``, ``ja`` is ``ja/<ruleset>.md``.
LANGUAGES = ("en", "ja")

#: Words of a question that say nothing about which rule is meant.
STOP_WORDS = frozenset(
    {
        "a", "about", "after", "an", "and", "any", "are", "as", "at", "be", "been", "before", "being",
        "but", "by", "can", "could", "do", "does", "doing", "done", "during", "each", "explain",
        "explained", "for", "from", "get", "gets", "got", "happen", "happens", "has", "have", "having",
        "how", "i", "if", "in", "into", "is", "it", "its", "me", "mean", "means", "meant", "my", "of",
        "on", "or", "please", "rule", "rules", "say", "says", "should", "so", "tell", "than", "that",
        "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "up", "us",
        "was", "we", "were", "what", "whats", "when", "where", "which", "while", "who", "why", "will",
        "with", "work", "works", "would", "you", "your"
    }
)

#: How many entries a question offers besides its best match.
QUESTION_ALSO = 5


def _fold(text: str) -> str:
    """Lower case without accents, so ``"Ryūīsō"`` finds ``ryuuiisou``-style spellings halfway."""
    text = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def _stem(word: str) -> str:
    """A plain English plural made singular (``sticks`` → ``stick``), enough to match a question."""
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _bigrams(text: str) -> set[str]:
    """The character bigrams of the Japanese runs of ``text`` (a one-character run is kept
    whole): ``"振聴とは"`` → ``{"振聴", "聴と", "とは"}``. Japanese is written without spaces, so
    this stands in for words."""
    grams: set[str] = set()
    for run in _JA_RUN_RE.findall(text):
        if len(run) == 1:
            grams.add(run)
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    return grams


def _id_key(rule_id: str) -> str:
    return rule_id.replace("-", "").lower()


@dataclass(frozen=True, slots=True)
class RuleText:
    ruleset: str
    id: str
    title: str
    keywords: tuple[str, ...]
    text: str

    @property
    def label(self) -> str:
        """``"R-6.4 Furiten"`` (for lists and autocomplete)."""
        return f"{self.id} {self.title}"


@dataclass(frozen=True, slots=True)
class Rulebook:
    ruleset: str
    title: str
    summary: str
    entries: tuple[RuleText, ...]

    def get(self, query: str) -> RuleText | None:
        """The entry whose id is ``query``: ``"R-6.4"``, ``"r6.4"``, ``"6.4"`` (prefix implied)."""
        q = query.strip().replace(" ", "")
        if not q:
            return None
        key = _id_key(q)
        prefix = RULESETS.get(self.ruleset, "").lower()
        for e in self.entries:
            k = _id_key(e.id)
            if k == key or (prefix and k == prefix + key):
                return e
        return None

    def search(self, query: str) -> list[RuleText]:
        """Entries matching ``query``, best first. An id, or keywords of which every one must
        match the title, the keywords or the text; a question (a query with a stop word such as
        ``how``, or keywords that match nothing together) goes to :meth:`ask`."""
        exact = self.get(query)
        words = [w.strip(".-") for w in _WORD_RE.findall(_fold(query))]
        words = [w for w in words if w]
        if exact is None and any(w in STOP_WORDS for w in words):
            return self.ask(query)
        phrase = _fold(query).strip()
        scored: list[tuple[int, int, RuleText]] = []
        for i, e in enumerate(self.entries):
            if e is exact:
                scored.append((10_000, -i, e))
                continue
            title = _fold(e.title)
            title_words = set(_WORD_RE.findall(title))
            keys = [_fold(k) for k in e.keywords]
            body = _fold(e.text)
            total = 0
            ok = bool(words)
            for w in words:
                s = 0
                if w in title_words:
                    s += 60
                elif w in title:
                    s += 30
                if w in keys:
                    s += 50
                elif any(w in k for k in keys):
                    s += 20
                if w in body:
                    s += 5
                if _id_key(e.id).startswith(w.replace("-", "")) and any(ch.isdigit() for ch in w):
                    s += 40
                if not s:
                    ok = False
                    break
                total += s
            if ok:
                if phrase and phrase == title:
                    total += 250
                elif phrase and phrase in keys:
                    total += 200
                scored.append((total, -i, e))
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        found = [e for _, _, e in scored]
        if found or exact is not None:
            return found
        return self.ask(query)

    def question_words(self, question: str) -> list[str]:
        """The words of ``question`` that can pick a rule: folded, stop words left out."""
        words = [w.strip(".-") for w in _WORD_RE.findall(_fold(question))]
        return [w for w in words if w and w not in STOP_WORDS]

    def ask(self, question: str) -> list[RuleText]:
        """Entries for a free-text question, best first: at most 1 + :data:`QUESTION_ALSO`.

        Each word of the question (stop words left out, plurals made singular) scores an entry
        3 in its title or keywords and 1 in its text, times the word's rarity over the book
        (``log(1 + entries / entries with the word)``), and twice the rarities of its title words
        more when the question holds its whole title; a keyword found inside the question
        (``aka dora``, ``カラス``) scores 4 times its rarity. Each Japanese character bigram the
        question shares with an entry's title or keywords scores its rarity (twice in the title, and twice more
        when the question holds every bigram of the title), so ``フリテンとは`` or ``流し満貫って何`` find their rule without spaces. An entry matching
        nothing is left out."""
        words = list(dict.fromkeys(_stem(w) for w in self.question_words(question)))
        folded = " " + " ".join(_WORD_RE.findall(_fold(question))) + " "
        if not words and not folded.strip():
            return []
        n = len(self.entries)
        asked = set(words)
        docs: list[tuple[set[str], set[str], set[str], list[str]]] = []
        for e in self.entries:
            title = {_stem(w) for w in self.question_words(e.title)}
            head = title | {_stem(w) for w in _WORD_RE.findall(_fold(" ".join(e.keywords)))}
            body = {_stem(w) for w in _WORD_RE.findall(_fold(e.text))}
            docs.append((title, head, body, [_fold(k) for k in e.keywords]))
        df = {w: sum(1 for _, head, body, _ in docs if w in head or w in body) for w in words}
        key_df: dict[str, int] = {}
        for *_, keys in docs:
            for k in set(keys):
                key_df[k] = key_df.get(k, 0) + 1
        asked_grams = _bigrams(_fold(question))
        grams: list[tuple[set[str], set[str]]] = []
        for e in self.entries:
            t_grams = _bigrams(_fold(e.title))
            grams.append((t_grams, t_grams | _bigrams(_fold(" ".join(e.keywords)))))
        gram_df: dict[str, int] = {}
        for _, head_grams in grams:
            for g in head_grams & asked_grams:
                gram_df[g] = gram_df.get(g, 0) + 1
        scored: list[tuple[float, int, RuleText]] = []
        for i, (e, (title, head, body, keys)) in enumerate(zip(self.entries, docs)):
            total = 0.0
            for w in words:
                if not df[w]:
                    continue
                weight = math.log(1 + n / df[w])
                total += weight * (3 if w in head else 1 if w in body else 0)
            if total and title and title <= asked:  # the question names the whole title: that rule
                total += 2 * sum(math.log(1 + n / df[w]) for w in title)
            for k in set(keys):
                if k and (f" {k} " in folded if k.isascii() else k in folded):
                    named = 2 if k in _fold(e.title) else 1  # the rule the keyword names
                    total += 4 * named * math.log(1 + n / key_df[k])
            t_grams, head_grams = grams[i]
            for g in head_grams & asked_grams:
                total += (2 if g in t_grams else 1) * math.log(1 + n / gram_df[g])
            if t_grams and t_grams <= asked_grams:  # the question holds the whole title
                total += 2 * sum(math.log(1 + n / gram_df[g]) for g in t_grams)
            if total > 0:
                scored.append((total, -i, e))
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        return [e for _, _, e in scored[: 1 + QUESTION_ALSO]]

    def suggest(self, current: str, limit: int = 25) -> list[RuleText]:
        """Autocomplete: ids starting with what was typed, then keyword matches; all ids in order
        when nothing is typed."""
        cur = current.strip()
        if not cur:
            return list(self.entries[:limit])
        key = _id_key(cur.replace(" ", ""))
        prefix = RULESETS.get(self.ruleset, "").lower()
        by_id = [
            e
            for e in self.entries
            if _id_key(e.id).startswith(key) or (prefix and _id_key(e.id).startswith(prefix + key))
        ]
        rest = [e for e in self.search(cur) if e not in by_id]
        return (by_id + rest)[:limit]


def parse_rulebook(ruleset: str, text: str) -> Rulebook:
    """Parse one rule-text file; raises ``ValueError`` naming the line of a malformed entry."""
    lines = text.splitlines()
    meta: dict[str, str] = {}
    i = 0
    if lines and lines[0].strip() == "---":
        i = 1
        while i < len(lines) and lines[i].strip() != "---":
            key, sep, value = lines[i].partition(":")
            if sep:
                meta[key.strip()] = value.strip()
            i += 1
        if i >= len(lines):
            raise ValueError(f"{ruleset}: the header opened by '---' on line 1 is never closed")
        i += 1
    entries: list[RuleText] = []
    seen: set[str] = set()
    cur: dict[str, object] | None = None
    body: list[str] = []

    def close() -> None:
        if cur is None:
            return
        text_ = "\n".join(body).strip()
        if not text_:
            raise ValueError(f"{ruleset}: entry {cur['id']} has no text")
        entries.append(
            RuleText(ruleset, str(cur["id"]), str(cur["title"]), tuple(cur["keywords"]), text_)  # type: ignore[arg-type]
        )

    for n in range(i, len(lines)):
        line = lines[n]
        if line.startswith("## "):
            close()
            m = _HEAD_RE.match(line)
            if not m:
                raise ValueError(f"{ruleset} line {n + 1}: expected '## <ID> <title>', got {line!r}")
            rid = m["id"]
            if rid.lower() in seen:
                raise ValueError(f"{ruleset} line {n + 1}: {rid} appears twice")
            seen.add(rid.lower())
            cur = {"id": rid, "title": m["title"], "keywords": ()}
            body = []
        elif cur is not None and not body and line.lower().startswith("keywords:"):
            cur["keywords"] = tuple(k.strip() for k in line.split(":", 1)[1].split(",") if k.strip())
        elif cur is not None:
            body.append(line)
        elif line.strip():
            raise ValueError(f"{ruleset} line {n + 1}: text before the first entry")
    close()
    return Rulebook(ruleset, meta.get("title", ruleset), meta.get("summary", ""), tuple(entries))


def rulebook(ruleset: str, lang: str = "en") -> Rulebook:
    """The bundled texts of ``ruleset`` (one of :data:`RULESETS`) in ``lang`` (one of
    :data:`LANGUAGES`); ``KeyError`` for another name or language. Loaded once per pair."""
    if ruleset not in RULESETS:
        raise KeyError(ruleset)
    if lang not in LANGUAGES:
        raise KeyError(lang)
    return _load(ruleset, lang)


@cache
def _load(ruleset: str, lang: str) -> Rulebook:
    folder = resources.files(__name__)
    if lang != "en":
        folder = folder.joinpath(lang)
    text = folder.joinpath(f"{ruleset}.md").read_text(encoding="utf-8")
    return parse_rulebook(ruleset, text)
