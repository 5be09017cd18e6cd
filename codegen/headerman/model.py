"""What the pages are made of.  Plain frozen records: the emitter reads
them and never writes onto them."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Block:
    """A paragraph (items empty) or a list: items are (tag, text) pairs,
    tag None for a `- ` bullet.  A verbatim paragraph keeps its lines."""
    text: str = ""
    items: tuple = ()
    verbatim: bool = False


@dataclass(frozen=True)
class Doc:
    """A parsed doc comment: the NAME line and the page's sections."""
    path: str
    line: int
    summary: str                    # the NAME line, without its period
    description: tuple = ()         # Blocks
    returns: tuple = ()             # Blocks of RETURN VALUE
    sections: tuple = ()            # (TITLE, Blocks) for underlined headings
    see_also: tuple = ()            # (name, section) pairs


@dataclass(frozen=True)
class Member:
    """A struct member or an enumerator: its code as written and its doc
    text (a marker such as `-- after the first version --` has name None)."""
    code: str
    name: str
    doc: str = ""


@dataclass(frozen=True)
class Decl:
    """A public declaration.  kind: function, struct, enum, opaque,
    funcptr, typedef or macro; synopsis is the C text shown on the page."""
    kind: str
    name: str
    path: str
    line: int
    synopsis: str
    doc: Doc = None
    members: tuple = ()
    names: tuple = field(default=())    # every name it declares (enumerators...)
