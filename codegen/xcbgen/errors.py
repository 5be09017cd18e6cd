"""Errors that point at the XML that caused them."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    """Where a node came from: the file and the line of its start tag."""
    file: str
    line: int

    def __str__(self):
        return f"{self.file}:{self.line}"


class GenError(Exception):
    """A problem in an input file, reported as `file:line: error: message`."""

    def __init__(self, loc, message):
        super().__init__(f"{loc}: error: {message}")
        self.loc = loc
        self.message = message
