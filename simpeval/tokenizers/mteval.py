"""mteval-style tokenizers (``13a``, ``intl``), the defaults of EASSE: ``13a`` our own, equal to
sacrebleu's (tests compare them on every reference line), ``intl`` sacrebleu's."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from importlib import import_module

from simpeval.tokenizers.base import BaseTokenizer


class _SacrebleuTokenizer(BaseTokenizer):
    """Wraps the sacrebleu tokenizer class at ``impl`` ("module:class"), imported on first use."""

    impl: str = ""

    def __init__(self) -> None:
        module_name, class_name = self.impl.split(":")
        self._impl: Callable[[str], str] = getattr(import_module(module_name), class_name)()

    def __call__(self, text: str) -> str:
        return self._impl(text)


_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
# mteval-v13a's first rule puts spaces around each of these ASCII symbols (its class also holds
# the space, for which that changes nothing once whitespace is collapsed)
_SYMBOLS = tuple("{|}~[\\]^_`!\"#$%&()*+:;<=>?@/")
_SYMBOL = re.compile("([" + re.escape("".join(_SYMBOLS)) + "])")
_DIGITS = frozenset("0123456789")
_PERIOD_OR_COMMA = re.compile(r"[.,]")
# where the period and comma rules can differ from "space around every period and comma": a digit or
# another period or comma beside one
_CROWDED_PERIOD_OR_COMMA = re.compile(r"[0-9.,][.,]|[.,][0-9]")
# A period or comma with a period or comma before it or a digit after it: where the rules' matches may
# differ from "a space around each". Such a character lies in a run of digits, periods and commas whose
# neighbours are none of these, so the rules never reach past the run: a batch tokenizes each such run
# on its own, and puts a space around every other period and comma. (One after a digit and before
# none of these, as in "1990, ", is one that only the second rule matches, spacing it both sides:
# 1,056 matches in the batch of ASSET's texts instead of 6,037.)
_CROWDED = re.compile(r"[.,](?:(?<=[.,][.,])|(?=[0-9]))")
_RUN_CHARACTERS = frozenset("0123456789.,")
# Between the texts of a batch: no rule touches NUL, and the spaces give each text the space it is
# padded with on its own.
_BATCH_SEPARATOR = " \x00 "


def _isolate(text: str, positions: list[int]) -> str:
    """``text`` with a space put before and after the character at each of ``positions``."""
    if not positions:
        return text
    pieces = []
    last = 0
    for i in positions:
        pieces.append(text[last:i])
        pieces.append(f" {text[i]} ")
        last = i + 1
    pieces.append(text[last:])
    return "".join(pieces)


def _after_non_digit(text: str) -> str:
    """mteval's ``s/([^0-9])([.,])/$1 $2 /g``. A scan takes two characters per match, so a
    period or comma right after one that matched is not matched (its non-digit is taken)."""
    chosen: list[int] = []
    for match in _PERIOD_OR_COMMA.finditer(text):
        i = match.start()
        if i > 0 and text[i - 1] not in _DIGITS and (not chosen or chosen[-1] != i - 1):
            chosen.append(i)
    return _isolate(text, chosen)


def _before_non_digit(text: str) -> str:
    """mteval's ``s/([.,])([^0-9])/ $1 $2/g``: a period or comma that a match took as its
    following character does not start a match of its own."""
    chosen: list[int] = []
    for match in _PERIOD_OR_COMMA.finditer(text):
        i = match.start()
        if i + 1 < len(text) and text[i + 1] not in _DIGITS and (not chosen or chosen[-1] != i - 1):
            chosen.append(i)
    return _isolate(text, chosen)


def _dash_after_digit(text: str) -> str:
    """mteval's ``s/([0-9])(-)/$1 $2 /g`` (a dash is not a digit, so matches never collide)."""
    chosen = []
    i = text.find("-")
    while i != -1:
        if i > 0 and text[i - 1] in _DIGITS:
            chosen.append(i)
        i = text.find("-", i + 1)
    return _isolate(text, chosen)


def _periods_and_commas(text: str) -> str:
    """The period and comma rules on a whole batch: each crowded run (:data:`_CROWDED`) on its own,
    between spaces taken off again, and a space around every period and comma between the runs."""
    pieces = []
    done: dict[str, str] = {}  # runs tokenized so far (an item's references repeat its numbers)
    last = 0  # where the last run ended
    for match in _CROWDED.finditer(text):
        start = end = match.start()
        if start < last:  # in the run just done
            continue
        while start > last and text[start - 1] in _RUN_CHARACTERS:
            start -= 1
        while end < len(text) and text[end] in _RUN_CHARACTERS:
            end += 1
        pieces.append(text[last:start].replace(".", " . ").replace(",", " , "))
        run = text[start:end]
        tokenized = done.get(run)
        if tokenized is None:
            tokenized = done[run] = _before_non_digit(_after_non_digit(f" {run} "))[1:-1]
        pieces.append(tokenized)
        last = end
    pieces.append(text[last:].replace(".", " . ").replace(",", " , "))
    return "".join(pieces)


def _fixed_string_rules(text: str) -> str:
    """13a's rules that replace fixed strings (skipped marks, line ends, entities, symbols): the same on
    one text and on texts joined by a separator, so :class:`Tokenizer13a` applies them to either."""
    text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, character in _ENTITIES:
            text = text.replace(entity, character)
    # a space either side of every symbol: the pieces between symbols and the symbols, joined by spaces
    # (one C-speed pass, where a str.replace per symbol present passes over the text once each)
    return " ".join(_SYMBOL.split(text))


class Tokenizer13a(BaseTokenizer):
    """mteval-v13a tokenization (WMT's, EASSE's default), equal to sacrebleu's ``13a``.

    Written for the cold path, which tokenises every reference of every item. sacrebleu
    applies four regular expressions with group templates, and Python 3.11 calls back into
    Python for each match; here the symbol rule is a ``str.replace`` per symbol present and
    the period, comma and dash rules visit only the positions of those characters, keeping
    the regular expressions' left-to-right, non-overlapping matching (tests compare the two
    on every line of the data and on random strings of the characters the rules treat).
    """

    name = "13a"

    def __call__(self, text: str) -> str:
        text = f" {_fixed_string_rules(text)} "
        if "." in text or "," in text:
            if _CROWDED_PERIOD_OR_COMMA.search(text):
                text = _before_non_digit(_after_non_digit(text))
            else:  # each has a non-digit on both sides: both rules match it
                text = text.replace(".", " . ").replace(",", " , ")
        if "-" in text:
            text = _dash_after_digit(text)
        return " ".join(text.split())

    def tokens_many(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """The tokens of each text, equal to ``tuple(self(text).split())``: :meth:`joined_many` split."""
        return [tuple(joined.split()) for joined in self.joined_many(texts)]

    def joined_many(self, texts: Sequence[str]) -> list[str]:
        """Each text tokenized, equal to ``self(text)``, with each rule applied once to all the texts
        joined (a C-speed ``str.replace`` over the batch instead of calls per text).

        Every rule is local: the symbol, entity and newline rules replace fixed strings, the period,
        comma and dash rules look one character either side. Texts joined with ``" \\x00 "`` (a text
        holding NUL itself falls back to one call per text) therefore tokenize as they do alone; the
        whitespace of the whole batch is then collapsed at once, each NUL standing alone between spaces.
        """
        return self.joined_and_flat(texts)[0]

    def joined_and_flat(self, texts: Sequence[str]) -> tuple[list[str], list[str]]:
        """:meth:`joined_many`, and the batch's tokens as they come out of it (a lone NUL after each text's):
        :meth:`BaseTokenizer.joined_and_flat` without splitting the strings again."""
        text = _BATCH_SEPARATOR.join(texts)
        if not texts or text.count("\x00") != len(texts) - 1:
            joined = [self(text) for text in texts]
            return joined, _BATCH_SEPARATOR.join([*joined, ""]).split()
        text = _fixed_string_rules(text)
        if "." in text or "," in text:
            text = _periods_and_commas(text)
        if "-" in text:
            text = _dash_after_digit(text)
        tokens = text.split()  # the batch's tokens, a lone NUL between two texts'
        joined = [piece.strip(" ") for piece in " ".join(tokens).split("\x00")]
        tokens.append("\x00")
        return joined, tokens


class TokenizerIntl(_SacrebleuTokenizer):
    """mteval-v14 international tokenization (Unicode punctuation and symbols)."""

    name = "intl"
    impl = "sacrebleu.tokenizers.tokenizer_intl:TokenizerV14International"
