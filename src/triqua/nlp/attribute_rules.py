"""The attribute ruler's matches found by lookup: the same matches, a fraction of the CPU.

``en_core_web_sm``'s attribute ruler maps each token's fine tag (and a few words) to its
coarse part of speech, morphology and lemma with 179 token patterns. spaCy's ruler runs a
general ``Matcher`` over every token and then sorts the matches in Python, about a third of
a parse's time on short texts (2 ms of 6 ms a window): every text triqua parses pays it.
The patterns are simple — one or two tokens, each an exact value, an ``IN`` or ``NOT_IN``
set or a ``REGEX`` on ``TAG``, ``LOWER``, ``DEP`` or ``IS_SPACE`` — so :class:`RuleIndex` finds the
same matches by looking the token's tag and lowercase form up in an index, and returns them
in the ruler's own order; spaCy's ruler still sets the attributes. A pipeline whose patterns
use anything else keeps spaCy's matcher (:func:`install` says whether it took over).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from triqua.nlp.tokens import Doc, Language, Token

__all__ = ["RuleIndex", "install"]

Match = tuple[int, int, int, int]  # attribute index, match id, start, end (the ruler's order)
_Test = Callable[[Any], bool]

#: The token attributes a pattern may test, by their place in a token's :func:`_shape`.
_READERS: dict[str, int] = {"TAG": 0, "LOWER": 1, "DEP": 2, "IS_SPACE": 3}

Shape = tuple[str, str, str, bool]  # a token's tag, lowercase form, dependency, is-space


def _shape(token: Token) -> Shape:
    """What the patterns read of a token, read once per token (each read builds a string)."""
    return (token.tag_, token.lower_, token.dep_, token.is_space)


def _test(value: object) -> _Test | None:
    """A test of one attribute value as the ``Matcher`` reads it (None: not understood)."""
    if isinstance(value, str | bool):
        return lambda seen: seen == value
    if isinstance(value, dict) and len(value) == 1:
        ((op, arg),) = value.items()
        if op in ("IN", "NOT_IN") and isinstance(arg, list):
            listed, inside = frozenset(arg), op == "IN"
            return lambda seen: (seen in listed) == inside
        if op == "REGEX" and isinstance(arg, str):
            pattern = re.compile(arg)
            return lambda seen: isinstance(seen, str) and pattern.search(seen) is not None
    return None


class _Pattern:
    """One pattern of the ruler: its tests for each token, and the match it makes."""

    def __init__(self, attr_id: int, match_id: int, tokens: list[dict[str, object]]) -> None:
        self.attr_id = attr_id
        self.match_id = match_id
        self.tokens: list[list[tuple[int, _Test]]] = []
        for spec in tokens:
            tests = []
            for key, value in spec.items():
                test = _test(value)
                if key not in _READERS or test is None:
                    raise ValueError(f"unsupported attribute-ruler pattern: {spec}")
                tests.append((_READERS[key], test))
            self.tokens.append(tests)

    def matches(self, shapes: Sequence[Shape], start: int) -> bool:
        """True when the pattern matches the tokens (their shapes) from ``start`` on."""
        if start + len(self.tokens) > len(shapes):
            return False
        return all(
            test(shapes[start + k][place])
            for k, tests in enumerate(self.tokens)
            for place, test in tests
        )


class RuleIndex:
    """The ruler's patterns indexed by the first token's tag or lowercase form.

    A one-token pattern reads only its token, so what the one-token patterns make of a token
    is kept by the token's (tag, lowercase form, dependency, is-space) and looked up after.
    """

    def __init__(self, ruler: Any) -> None:
        """Index ``ruler``'s patterns (a spaCy ``AttributeRuler``).

        Raises:
            ValueError: when a pattern uses what the index does not read (an operator, a
                longer pattern, another attribute).
        """
        self._by_tag: dict[str, list[_Pattern]] = {}
        self._by_lower: dict[str, list[_Pattern]] = {}
        self._rest: list[_Pattern] = []
        self._pairs: dict[str | None, list[_Pattern]] = {}  # two-token, by first word if one
        self._known: dict[tuple[str, str, str, bool], tuple[tuple[int, int], ...]] = {}
        # A token's attributes as the ids ``Doc.to_array`` gives (one call per text), with
        # the shape and one-token matches they stand for.
        self._by_ids: dict[tuple[int, ...], tuple[Shape, tuple[tuple[int, int], ...]]] = {}
        # The ruler adds its i-th entry to its matcher under the label str(i), and sorts its
        # matches by that number, then by the label's hash.
        for attr_id, entry in enumerate(ruler.patterns):
            match_id = ruler.vocab.strings.add(str(attr_id))
            for tokens in entry["patterns"]:
                if not 1 <= len(tokens) <= 2:
                    raise ValueError(f"unsupported attribute-ruler pattern: {tokens}")
                pattern = _Pattern(attr_id, match_id, tokens)
                first = tokens[0]
                if len(tokens) == 2:
                    word = first.get("LOWER")
                    self._pairs.setdefault(word if isinstance(word, str) else None, []).append(
                        pattern
                    )
                elif isinstance(first.get("TAG"), str):
                    self._by_tag.setdefault(str(first["TAG"]), []).append(pattern)
                elif isinstance(first.get("LOWER"), str):
                    self._by_lower.setdefault(str(first["LOWER"]), []).append(pattern)
                else:
                    self._rest.append(pattern)

    def _single(self, key: Shape) -> tuple[tuple[int, int], ...]:
        """The (attribute index, match id) of the one-token patterns a token's shape matches."""
        known = self._known.get(key)
        if known is None:
            candidates = self._by_tag.get(key[0], []) + self._by_lower.get(key[1], [])
            known = tuple(
                (p.attr_id, p.match_id) for p in candidates + self._rest if p.matches([key], 0)
            )
            if len(self._known) >= _KNOWN_SIZE:
                self._known.clear()
            self._known[key] = known
        return known

    def _shapes(self, doc: Doc) -> list[tuple[Shape, tuple[tuple[int, int], ...]]]:
        """Each token's shape and one-token matches, read from the ids of its attributes."""
        out = []
        for i, row in enumerate(doc.to_array(list(_READERS)).tolist()):
            ids = tuple(row)
            known = self._by_ids.get(ids)
            if known is None:
                key = _shape(doc[i])
                known = (key, self._single(key))
                if len(self._by_ids) >= _KNOWN_SIZE:
                    self._by_ids.clear()
                self._by_ids[ids] = known
            out.append(known)
        return out

    def match(self, doc: Doc) -> list[Match]:
        """The ruler's matches of ``doc``, sorted as spaCy's ruler sorts them."""
        found: set[Match] = set()
        anywhere = self._pairs.get(None, [])
        read = self._shapes(doc) if len(doc) else []
        shapes = [key for key, _ in read]
        for i, (key, singles) in enumerate(read):
            found.update((attr, match_id, i, i + 1) for attr, match_id in singles)
            for pattern in self._pairs.get(key[1], []) + anywhere:
                if pattern.matches(shapes, i):
                    found.add((pattern.attr_id, pattern.match_id, i, i + 2))
        return sorted(found)


_KNOWN_SIZE = 100_000  # token shapes remembered (a few MB); forgotten all at once past it


def install(nlp: Language) -> bool:
    """Let ``nlp``'s attribute ruler find its matches with a :class:`RuleIndex`.

    Returns:
        True when it did; False when the pipeline has no ruler or a pattern the index does
        not read (spaCy's matcher then stays).
    """
    if "attribute_ruler" not in nlp.pipe_names:
        return False
    ruler: Any = nlp.get_pipe("attribute_ruler")
    try:
        index = RuleIndex(ruler)
    except (ValueError, KeyError, AttributeError, TypeError):
        return False
    ruler.match = index.match
    return True
