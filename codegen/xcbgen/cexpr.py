"""Model expressions -> C expressions, for both the C emitters.

What a name stands for depends on where the code is (a request function's
parameter, a packet's field behind R, a switch's field behind _aux), so the
caller passes `refs`: either a function from a field name to its C text, or
an object with field(name) and, for <sumof>, list(name) -> (pointer, count,
element Type).

A <sumof> and the size of a list of variable-sized structs need a loop; they
are GNU statement expressions, which GCC and Clang accept in C11 without
-pedantic. Only modules with those constructs (xinput, xkb, and lists of
variable-sized structs) use them.
"""

from . import model as m


def _field(refs, name):
    return refs(name) if callable(refs) else refs.field(name)


def c_expr(expr, refs):
    if isinstance(expr, m.Value):
        return str(expr.value)
    if isinstance(expr, m.FieldRef):
        return _field(refs, expr.name)
    if isinstance(expr, m.ParamRef):
        return expr.name
    if isinstance(expr, m.BinOp):
        return f"({c_expr(expr.lhs, refs)} {expr.op} {c_expr(expr.rhs, refs)})"
    if isinstance(expr, m.UnOp):
        return f"(~{c_expr(expr.operand, refs)})"
    if isinstance(expr, m.Popcount):
        return f"xcb_popcount({c_expr(expr.operand, refs)})"
    if isinstance(expr, m.SumOf):
        return _sumof(expr, refs)
    raise TypeError(expr)


class _Element:
    """Names inside a <sumof>: the element's fields, the element itself."""

    def __init__(self, at):
        self.at = at

    def field(self, name):
        return self.at if name == "\0" else f"{self.at}.{name}"


def _sumof(expr, refs):
    ptr, count, _typ = refs.list(expr.list)
    elem = "xcb_sum_p[xcb_sum_i]"
    term = elem if expr.expr is None else c_expr(_on_element(expr.expr), _Element(elem))
    return (f"({{ int64_t xcb_sum = 0; __typeof__({ptr}) xcb_sum_p = {ptr}; "
            f"for (int64_t xcb_sum_i = 0; xcb_sum_i < (int64_t) ({count}); xcb_sum_i++) "
            f"xcb_sum += {term}; xcb_sum; }})")


def _on_element(expr):
    """<listelement-ref/> as a field reference the element scope resolves."""
    if isinstance(expr, m.ElementRef):
        return m.FieldRef("\0")
    if isinstance(expr, m.BinOp):
        return m.BinOp(expr.op, _on_element(expr.lhs), _on_element(expr.rhs))
    if isinstance(expr, m.UnOp):
        return m.UnOp(expr.op, _on_element(expr.operand))
    if isinstance(expr, m.Popcount):
        return m.Popcount(_on_element(expr.operand))
    return expr


def list_bytes(lst, count, ptr_fmt, refs=None):
    """C text of the number of bytes of `count` elements of `lst` at the
    pointer `ptr_fmt` ("{p}" in the result stands for it when the caller
    places it later)."""
    typ = lst.type
    if not isinstance(typ, m.Struct) or typ.fixed:
        return f"(size_t) ({count}) * {typ.size}"
    args = "".join(f", {_field(refs, n)}" for n, _ in typ.layout.params)
    return (f"({{ const char *xcb_lp = (const char *) ({ptr_fmt}); size_t xcb_ln = 0; "
            f"for (int64_t xcb_li = 0; xcb_li < (int64_t) ({count}); xcb_li++) "
            f"xcb_ln += (size_t) {typ.c_name[:-2]}_sizeof(xcb_lp + xcb_ln{args}); xcb_ln; }})")
