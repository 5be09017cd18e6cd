"""Pass 1, declare: every top-level element gets its names.

Loads the imported modules, gives each type, enum, request and event its XML
name and its C name, and rejects a name declared twice. Nothing is looked up
or laid out yet.

Needs: draft.root.  Gives: draft.header, prefix, macro, imports, decls, table.
"""

import re
from dataclasses import dataclass

from .errors import GenError
from .naming import c_prefix, lower, upper
from .xmlparse import Node

NEEDS = ("root",)
GIVES = ("header", "prefix", "macro", "imports", "decls", "table")

# Elements that declare a type or an enum, by their name attribute.
_TYPE_TAGS = {"xidtype": "name", "xidunion": "name", "typedef": "newname", "struct": "name",
              "union": "name", "enum": "name", "eventstruct": "name"}


@dataclass(frozen=True)
class Decl:
    """One top-level element: what it is, its names, and its XML."""
    tag: str
    name: str          # the XML name
    c_name: str        # xcb_<ext>_<name>_t for types, xcb_<ext>_<name> for requests/events
    macro: str         # XCB_<EXT>_<NAME> (requests and events; enums' item prefix)
    node: Node


def run(draft):
    root = draft.root
    if root.tag != "xcb":
        raise GenError(root.loc, f"the root element must be <xcb>, not <{root.tag}>")
    draft.header = root.require("header")
    # It names files, C symbols and macros; every other name is derived from it.
    # (Imported modules are only read, so theirs is not checked.)
    if draft.full and not re.match(r"[A-Za-z][A-Za-z0-9_]*\Z", draft.header):
        raise GenError(root.loc, f"the header name '{draft.header}' is not a C identifier")
    draft.prefix = c_prefix(draft.header, root.get("extension-name", ""))
    draft.macro = draft.prefix.upper()
    draft.imports = tuple(draft.loader.load(i.text.strip(), i.loc)
                          for i in root.find_all("import"))
    # Every type's C name, declared before or after an enum of the same
    # name: the enum's C name must step aside for either.
    type_c_names = {_c_type(draft, n.require(attr), n.loc) for n in root.children
                    for tag, attr in _TYPE_TAGS.items() if n.tag == tag and tag != "enum"}
    draft.decls, draft.table = [], {}
    for node in root.children:
        handler = _HANDLERS.get(node.tag)
        if handler is None:
            if draft.full:
                raise GenError(node.loc, f"<{node.tag}> is not supported by this generator")
            continue     # imports: only their types matter to us
        decl = handler(draft, node, type_c_names)
        if decl is None:
            continue
        if decl.tag in _TYPE_TAGS:
            if decl.name in draft.table:
                raise GenError(node.loc, f"'{decl.name}' is declared twice")
            draft.table[decl.name] = decl
        draft.decls.append(decl)


def _words(name, loc, how):
    try:
        return how(name)
    except ValueError as e:
        raise GenError(loc, str(e))


def _c_type(draft, name, loc):
    return draft.prefix + _words(name, loc, lower) + "_t"


def _type(draft, node, _type_c_names):
    name = node.require(_TYPE_TAGS[node.tag])
    return Decl(node.tag, name, _c_type(draft, name, node.loc), "", node)


def _enum(draft, node, type_c_names):
    name = node.require("name")
    c = _c_type(draft, name, node.loc)
    # An enum may share its name with a type ("Event" and "EVENT"): the enum
    # then takes an _enum suffix, as XCB has always done.
    if c in type_c_names:
        c = c[:-2] + "_enum_t"
    return Decl("enum", name, c, draft.macro + _words(name, node.loc, upper), node)


def _packet(draft, node, _type_c_names):
    """A request, an event or an error, or a copy of one: declared only where
    we emit code for it, but errors everywhere (an <errorcopy> may copy an
    imported one)."""
    if not draft.full and node.tag != "error":
        return None
    name = node.require("name")
    return Decl(node.tag, name, draft.prefix + _words(name, node.loc, lower),
                draft.macro + _words(name, node.loc, upper), node)


def _eventstruct(draft, node, _type_c_names):
    """A type, but one that names only events, which imports do not carry."""
    return _type(draft, node, _type_c_names) if draft.full else None


def _import(_draft, _node, _type_c_names):
    return None      # loaded above, before any name is declared


_HANDLERS = {
    "import": _import,
    "xidtype": _type,
    "xidunion": _type,
    "typedef": _type,
    "struct": _type,
    "union": _type,
    "enum": _enum,
    "request": _packet,
    "event": _packet,
    "eventcopy": _packet,
    "error": _packet,
    "errorcopy": _packet,
    "eventstruct": _eventstruct,
}
