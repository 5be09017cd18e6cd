"""Pass 3, layout: declarations -> the immutable model.

Builds every type, request, reply and event in XML order: sizes and
alignment, wire and memory offsets of fixed members, the header fields the
XML leaves out, XGE's full_sequence, lists and fds, and the facts the
emitters and the check pass read rather than work out again: where a
packet's bytes end, how many fds it carries and where a reply keeps them,
which member counts a reply's fds, which replies need checking, the name of
an implicit list length, where each list starts. Errors here are layouts
that cannot exist; rules about a finished layout are the check pass's.

Needs: draft.decls, draft.refs.  Gives: draft.module.
"""

from . import model as m
from .docs import parse_doc
from .errors import GenError
from .expr import plus
from .naming import upper
from .pass_declare import Decl
from .pass_resolve import FIELD_TAGS, PRIMITIVES, Unusable
from .xmlparse import parse_int

NEEDS = ("decls", "refs")
GIVES = ("module",)

CARD8, CARD16, CARD32 = PRIMITIVES["CARD8"], PRIMITIVES["CARD16"], PRIMITIVES["CARD32"]

# Where packets end in memory, from their length field. Replies and XGE
# events count their length in words after byte 32; XGE events keep
# full_sequence in memory at byte 32, hence their extra 4.
_WORDS = m.BinOp("*", m.FieldRef("length"), m.Value(4))
_AFTER_32 = m.BinOp("+", m.Value(32), _WORDS)
_END = {"request": _WORDS, "event": m.Value(32), "reply": _AFTER_32,
        "xge": m.BinOp("+", _AFTER_32, m.Value(4)), "struct": None}


def run(draft):
    lay = _ModuleLayout(draft)
    for decl in draft.decls:
        _HANDLERS[decl.tag](lay, decl)
    root = draft.root
    draft.module = m.Module(
        header=draft.header, path=root.loc.file,
        ext_xname=root.get("extension-xname", ""), ext_name=root.get("extension-name", ""),
        major_version=parse_int(root.get("major-version", "0"), root.loc, "major-version"),
        minor_version=parse_int(root.get("minor-version", "0"), root.loc, "minor-version"),
        c_prefix=draft.prefix, macro_prefix=draft.macro,
        imports=tuple(i.header for i in draft.imports),
        types=tuple(lay.types), requests=tuple(lay.requests), events=tuple(lay.events),
        doc_brief=f"{root.get('extension-xname', draft.header)} protocol binding",
        imported=draft.imports,
    )


class _ModuleLayout:
    def __init__(self, draft):
        self.draft = draft
        self.built = {}      # XML name -> this module's Type or Enum
        self.types, self.requests, self.events = [], [], []

    def add_type(self, t):
        self.built[t.name] = t
        self.types.append(t)

    def resolved(self, thing, loc):
        """A Ref's type or enum as a model object (this module's own are built by now)."""
        if isinstance(thing, Decl):
            thing = self.built[thing.name]
            if isinstance(thing, m.Opaque):
                raise GenError(loc, f"the type '{thing.name}' cannot be used here: "
                                    f"{thing.why}")
        return thing

    def ref(self, node):
        return self.draft.refs[id(node)]

    def iterator(self, c_type):
        return c_type[:-2] + "_iterator_t" if self.draft.full else ""


def _xid(lay, decl):
    lay.add_type(m.XidType(lay.draft.header, decl.name, decl.c_name, 4, 4, loc=decl.node.loc,
                           iterator=lay.iterator(decl.c_name)))


def _typedef(lay, decl):
    target = lay.resolved(lay.ref(decl.node).type, decl.node.loc)
    lay.add_type(m.Typedef(lay.draft.header, decl.name, decl.c_name, target.size,
                           target.align, target=target, loc=decl.node.loc,
                           iterator=lay.iterator(decl.c_name)))


def _enum(lay, decl):
    node = decl.node
    doc = parse_doc(node.find("doc"))
    items = []
    for item in node.find_all("item"):
        iname = item.require("name")
        if item.find("value") is not None:
            value = parse_int(item.find("value").text, item.loc, "an enum <value>")
        elif item.find("bit") is not None:
            bit = parse_int(item.find("bit").text, item.loc, "an enum <bit>")
            if not 0 <= bit < 32:
                raise GenError(item.loc, f"bit {bit} is out of range 0..31")
            value = 1 << bit
        else:
            raise GenError(item.loc, f"the enum item '{iname}' has no <value> or <bit>")
        if any(i.name == iname for i in items):
            raise GenError(item.loc, f"the enum item '{iname}' appears twice")
        try:
            c_item = f"{decl.macro}_{upper(iname)}"
        except ValueError as e:
            raise GenError(item.loc, str(e))
        items.append(m.EnumItem(iname, c_item, value, doc.field(iname)))
    if not items:
        raise GenError(node.loc, f"the enum '{decl.name}' has no items")
    lay.add_type(m.Enum(lay.draft.header, decl.name, decl.c_name, tuple(items), doc, node.loc))


def _opaque(lay, decl, why):
    lay.add_type(m.Opaque(lay.draft.header, decl.name, decl.c_name, 0, 1, loc=decl.node.loc,
                          why=why))


def _struct(lay, decl):
    node = decl.node
    ref = lay.draft.refs.get(id(node))
    if isinstance(ref, Unusable):
        _opaque(lay, decl, ref.why)
        return
    doc = parse_doc(node.find("doc"))
    try:
        layout = _PacketLayout(lay, node, "struct", doc).build()
        if layout.lists or layout.fds:
            raise GenError(node.loc, f"the struct '{decl.name}' has a variable size, "
                                     f"which this generator does not support")
    except GenError as e:
        if lay.draft.full:
            raise
        _opaque(lay, decl, e.message)
        return
    align = max([mem.type.align for mem in layout.members] or [1])
    lay.add_type(m.Struct(lay.draft.header, decl.name, decl.c_name, layout.wire_size, align,
                          layout=layout, doc=doc, loc=node.loc,
                          iterator=lay.iterator(decl.c_name)))


def _union(lay, decl):
    if lay.draft.full:
        raise GenError(decl.node.loc, "<union> is not supported by this generator")
    _opaque(lay, decl, "unions are not supported")


def _request(lay, decl):
    node = decl.node
    base = decl.c_name
    opcode = parse_int(node.require("opcode"), node.loc, "opcode")
    layout = _PacketLayout(lay, node, "request", parse_doc(node.find("doc"))).build()
    reply = None
    rnode = node.find("reply")
    if rnode is not None:
        rdoc = parse_doc(rnode.find("doc"))
        rlayout = _PacketLayout(lay, rnode, "reply", rdoc).build()
        reply = m.Reply(base + "_reply_t", rlayout, rdoc, rnode.loc,
                        fd_count=_fd_counter(rlayout),
                        fds_at=rlayout.end if rlayout.fds else None,
                        checked=bool(rlayout.fds or any(lst.length is not None
                                                        for lst in rlayout.lists)))
    lay.requests.append(m.Request(
        name=decl.name, c_base=base, opcode=opcode, opcode_macro=decl.macro,
        c_struct=base + "_request_t",
        cookie=base + "_cookie_t" if reply else "xcb_void_cookie_t",
        layout=layout, reply=reply, doc=parse_doc(node.find("doc")), loc=node.loc))


def _fd_counter(layout):
    """libxcb reads a reply's fd count from byte 1: the one-byte member there."""
    if not layout.fds:
        return None
    mem = next((mem for mem in layout.members if mem.wire_offset == 1), None)
    return mem if mem is not None and not mem.pad and mem.type.size == 1 else None


def _event(lay, decl):
    node = decl.node
    number = parse_int(node.require("number"), node.loc, "the event number")
    xge = node.get("xge", "false") == "true"
    doc = parse_doc(node.find("doc"))
    layout = _PacketLayout(lay, node, "xge" if xge else "event", doc,
                           no_sequence=node.get("no-sequence-number", "false") == "true").build()
    lay.events.append(m.Event(decl.name, decl.c_name, number, decl.macro,
                              decl.c_name + "_event_t", xge, layout, doc, node.loc))


_HANDLERS = {
    "xidtype": _xid,
    "xidunion": _xid,
    "typedef": _typedef,
    "enum": _enum,
    "struct": _struct,
    "union": _union,
    "request": _request,
    "event": _event,
}


class _PacketLayout:
    """Lays out one struct, request, reply or event."""

    def __init__(self, lay, node, kind, doc, no_sequence=False):
        self.lay, self.node, self.kind, self.doc = lay, node, kind, doc
        self.no_sequence = no_sequence
        self.members, self.lists, self.fds, self.order = [], [], [], []
        self.wire = 0
        self.shift = 0            # memory offset - wire offset (XGE's full_sequence)
        self.pads = 0

    def type_of(self, item):
        return self.lay.resolved(self.lay.ref(item).type, item.loc)

    def enum_of(self, item):
        return self.lay.resolved(self.lay.ref(item).enum, item.loc)

    def add(self, name, typ, count=1, array=False, auto=False, pad=False, enum=None, loc=None):
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
        items = [c for c in self.node.children if c.tag in FIELD_TAGS]
        self.header(items)
        for item in items:
            _ITEMS[item.tag](self, item)
        if self.kind == "xge" and self.shift == 0:
            if self.wire != 32:
                raise GenError(self.node.loc, "an XGE event's fixed part must reach byte 32")
            self._full_sequence()
        mem_size = self.wire + self.shift
        max_align = max([mem.type.align for mem in self.members] or [1])
        packed = (any(mem.mem_offset % mem.type.align for mem in self.members)
                  or mem_size % max_align != 0)
        fd_total = None
        for fd in self.fds:
            fd_total = plus(fd_total, m.Value(1) if isinstance(fd, m.FdField) else fd.length)
        lists = self.place_lists(mem_size)
        order = tuple(lists.get(id(item), item) for item in self.order)
        return m.Layout(tuple(self.members), tuple(lists[id(x)] for x in self.lists),
                        tuple(self.fds), order, self.wire, mem_size, packed,
                        end=_END[self.kind], fd_total=fd_total)

    def place_lists(self, mem_size):
        """Each pending list as a ListField, keyed by the pending one's id:
        with what the encoding rounds its start up to (every part of a
        request is padded to 4 bytes) and the alignment its start is sure
        to have, whatever the lengths before it."""
        align = 4 if self.kind == "request" else 1
        known = _pow2_dividing(-(-mem_size // align) * align)
        placed = {}
        for pending in self.lists:
            placed[id(pending)] = m.ListField(
                pending.name, pending.type, pending.length, pending.doc, pending.enum,
                pending.loc,
                length_param=pending.name + "_len" if pending.length is None else None,
                align=align, start_align=known)
            known = max(min(known, _pow2_dividing(pending.type.size)), align)
        return placed

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
                _ITEMS[first.tag](self, first)
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
            return self.lay.ref(item).pad_bytes == 1
        if item.tag == "field":
            return self.type_of(item).size == 1
        return False

    def fixed_ok(self, item):
        if self.lists:
            raise GenError(item.loc, f"'{item.get('name', item.tag)}' follows a list of "
                                     f"variable length; this generator needs fixed fields first")


def _item_field(p, item):
    p.fixed_ok(item)
    p.add(item.require("name"), p.type_of(item), enum=p.enum_of(item), loc=item.loc)


def _item_pad(p, item):
    p.fixed_ok(item)
    ref = p.lay.ref(item)
    n = ref.pad_bytes or -p.wire % ref.pad_align
    if n:
        p.add_pad(n, item.loc)


def _item_list(p, item):
    name = item.require("name")
    ref = p.lay.ref(item)
    doc = p.doc.field(name)
    if ref.fd:
        fd = m.FdList(name, ref.length, doc, item.loc)
        p.fds.append(fd)
        p.order.append(fd)
        return
    typ = p.type_of(item)
    if isinstance(ref.length, m.Value) and not p.lists:
        # A list of constant length is a plain array in the fixed part.
        p.add(name, typ, count=ref.length.value, array=True, enum=p.enum_of(item),
              loc=item.loc)
        return
    if p.lists and p.lists[-1].length is None:
        raise GenError(item.loc, f"the list '{name}' follows the list "
                                 f"'{p.lists[-1].name}', whose length is unknown")
    if p.kind == "struct":
        raise GenError(item.loc, f"the list '{name}' makes a struct variable-sized")
    # Placed (given its start) once the fixed part's size is known.
    lst = _PendingList(name, typ, ref.length, doc, p.enum_of(item), item.loc)
    p.lists.append(lst)
    p.order.append(lst)


class _PendingList:
    """A list of variable length, laid out once the fixed part is complete."""

    def __init__(self, name, typ, length, doc, enum, loc):
        self.name, self.type, self.length = name, typ, length
        self.doc, self.enum, self.loc = doc, enum, loc


def _item_fd(p, item):
    fd = m.FdField(item.require("name"), p.doc.field(item.require("name")), item.loc)
    p.fds.append(fd)
    p.order.append(fd)


def _item_nothing(_p, _item):
    pass      # required_start_align: checked by resolve, changes nothing here


_ITEMS = {
    "field": _item_field,
    "pad": _item_pad,
    "list": _item_list,
    "fd": _item_fd,
    "required_start_align": _item_nothing,
}


def _pow2_dividing(n):
    return 8 if n % 8 == 0 else (n & -n)
