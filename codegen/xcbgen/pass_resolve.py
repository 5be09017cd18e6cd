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

# The elements a struct, request, reply or event may hold.
FIELD_TAGS = frozenset({"field", "pad", "list", "fd", "exprfield", "switch", "valueparam",
                        "required_start_align"})
_OTHER_TAGS = frozenset({"doc", "reply", "item"})


@dataclass(frozen=True)
class Ref:
    """What one element means. `type` and `enum` are model objects or, for
    this module's own declarations, their Decl (the layout pass builds them)."""
    type: object = None
    enum: object = None
    length: object = None      # lists: the length expression, None when implicit
    fd: bool = False           # a list of fds
    pad_bytes: int = 0
    pad_align: int = 0


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
        if self.position[id(decl)] >= self.at:
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


def _typedef(scope, decl):
    node = decl.node
    scope.draft.refs[id(node)] = Ref(type=scope.lookup(node.require("oldname"), node.loc))


def _packet(scope, decl):
    """A struct, request or event; a request's reply with it."""
    _fields(scope, decl.node)
    reply = decl.node.find("reply")
    if reply is not None and decl.tag == "request":
        _fields(scope, reply)


def _fields(scope, node):
    for c in node.children:
        if c.tag in FIELD_TAGS:
            _ITEMS[c.tag](scope, c, node)
        elif c.tag not in _OTHER_TAGS:
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
    length = parse_expr(exprs[0]) if exprs else None
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


def _required_start_align(_scope, item, owner):
    # Accepted only where it changes nothing: a struct starts aligned to 8.
    align = parse_int(item.require("align"), item.loc, "required_start_align align")
    if owner.tag != "struct" or align > 8:
        raise GenError(item.loc, "required_start_align is only supported on structs, "
                                 "with an alignment of at most 8")


def _unsupported(_scope, item, _owner):
    raise GenError(item.loc, f"<{item.tag}> is not supported by this generator")


_HANDLERS = {
    "typedef": _typedef,
    "struct": _packet,
    "request": _packet,
    "event": _packet,
}

_ITEMS = {
    "field": _field,
    "list": _list,
    "pad": _pad,
    "fd": _fd,
    "required_start_align": _required_start_align,
    "exprfield": _unsupported,
    "switch": _unsupported,
    "valueparam": _unsupported,
}
