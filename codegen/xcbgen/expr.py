"""Length expressions: XML -> model expressions, and what they refer to."""

from . import model as m
from .errors import GenError
from .xmlparse import parse_int

# The elements that may appear in an expression (xcb.xsd's expression group).
EXPR_TAGS = frozenset({"fieldref", "value", "op", "unop", "popcount", "sumof", "enumref",
                       "paramref", "listelement-ref", "bit"})
_BINARY = ("+", "-", "*", "/", "&", "<<")


def parse_expr(node, lookup=None, element=False):
    """XML -> expression. `lookup(name, loc)` gives the Type of a <paramref>'s
    type and the Enum of an <enumref>'s ref; without it, those are errors.
    `element`: inside a <sumof>, where <listelement-ref/> may stand."""
    tag = node.tag
    if tag == "fieldref":
        name = node.text.strip()
        if not name:
            raise GenError(node.loc, "<fieldref> is empty")
        return m.FieldRef(name)
    if tag == "value":
        return m.Value(parse_int(node.text, node.loc, "<value>"))
    if tag == "bit":
        bit = parse_int(node.text, node.loc, "<bit>")
        if not 0 <= bit < 32:
            raise GenError(node.loc, f"bit {bit} is out of range 0..31")
        return m.Value(1 << bit)
    if tag == "listelement-ref":
        if not element:
            raise GenError(node.loc, "<listelement-ref/> stands only in a <sumof>'s expression")
        return m.ElementRef()
    if tag in ("enumref", "paramref") and lookup is None:
        raise GenError(node.loc, f"<{tag}> cannot stand here")
    if tag == "enumref":
        return m.Value(_enum_value(lookup(node.require("ref"), node.loc, True), node))
    if tag == "paramref":
        name = node.text.strip()
        if not name:
            raise GenError(node.loc, "<paramref> is empty")
        return m.ParamRef(name, lookup(node.require("type"), node.loc, False))
    kids = [c for c in node.children if c.tag in EXPR_TAGS]
    if tag == "op":
        op = node.require("op")
        if op not in _BINARY or len(kids) != 2:
            raise GenError(node.loc, f"<op op='{op}'> needs a known operator and two operands")
        return m.BinOp(op, parse_expr(kids[0], lookup, element),
                       parse_expr(kids[1], lookup, element))
    if tag == "unop":
        if node.require("op") != "~" or len(kids) != 1:
            raise GenError(node.loc, "<unop> supports only '~' with one operand")
        return m.UnOp("~", parse_expr(kids[0], lookup, element))
    if tag == "popcount":
        if len(kids) != 1:
            raise GenError(node.loc, "<popcount> takes one operand")
        return m.Popcount(parse_expr(kids[0], lookup, element))
    if tag == "sumof":
        if len(kids) > 1:
            raise GenError(node.loc, "<sumof> takes at most one expression")
        return m.SumOf(node.require("ref"),
                       parse_expr(kids[0], lookup, element=True) if kids else None)
    raise GenError(node.loc, f"the expression <{tag}> is not supported by this generator")


def _enum_value(enum, node):
    name = node.text.strip()
    item = next((i for i in enum.items if i.name == name), None)
    if item is None:
        raise GenError(node.loc, f"the enum '{enum.name}' has no item '{name}'")
    return item.value


def field_refs(expr):
    """The field names an expression reads (not those inside a sumof's element
    expression, which are the element's)."""
    if isinstance(expr, m.FieldRef):
        return [expr.name]
    if isinstance(expr, m.BinOp):
        return field_refs(expr.lhs) + field_refs(expr.rhs)
    if isinstance(expr, (m.UnOp, m.Popcount)):
        return field_refs(expr.operand)
    if isinstance(expr, m.SumOf):
        return [expr.list]
    return []


def sumofs(expr):
    """The <sumof>s of an expression, outermost first."""
    if isinstance(expr, m.SumOf):
        return [expr] + (sumofs(expr.expr) if expr.expr is not None else [])
    if isinstance(expr, m.BinOp):
        return sumofs(expr.lhs) + sumofs(expr.rhs)
    if isinstance(expr, (m.UnOp, m.Popcount)):
        return sumofs(expr.operand)
    return []


def param_refs(expr):
    """The <paramref>s of an expression, as ParamRefs."""
    if isinstance(expr, m.ParamRef):
        return [expr]
    if isinstance(expr, m.BinOp):
        return param_refs(expr.lhs) + param_refs(expr.rhs)
    if isinstance(expr, (m.UnOp, m.Popcount)):
        return param_refs(expr.operand)
    if isinstance(expr, m.SumOf) and expr.expr is not None:
        return param_refs(expr.expr)
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
