"""The resolved model: what a protocol module means, independent of any output.

Everything here is immutable and fully resolved: types carry their wire size
and alignment, fixed members their wire and in-memory offsets, lists their
element type and length expression. The emitters only read it.
"""

from dataclasses import dataclass, field
from typing import Optional, Tuple

from .errors import Loc


# ---------------------------------------------------------------- docs

@dataclass(frozen=True)
class Doc:
    brief: str = ""
    description: str = ""
    fields: Tuple[Tuple[str, str], ...] = ()      # (field name, text)
    errors: Tuple[Tuple[str, str], ...] = ()      # (error type, text)
    see: Tuple[Tuple[str, str], ...] = ()         # (kind, name)

    def field(self, name):
        return next((text for n, text in self.fields if n == name), "")


# ---------------------------------------------------------------- types

@dataclass(frozen=True)
class Type:
    """A named type. `size` is its size on the wire, `align` its C alignment."""
    module: str          # header of the defining module; "" for primitives
    name: str            # name in the XML
    c_name: str          # C type name
    size: int
    align: int


@dataclass(frozen=True)
class Primitive(Type):
    pass


@dataclass(frozen=True)
class XidType(Type):
    """An XID (xidtype) or a union of XIDs (xidunion): a CARD32 with a name."""
    loc: Loc = None
    iterator: str = ""   # C name of its iterator type; "" when imported


@dataclass(frozen=True)
class Typedef(Type):
    target: Type = None
    loc: Loc = None
    iterator: str = ""


@dataclass(frozen=True)
class Opaque(Type):
    """An imported type this generator cannot lay out; using it is an error."""
    loc: Loc = None
    why: str = ""


@dataclass(frozen=True)
class EnumItem:
    name: str            # XML item name
    c_name: str          # XCB_<EXT>_<ENUM>_<ITEM>
    value: int
    doc: str


@dataclass(frozen=True)
class Enum:
    module: str
    name: str
    c_name: str
    items: Tuple[EnumItem, ...]
    doc: Doc
    loc: Loc


# ---------------------------------------------------------------- expressions

@dataclass(frozen=True)
class Value:
    value: int


@dataclass(frozen=True)
class FieldRef:
    name: str


@dataclass(frozen=True)
class BinOp:
    op: str
    lhs: object
    rhs: object


@dataclass(frozen=True)
class UnOp:
    op: str
    operand: object


@dataclass(frozen=True)
class Popcount:
    operand: object


@dataclass(frozen=True)
class SumOf:
    """The sum of a list's elements, or of `expr` over them (listelement-ref)."""
    list: str
    expr: object          # None: the elements themselves


@dataclass(frozen=True)
class ElementRef:
    """<listelement-ref/>: the element a <sumof> is at."""


@dataclass(frozen=True)
class ParamRef:
    """<paramref>: a value the enclosing structure is given, not one it holds."""
    name: str
    type: object          # a Type


# ---------------------------------------------------------------- containers

@dataclass(frozen=True)
class Member:
    """A fixed-size member of a C struct: a field, a pad or a fixed array."""
    name: str
    type: Type
    count: int            # array length; 1 for a scalar
    array: bool           # declared as an array (pads of more than one byte)
    wire_offset: int
    mem_offset: int
    auto: bool            # added by the generator (opcode, length, sequence, ...)
    pad: bool
    doc: str
    enum: Optional[Enum]
    loc: Loc
    expr: object = None   # <exprfield>: the value the generator computes for it

    @property
    def size(self):
        return self.type.size * self.count


@dataclass(frozen=True)
class ListField:
    """A list of variable length after the fixed part.

    `length` is None for a trailing list whose length follows from the packet
    length (requests, events and replies all allow that); its count is then
    the parameter `length_param` of the request function and of _sizeof.
    `align` is what the encoding rounds the list's start up to: 4 in a request,
    whose every part libxcb pads to 4 bytes, 1 elsewhere. `start_align` is the
    alignment its start is sure to have, whatever the lengths before it.
    """
    name: str
    type: Type
    length: object
    doc: str
    enum: Optional[Enum]
    loc: Loc
    length_param: Optional[str]
    align: int
    start_align: int


@dataclass(frozen=True)
class TailField:
    """A single field after the variable part, or any field of a variable-sized
    struct type: not in the C struct; read through an accessor."""
    name: str
    type: Type
    doc: str
    enum: Optional[Enum]
    loc: Loc
    align: int


@dataclass(frozen=True)
class TailPad:
    """A pad after the variable part: `bytes` long, or up to a multiple of `align`.
    `serialize` is the XML's serialize="true" (a pad a switch's C struct
    points at, as libxcb's does)."""
    name: str
    bytes: int
    align: int
    loc: Loc
    serialize: bool = False


@dataclass(frozen=True)
class Case:
    """A <bitcase> (taken when the switch value has any of `values` bits) or a
    <case> (when it equals one of them). `name` is "" for an unnamed one,
    whose fields sit directly in the switch's C struct."""
    name: str
    bitcase: bool
    values: tuple         # expressions
    layout: object        # Layout of its fields, all of them in `tail`
    loc: Loc


@dataclass(frozen=True)
class Switch:
    """A <switch>: fields present according to the value of `expr`.

    `c_name` is its C struct (xcb_<owner>_<name>_t), `base` the prefix of its
    functions; `params` the fields outside it that it reads, as (name, Type)
    in the order its functions take them."""
    name: str
    c_name: str
    base: str
    expr: object
    cases: tuple
    params: tuple
    doc: str
    loc: Loc
    align: int


@dataclass(frozen=True)
class FdField:
    name: str
    doc: str
    loc: Loc


@dataclass(frozen=True)
class FdList:
    name: str
    length: object
    doc: str
    loc: Loc


@dataclass(frozen=True)
class Layout:
    """The fields of a struct, request, reply or event, in XML order.

    `members` is the fixed part (the C struct); `lists` the variable part that
    follows it on the wire, in order; `fds` the file descriptors, which travel
    beside the bytes rather than in them; `order` every item in XML order,
    which fixes the order of function parameters.
    """
    members: Tuple[Member, ...]
    lists: Tuple[ListField, ...]
    fds: tuple
    order: tuple
    wire_size: int        # size of the fixed part on the wire
    mem_size: int         # sizeof() of the C struct
    packed: bool
    end: object           # where the packet's bytes end in memory: an expression
                          # of its fields, None for a struct (fixed size)
    fd_total: object      # how many fds it carries: an expression, None for none
    tail: tuple = ()      # everything after the fixed part, in order: ListField,
                          # TailField, TailPad, Switch
    params: tuple = ()    # (name, Type) of the <paramref>s it reads
    size_expr: object = None   # <length>: a struct's size as it states it
    param_use: tuple = ()      # (tail item name, names of the params where it
                               # starts depends on, of those where it ends)

    @property
    def fixed(self):
        return not self.tail

    def params_before(self, name):
        """(name, Type) of the params that where the tail item `name` starts
        depends on: those the items before it read."""
        return self._params_of(name, 1)

    def params_through(self, name):
        """... and where it ends: those it and the items before it read."""
        return self._params_of(name, 2)

    def _params_of(self, name, which):
        use = next((u[which] for u in self.param_use if u[0] == name), ())
        return tuple((n, t) for n, t in self.params if n in use)

    def member(self, name):
        return next((m for m in self.members if m.name == name and not m.pad), None)


@dataclass(frozen=True)
class Struct(Type):
    """A struct; with `layout.tail`, of variable size (then `size` is that of
    its fixed part). A union is a Struct whose members all sit at offset 0."""
    layout: Layout = None
    doc: Doc = None
    loc: Loc = None
    iterator: str = ""
    union: bool = False
    alias_of: str = ""    # a <typedef> of another struct: that one's C name

    @property
    def fixed(self):
        return self.layout.fixed


@dataclass(frozen=True)
class Error:
    """An <error>, or with `copy_of` an <errorcopy> of another module's or this one's."""
    name: str
    c_struct: str         # xcb_<ext>_<name>_error_t
    number: int
    number_macro: str
    layout: Optional[Layout]
    copy_of: str          # C struct of the copied error, "" for none
    loc: Loc


@dataclass(frozen=True)
class Reply:
    """A reply. libxcb reads the number of fds a reply carries from byte 1 and
    stores the fds right after the reply's bytes in memory."""
    c_name: str           # xcb_<ext>_<request>_reply_t
    layout: Layout
    doc: Doc
    loc: Loc
    fd_count: Optional[Member]   # the member at byte 1 when the reply has fds
    fds_at: object               # where the fds sit: an expression, None for none
    checked: bool                # has counts to check before a caller sees it


@dataclass(frozen=True)
class Request:
    name: str
    c_base: str           # xcb_<ext>_<request>
    opcode: int
    opcode_macro: str     # XCB_<EXT>_<REQUEST>
    c_struct: str         # xcb_<ext>_<request>_request_t
    cookie: str           # xcb_<ext>_<request>_cookie_t or xcb_void_cookie_t
    layout: Layout
    reply: Optional[Reply]
    doc: Doc
    loc: Loc


@dataclass(frozen=True)
class Event:
    name: str
    c_base: str           # xcb_<ext>_<event>
    number: int
    number_macro: str     # XCB_<EXT>_<EVENT>
    c_struct: str         # xcb_<ext>_<event>_event_t
    xge: bool
    layout: Layout
    doc: Doc
    loc: Loc
    copy_of: str = ""     # <eventcopy>: the C struct of the copied event


@dataclass(frozen=True)
class EventStruct(Type):
    """<eventstruct>: a union of the 32-byte events of `members`, the last
    of them the raw event (event_header, xcb_raw_generic_event_t)."""
    iterator: str = ""
    members: tuple = ()   # (member name, C struct)
    loc: Loc = None


@dataclass(frozen=True)
class Module:
    header: str           # "dri3"
    path: str
    ext_xname: str        # "DRI3": the name QueryExtension asks for
    ext_name: str         # "DRI3": the name in C identifiers
    major_version: int
    minor_version: int
    c_prefix: str         # "xcb_dri3_"
    macro_prefix: str     # "XCB_DRI3_"
    imports: Tuple[str, ...]
    types: tuple          # Types and Enums declared here, in XML order
    requests: Tuple[Request, ...]
    events: Tuple[Event, ...]
    doc_brief: str
    errors: tuple = ()
    id_c_name: str = ""   # the xcb_extension_t's name; "" for the core protocol
    # The modules this one imports, for lookups from modules that import
    # this one; not part of what the module means, so left out of == and repr.
    imported: tuple = field(default=(), compare=False, repr=False)

    @property
    def id_name(self):
        return self.id_c_name

    def declared(self, name):
        """The Type or Enum declared here under an XML name, or None."""
        return next((t for t in self.types if t.name == name), None)
