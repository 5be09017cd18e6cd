"""Pass 4, check: the finished model against the rules of the wire, of C and of the docs.

Every rule the generator enforces on a layout lives here, in the order of
CHECKS, so that what an emitter is given has passed them all, whichever
outputs are asked for. Imported modules are not checked: we emit nothing
for them.

Needs: draft.module.  Gives: nothing; the model is left as it is.
"""

import re

from . import model as m
from .capi import (all_switches, aux_functions, iterator_functions, has_iterator, list_apis,
                   reply_fds_function, reply_function, reply_sizeof_function,
                   request_functions, sizeof_function, switch_functions)
from .errors import GenError
from .expr import field_refs, sumofs
from .naming import KEYWORD_FIELDS, lower

NEEDS = ("module",)
GIVES = ()

# The generated C code keeps its own names out of the way of XML names:
# every local it declares starts with this prefix.
RESERVED_PREFIX = "xcb_"

# Parameters of generated functions that sit beside XML field names: the
# connection of every request function.
RESERVED_REQUEST_NAMES = frozenset({"c"})

_C_KEYWORDS = frozenset("""
    auto break case char const continue default do double else enum extern float for goto
    if inline int long register restrict return short signed sizeof static struct switch
    typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex
    _Generic _Imaginary _Noreturn _Static_assert _Thread_local
""".split())
# The headers are compiled as C++ too (extern "C"), where these are keywords.
_CXX_KEYWORDS = frozenset("""
    alignas alignof and and_eq asm bitand bitor bool catch char16_t char32_t class compl
    constexpr const_cast decltype delete dynamic_cast explicit export false friend mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    reinterpret_cast static_assert static_cast template this thread_local throw true try
    typeid typename using virtual wchar_t xor xor_eq
""".split())
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def run(draft):
    if not draft.full:
        return
    for check in CHECKS:
        # The docs are a rule for our own descriptions (--require-docs), not
        # for every module: xcb-proto's have few.
        if check is docs:
            if draft.loader.require_docs:
                check(draft.module)
        elif check is field_names:
            check(draft.module, draft.loader.strict_names)
        else:
            check(draft.module)


# ---------------------------------------------------------------- numbering

def numbers_unique(mod):
    seen = {}
    for r in mod.requests:
        if r.opcode in seen:
            raise GenError(r.loc, f"opcode {r.opcode} is used twice")
        seen[r.opcode] = r
    seen = {}
    for e in mod.events:
        if (e.number, e.xge) in seen:
            raise GenError(e.loc, f"event number {e.number} is used twice")
        seen[(e.number, e.xge)] = e


# ---------------------------------------------------------------- layouts

def request_layouts(mod):
    for r in mod.requests:
        lay = r.layout
        # A fixed part that C pads at its end is fine: the request is
        # padded to 4 bytes there anyway.
        if lay.packed or not lay.wire_size <= lay.mem_size <= -(-lay.wire_size // 4) * 4:
            raise GenError(r.loc, f"the request '{r.name}' cannot be laid out as a plain "
                                  f"C struct; reorder or pad its fields")
        single = [f for f in lay.fds if isinstance(f, m.FdField)]
        lists = [f for f in lay.fds if isinstance(f, m.FdList)]
        # libxcb takes one array of fds per request: a list, or the single ones.
        if single and lists or len(lists) > 1:
            raise GenError(r.loc, "a request may carry single fds or one fd list, not both")


def reply_fd_counts(mod):
    """A reply with fds states their count in byte 1 (libxcb reads it there)."""
    for r in mod.requests:
        if r.reply and r.reply.layout.fds and r.reply.fd_count is None:
            raise GenError(r.reply.loc, "a reply that carries fds must have its fd count "
                                        "(a CARD8, usually 'nfd') at byte 1")


def _layouts(mod):
    for t in mod.types:
        if isinstance(t, m.Struct):
            yield f"the {'union' if t.union else 'struct'} {t.name}", t.layout, False
    for r in mod.requests:
        yield f"the request {r.name}", r.layout, True
        if r.reply:
            yield f"the reply to {r.name}", r.reply.layout, False
    for e in mod.events:
        yield f"the event {e.name}", e.layout, False


def list_lengths(mod):
    """Every length refers to a field or list that precedes it."""
    for _, lay, _ in _layouts(mod):
        known = {mem.name for mem in lay.members if not mem.pad}
        known |= {n for n, _ in lay.params}
        items = list(lay.tail) + [f for f in lay.fds if isinstance(f, m.FdList)]
        for item in items:
            for ref in field_refs(item.length) if isinstance(item, (m.ListField, m.FdList)) \
                    and item.length is not None else []:
                if ref not in known:
                    raise GenError(item.loc, f"the length of '{item.name}' refers to "
                                             f"'{ref}', which is not a field before it")
            if isinstance(item, (m.TailField, m.ListField)):
                known.add(item.name)


def sumof_lists(mod):
    """A <sumof> sums a list that precedes it (in its packet, or in the
    switch cases around it)."""
    def walk(tail, lists):
        lists = set(lists)
        for item in tail:
            if isinstance(item, m.ListField) and item.length is not None:
                for s in sumofs(item.length):
                    if s.list not in lists:
                        raise GenError(item.loc, f"the length of '{item.name}' sums "
                                                 f"'{s.list}', which is not a list before it")
            if isinstance(item, m.ListField):
                lists.add(item.name)
            elif isinstance(item, m.Switch):
                for case in item.cases:
                    walk(case.layout.tail, lists)

    for _, lay, _ in _layouts(mod):
        walk(lay.tail, ())


def list_alignment(mod):
    """A list must start where its elements are aligned, whatever the lengths before it.

    Only as far as lists of fixed-size elements go: after a variable-sized
    element, a switch or a field, where the next list starts is not known
    here, and accessors read such a list as libxcb's do, unaligned or not."""
    for _, lay, _ in _layouts(mod):
        for t in lay.tail:
            if not isinstance(t, m.ListField) or not getattr(t.type, "fixed", True):
                break
            lst = t
            need = min(lst.type.align, 8)
            if lst.start_align < need:
                raise GenError(lst.loc, f"the list '{lst.name}' may start at an offset "
                                        f"aligned to only {lst.start_align} bytes, but its "
                                        f"elements need {need}")


def fixed_parts(mod):
    """What C cannot declare: a void member, a struct with no members."""
    for what, lay, _ in _layouts(mod):
        for mem in lay.members:
            if isinstance(mem.type, m.Primitive) and mem.type.c_name == "void":
                raise GenError(mem.loc, f"'{mem.name}' in {what} cannot be void in the fixed "
                                        f"part; only a variable-length list can")
    for t in mod.types:
        if isinstance(t, m.Struct) and not t.layout.members:
            raise GenError(t.loc, f"the struct '{t.name}' has no fields")


# ---------------------------------------------------------------- names

def field_names(mod, strict):
    """XML names that become C identifiers must be usable ones, and distinct.
    C++ keywords only with `strict` (--strict-names): libxcb's headers have
    them (xkb's 'explicit'), and programs compiled as C++ avoid those fields."""
    for what, lay, is_request in _layouts(mod):
        taken = {}
        for name, loc, generated in _packet_names(lay):
            if not generated:
                _identifier(name, loc, is_request, strict)
            if name in taken:
                by = " by a generated one" if taken[name] else ""
                raise GenError(loc, f"the name '{name}' in {what} is already taken{by}")
            taken[name] = generated


def _packet_names(lay):
    for mem in lay.members:
        yield mem.name, mem.loc, mem.auto or mem.pad
    for lst in lay.lists:
        yield lst.name, lst.loc, False
        if lst.length_param:
            yield lst.length_param, lst.loc, True
    for fd in lay.fds:
        yield fd.name, fd.loc, False


def _identifier(name, loc, is_request, strict):
    renamed = {c: xml for xml, c in KEYWORD_FIELDS.items()}
    if name in renamed:
        # A keyword XML name, renamed as libxcb does; our own XML avoids them.
        if strict:
            raise GenError(loc, f"'{renamed[name]}' is a C or C++ keyword")
        return
    if not _IDENTIFIER.match(name):
        raise GenError(loc, f"'{name}' is not a C identifier")
    if name in _C_KEYWORDS or (strict and name in _CXX_KEYWORDS):
        raise GenError(loc, f"'{name}' is a C or C++ keyword")
    if name.startswith(RESERVED_PREFIX):
        raise GenError(loc, f"'{name}' starts with '{RESERVED_PREFIX}', which the generated "
                            f"code keeps for its own names")
    if is_request and name in RESERVED_REQUEST_NAMES:
        raise GenError(loc, f"'{name}' is the name of a parameter every request function "
                            f"has")


def global_names(mod):
    """No two things the module declares get the same C name."""
    seen = {}

    def claim(name, loc, what):
        if name in seen:
            other_loc, other = seen[name]
            raise GenError(loc, f"the C name '{name}' of {what} is also that of {other} "
                                f"({other_loc})")
        seen[name] = (loc, what)

    for t in mod.types:
        what = f"the {'enum' if isinstance(t, m.Enum) else 'type'} {t.name}"
        claim(t.c_name, t.loc, what)
        if isinstance(t, m.Enum):
            for item in t.items:
                claim(item.c_name, t.loc, f"{what}'s item {item.name}")
        elif has_iterator(t):
            claim(t.iterator, t.loc, f"{what}'s iterator")
            for fn in iterator_functions(t):
                claim(fn.name, t.loc, f"{what}'s iterator")
    for r in mod.requests:
        what = f"the request {r.name}"
        names = [r.opcode_macro, r.c_struct, "send_" + lower(r.name)]
        names += [fn.name for fn in request_functions(r) + aux_functions(r)]
        names += _list_names(r.c_base, r.c_struct, r.layout, accessors=r.reply is None)
        if r.reply:
            names += [r.cookie, r.reply.c_name, reply_function(r).name,
                      lower(r.name) + "_reply_is_whole"]
            names += _list_names(r.c_base, r.reply.c_name, r.reply.layout, reply=True,
                                 sizeof=reply_sizeof_function(r) is not None)
            if r.reply.layout.fds:
                names.append(reply_fds_function(r).name)
        for name in names:
            claim(name, r.loc, what)
    for e in mod.events:
        for name in [e.number_macro, e.c_struct] + _list_names(e.c_base, e.c_struct,
                                                               e.layout):
            claim(name, e.loc, f"the event {e.name}")


def _list_names(base, owner, layout, reply=False, sizeof=True, accessors=True):
    out = []
    sz = sizeof_function(base, layout) if sizeof else None
    if sz:
        out.append(sz.name)
    for api in list_apis(base, owner, layout, reply=reply) if accessors else []:
        out += [api.name, api.name + "_offset", api.name + "_count"]
        out += [fn.name for fn in (api.length, api.end) if fn is not None]
    for sw in all_switches(layout):
        out += [sw.c_name] + [fn.name for fn in switch_functions(sw)]
    return out


# ---------------------------------------------------------------- docs

def docs(mod):
    """Every request, request parameter and event has its <doc> text."""
    for r in mod.requests:
        _need_doc(r.doc.brief, r.loc, f"the request {r.name}")
        for item in r.layout.order:
            if not (isinstance(item, m.Member) and item.pad):
                _need_doc(item.doc, item.loc, f"the parameter '{item.name}' of {r.name}")
    for e in mod.events:
        _need_doc(e.doc.brief, e.loc, f"the event {e.name}")


def _need_doc(text, loc, what):
    if not text.strip():
        raise GenError(loc, f"{what} has no <doc> text; every documented item needs one")


# In this order: layouts that cannot be sent first, then names, then docs.
CHECKS = (numbers_unique, fixed_parts, request_layouts, reply_fd_counts, list_lengths,
          sumof_lists, list_alignment, field_names, global_names, docs)
