"""The C API a module gets: function names and signatures, shared by the emitters.

Both the C emitter and the man-page emitter need the same prototypes; they
come from here so that the two can never disagree.
"""

from dataclasses import dataclass
from typing import Tuple

from . import model as m
from .naming import lower
from .writer import wrap_call

# The one statement of each fd-ownership rule, for every doc comment and page.
FD_OWNERSHIP_SEND = ("Fds passed here belong to libxcb from this call on: each is closed "
                     "once sent, even when sending fails. Pass a dup() to keep using one.")
FD_OWNERSHIP_REPLY = ("The fds belong to the caller, who must close them; freeing the reply "
                      "does not. They are close-on-exec.")


@dataclass(frozen=True)
class Param:
    c_type: str
    name: str
    doc: str


@dataclass(frozen=True)
class Function:
    ret: str
    name: str
    params: Tuple[Param, ...]

    def prototype(self):
        args = [f"{p.c_type} {p.name}".replace("* ", "*") for p in self.params]
        return f"{self.ret}\n{wrap_call(self.name, args or ['void'])}"


CONN = Param("xcb_connection_t *", "c", "The connection.")


def elem_ctype(lst):
    return lst.type.c_name


def is_struct_list(lst):
    return isinstance(lst.type, (m.Struct, m.EventStruct))


def request_params(req, aux=False):
    """The parameters of xcb_<ext>_<request>(), in XML order; with `aux`, of
    xcb_<ext>_<request>_aux(), which takes a switch unserialized."""
    out = [CONN]
    for item in req.layout.order:
        if isinstance(item, m.Switch):
            ctype = f"const {item.c_name} *" if aux else "const void *"
            out.append(Param(ctype, item.name, item.doc))
        elif isinstance(item, m.TailField):
            # libxcb takes a variable-sized struct without const.
            ctype = item.type.c_name if is_fixed(item.type) else f"{item.type.c_name} *"
            out.append(Param(ctype, item.name, item.doc))
        elif isinstance(item, m.Member):
            if item.pad:
                continue
            ctype = f"const {item.type.c_name} *" if item.array else item.type.c_name
            out.append(Param(ctype, item.name, item.doc))
        elif isinstance(item, m.ListField):
            if item.length_param:
                out.append(Param("uint32_t", item.length_param,
                                 f"The number of elements in {item.name}."))
            out.append(Param(f"const {elem_ctype(item)} *", item.name, item.doc))
        elif isinstance(item, m.FdField):
            out.append(Param("int32_t", item.name, f"{item.doc} {FD_OWNERSHIP_SEND}".strip()))
        elif isinstance(item, m.FdList):
            out.append(Param("const int32_t *", item.name,
                             f"{item.doc} {FD_OWNERSHIP_SEND}".strip()))
    return tuple(out)


def request_variants(req):
    """(function name, XCB flags) for both variants: the checked one first.

    A request whose reply carries fds goes out checked from both functions.
    libxcb attaches fds to a reply only while the request is pending; an
    unchecked request's error (sent to the event queue) retires it, so a
    reply that a server sends after that error arrives without its fds while
    its byte 1 still counts them, and nothing in libxcb's API tells the two
    cases apart. Checked, the error is what the reply function returns and
    the fd-less reply behind it is never handed out."""
    if req.reply and req.reply.layout.fds:
        flags = "XCB_REQUEST_CHECKED | XCB_REQUEST_REPLY_FDS"
        return ((req.c_base, flags), (req.c_base + "_unchecked", flags))
    if req.reply:
        return ((req.c_base, "XCB_REQUEST_CHECKED"), (req.c_base + "_unchecked", "0"))
    return ((req.c_base + "_checked", "XCB_REQUEST_CHECKED"), (req.c_base, "0"))


def request_functions(req):
    params = request_params(req)
    return tuple(Function(req.cookie, name, params) for name, _ in request_variants(req))


def has_switch(layout):
    return any(isinstance(t, m.Switch) for t in layout.tail)


def aux_functions(req):
    """xcb_<request>_aux() and its other variant, for a request with a switch:
    they take the switch as its C struct and serialize it."""
    if not has_switch(req.layout):
        return ()
    params = request_params(req, aux=True)
    out = []
    for name, _ in request_variants(req):
        if name.endswith("_checked"):
            name = name[:-len("_checked")] + "_aux_checked"
        elif name.endswith("_unchecked"):
            name = name[:-len("_unchecked")] + "_aux_unchecked"
        else:
            name += "_aux"
        out.append(Function(req.cookie, name, params))
    return tuple(out)


def accessor(base, name):
    """An accessor's name: the field's name in XCB's words ("validValues" ->
    <base>_valid_values), though struct members keep the XML's spelling."""
    return f"{base}_{lower(name)}"


def is_fixed(typ):
    return not isinstance(typ, m.Struct) or typ.fixed


def switch_params(sw):
    return tuple(Param(t.c_name, n, "") for n, t in sw.params)


def switch_functions(sw):
    """_serialize, _unpack and _sizeof of a switch, libxcb's signatures."""
    params = switch_params(sw)
    return (Function("int", sw.base + "_serialize",
                     (Param("void **", "_buffer", ""),) + params
                     + (Param(f"const {sw.c_name} *", "_aux", ""),)),
            Function("int", sw.base + "_unpack",
                     (Param("const void *", "_buffer", ""),) + params
                     + (Param(f"{sw.c_name} *", "_aux", ""),)),
            Function("int", sw.base + "_sizeof", (Param("const void *", "_buffer", ""),) + params))


def all_switches(layout):
    """Every switch of a layout, nested ones before the switch holding them."""
    out = []
    for t in layout.tail:
        if isinstance(t, m.Switch):
            for case in t.cases:
                out += all_switches(case.layout)
            out.append(t)
    return out


def switch_chains(layout):
    """Every switch of a layout, in all_switches()' order, as the chain of
    switches that leads to it: ((switch, path), ...) from the outermost one
    to it, `path` being where that switch's struct is inside the
    outermost's ("" for the outermost itself, "types.map." for xkb
    GetKbdByName's map, in the case types of replies)."""
    def walk(chain):
        sw, path = chain[-1]
        out = []
        for case in sw.cases:
            for t in case.layout.tail:
                if isinstance(t, m.Switch):
                    inner = f"{path}{case.name + '.' if case.name else ''}{t.name}."
                    out += walk(chain + ((t, inner),))
        return out + [chain]

    return [c for t in layout.tail if isinstance(t, m.Switch) for c in walk(((t, ""),))]


def struct_sizeof(typ):
    """xcb_<struct>_sizeof() of a variable-sized struct."""
    params = tuple(Param(t.c_name, n, "") for n, t in typ.layout.params)
    return Function("int", typ.c_name[:-2] + "_sizeof",
                    (Param("const void *", "_buffer", "The struct."),) + params)


def copy_sizeof_function(event, original):
    """An <eventcopy>'s _sizeof, as libxcb has one for each copy of an event
    that has one: the original's, under the copy's name."""
    sz = sizeof_function(original.c_base, original.layout)
    return Function(sz.ret, event.c_base + "_sizeof", sz.params) if sz else None


def reply_sizeof_function(req):
    """A reply's _sizeof has the request's name: libxcb gives only the
    request's when both would have one."""
    if sizeof_function(req.c_base, req.layout):
        return None
    return sizeof_function(req.c_base, req.reply.layout)


def reply_function(req):
    cookie = Param(req.cookie, "cookie", f"The cookie that {req.c_base}() returned.")
    err = Param("xcb_generic_error_t **", "e",
                "Where to store an error, or NULL. The caller frees *e.")
    return Function(req.reply.c_name + " *", req.c_base + "_reply", (CONN, cookie, err))


def reply_fds_function(req):
    reply = Param(req.reply.c_name + " *", "reply", "The reply.")
    return Function("int *", req.c_base + "_reply_fds", (CONN, reply))


def sizeof_function(base, layout):
    """xcb_<x>_sizeof(): present when the layout has a list on the wire.

    A list whose length comes from the packet length needs that length as a
    parameter; an fd list gets a parameter too, unused (fds are not bytes on
    the wire), because libxcb's signature has it.
    """
    if not layout.tail:
        return None
    params = [Param("const void *", "_buffer", "The packet.")]
    for lst in layout.lists:
        if lst.length_param:
            params.append(Param("uint32_t", lst.length_param,
                                f"The number of elements in {lst.name}."))
    for fd in layout.fds:
        if isinstance(fd, m.FdList):
            params.append(Param("int32_t", fd.name, "Unused: fds are not part of the bytes."))
    params += [Param(t.c_name, n, "") for n, t in layout.params]
    return Function("int", base + "_sizeof", tuple(params))


@dataclass(frozen=True)
class ListApi:
    """The accessors of one tail item: for a list, pointer (None for a list
    of variable-sized structs), length, and _end or _iterator; for a field or
    a switch, the pointer alone."""
    item: object          # ListField, FdList, TailField or Switch
    owner: str            # the C struct the accessors take
    name: str             # <base>_<item>: what the accessors' names start with
    pointer: object       # Function or None
    length: object        # Function or None
    end: object           # _end or _iterator; None
    case: object = None   # the switch Case a list is in, for switch_list_apis
    path: str = ""        # where that switch is in the outermost one's struct


def list_apis(base, owner, layout, reply=False):
    """Accessors of the tail; of a reply's fd lists too (fds a request sends
    are not in its bytes, so a request has nothing to access)."""
    out = []
    fd_lists = [f for f in layout.fds if isinstance(f, m.FdList)] if reply else []
    for item in list(layout.tail) + fd_lists:
        if isinstance(item, m.TailPad):
            continue
        name = accessor(base, item.name)
        # What only finds the item takes the params where it starts depends
        # on; what counts it, those where it ends does too (libxcb's
        # xcb_input_device_time_coord_axisvalues() has no num_axes, its
        # _length() and _end() have).
        packet = Param(f"const {owner} *", "R", "The packet.")
        at = (packet,) + tuple(Param(t.c_name, n, "") for n, t in layout.params_before(item.name))
        arg = (packet,) + tuple(Param(t.c_name, n, "")
                                for n, t in layout.params_through(item.name))
        if isinstance(item, m.Switch):
            out.append(ListApi(item, owner, name, Function("void *", name, at), None, None))
            continue
        if isinstance(item, m.TailField):
            out.append(ListApi(item, owner, name, Function(item.type.c_name + " *", name, at),
                               None, None))
            continue
        ctype = "int32_t" if isinstance(item, m.FdList) else elem_ctype(item)
        pointer = Function(ctype + " *", name, at)
        if isinstance(item, m.ListField) and is_struct_list(item):
            end = Function(item.type.iterator, name + "_iterator", arg)
            if not is_fixed(item.type):
                pointer = None
        else:
            end = Function("xcb_generic_iterator_t", name + "_end", arg)
        out.append(ListApi(item, owner, name, pointer, Function("int", name + "_length", arg),
                           end))
    return out


def switch_list_apis(chain, owner):
    """Accessors of the lists in the cases of a switch (the last of a chain
    from switch_chains()): they take the packet and the outermost switch
    as _unpack() left it, as libxcb's do, whatever switch the list is in."""
    out = []
    sw, path = chain[-1]
    args = (Param(f"const {owner} *", "R", "The packet."),
            Param(f"const {chain[0][0].c_name} *", "S", "The switch, unpacked."))
    # As libxcb's: what only reads the unpacked switch takes it alone.
    only_s = args[1:]
    for case in sw.cases:
        base = accessor(sw.base, case.name) if case.name else sw.base
        for item in case.layout.tail:
            if isinstance(item, m.Switch) or (isinstance(item, m.TailField)
                                              and not is_fixed(item.type)):
                # Where an inner switch or a variable-sized field is.
                ret = item.type.c_name + " *" if isinstance(item, m.TailField) \
                    else item.c_name + " *"
                out.append(ListApi(item, owner, accessor(base, item.name),
                                   Function(ret, accessor(base, item.name), only_s), None, None,
                                   case=case, path=path))
                continue
            if not isinstance(item, m.ListField) or (isinstance(item.length, m.Value)
                                                     and is_fixed(item.type)):
                continue      # a constant-length list is an array in the struct
            name = accessor(base, item.name)
            pointer = Function(elem_ctype(item) + " *", name, only_s)
            if is_struct_list(item):
                end = Function(item.type.iterator, name + "_iterator", args)
                if not is_fixed(item.type):
                    pointer = None
            else:
                end = Function("xcb_generic_iterator_t", name + "_end", args)
            out.append(ListApi(item, owner, name, pointer,
                               Function("int", name + "_length", args), end, case=case,
                               path=path))
    return out


def iterator_functions(typ):
    base = typ.c_name[:-2]
    return (Function("void", base + "_next", (Param(typ.iterator + " *", "i", "The iterator."),)),
            Function("xcb_generic_iterator_t", base + "_end",
                     (Param(typ.iterator, "i", "The iterator."),)))


def has_iterator(typ):
    return isinstance(typ, (m.XidType, m.Typedef, m.Struct, m.EventStruct)) \
        and bool(typ.iterator)
