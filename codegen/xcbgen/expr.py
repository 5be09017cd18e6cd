"""Length expressions: XML -> model expressions, and what they refer to."""

from . import model as m
from .errors import GenError
from .xmlparse import parse_int

# The elements that may appear in an expression; the generator supports
# fieldref, value, op, unop and popcount, and reports the others by name.
EXPR_TAGS = frozenset({"fieldref", "value", "op", "unop", "popcount", "sumof", "enumref",
                       "paramref", "listelement-ref", "bit"})
_BINARY = ("+", "-", "*", "/", "&", "<<")


def parse_expr(node):
    tag = node.tag
    if tag == "fieldref":
        name = node.text.strip()
        if not name:
            raise GenError(node.loc, "<fieldref> is empty")
        return m.FieldRef(name)
    if tag == "value":
        return m.Value(parse_int(node.text, node.loc, "<value>"))
    kids = [c for c in node.children if c.tag in EXPR_TAGS]
    if tag == "op":
        op = node.require("op")
        if op not in _BINARY or len(kids) != 2:
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


def plus(a, b):
    """a + b, folded when both are constants; None stands for nothing."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, m.Value) and isinstance(b, m.Value):
        return m.Value(a.value + b.value)
    return m.BinOp("+", a, b)
