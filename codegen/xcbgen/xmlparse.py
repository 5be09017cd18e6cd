"""XML -> a small tree of Nodes that remember their file and line.

ElementTree drops line numbers, and every error we report must name the line
that caused it, so the tree is built straight from expat's callbacks.
"""

from dataclasses import dataclass, field
from xml.parsers import expat

from .errors import GenError, Loc


@dataclass
class Node:
    tag: str
    attrs: dict
    loc: Loc
    children: list = field(default_factory=list)
    text: str = ""

    def get(self, name, default=None):
        return self.attrs.get(name, default)

    def require(self, name):
        if name not in self.attrs:
            raise GenError(self.loc, f"<{self.tag}> needs the attribute '{name}'")
        return self.attrs[name]

    def find(self, tag):
        """The first child with this tag, or None."""
        return next((c for c in self.children if c.tag == tag), None)

    def find_all(self, tag):
        return [c for c in self.children if c.tag == tag]


def parse_string(text, filename):
    """Parse XML text; `filename` is only used in error messages."""
    parser = expat.ParserCreate()
    stack = []
    roots = []

    def start(tag, attrs):
        node = Node(tag, dict(attrs), Loc(filename, parser.CurrentLineNumber))
        if stack:
            stack[-1].children.append(node)
        else:
            roots.append(node)
        stack.append(node)

    def end(_tag):
        stack.pop()

    def chars(data):
        if stack:
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(text, True)
    except expat.ExpatError as e:
        raise GenError(Loc(filename, e.lineno), f"malformed XML: {expat.errors.messages[e.code]}")
    return roots[0]


def parse_file(path):
    with open(path, encoding="utf-8") as f:
        return parse_string(f.read(), path)


def parse_int(text, loc, what):
    """An integer attribute or element text (decimal, or 0x.. hex)."""
    try:
        return int(text.strip(), 0)
    except ValueError:
        raise GenError(loc, f"{what} must be an integer, not '{text.strip()}'")
