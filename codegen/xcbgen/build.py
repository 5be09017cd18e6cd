"""XML Node tree -> resolved Module, in named passes.

    declare    walk the top-level elements in order, creating each type
    layout     lay out fixed members (wire and memory offsets, automatic
               header fields, XGE's full_sequence), lists, pads and fds
    check      field references, list alignment, the fd-count rule for
               replies, request layout rules

Each pass raises GenError with the file:line of the offending element.
"""

import re

from .errors import GenError
from . import model as m
from .naming import BadName, c_prefix, lower, upper

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
CARD8, CARD16, CARD32 = PRIMITIVES["CARD8"], PRIMITIVES["CARD16"], PRIMITIVES["CARD32"]
# An fd list's elements, as its accessors see them.
FD_ELEMENT = m.Primitive("", "fd", "int32_t", 4, 4)

_FIELD_TAGS = frozenset({"field", "pad", "list", "fd", "exprfield", "switch", "valueparam",
               "required_start_align"})
_EXPR_TAGS = frozenset({"fieldref", "value", "op", "unop", "popcount", "sumof", "enumref",
              "paramref", "listelement-ref", "bit"})


def build_module(root, loader, full):
    if root.tag != "xcb":
        raise GenError(root.loc, f"the root element must be <xcb>, not <{root.tag}>")
    return _ModuleBuilder(root, loader, full).build()


def _int(text, loc, what):
    try:
        return int(text.strip(), 0)
    except ValueError:
        raise GenError(loc, f"{what} must be an integer, not '{text.strip()}'")


def parse_doc(node):
    """<doc> -> Doc; a missing <doc> gives an empty Doc."""
    if node is None:
        return m.Doc()

    def text(tag):
        child = node.find(tag)
        return " ".join(child.text.split()) if child is not None else ""

    desc = node.find("description")
    return m.Doc(
        brief=text("brief"),
        # Descriptions keep their paragraphs: blank lines separate them.
        description=_paragraphs(desc.text) if desc is not None else "",
        fields=tuple((f.require("name"), " ".join(f.text.split()))
                     for f in node.find_all("field")),
        errors=tuple((e.require("type"), " ".join(e.text.split()))
                     for e in node.find_all("error")),
        see=tuple((s.get("type", ""), s.get("name", "")) for s in node.find_all("see")),
    )


def _paragraphs(text):
    paras, current = [], []
    for line in text.strip().splitlines():
        if line.strip():
            current.append(line.strip())
        elif current:
            paras.append(" ".join(current))
            current = []
    if current:
        paras.append(" ".join(current))
    return "\n\n".join(paras)


class _ModuleBuilder:
    def __init__(self, root, loader, full):
        self.root = root
        self.full = full
        self.header = root.require("header")
        if not _C_IDENT.match(self.header):    # it names files, C symbols and macros
            raise GenError(root.loc, f"the header name '{self.header}' is not a C identifier")
        self.prefix = c_prefix(self.header)
        self.macro = self.prefix.upper()
        self.imports = [loader.load(i.text.strip(), i.loc) for i in root.find_all("import")]
        self.table = {}      # XML name -> Type or Enum declared in this module
        # Every type name of the module, declared before or after an enum of
        # the same name: the enum's C name must step aside for either.
        self.type_names = {self.prefix + lower(n.require("name" if n.tag != "typedef"
                                                         else "newname")) + "_t"
                           for n in root.children
                           if n.tag in ("xidtype", "xidunion", "typedef", "struct", "union")}
        self.order = []
        self.requests = []
        self.events = []

    # ------------------------------------------------------------ lookup

    def _closure(self):
        """Imported modules, depth first, each once."""
        seen, out = set(), []

        def visit(mod):
            if mod.header in seen:
                return
            seen.add(mod.header)
            out.append(mod)
            for imp in mod.imports_resolved:
                visit(imp)

        for imp in self.imports:
            visit(imp)
        return out

    def lookup(self, name, loc, want_enum=False):
        if ":" in name:
            ns, bare = name.split(":", 1)
            if ns == self.header:
                found = self.table.get(bare)
            else:
                mods = [mod for mod in self._closure() if mod.header == ns]
                if not mods:
                    raise GenError(loc, f"'{name}' names the module '{ns}', "
                                        f"which is not imported")
                found = mods[0].table.get(bare)
        else:
            found = None if want_enum else PRIMITIVES.get(name)
            found = found or self.table.get(name)
            for mod in self._closure():
                found = found or mod.table.get(name)
        if found is None:
            raise GenError(loc, f"unknown {'enum' if want_enum else 'type'} '{name}'")
        if want_enum != isinstance(found, m.Enum):
            raise GenError(loc, f"'{name}' is {'not ' if want_enum else ''}an enum")
        if isinstance(found, m.Opaque):
            raise GenError(loc, f"the type '{name}' cannot be used here: {found.why}")
        return found

    # ------------------------------------------------------------ declare

    def declare(self, name, thing, loc):
        if name in self.table:
            raise GenError(loc, f"'{name}' is declared twice")
        self.table[name] = thing
        self.order.append(thing)

    def build(self):
        for node in self.root.children:
            handler = getattr(self, "_top_" + node.tag.replace("-", "_"), None)
            if handler is None:
                if self.full:
                    raise GenError(node.loc, f"<{node.tag}> is not supported by this generator")
                continue     # imports: only their types matter to us
            try:
                handler(node)
            except BadName as e:    # a name deep inside: report its declaration
                raise GenError(node.loc, str(e)) from None
        root = self.root
        module = m.Module(
            header=self.header, path=root.loc.file,
            ext_xname=root.get("extension-xname", ""), ext_name=root.get("extension-name", ""),
            major_version=_int(root.get("major-version", "0"), root.loc, "major-version"),
            minor_version=_int(root.get("minor-version", "0"), root.loc, "minor-version"),
            c_prefix=self.prefix, macro_prefix=self.macro,
            imports=tuple(i.header for i in self.imports),
            types=tuple(self.order), requests=tuple(self.requests),
            events=tuple(self.events),
            doc_brief=f"{root.get('extension-xname', self.header)} protocol binding",
        )
        # Lookups in modules that import this one need the name table and the
        # imports; they are private to the generator, not part of the model.
        object.__setattr__(module, "table", dict(self.table))
        object.__setattr__(module, "imports_resolved", tuple(self.imports))
        return module

    def _top_import(self, node):
        pass        # handled in __init__

    def _iterator(self, c_type):
        return c_type[:-2] + "_iterator_t" if self.full else ""

    def _top_xidtype(self, node):
        name = node.require("name")
        c = self.prefix + lower(name) + "_t"
        self.declare(name, m.XidType(self.header, name, c, 4, 4, loc=node.loc,
                                     iterator=self._iterator(c)), node.loc)

    _top_xidunion = _top_xidtype

    def _top_typedef(self, node):
        new = node.require("newname")
        target = self.lookup(node.require("oldname"), node.loc)
        c = self.prefix + lower(new) + "_t"
        self.declare(new, m.Typedef(self.header, new, c, target.size, target.align,
                                    target=target, loc=node.loc,
                                    iterator=self._iterator(c)), node.loc)

    def _top_enum(self, node):
        name = node.require("name")
        c = self.prefix + lower(name) + "_t"
        # An enum may share its name with a type ("Event" and "EVENT"): the
        # enum then takes an _enum suffix, as XCB has always done.
        if c in self.type_names:
            c = c[:-2] + "_enum_t"
        items = []
        for item in node.find_all("item"):
            iname = item.require("name")
            if item.find("value") is not None:
                value = _int(item.find("value").text, item.loc, "an enum <value>")
            elif item.find("bit") is not None:
                bit = _int(item.find("bit").text, item.loc, "an enum <bit>")
                if not 0 <= bit < 32:
                    raise GenError(item.loc, f"bit {bit} is out of range 0..31")
                value = 1 << bit
            else:
                raise GenError(item.loc, f"the enum item '{iname}' has no <value> or <bit>")
            if any(i.name == iname for i in items):
                raise GenError(item.loc, f"the enum item '{iname}' appears twice")
            items.append(m.EnumItem(iname, f"{self.macro}{upper(name)}_{upper(iname)}",
                                    value, parse_doc(node.find("doc")).field(iname)))
        if not items:
            raise GenError(node.loc, f"the enum '{name}' has no items")
        self.declare(name, m.Enum(self.header, name, c, tuple(items),
                                  parse_doc(node.find("doc")), node.loc), node.loc)

    def _top_struct(self, node):
        name = node.require("name")
        c = self.prefix + lower(name) + "_t"
        try:
            layout = self.layout(node, "struct", parse_doc(node.find("doc")))
            if layout.lists or layout.fds:
                raise GenError(node.loc, f"the struct '{name}' has a variable size, "
                                         f"which this generator does not support")
            if not layout.members:      # C has no empty structs
                raise GenError(node.loc, f"the struct '{name}' has no fields")
        except GenError as e:
            if self.full:
                raise
            self.declare(name, m.Opaque(self.header, name, c, 0, 1, loc=node.loc,
                                        why=e.message), node.loc)
            return
        align = max([mem.type.align for mem in layout.members] or [1])
        self.declare(name, m.Struct(self.header, name, c, layout.wire_size, align,
                                    layout=layout, doc=parse_doc(node.find("doc")),
                                    loc=node.loc, iterator=self._iterator(c)), node.loc)

    def _top_union(self, node):
        if self.full:
            raise GenError(node.loc, "<union> is not supported by this generator")
        name = node.require("name")
        self.declare(name, m.Opaque(self.header, name, self.prefix + lower(name) + "_t",
                                    0, 1, loc=node.loc, why="unions are not supported"),
                     node.loc)

    def _top_request(self, node):
        if not self.full:
            return
        name = node.require("name")
        base = self.prefix + lower(name)
        opcode = _int(node.require("opcode"), node.loc, "opcode")
        if any(r.opcode == opcode for r in self.requests):
            raise GenError(node.loc, f"opcode {opcode} is used twice")
        layout = self.layout(node, "request", parse_doc(node.find("doc")))
        if layout.packed or layout.mem_size != layout.wire_size:
            raise GenError(node.loc, f"the request '{name}' cannot be laid out as a plain "
                                     f"C struct; reorder or pad its fields")
        reply = None
        rnode = node.find("reply")
        if rnode is not None:
            rlayout = self.layout(rnode, "reply", parse_doc(rnode.find("doc")))
            if rlayout.wire_size > 32:
                raise GenError(rnode.loc, "a reply's fixed part must fit in 32 bytes")
            self.check_reply_fds(rnode, rlayout)
            if rlayout.lists and layout.lists:
                raise GenError(node.loc, f"the request '{name}' and its reply both have "
                                         f"lists; their _sizeof functions would clash")
            reply = m.Reply(base + "_reply_t", rlayout, parse_doc(rnode.find("doc")),
                            rnode.loc)
        self.requests.append(m.Request(
            name=name, c_base=base, opcode=opcode, opcode_macro=self.macro + upper(name),
            c_struct=base + "_request_t",
            cookie=base + "_cookie_t" if reply else "xcb_void_cookie_t",
            layout=layout, reply=reply, doc=parse_doc(node.find("doc")), loc=node.loc))

    def _top_event(self, node):
        if not self.full:
            return
        name = node.require("name")
        number = _int(node.require("number"), node.loc, "the event number")
        xge = node.get("xge", "false") == "true"
        base = self.prefix + lower(name)
        if any(e.number == number and e.xge == xge for e in self.events):
            raise GenError(node.loc, f"event number {number} is used twice")
        doc = parse_doc(node.find("doc"))
        layout = self.layout(node, "xge" if xge else "event", doc,
                             no_sequence=node.get("no-sequence-number", "false") == "true")
        self.events.append(m.Event(name, base, number, self.macro + upper(name),
                                   base + "_event_t", xge, layout, doc, node.loc))

    # ------------------------------------------------------------ layout

    def layout(self, node, kind, doc, no_sequence=False):
        return _LayoutBuilder(self, node, kind, doc, no_sequence).build()

    # ------------------------------------------------------------ checks

    def check_reply_fds(self, rnode, layout):
        """A reply with fds states their count in byte 1 (libxcb reads it there)."""
        if not layout.fds:
            return
        counter = next((mem for mem in layout.members if mem.wire_offset == 1), None)
        if counter is None or counter.pad or counter.type.size != 1:
            raise GenError(rnode.loc, "a reply that carries fds must have its fd count "
                                      "(a CARD8, usually 'nfd') at byte 1")


_C_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_C_KEYWORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto "
    "if inline int long register restrict return short signed sizeof static struct switch "
    "typedef union unsigned void volatile while _Bool _Complex _Imaginary".split())


class _LayoutBuilder:
    """Lays out one struct, request, reply or event."""

    def __init__(self, mod, node, kind, doc, no_sequence):
        self.mod, self.node, self.kind, self.doc = mod, node, kind, doc
        self.no_sequence = no_sequence
        self.members, self.lists, self.fds, self.order = [], [], [], []
        self.wire = 0
        self.shift = 0            # memory offset - wire offset (XGE's full_sequence)
        self.pads = 0

    def add(self, name, typ, count=1, array=False, auto=False, pad=False, enum=None, loc=None):
        if typ is PRIMITIVES["void"]:     # C has no void members or void arrays
            raise GenError(loc or self.node.loc, f"'{name}' cannot be void in the fixed "
                                                 f"part; only a variable-length list can")
        if self.kind == "xge" and self.shift == 0:
            if self.wire == 32:
                self._full_sequence()
            elif self.wire < 32 < self.wire + typ.size * count:
                raise GenError(loc or self.node.loc, f"'{name}' straddles byte 32, where "
                                                     f"XCB keeps an XGE event's full_sequence")
        mem = m.Member(name, typ, count, array, self.wire, self.wire + self.shift, auto, pad,
                       "" if auto or pad else self.doc.field(name), enum, loc or self.node.loc)
        self.members.append(mem)
        if not auto:
            self.order.append(mem)
        self.wire += typ.size * count

    def _full_sequence(self):
        self.members.append(m.Member("full_sequence", CARD32, 1, False, None, self.wire, True,
                                     False, "", None, self.node.loc))
        self.shift = 4

    def add_pad(self, nbytes, loc, auto=False):
        name = f"pad{self.pads}"
        self.pads += 1
        self.add(name, CARD8, nbytes, array=nbytes > 1, auto=auto, pad=True, loc=loc)

    def build(self):
        items = [c for c in self.node.children if c.tag in _FIELD_TAGS]
        for c in self.node.children:
            if c.tag not in _FIELD_TAGS and c.tag not in ("doc", "reply", "item"):
                raise GenError(c.loc, f"<{c.tag}> is not allowed in <{self.node.tag}>")
        self.header(items)
        for item in items:
            getattr(self, "_item_" + item.tag.replace("-", "_"))(item)
        if self.kind == "xge" and self.shift == 0:
            if self.wire != 32:
                raise GenError(self.node.loc, "an XGE event's fixed part must reach byte 32")
            self._full_sequence()
        self.check_names()
        self.check_refs()
        self.check_list_alignment()
        mem_size = self.wire + self.shift
        max_align = max([mem.type.align for mem in self.members] or [1])
        packed = (any(mem.mem_offset % mem.type.align for mem in self.members)
                  or mem_size % max_align != 0)
        return m.Layout(tuple(self.members), tuple(self.lists), tuple(self.fds),
                        tuple(self.order), self.wire, mem_size, packed)

    def check_names(self):
        """Field names become C members and parameters: identifiers, once each."""
        seen = set()
        for f in list(self.members) + self.lists + self.fds:
            if getattr(f, "pad", False):
                continue
            if not _C_IDENT.match(f.name) or f.name in _C_KEYWORDS:
                raise GenError(f.loc, f"the field name '{f.name}' is not a C identifier")
            if f.name in seen:
                raise GenError(f.loc, f"the field '{f.name}' appears twice")
            seen.add(f.name)

    def header(self, items):
        """The fields every packet of this kind starts with, which the XML leaves out."""
        if self.kind == "request":
            self.add("major_opcode", CARD8, auto=True)
            self.add("minor_opcode", CARD8, auto=True)
            self.add("length", CARD16, auto=True)
        elif self.kind in ("reply", "event"):
            self.add("response_type", CARD8, auto=True)
            # Byte 1 belongs to the first XML item when it is one byte long.
            first = items.pop(0) if items and self._one_byte(items[0]) else None
            if first is not None:
                getattr(self, "_item_" + first.tag)(first)
            else:
                self.add_pad(1, self.node.loc, auto=True)
            if not self.no_sequence:
                self.add("sequence", CARD16, auto=True)
            if self.kind == "reply":
                self.add("length", CARD32, auto=True)
        elif self.kind == "xge":
            self.add("response_type", CARD8, auto=True)
            self.add("extension", CARD8, auto=True)
            self.add("sequence", CARD16, auto=True)
            self.add("length", CARD32, auto=True)
            self.add("event_type", CARD16, auto=True)

    def _one_byte(self, item):
        if item.tag == "pad":
            return item.get("bytes") == "1"
        if item.tag == "field":
            return self.mod.lookup(item.require("type"), item.loc).size == 1
        return False

    def _fixed_ok(self, item):
        if self.lists:
            raise GenError(item.loc, f"'{item.get('name', item.tag)}' follows a list of "
                                     f"variable length; this generator needs fixed fields first")

    def _enum(self, item):
        name = item.get("enum") or item.get("mask")
        return self.mod.lookup(name, item.loc, want_enum=True) if name else None

    def _item_field(self, item):
        self._fixed_ok(item)
        typ = self.mod.lookup(item.require("type"), item.loc)
        self.add(item.require("name"), typ, enum=self._enum(item), loc=item.loc)

    def _item_pad(self, item):
        self._fixed_ok(item)
        if item.get("bytes") is not None:
            n = _int(item.get("bytes"), item.loc, "pad bytes")
        elif item.get("align") is not None:
            align = _int(item.get("align"), item.loc, "pad align")
            if align not in (1, 2, 4, 8):
                raise GenError(item.loc, f"pad align must be 1, 2, 4 or 8, not {align}")
            n = -self.wire % align
            if n == 0:
                return
        else:
            raise GenError(item.loc, "<pad> needs 'bytes' or 'align'")
        if n <= 0:
            raise GenError(item.loc, "a pad must be at least one byte")
        self.add_pad(n, item.loc)

    def _item_list(self, item):
        name = item.require("name")
        exprs = [c for c in item.children if c.tag in _EXPR_TAGS]
        if len(exprs) > 1:
            raise GenError(item.loc, f"the list '{name}' has more than one length")
        length = parse_expr(exprs[0]) if exprs else None
        doc = self.doc.field(name)
        if item.require("type") == "fd":
            if length is None:
                raise GenError(item.loc, f"the fd list '{name}' needs a length")
            fd = m.FdList(name, length, doc, item.loc)
            self.fds.append(fd)
            self.order.append(fd)
            return
        typ = self.mod.lookup(item.require("type"), item.loc)
        if isinstance(length, m.Value) and not self.lists:
            # A list of constant length is a plain array in the fixed part.
            self.add(name, typ, count=length.value, array=True, enum=self._enum(item),
                     loc=item.loc)
            return
        if self.lists and self.lists[-1].length is None:
            raise GenError(item.loc, f"the list '{name}' follows the list "
                                     f"'{self.lists[-1].name}', whose length is unknown")
        if self.kind == "struct":
            raise GenError(item.loc, f"the list '{name}' makes a struct variable-sized")
        lst = m.ListField(name, typ, length, doc, self._enum(item), item.loc)
        self.lists.append(lst)
        self.order.append(lst)

    def _item_fd(self, item):
        fd = m.FdField(item.require("name"), self.doc.field(item.require("name")), item.loc)
        self.fds.append(fd)
        self.order.append(fd)

    def _item_required_start_align(self, item):
        align = _int(item.require("align"), item.loc, "required_start_align align")
        if self.kind != "struct" or align > 8:
            raise GenError(item.loc, "required_start_align is only supported on structs, "
                                     "with an alignment of at most 8")

    def _unsupported(self, item):
        raise GenError(item.loc, f"<{item.tag}> is not supported by this generator")

    _item_exprfield = _item_switch = _item_valueparam = _unsupported

    # ------------------------------------------------------------ checks

    def check_refs(self):
        """Every length refers to a fixed field that precedes it."""
        fixed = {mem.name for mem in self.members if not mem.pad}
        for item in list(self.lists) + [f for f in self.fds if isinstance(f, m.FdList)]:
            for ref in field_refs(item.length):
                if ref not in fixed:
                    raise GenError(item.loc, f"the length of '{item.name}' refers to "
                                             f"'{ref}', which is not a fixed field before it")

    def check_list_alignment(self):
        """A list must start where its elements are aligned, whatever the lengths before it."""
        known = _pow2_dividing(self.wire + self.shift)
        for lst in self.lists:
            need = min(lst.type.align, 8)
            if known < need:
                raise GenError(lst.loc, f"the list '{lst.name}' may start at an offset aligned "
                                        f"to only {known} bytes, but its elements need {need}")
            known = min(known, _pow2_dividing(lst.type.size))


def _pow2_dividing(n):
    return 8 if n % 8 == 0 else (n & -n)


def parse_expr(node):
    tag = node.tag
    if tag == "fieldref":
        name = node.text.strip()
        if not name:
            raise GenError(node.loc, "<fieldref> is empty")
        return m.FieldRef(name)
    if tag == "value":
        return m.Value(_int(node.text, node.loc, "<value>"))
    kids = [c for c in node.children if c.tag in _EXPR_TAGS]
    if tag == "op":
        op = node.require("op")
        if op not in ("+", "-", "*", "/", "&", "<<") or len(kids) != 2:
            raise GenError(node.loc, f"<op op='{op}'> needs a known operator and two operands")
        return m.BinOp(op, parse_expr(kids[0]), parse_expr(kids[1]))
    if tag == "unop":
        if node.require("op") != "~" or len(kids) != 1:
            raise GenError(node.loc, "<unop> supports only '~' with one operand")
        return m.UnOp("~", parse_expr(kids[0]))
    if tag == "popcount":
        if len(kids) != 1:
            raise GenError(node.loc, "<popcount> takes one operand")
        return m.Popcount(parse_expr(kids[0]))
    raise GenError(node.loc, f"the expression <{tag}> is not supported by this generator")


def field_refs(expr):
    if isinstance(expr, m.FieldRef):
        return [expr.name]
    if isinstance(expr, m.BinOp):
        return field_refs(expr.lhs) + field_refs(expr.rhs)
    if isinstance(expr, (m.UnOp, m.Popcount)):
        return field_refs(expr.operand)
    return []
