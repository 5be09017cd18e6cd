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

from dataclasses import replace

from . import model as m
from .docs import parse_doc
from .errors import GenError
from .expr import field_refs, param_refs, plus
from .naming import field as c_field, lower, upper
from .pass_declare import Decl
from .pass_resolve import FIELD_TAGS, PRIMITIVES, Unusable, imported_error
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
        "xge": m.BinOp("+", _AFTER_32, m.Value(4)), "struct": None, "union": None,
        "error": m.Value(32), "case": None}


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
        imported=draft.imports, errors=tuple(lay.errors),
        # The core protocol has no extension to look up.
        id_c_name="" if draft.header == "xproto" else draft.prefix + "id",
    )


class _ModuleLayout:
    def __init__(self, draft):
        self.draft = draft
        self.built = {}      # XML name -> this module's Type or Enum
        self.types, self.requests, self.events, self.errors = [], [], [], []

    def add_type(self, t):
        self.built[t.name] = t
        self.types.append(t)

    def resolved(self, thing, loc):
        """A Ref's type or enum as a model object (this module's own are built by now,
        but for an enum a field names before the enum's declaration: None)."""
        if isinstance(thing, Decl):
            if thing.tag == "enum" and thing.name not in self.built:
                return None
            thing = self.built[thing.name]
            if isinstance(thing, m.Opaque):
                raise GenError(loc, f"the type '{thing.name}' cannot be used here: "
                                    f"{thing.why}")
        return thing

    def ref(self, node):
        return self.draft.refs[id(node)]

    def iterator(self, c_type):
        """Imported types have their iterators too: lists of them use them."""
        return c_type[:-2] + "_iterator_t"

    @property
    def core(self):
        """The core protocol's requests have no minor opcode."""
        return self.draft.header == "xproto"


def _xid(lay, decl):
    lay.add_type(m.XidType(lay.draft.header, decl.name, decl.c_name, 4, 4, loc=decl.node.loc,
                           iterator=lay.iterator(decl.c_name)))


def _typedef(lay, decl):
    """A new name for a type. Of a struct or union, a struct of its own, with
    the same members, its own iterator and functions, as in libxcb (xkb's
    LockBehavior is a struct like DefaultBehavior, not a typedef of it); but
    one that holds a switch stays a C typedef, as its switch's C names are
    its original's."""
    target = lay.resolved(lay.ref(decl.node).type, decl.node.loc)
    if isinstance(target, m.Struct) and not any(isinstance(t, m.Switch)
                                                for t in target.layout.tail):
        lay.add_type(replace(target, module=lay.draft.header, name=decl.name,
                             c_name=decl.c_name, loc=decl.node.loc,
                             iterator=lay.iterator(decl.c_name), alias_of=target.c_name))
        return
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
    union = decl.tag == "union"
    try:
        layout = _PacketLayout(lay, node, "union" if union else "struct", doc,
                               base=decl.c_name[:-2]).build()
        if layout.fds:
            raise GenError(node.loc, f"the struct '{decl.name}' holds fds, which only "
                                     f"requests and replies can")
        if union and layout.tail:
            raise GenError(node.loc, f"the union '{decl.name}' has a member of variable size")
    except GenError as e:
        if lay.draft.full:
            raise
        _opaque(lay, decl, e.message)
        return
    align = max([mem.type.align for mem in layout.members] or [1])
    size = layout.mem_size if union else layout.wire_size
    lay.add_type(m.Struct(lay.draft.header, decl.name, decl.c_name, size, align,
                          layout=layout, doc=doc, loc=node.loc,
                          iterator=lay.iterator(decl.c_name), union=union))


def _eventstruct(lay, decl):
    """A union of the events <allowed> names: this module's, by number, and
    the raw 32 bytes of any event as its last member, event_header.

    As in libxcb's union, opcode-max is where the range stops, not its
    last number: xinput's EventForSend (0 to 16) holds the events 0 to 15,
    and DevicePropertyNotify (16) only as event_header."""
    node = decl.node
    members = []
    for allowed in node.find_all("allowed"):
        lo = parse_int(allowed.require("opcode-min"), allowed.loc, "opcode-min")
        hi = parse_int(allowed.require("opcode-max"), allowed.loc, "opcode-max")
        xge = allowed.get("xge", "false") == "true"
        if allowed.require("extension") != lay.draft.root.get("extension-name", ""):
            raise GenError(allowed.loc, "an <eventstruct> may only name this module's events")
        for e in lay.events:
            if e.xge == xge and lo <= e.number < hi:
                members.append((e.c_base[len(lay.draft.prefix):], e.c_struct))
    if not members:
        raise GenError(node.loc, f"the eventstruct '{decl.name}' allows no event")
    if any(name == "event_header" for name, _ in members):
        raise GenError(node.loc, f"the eventstruct '{decl.name}' allows an event named "
                                 f"EventHeader, the name of its raw event member")
    members.append(("event_header", "xcb_raw_generic_event_t"))
    lay.add_type(m.EventStruct(lay.draft.header, decl.name, decl.c_name, 32, 4,
                               iterator=lay.iterator(decl.c_name), members=tuple(members),
                               loc=node.loc))


def _request(lay, decl):
    node = decl.node
    base = decl.c_name
    opcode = parse_int(node.require("opcode"), node.loc, "opcode")
    layout = _PacketLayout(lay, node, "request", parse_doc(node.find("doc")),
                           base=base).build()
    reply = None
    rnode = node.find("reply")
    if rnode is not None:
        rdoc = parse_doc(rnode.find("doc"))
        rlayout = _PacketLayout(lay, rnode, "reply", rdoc, base=base).build()
        reply = m.Reply(base + "_reply_t", rlayout, rdoc, rnode.loc,
                        fd_count=_fd_counter(rlayout),
                        fds_at=rlayout.end if rlayout.fds else None,
                        checked=bool(rlayout.fds or any(lst.length is not None
                                                        for lst in rlayout.lists)
                                     and not _beyond_lists(rlayout)
                                     # the refusal names an extension's request
                                     and not lay.core))
    lay.requests.append(m.Request(
        name=decl.name, c_base=base, opcode=opcode, opcode_macro=decl.macro,
        c_struct=base + "_request_t",
        cookie=base + "_cookie_t" if reply else "xcb_void_cookie_t",
        layout=layout, reply=reply, doc=parse_doc(node.find("doc")), loc=node.loc))


def _beyond_lists(layout):
    """A tail with more than lists of fixed-size elements: what it needs is
    not a plain sum, and the reply is handed out unchecked, as libxcb does."""
    return any(not isinstance(t, m.ListField) or not _fixed_type(t.type)
               for t in layout.tail)


def _fixed_type(t):
    return not isinstance(t, m.Struct) or t.fixed


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
                           no_sequence=node.get("no-sequence-number", "false") == "true",
                           base=decl.c_name).build()
    lay.events.append(m.Event(decl.name, decl.c_name, number, decl.macro,
                              decl.c_name + "_event_t", xge, layout, doc, node.loc))


def _eventcopy(lay, decl):
    node = decl.node
    ref = next(e for e in lay.events if e.name == node.require("ref"))
    number = parse_int(node.require("number"), node.loc, "the event number")
    lay.events.append(m.Event(decl.name, decl.c_name, number, decl.macro,
                              decl.c_name + "_event_t", ref.xge, ref.layout, ref.doc,
                              node.loc, copy_of=ref.c_struct))


def _error(lay, decl):
    node = decl.node
    number = parse_int(node.require("number"), node.loc, "the error number")
    layout = _PacketLayout(lay, node, "error", parse_doc(node.find("doc")),
                           base=decl.c_name).build()
    lay.errors.append(m.Error(decl.name, decl.c_name + "_error_t", number, decl.macro, layout,
                              "", node.loc))


def _errorcopy(lay, decl):
    node = decl.node
    name = node.require("ref")
    ref = next((e for e in lay.errors if e.name == name), None) \
        or imported_error(lay.draft.imports, name)
    number = parse_int(node.require("number"), node.loc, "the error number")
    lay.errors.append(m.Error(decl.name, decl.c_name + "_error_t", number, decl.macro,
                              ref.layout, ref.c_struct, node.loc))


_HANDLERS = {
    "xidtype": _xid,
    "xidunion": _xid,
    "typedef": _typedef,
    "enum": _enum,
    "struct": _struct,
    "union": _struct,
    "eventstruct": _eventstruct,
    "request": _request,
    "event": _event,
    "eventcopy": _eventcopy,
    "error": _error,
    "errorcopy": _errorcopy,
}


class _PacketLayout:
    """Lays out one struct, union, request, reply, event, error or switch case.

    The fixed part is what comes before the first item of variable size (a
    list whose length is not a constant, a field of a variable-sized struct,
    a switch): it is the C struct. Everything from there on is the tail, read
    in order through accessors. A case's items are all tail: a switch's C
    struct is the emitter's to derive from them.
    """

    def __init__(self, lay, node, kind, doc, no_sequence=False, base="", outer=None):
        self.lay, self.node, self.kind, self.doc = lay, node, kind, doc
        self.no_sequence = no_sequence
        self.base = base          # C prefix of what is named after it (switches)
        self.outer = outer        # a case's enclosing layout, for the types of names
        self.members, self.lists, self.fds, self.order = [], [], [], []
        self.tail = []
        self.length = None        # <length>: a struct's size, when it states it
        self.wire = 0
        self.shift = 0            # memory offset - wire offset (XGE's full_sequence)
        self.pads = 0

    def type_of(self, item):
        return self.lay.resolved(self.lay.ref(item).type, item.loc)

    def enum_of(self, item):
        return self.lay.resolved(self.lay.ref(item).enum, item.loc)

    @property
    def variable(self):
        """Whether an item added now goes into the tail."""
        return self.kind == "case" or bool(self.tail)

    @property
    def part_align(self):
        """libxcb pads every part of a request after the fixed one to 4 bytes."""
        return 4 if self.kind == "request" else 1

    def field_type(self, name):
        """The Type of a field declared so far here or around a case, or None."""
        for mem in self.members:
            if mem.name == name and not mem.pad:
                return mem.type
        for t in self.tail:
            if isinstance(t, m.TailField) and t.name == name:
                return t.type
        return self.outer.field_type(name) if self.outer else None

    def add(self, name, typ, count=1, array=False, auto=False, pad=False, enum=None, loc=None,
            expr=None, doc=None):
        if self.kind == "xge" and self.shift == 0:
            if self.wire == 32:
                self._full_sequence()
            elif self.wire < 32 < self.wire + typ.size * count:
                raise GenError(loc or self.node.loc, f"'{name}' straddles byte 32, where "
                                                     f"XCB keeps an XGE event's full_sequence")
        at = 0 if self.kind == "union" else self.wire
        mem = m.Member(name, typ, count, array, at, at + self.shift, auto, pad,
                       "" if auto or pad else doc if doc is not None else self.doc.field(name),
                       enum, loc or self.node.loc, expr)
        self.members.append(mem)
        if not auto:
            self.order.append(mem)
        size = typ.size * count
        self.wire = max(self.wire, size) if self.kind == "union" else self.wire + size

    def _full_sequence(self):
        self.members.append(m.Member("full_sequence", CARD32, 1, False, None, self.wire, True,
                                     False, "", None, self.node.loc))
        self.shift = 4

    def pad_name(self):
        # libxcb numbers the pads of a switch's cases on from those of the
        # struct, request or reply holding it: the names are its C members.
        if self.kind == "case" and self.outer is not None:
            return self.outer.pad_name()
        self.pads += 1
        return f"pad{self.pads - 1}"

    def add_pad(self, nbytes, loc, auto=False):
        self.add(self.pad_name(), CARD8, nbytes, array=nbytes > 1, auto=auto, pad=True, loc=loc)

    def add_tail(self, thing, param=True):
        self.tail.append(thing)
        if param:
            self.order.append(thing)

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
        if self.kind == "union":
            mem_size = -(-mem_size // max_align) * max_align
        # A fixed part may end short of its alignment: C pads the struct
        # there, and only misaligned members make it packed.
        packed = any(mem.mem_offset % mem.type.align for mem in self.members)
        fd_total = None
        for fd in self.fds:
            fd_total = plus(fd_total, m.Value(1) if isinstance(fd, m.FdField) else fd.length)
        placed = self.place_lists(mem_size)
        tail = tuple(placed.get(id(t), t) for t in self.tail)
        order = tuple(placed.get(id(item), item) for item in self.order)
        # The params a list's elements need come from a field of the same
        # name before the list where there is one (xinput's reply to
        # GetDeviceMotionEvents gives its DeviceTimeCoords its num_axes, as
        # libxcb does); only the others are the layout's own params.
        own = {mem.name for mem in self.members if not mem.pad}
        params, use, read = {}, [], []
        for t in tail:
            before = tuple(read)
            for ref in _tail_params(t, own):
                params.setdefault(ref.name, ref.type)
                if ref.name not in read:
                    read.append(ref.name)
            if not isinstance(t, m.TailPad):
                use.append((t.name, before, tuple(read)))
            if isinstance(t, m.TailField):
                own.add(t.name)
        if self.length is not None:
            for ref in param_refs(self.length):
                params.setdefault(ref.name, ref.type)
        return m.Layout(tuple(self.members), tuple(t for t in tail if isinstance(t, m.ListField)),
                        tuple(self.fds), order, self.wire, mem_size, packed,
                        end=_END[self.kind], fd_total=fd_total, tail=tail,
                        params=tuple(params.items()), size_expr=self.length,
                        param_use=tuple(use))

    def place_lists(self, mem_size):
        """Each pending list as a ListField, keyed by the pending one's id:
        with what the encoding rounds its start up to (every part of a
        request is padded to 4 bytes) and the alignment its start is sure
        to have, whatever the lengths before it."""
        align = self.part_align
        known = _pow2_dividing(-(-mem_size // align) * align)
        placed = {}
        for pending in self.tail:
            if not isinstance(pending, _PendingList):
                # What a switch, a pad or a field leaves is not worked out here.
                known = align
                continue
            placed[id(pending)] = m.ListField(
                pending.name, pending.type, pending.length, pending.doc, pending.enum,
                pending.loc,
                length_param=pending.name + "_len" if pending.length is None else None,
                align=align, start_align=known)
            size = pending.type.size if _fixed_type(pending.type) else 1
            known = max(min(known, _pow2_dividing(size)), align)
        return placed

    def header(self, items):
        """The fields every packet of this kind starts with, which the XML leaves out."""
        if self.kind == "request":
            self.add("major_opcode", CARD8, auto=True)
            if self.lay.core:
                self.byte_one(items)
            else:
                self.add("minor_opcode", CARD8, auto=True)
            self.add("length", CARD16, auto=True)
        elif self.kind in ("reply", "event"):
            self.add("response_type", CARD8, auto=True)
            if self.no_sequence:
                return       # the first field is at byte 1, and no sequence follows
            self.byte_one(items)
            self.add("sequence", CARD16, auto=True)
            if self.kind == "reply":
                self.add("length", CARD32, auto=True)
        elif self.kind == "error":
            self.add("response_type", CARD8, auto=True)
            self.add("error_code", CARD8, auto=True)
            self.add("sequence", CARD16, auto=True)
            if not items:
                # What every X error carries, where the XML names nothing.
                self.add("bad_value", CARD32, auto=True)
                self.add("minor_opcode", CARD16, auto=True)
                self.add("major_opcode", CARD8, auto=True)
        elif self.kind == "xge":
            self.add("response_type", CARD8, auto=True)
            self.add("extension", CARD8, auto=True)
            self.add("sequence", CARD16, auto=True)
            self.add("length", CARD32, auto=True)
            self.add("event_type", CARD16, auto=True)

    def byte_one(self, items):
        """Byte 1 belongs to the first XML item when it is one byte long
        (a required_start_align before it takes no room)."""
        at = next((i for i, it in enumerate(items) if it.tag != "required_start_align"), None)
        first = items.pop(at) if at is not None and self._one_byte(items[at]) else None
        if first is not None:
            _ITEMS[first.tag](self, first)
        else:
            self.add_pad(1, self.node.loc, auto=True)

    def _one_byte(self, item):
        if item.tag == "pad":
            return self.lay.ref(item).pad_bytes == 1
        if item.tag in ("field", "exprfield"):
            return self.type_of(item).size == 1
        return False


def _tail_params(t, own=()):
    """The <paramref>s a tail item reads, but those of its elements that the
    fields `own` give them."""
    if isinstance(t, m.ListField):
        out = param_refs(t.length) if t.length is not None else []
        if isinstance(t.type, m.Struct):
            out += [m.ParamRef(n, typ) for n, typ in t.type.layout.params if n not in own]
        return out
    if isinstance(t, m.TailField) and isinstance(t.type, m.Struct):
        return [m.ParamRef(n, typ) for n, typ in t.type.layout.params if n not in own]
    if isinstance(t, m.Switch):
        return [r for case in t.cases for x in case.layout.tail for r in _tail_params(x)]
    return []


def _item_field(p, item):
    typ = p.type_of(item)
    name = item.require("name")
    if p.variable or not _fixed_type(typ):
        p.add_tail(m.TailField(c_field(name), typ, p.doc.field(name), p.enum_of(item),
                               item.loc, p.part_align))
        return
    p.add(c_field(name), typ, enum=p.enum_of(item), loc=item.loc, doc=p.doc.field(name))


def _item_exprfield(p, item):
    """A field whose value follows from others: never a parameter."""
    name = item.require("name")
    if p.variable:
        raise GenError(item.loc, f"the exprfield '{name}' must be in the fixed part")
    p.add(name, p.type_of(item), enum=p.enum_of(item), loc=item.loc, auto=True,
          expr=p.lay.ref(item).length)


def _item_pad(p, item):
    ref = p.lay.ref(item)
    if p.variable:
        p.add_tail(m.TailPad(p.pad_name(), ref.pad_bytes, ref.pad_align or 1, item.loc,
                             item.get("serialize") == "true"),
                   param=False)
        return
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
    if isinstance(ref.length, m.Value) and not p.variable and _fixed_type(typ):
        # A list of constant length is a plain array in the fixed part.
        p.add(name, typ, count=ref.length.value, array=True, enum=p.enum_of(item),
              loc=item.loc)
        return
    last = next((t for t in reversed(p.tail) if isinstance(t, _PendingList)), None)
    if last is not None and last.length is None:
        raise GenError(item.loc, f"the list '{name}' follows the list "
                                 f"'{last.name}', whose length is unknown")
    # Placed (given its start) once the fixed part's size is known.
    p.add_tail(_PendingList(name, typ, ref.length, doc, p.enum_of(item), item.loc))


def _item_valueparam(p, item):
    """The old spelling of a mask and the CARD32 values of its bits."""
    mask = item.require("value-mask-name")
    p.add(mask, p.type_of(item), loc=item.loc)
    p.add_tail(_PendingList(item.require("value-list-name"), CARD32,
                            m.Popcount(m.FieldRef(mask)), "", None, item.loc))


def _item_switch(p, item):
    name = item.require("name")
    # Named in XCB's words, as accessors are: valueList -> value_list.
    base = f"{p.base}_{_lower(name, item.loc)}"
    cases = []
    for case in item.children:
        if case.tag not in ("bitcase", "case"):
            continue
        cname = case.get("name", "")
        inner = _PacketLayout(p.lay, case, "case", p.doc,
                              base=f"{base}_{_lower(cname, case.loc)}" if cname else base,
                              outer=p).build()
        cases.append(m.Case(cname, case.tag == "bitcase", p.lay.ref(case).values, inner,
                            case.loc))
    expr = p.lay.ref(item).length
    params = []
    for ref in _switch_refs(expr, cases):
        if ref not in [n for n, _ in params]:
            typ = p.field_type(ref)
            if typ is None:
                raise GenError(item.loc, f"the switch '{name}' reads '{ref}', which is not "
                                         f"a field before it")
            params.append((ref, typ))
    p.add_tail(m.Switch(name, base + "_t", base, expr, tuple(cases), tuple(params),
                        p.doc.field(name), item.loc, p.part_align))


def _lower(name, loc):
    try:
        return lower(name)
    except ValueError as e:
        raise GenError(loc, str(e))


def _switch_refs(expr, cases):
    """The field names a switch reads from outside itself, in the order of
    libxcb's parameters: those its cases' lengths and inner switches read
    and do not hold, in the order they come, then its value's."""
    out = []
    for case in cases:
        own = set()
        for t in case.layout.tail:
            if isinstance(t, m.ListField) and t.length is not None:
                out += [r for r in field_refs(t.length) if r not in own]
            elif isinstance(t, m.Switch):
                out += [n for n, _ in t.params if n not in own]
            if isinstance(t, (m.TailField, m.ListField, m.Switch)):
                own.add(t.name)
    return out + list(field_refs(expr))


def _item_length(p, item):
    p.length = p.lay.ref(item).length


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
    pass      # required_start_align: a promise about offsets, which libxcb does not check


_ITEMS = {
    "field": _item_field,
    "exprfield": _item_exprfield,
    "pad": _item_pad,
    "list": _item_list,
    "fd": _item_fd,
    "switch": _item_switch,
    "valueparam": _item_valueparam,
    "length": _item_length,
    "required_start_align": _item_nothing,
}


def _pow2_dividing(n):
    return 8 if n % 8 == 0 else (n & -n)
