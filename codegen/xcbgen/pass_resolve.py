"""Pass 2, resolve: what every name a field uses means.

Each type and enum a typedef, field or list names is looked up, each list
length is parsed into an expression, and each pad's size is read. The
results go into draft.refs, keyed by the XML element, for the layout pass.

The lookup rule, the same for types and for enums (they are looked up among
their own kind only):

  - "module:Name" means the declaration of that module, which must be
    imported (directly or through another import);
  - a bare name is a primitive type (CARD32, BOOL, ...) when there is one;
    else this module's declaration, which must come before its first use and
    hides any imported one of the same name (Present's own Notify and
    EventMask hide RandR's and the core protocol's);
  - else the declaration of the one imported module that has it. When two
    imported modules declare it, the name is ambiguous and an error asks for
    the module prefix.

Needs: draft.decls, draft.table, draft.imports.  Gives: draft.refs.
"""

from dataclasses import dataclass

from . import model as m
from .errors import GenError
from .expr import EXPR_TAGS, parse_expr
from .xmlparse import parse_int

NEEDS = ("decls", "table", "imports")
GIVES = ("refs",)

# name: (C type, size)
_PRIMITIVES = {
    "CARD8": ("uint8_t", 1), "CARD16": ("uint16_t", 2),
    "CARD32": ("uint32_t", 4), "CARD64": ("uint64_t", 8),
    "INT8": ("int8_t", 1), "INT16": ("int16_t", 2),
    "INT32": ("int32_t", 4), "INT64": ("int64_t", 8),
    "BYTE": ("uint8_t", 1), "BOOL": ("uint8_t", 1),
    "char": ("char", 1), "void": ("void", 1),
    "float": ("float", 4), "double": ("double", 8),
}
PRIMITIVES = {name: m.Primitive("", name, c, size, size)
              for name, (c, size) in _PRIMITIVES.items()}

# The elements a struct, request, reply, event, error or case may hold.
FIELD_TAGS = frozenset({"field", "pad", "list", "fd", "exprfield", "switch", "valueparam",
                        "required_start_align", "length"})
_OTHER_TAGS = frozenset({"doc", "reply", "item"})
# What a <case> or <bitcase> holds besides its fields: the values it is taken for.
CASE_VALUE_TAGS = EXPR_TAGS


@dataclass(frozen=True)
class Ref:
    """What one element means. `type` and `enum` are model objects or, for
    this module's own declarations, their Decl (the layout pass builds them)."""
    type: object = None
    enum: object = None
    length: object = None      # lists: the length expression, None when implicit;
                               # exprfields, switches and <length>: their expression
    fd: bool = False           # a list of fds
    pad_bytes: int = 0
    pad_align: int = 0
    values: tuple = ()         # a case's values (expressions)


@dataclass(frozen=True)
class Unusable:
    """An imported struct that this generator cannot lay out, and why."""
    why: str


def run(draft):
    draft.refs = {}
    position = {id(d): i for i, d in enumerate(draft.decls)}
    scope = _Scope(draft, position)
    for decl in draft.decls:
        scope.at = position[id(decl)]
        handler = _HANDLERS.get(decl.tag)
        if handler is None:
            continue
        try:
            handler(scope, decl)
        except GenError as e:
            # An imported struct we cannot lay out is fine until something
            # of ours uses it.
            if draft.full or decl.tag != "struct":
                raise
            draft.refs[id(decl.node)] = Unusable(e.message)


class _Scope:
    def __init__(self, draft, position):
        self.draft = draft
        self.position = position
        self.at = 0

    def _closure(self):
        """Imported modules, depth first, each once."""
        seen, out = set(), []

        def visit(mod):
            if mod.header in seen:
                return
            seen.add(mod.header)
            out.append(mod)
            for imp in mod.imported:
                visit(imp)

        for imp in self.draft.imports:
            visit(imp)
        return out

    def _local(self, name, want_enum, loc):
        decl = self.draft.table.get(name)
        if decl is None or (decl.tag == "enum") != want_enum:
            return None
        # An enum only names a field's values, so a field may name one
        # declared after it (xcb-proto's core protocol does).
        if self.position[id(decl)] >= self.at and not want_enum:
            raise GenError(loc, f"'{name}' is used before its declaration")
        return decl

    @staticmethod
    def _imported(mod, name, want_enum):
        found = mod.declared(name)
        if found is None or isinstance(found, m.Enum) != want_enum:
            return None
        return found

    def lookup(self, name, loc, want_enum=False):
        kind = "enum" if want_enum else "type"
        if ":" in name:
            ns, bare = name.split(":", 1)
            if ns == self.draft.header:
                found = self._local(bare, want_enum, loc)
            else:
                mods = [mod for mod in self._closure() if mod.header == ns]
                if not mods:
                    raise GenError(loc, f"'{name}' names the module '{ns}', "
                                        f"which is not imported")
                found = self._imported(mods[0], bare, want_enum)
        else:
            found = None if want_enum else PRIMITIVES.get(name)
            found = found or self._local(name, want_enum, loc)
            if found is None:
                hits = [(mod, t) for mod in self._closure()
                        for t in [self._imported(mod, name, want_enum)] if t is not None]
                if len(hits) > 1:
                    where = " and ".join(f"'{mod.header}'" for mod, _ in hits)
                    raise GenError(loc, f"the {kind} '{name}' is ambiguous: the modules "
                                        f"{where} both declare it; write "
                                        f"'{hits[0][0].header}:{name}' or the like")
                found = hits[0][1] if hits else None
        if found is None:
            other = self._other_kind(name, want_enum)
            raise GenError(loc, f"'{name}' is {'not ' if want_enum else ''}an enum"
                           if other else f"unknown {kind} '{name}'")
        if isinstance(found, m.Opaque):
            raise GenError(loc, f"the type '{name}' cannot be used here: {found.why}")
        return found

    def _other_kind(self, name, want_enum):
        bare = name.split(":", 1)[-1]
        decl = self.draft.table.get(bare)
        if decl is not None and (decl.tag == "enum") != want_enum:
            return True
        return any(mod.declared(bare) is not None for mod in self._closure())


def _enum_items(found):
    """An Enum, or this module's enum Decl read straight from its XML (an
    <enumref> needs its values before the layout pass builds it)."""
    if isinstance(found, m.Enum):
        return found
    items = []
    for item in found.node.find_all("item"):
        kids = [c for c in item.children if c.tag in ("value", "bit")]
        value = parse_expr(kids[0]).value if kids else 0
        items.append(m.EnumItem(item.require("name"), "", value, ""))
    return m.Enum("", found.name, "", tuple(items), m.Doc(), found.node.loc)


def expr_lookup(scope):
    """The lookup parse_expr needs: enums for <enumref>, types for <paramref>."""
    def lookup(name, loc, want_enum):
        found = scope.lookup(name, loc, want_enum=want_enum)
        return _enum_items(found) if want_enum else found
    return lookup


def _expr(scope, node):
    return parse_expr(node, expr_lookup(scope))


def _typedef(scope, decl):
    node = decl.node
    scope.draft.refs[id(node)] = Ref(type=scope.lookup(node.require("oldname"), node.loc))


def _packet(scope, decl):
    """A struct, request or event; a request's reply with it."""
    _fields(scope, decl.node)
    reply = decl.node.find("reply")
    if reply is not None and decl.tag == "request":
        _fields(scope, reply)


def _error_copy(scope, decl):
    """<errorcopy> and <eventcopy> name an error or event of this module."""
    node = decl.node
    ref = node.require("ref")
    want = "error" if decl.tag == "errorcopy" else "event"
    if any(d.tag == want and d.name == ref for d in scope.draft.decls):
        return
    if want == "error" and imported_error(scope.draft.imports, ref) is not None:
        return
    raise GenError(node.loc, f"<{decl.tag}> '{decl.name}' copies the {want} '{ref}', "
                             f"which neither this module nor an import declares")


def imported_error(imports, name):
    """The Error `name` of the first imported module, depth first, that has it."""
    for mod in imports:
        found = next((e for e in mod.errors if e.name == name), None)
        if found is None:
            found = imported_error(mod.imported, name)
        if found is not None:
            return found
    return None


def _fields(scope, node, allowed=_OTHER_TAGS):
    for c in node.children:
        if c.tag in FIELD_TAGS:
            _ITEMS[c.tag](scope, c, node)
        elif c.tag not in allowed:
            raise GenError(c.loc, f"<{c.tag}> is not allowed in <{node.tag}>")


def _enum_of(scope, item):
    name = item.get("enum") or item.get("mask")
    return scope.lookup(name, item.loc, want_enum=True) if name else None


def _field(scope, item, _owner):
    item.require("name")
    scope.draft.refs[id(item)] = Ref(type=scope.lookup(item.require("type"), item.loc),
                                     enum=_enum_of(scope, item))


def _list(scope, item, _owner):
    name = item.require("name")
    exprs = [c for c in item.children if c.tag in EXPR_TAGS]
    if len(exprs) > 1:
        raise GenError(item.loc, f"the list '{name}' has more than one length")
    length = _expr(scope, exprs[0]) if exprs else None
    if item.require("type") == "fd":
        if length is None:
            raise GenError(item.loc, f"the fd list '{name}' needs a length")
        scope.draft.refs[id(item)] = Ref(length=length, fd=True)
        return
    scope.draft.refs[id(item)] = Ref(type=scope.lookup(item.require("type"), item.loc),
                                     enum=_enum_of(scope, item), length=length)


def _pad(scope, item, _owner):
    if item.get("bytes") is not None:
        n = parse_int(item.get("bytes"), item.loc, "pad bytes")
        if n <= 0:
            raise GenError(item.loc, "a pad must be at least one byte")
        scope.draft.refs[id(item)] = Ref(pad_bytes=n)
    elif item.get("align") is not None:
        align = parse_int(item.get("align"), item.loc, "pad align")
        if align not in (1, 2, 4, 8):
            raise GenError(item.loc, f"pad align must be 1, 2, 4 or 8, not {align}")
        scope.draft.refs[id(item)] = Ref(pad_align=align)
    else:
        raise GenError(item.loc, "<pad> needs 'bytes' or 'align'")


def _fd(_scope, item, _owner):
    item.require("name")


def _required_start_align(scope, item, _owner):
    """Where the item's container must start, modulo `align`: a promise the
    layout pass checks against the offsets it finds."""
    align = parse_int(item.require("align"), item.loc, "required_start_align align")
    offset = parse_int(item.get("offset", "0"), item.loc, "required_start_align offset")
    if align not in (1, 2, 4, 8) or not 0 <= offset < align:
        raise GenError(item.loc, "required_start_align needs an align of 1, 2, 4 or 8 and "
                                 "an offset below it")
    scope.draft.refs[id(item)] = Ref(pad_align=align, pad_bytes=offset)


def _exprfield(scope, item, owner):
    _field(scope, item, owner)
    exprs = [c for c in item.children if c.tag in EXPR_TAGS]
    if len(exprs) != 1:
        raise GenError(item.loc, f"the exprfield '{item.get('name')}' needs one expression")
    scope.draft.refs[id(item)] = Ref(type=scope.draft.refs[id(item)].type,
                                     length=_expr(scope, exprs[0]))


def _valueparam(scope, item, _owner):
    item.require("value-mask-name")
    item.require("value-list-name")
    scope.draft.refs[id(item)] = Ref(type=scope.lookup(item.require("value-mask-type"),
                                                       item.loc))


def _length(scope, item, owner):
    """A struct's own size, in bytes, as an expression of its fields."""
    exprs = [c for c in item.children if c.tag in EXPR_TAGS]
    if owner.tag != "struct" or len(exprs) != 1:
        raise GenError(item.loc, "<length> belongs in a <struct>, with one expression")
    scope.draft.refs[id(item)] = Ref(length=_expr(scope, exprs[0]))


def _switch(scope, item, _owner):
    """A switch's value, then each case's values and fields."""
    item.require("name")
    exprs = [c for c in item.children if c.tag in EXPR_TAGS]
    if len(exprs) != 1:
        raise GenError(item.loc, f"the switch '{item.get('name')}' needs one expression")
    scope.draft.refs[id(item)] = Ref(length=_expr(scope, exprs[0]))
    for case in item.children:
        if case.tag in ("bitcase", "case"):
            values = tuple(_expr(scope, c) for c in case.children if c.tag in EXPR_TAGS)
            if not values:
                raise GenError(case.loc, f"a <{case.tag}> needs a value")
            scope.draft.refs[id(case)] = Ref(values=values)
            _fields(scope, case, _OTHER_TAGS | CASE_VALUE_TAGS)
        elif case.tag not in EXPR_TAGS | {"doc", "required_start_align"}:
            raise GenError(case.loc, f"<{case.tag}> is not allowed in <switch>")


_HANDLERS = {
    "typedef": _typedef,
    "struct": _packet,
    "union": _packet,
    "request": _packet,
    "event": _packet,
    "error": _packet,
    "errorcopy": _error_copy,
    "eventcopy": _error_copy,
}

_ITEMS = {
    "field": _field,
    "list": _list,
    "pad": _pad,
    "fd": _fd,
    "required_start_align": _required_start_align,
    "exprfield": _exprfield,
    "switch": _switch,
    "valueparam": _valueparam,
    "length": _length,
}
