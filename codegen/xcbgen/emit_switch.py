"""Model -> C for <switch>: its C struct and libxcb's functions on it.

A switch's bytes are the fields of the cases its value selects, one after
another. Its C struct holds every case's fields (a named case's in a nested
struct), lists and variable-sized fields as pointers into the bytes:

    _unpack     bytes -> struct, returns the number of bytes read
    _sizeof     the number of bytes, by unpacking into a scratch struct
    _serialize  struct -> bytes (allocated when *_buffer is NULL), returns
                their number

The fields outside the switch that it reads are parameters of all three.
"""

from . import model as m
from .capi import is_fixed, switch_functions
from .cexpr import c_expr, list_bytes


def is_array(t):
    """A list of constant length of fixed-size elements: an array in the struct."""
    return isinstance(t, m.ListField) and isinstance(t.length, m.Value) and is_fixed(t.type)


def case_members(case):
    """(C type, name) of what a case holds in the switch's C struct. A pad
    of some bytes is a member too, as in libxcb's structs (uint8_t padN, or
    padN[bytes]), and a pad up to an alignment that the XML marks
    serialize="true" a pointer (uint8_t *padN); other alignment pads are
    none. Pads are numbered on from the packet holding the switch."""
    out = []
    for t in case.layout.tail:
        if isinstance(t, m.TailPad):
            if t.align <= 1 and t.bytes > 0:
                out.append(("uint8_t", t.name + (f"[{t.bytes}]" if t.bytes > 1 else "")))
            elif t.serialize:
                out.append(("uint8_t *", t.name))
        elif is_array(t):
            out.append((t.type.c_name, f"{t.name}[{t.length.value}]"))
        elif isinstance(t, m.TailField):
            ctype = t.type.c_name if is_fixed(t.type) else f"{t.type.c_name} *"
            out.append((ctype, t.name))
        elif isinstance(t, m.ListField):
            out.append((f"{t.type.c_name} *", t.name))
        elif isinstance(t, m.Switch):
            out.append((t.c_name, t.name))
    return out


def _where(case, name):
    """How the switch's code reaches a case's field in the struct."""
    return f"{case.name}.{name}" if case.name else name


class _Refs:
    """Names in a switch's expressions: its own fields through the struct
    pointer `agg`, those outside it by the parameters of the same names."""

    def __init__(self, sw, agg):
        self.own = {}
        for case in sw.cases:
            for t in case.layout.tail:
                if isinstance(t, (m.TailField, m.ListField, m.Switch)):
                    self.own.setdefault(t.name, (case, t))
        self.agg = agg

    def field(self, name):
        if name in self.own:
            case, t = self.own[name]
            return f"{self.agg}->{_where(case, name)}"
        return name

    def list(self, name):
        case, t = self.own[name]
        return f"{self.agg}->{_where(case, name)}", c_expr(t.length, self), t.type


def _condition(sw, case, refs):
    value = c_expr(sw.expr, refs)
    values = [c_expr(v, refs) for v in case.values]
    if case.bitcase:
        return f"({value}) & ({' | '.join(values)})"
    return " || ".join(f"({value}) == {v}" for v in values)


def emit_switch_struct(w, sw):
    """typedef struct <switch>_t: nested switches' structs come first."""
    for case in sw.cases:
        for t in case.layout.tail:
            if isinstance(t, m.Switch):
                emit_switch_struct(w, t)
    w.line(f"/** The fields of {sw.name}, as _unpack() gives them and _serialize() takes them. */")
    with w.block(f"typedef struct {sw.c_name}", f"}} {sw.c_name};"):
        empty = True
        for case in sw.cases:
            members = case_members(case)
            empty = empty and not members
            if case.name and members:
                with w.block("struct", f"}} {case.name};"):
                    w.columns([(ctype, name + ";") for ctype, name in members])
            elif members:
                w.columns([(ctype, name + ";") for ctype, name in members])
        if empty:
            w.line("uint8_t pad0;   /* C has no empty structs */")
    w.blank()


def emit_switch_functions(w, sw, function):
    """_unpack, _sizeof and _serialize of `sw` and of the switches it holds."""
    for case in sw.cases:
        for t in case.layout.tail:
            if isinstance(t, m.Switch):
                emit_switch_functions(w, t, function)
    serialize, unpack, sizeof = switch_functions(sw)
    args = "".join(f", {n}" for n, _ in sw.params)
    _walk(w, sw, function, unpack, writing=False)
    function(sizeof)
    with w.block(""):
        w.line(f"{sw.c_name} xcb_aux;")
        w.blank()
        w.line(f"return {sw.base}_unpack(_buffer{args}, &xcb_aux);")
    w.blank()
    w.line("static int")
    w.line(f"{sw.base}_put(char *xcb_out" + "".join(f", {t.c_name} {n}" for n, t in sw.params)
           + f", const {sw.c_name} *_aux)")
    _walk_body(w, sw, writing=True)
    function(serialize)
    with w.block(""):
        w.line(f"int xcb_size = {sw.base}_put(NULL{args}, _aux);")
        w.blank()
        w.line("if (*_buffer == NULL)")
        with w.indented():
            w.line("*_buffer = malloc(xcb_size > 0 ? (size_t) xcb_size : 1);")
        w.line("if (*_buffer == NULL)")
        with w.indented():
            w.line("return -1;")
        w.line(f"return {sw.base}_put(*_buffer{args}, _aux);")
    w.blank()


def _walk(w, sw, function, fn, writing):
    function(fn)
    _walk_body(w, sw, writing)


def _walk_body(w, sw, writing):
    """The body of _put (writing) or _unpack: one pass over the selected cases."""
    refs = _Refs(sw, "_aux")
    with w.block(""):
        if writing:
            w.line("size_t xcb_at = 0;")
        else:
            w.line("const char *xcb_in = _buffer;")
            w.line("size_t xcb_at = 0;")
            w.blank()
            w.line("memset(_aux, 0, sizeof(*_aux));")
        for n, _ in sw.params:
            w.line(f"(void) {n};")
        w.blank()
        for case in sw.cases:
            with w.block(f"if ({_condition(sw, case, refs)})"):
                for t in case.layout.tail:
                    _walk_item(w, case, t, refs, writing)
        w.line("return (int) xcb_at;")
    w.blank()


def _walk_item(w, case, t, refs, writing):
    dst = f"_aux->{_where(case, t.name)}" if not isinstance(t, m.TailPad) else ""
    if isinstance(t, m.TailPad):
        n = f"(-xcb_at & {t.align - 1})" if t.align > 1 else str(t.bytes)
        if writing:
            w.line("if (xcb_out != NULL)")
            with w.indented():
                w.line(f"memset(xcb_out + xcb_at, 0, {n});")
        w.line(f"xcb_at += {n};")
        return
    if isinstance(t, m.Switch):
        args = "".join(f", {refs.field(n)}" for n, _ in t.params)
        if writing:
            w.line(f"xcb_at += (size_t) {t.base}_put(xcb_out != NULL ? xcb_out + xcb_at : NULL"
                   f"{args}, &{dst});")
        else:
            w.line(f"xcb_at += (size_t) {t.base}_unpack(xcb_in + xcb_at{args}, &{dst});")
        return
    if (isinstance(t, m.TailField) and is_fixed(t.type)) or is_array(t):
        size = f"sizeof({t.type.c_name})"
        if is_array(t):
            size = f"{t.length.value} * {size}"
        else:
            dst = "&" + dst
        if writing:
            w.line("if (xcb_out != NULL)")
            with w.indented():
                w.line(f"memcpy(xcb_out + xcb_at, {dst}, {size});")
        else:
            w.line(f"memcpy({dst}, xcb_in + xcb_at, {size});")
        w.line(f"xcb_at += {size};")
        return
    # A list or a variable-sized field: a pointer in the struct.
    if isinstance(t, m.TailField):
        nbytes = f"(size_t) {t.type.c_name[:-2]}_sizeof({{p}})"
    else:
        count = c_expr(t.length, refs) if t.length is not None else "0"
        nbytes = list_bytes(t, count, "{p}", refs)
    n = nbytes.replace("{p}", dst)
    if writing:
        w.line("if (xcb_out != NULL)")
        with w.indented():
            w.line(f"memcpy(xcb_out + xcb_at, {dst}, {n});")
        w.line(f"xcb_at += {n};")
    else:
        w.line(f"{dst} = ({t.type.c_name} *) (xcb_in + xcb_at);")
        w.line(f"xcb_at += {n};")
