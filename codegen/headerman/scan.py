"""Cut a header into comments, preprocessor lines and declarations.

Only what a public util header holds is understood: C comments, `#`
lines (with backslash continuations) and declarations ending in `;` at
brace depth 0.  The `#ifdef __cplusplus` blocks (extern "C") are dropped
here so that the parser never sees their braces.
"""

from dataclasses import dataclass

from .errors import HeaderError


@dataclass(frozen=True)
class Item:
    kind: str       # "comment", "pp" or "code"
    text: str       # as written; code keeps its inner comments
    line: int       # first line, from 1
    end_line: int   # last line


def _line_at(text, pos):
    return text.count("\n", 0, pos) + 1


def _comment_end(text, pos, path):
    end = text.find("*/", pos + 2)
    if end < 0:
        raise HeaderError(path, _line_at(text, pos), "unterminated comment")
    return end + 2


def _pp_end(text, pos):
    """The end of a # line, its continuations included."""
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        if not text[:nl].rstrip(" \t").endswith("\\"):
            return nl
        pos = nl + 1


def _code_end(text, pos, path):
    """The position after the `;` that ends the declaration at pos."""
    depth = 0
    start = pos
    while pos < len(text):
        if text.startswith("/*", pos):
            pos = _comment_end(text, pos, path)
            continue
        c = text[pos]
        if c == '"' or c == "'":
            close = text.find(c, pos + 1)
            pos = len(text) if close < 0 else close + 1
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == ";" and depth == 0:
            return pos + 1
        elif c == "#" and text[:pos].rstrip(" \t").endswith("\n") and depth == 0:
            break
        pos += 1
    raise HeaderError(path, _line_at(text, start), "a declaration without its ';'")


def scan(text, path):
    """The header's items in order."""
    items = []
    skip_depth = 0      # inside #ifdef __cplusplus: nesting of #if lines
    pos = 0
    while pos < len(text):
        c = text[pos]
        if c.isspace():
            pos += 1
            continue
        if text.startswith("/*", pos):
            end = _comment_end(text, pos, path)
        elif text.startswith("//", pos):
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
        elif c == "#":
            end = _pp_end(text, pos)
            directive = text[pos + 1:end].split()
            word = directive[0] if directive else ""
            if skip_depth:
                if word.startswith("if"):
                    skip_depth += 1
                elif word == "endif":
                    skip_depth -= 1
                pos = end
                continue
            if word == "ifdef" and directive[1:2] == ["__cplusplus"]:
                skip_depth = 1
                pos = end
                continue
        else:
            end = _code_end(text, pos, path) if not skip_depth else pos + 1
        if not skip_depth:
            kind = "comment" if c in "/" else "pp" if c == "#" else "code"
            items.append(Item(kind, text[pos:end], _line_at(text, pos),
                              _line_at(text, end - 1)))
        pos = end
    return items
