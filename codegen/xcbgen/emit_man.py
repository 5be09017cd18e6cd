"""Model -> man pages: one per request (with its reply) and one per event.

Pages are pure functions of the model and carry no date, so that two builds
of the same XML give the same bytes. The prototypes come from capi, like the
header's, so a page never disagrees with the code it documents.
"""

from . import model as m
from .capi import (FD_OWNERSHIP_REPLY, FD_OWNERSHIP_SEND, list_apis, reply_fds_function,
                   reply_sizeof_function,
                   reply_function, request_functions, request_params, sizeof_function)
from .naming import lower
from .writer import Writer

PACKAGE = "xcb-dri3-present"
WRAP = 78


# ---------------------------------------------------------------- roff text

def esc(text):
    """Text safe inside a roff line: backslashes printed, not interpreted."""
    return text.replace("\\", "\\e")


def _guard(line):
    """A text line must not start with a control character ('.' or ''')."""
    return "\\&" + line if line[:1] in (".", "'") else line


def _fill(w, text):
    """Running text: paragraphs (blank-line separated in the model) as .PP blocks."""
    first = True
    for para in text.split("\n\n"):
        words = esc(para).split()
        if not words:
            continue
        if not first:
            w.line(".PP")
        first = False
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > WRAP:
                w.line(_guard(line))
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            w.line(_guard(line))


def _bold(s):
    return f"\\fB{esc(s)}\\fP"


def _ital(s):
    return f"\\fI{esc(s)}\\fP"


def _ref(name, section=3):
    """A cross reference, for SEE ALSO: `.BR name (3)`."""
    return f".BR {esc(name).replace('-', chr(92) + '-')} ({section})"


def _decl(ctype, name, styled):
    """`type name` with a pointer's `*` beside the name."""
    if ctype.endswith("*"):
        base = ctype.rstrip(" *")
        stars = ctype[len(base):].replace(" ", "")
        return f"{esc(base)} {stars}{styled}"
    return f"{esc(ctype)} {styled}"


def _accessors(w, title, sizeof_fn, apis):
    """A subsection with _sizeof and each list's pointer, length and end accessors."""
    fns = ([sizeof_fn] if sizeof_fn else []) + [f for a in apis
                                                for f in (a.pointer, a.length, a.end)
                                                if f is not None]
    if fns:
        w.line(f".SS {title}")
        for fn in fns:
            _prototype(w, fn)


def _description(w, doc):
    w.line(".SH DESCRIPTION")
    _fill(w, doc.brief.rstrip(".") + "." if doc.brief else "")
    if doc.description:
        w.line(".PP")
        _fill(w, doc.description)


def _prototype(w, fn):
    """A prototype as a no-fill block: parameters one per line, under the '('.

    Each block opens with .PP and its own .nf: man's .PP and .SS switch
    filling back on, so one .nf around the whole SYNOPSIS would not hold.
    """
    w.line(".PP")
    w.line(".nf")
    w.line(esc(fn.ret))
    params = [_decl(p.c_type, p.name, _ital(p.name)) for p in fn.params] or ["void"]
    # The parameters line up under the '(' as printed, font escapes aside.
    w.aligned(f"{_bold(fn.name)}(", len(fn.name) + 1, params, ",", ");")
    w.line(".fi")


def _struct(w, c_name, layout):
    rows = []
    for mem in layout.members:
        name = mem.name + (f"[{mem.count}]" if mem.array else "")
        rows.append((mem.type.c_name, name + ";"))
    width = max(len(t) for t, _ in rows)
    w.line(".PP")
    w.line(".nf")
    w.line(f"typedef struct {esc(c_name)} {{")
    with w.indented():
        for ctype, name in rows:
            w.line(f"{esc(ctype.ljust(width))} {esc(name)}")
    w.line(f"}} {esc(c_name)};")
    w.line(".fi")


def _item(w, tag, text):
    """A tagged paragraph: the tag on its own line, the text indented."""
    w.line(f".TP")
    w.line(tag)
    _fill(w, text or "(undocumented)")


def _header(w, title, section_name, name, brief):
    w.line(f'.TH {esc(title)} 3 "" "{PACKAGE}" "{section_name}"')
    w.line(".ad l")
    w.line(".nh")
    w.line(".SH NAME")
    w.line(_guard(f"{esc(name)} \\- {esc(brief or name)}"))


def _page_top(mod, name, section_name, brief, synopsis):
    """A new page up to its synopsis: the include, then the lines of `synopsis`."""
    w = Writer()
    _header(w, name, section_name, name, brief)
    w.line(".SH SYNOPSIS")
    w.line(".nf")
    w.line(f".B #include <xcb/{esc(mod.header)}.h>")
    for line in synopsis:
        w.line(line)
    w.line(".fi")
    return w


def _see_also(w, mod, doc, extra):
    refs = []
    for kind, name in doc.see:
        if kind == "request":
            refs.append(mod.c_prefix + lower(name))
        elif kind == "event":
            refs.append(mod.c_prefix + lower(name) + "_event_t")
        elif name:
            refs.append(name)
    for r in extra:
        if r not in refs:
            refs.append(r)
    if not refs:
        return
    w.line(".SH SEE ALSO")
    for i, r in enumerate(refs):
        line = _ref(r)
        w.line(line + ("," if i < len(refs) - 1 else ""))


def _fixed_fields(layout):
    return [mem for mem in layout.members if not mem.pad and not mem.auto]


def _variable_fields(w, base, owner, layout, reply=False):
    """Lists and fds of a reply or event: where to find them."""
    apis = {api.item.name: api for api in list_apis(base, owner, layout, reply=reply)}
    for lst in layout.lists:
        api = apis[lst.name]
        first = api.pointer or api.end
        _item(w, _ital(lst.name), f"{lst.doc} A list of {lst.type.c_name}; read it with "
                                  f"{first.name}() and {api.length.name}().".lstrip())
    for fd in layout.fds:
        if isinstance(fd, m.FdList) and fd.name in apis:
            api = apis[fd.name]
            _item(w, _ital(fd.name), f"{fd.doc} A list of fds; read it with "
                                     f"{api.pointer.name}() and {api.length.name}().")
        else:
            _item(w, _ital(fd.name), f"{fd.doc} See FILE DESCRIPTORS.")


# ---------------------------------------------------------------- requests

def _request_page(mod, r):
    w = _page_top(mod, r.c_base, "XCB Requests", r.doc.brief, [])
    w.line(".SS Request functions")
    for fn in request_functions(r):
        _prototype(w, fn)
    _accessors(w, "Request accessors", sizeof_function(r.c_base, r.layout),
               [] if r.reply else list_apis(r.c_base, r.c_struct, r.layout))
    if r.reply:
        w.line(".SS Reply datastructure")
        _struct(w, r.reply.c_name, r.reply.layout)
        w.line(".SS Reply function" + ("s" if r.reply.layout.fds else ""))
        _prototype(w, reply_function(r))
        if r.reply.layout.fds:
            _prototype(w, reply_fds_function(r))
        _accessors(w, "Reply accessors", reply_sizeof_function(r),
                   list_apis(r.c_base, r.reply.c_name, r.reply.layout, reply=True))

    _description(w, r.doc)

    w.line(".SH REQUEST ARGUMENTS")
    for p in request_params(r):
        _item(w, _ital(p.name), p.doc)

    if r.reply:
        w.line(".SH REPLY FIELDS")
        for mem in _fixed_fields(r.reply.layout):
            _item(w, _ital(mem.name), mem.doc)
        _variable_fields(w, r.c_base, r.reply.c_name, r.reply.layout, reply=True)

    w.line(".SH RETURN VALUE")
    checked, unchecked = request_functions(r)
    if r.reply:
        rf = reply_function(r)
        _fill(w, f"{checked.name}() and {unchecked.name}() return a cookie of type "
                 f"{r.cookie}; pass it to {rf.name}() to get the reply.")
        w.line(".PP")
        _fill(w, f"{rf.name}() waits for the reply and returns it, allocated with malloc(); "
                 f"the caller frees it with free(). On error it returns NULL and, when e is "
                 f"not NULL, stores the X error in *e, which the caller frees too.")
        if r.reply.layout.fds:
            fdf = reply_fds_function(r)
            _fill(w, f"A reply that does not carry the number of fds the protocol promises "
                     f"is refused the same way, its fds closed.")
            w.line(".PP")
            _fill(w, f"{fdf.name}() returns the fds that came with the reply, an array of "
                     f"reply->nfd ints inside the reply; it is valid until the reply is freed.")
    else:
        _fill(w, f"{checked.name}() and {r.c_base}() return a cookie of type "
                 f"xcb_void_cookie_t. The cookie of {checked.name}() can be passed to "
                 f"xcb_request_check() to wait for the request's outcome; the other "
                 f"cookie is of no further use.")

    w.line(".SH ERRORS")
    if r.reply and r.reply.layout.fds:
        _fill(w, f"An X error caused by {checked.name}() or {unchecked.name}() is returned "
                 f"by {r.c_base}_reply() through its e argument. Unlike libxcb, the unchecked "
                 f"variant does not send it to the event queue: libxcb attaches no fds to a "
                 f"reply that a server sends after an error for the same request, and only "
                 f"a checked request keeps such a reply from being returned.")
    elif r.reply:
        _fill(w, f"An X error caused by {checked.name}() is returned by {r.c_base}_reply() "
                 f"through its e argument; one caused by {unchecked.name}() goes to the "
                 f"event queue.")
    else:
        _fill(w, f"An X error caused by {checked.name}() is returned by "
                 f"xcb_request_check(); one caused by {r.c_base}() goes to the event queue.")
    for kind, text in r.doc.errors:
        _item(w, _bold(kind), text)

    send_fds = r.layout.fds
    reply_fds = r.reply.layout.fds if r.reply else ()
    if send_fds or reply_fds:
        w.line(".SH FILE DESCRIPTORS")
        if send_fds:
            names = ", ".join(fd.name for fd in send_fds)
            _fill(w, f"The request sends file descriptors ({names}). {FD_OWNERSHIP_SEND}")
        if reply_fds:
            if send_fds:
                w.line(".PP")
            names = ", ".join(fd.name for fd in reply_fds)
            _fill(w, f"The reply carries file descriptors ({names}), which "
                     f"{reply_fds_function(r).name}() returns. " + FD_OWNERSHIP_REPLY)

    extra = ["xcb-requests"]
    if not r.reply:
        extra.append("xcb_request_check")
    _see_also(w, mod, r.doc, extra)
    return w.text()


# ---------------------------------------------------------------- events

def _event_page(mod, e):
    w = _page_top(mod, e.c_struct, "XCB Events", e.doc.brief,
                  [".sp", f"#define {esc(e.number_macro)} {e.number}"])
    w.line(".SS Event datastructure")
    _struct(w, e.c_struct, e.layout)
    _accessors(w, "Event accessors", sizeof_function(e.c_base, e.layout),
               list_apis(e.c_base, e.c_struct, e.layout))

    _description(w, e.doc)
    w.line(".PP")
    if e.xge:
        _fill(w, f"The event is a Generic Event (XGE): its response_type is "
                 f"XCB_GE_GENERIC, its extension the major opcode of {mod.ext_xname} and "
                 f"its event_type {e.number_macro}. full_sequence holds the full sequence "
                 f"number, which libxcb stores where the wire has none.")
    else:
        _fill(w, f"Its response_type, less the extension's first event, is "
                 f"{e.number_macro}.")

    w.line(".SH EVENT FIELDS")
    for mem in _fixed_fields(e.layout):
        _item(w, _ital(mem.name), mem.doc)
    _variable_fields(w, e.c_base, e.c_struct, e.layout)

    _see_also(w, mod, e.doc, [])
    return w.text()


def emit_man_pages(mod):
    pages = {}
    for r in mod.requests:
        pages[r.c_base + ".3"] = _request_page(mod, r)
    for e in mod.events:
        pages[e.c_struct + ".3"] = _event_page(mod, e)
    return pages
