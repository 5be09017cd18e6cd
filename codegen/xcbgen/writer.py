"""A small text writer that keeps the indentation, so emitters never count spaces."""

from contextlib import contextmanager


class Writer:
    def __init__(self, indent="    "):
        self._lines = []
        self._depth = 0
        self._indent = indent

    def line(self, text=""):
        self._lines.append(self._indent * self._depth + text if text else "")

    def lines(self, texts):
        for t in texts:
            self.line(t)

    def blank(self):
        """One empty line, never two in a row."""
        if self._lines and self._lines[-1] != "":
            self._lines.append("")

    @contextmanager
    def indented(self):
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    @contextmanager
    def block(self, opener, closer="}"):
        """`opener {` ... `closer`, the body one level deeper."""
        self.line(opener + " {" if opener else "{")
        with self.indented():
            yield
        self.line(closer)

    def call(self, head, args, end=";", width=96):
        """`head(a, b)` and `end`, one argument per line under the parenthesis
        when the line would pass `width` columns at the current depth."""
        text = wrap_call(head, args, width, self._indent * self._depth)
        self.lines((text + end).splitlines())

    def hanging(self, head, terms, op, end=";"):
        """`head` and the terms, each term after the first on a line of its
        own, the operator `op` under the first term."""
        self.line(head + terms[0] + ("" if len(terms) > 1 else end))
        for i, t in enumerate(terms[1:], 2):
            self.line(" " * len(head) + f"{op} {t}" + (end if i == len(terms) else ""))

    def aligned(self, head, column, items, sep, end):
        """`head` and the first item, each further item on a line of its own
        starting at `column` (the width `head` prints as), `sep` between
        items and `end` after the last."""
        for i, item in enumerate(items):
            last = i == len(items) - 1
            self.line((head if i == 0 else " " * column) + item + (end if last else sep))

    def columns(self, rows, sep=" "):
        """Rows of cells with each column padded to its widest cell."""
        widths = [max(len(r[i]) for r in rows if i < len(r) - 1)
                  for i in range(max(len(r) for r in rows) - 1)]
        for r in rows:
            cells = [c.ljust(widths[i]) if i < len(r) - 1 else c for i, c in enumerate(r)]
            self.line(sep.join(cells).rstrip())

    def text(self):
        while self._lines and self._lines[-1] == "":
            self._lines.pop()
        return "\n".join(self._lines) + "\n"


def wrap_call(head, args, width=96, indent=""):
    """`head(a, b, c)`, one argument per line under the parenthesis when too long.

    `indent` is the indentation the caller's writer will add: it counts
    towards the width but is not part of the returned text.
    """
    one_line = f"{head}({', '.join(args)})"
    if len(indent) + len(one_line) <= width:
        return one_line
    pad = "\n" + " " * (len(head) + 1)
    return f"{head}(" + ("," + pad).join(args) + ")"
