"""Roff (man(7)) pages from the model: pure functions, text in, text out."""

import re

from .check import library_prefix

DATE = "2026"
SOURCE = "xcb-dri3-present"
# The manual each library's pages belong to; another library's pages go
# to a name made from its prefix.
MANUALS = {"xcb_dri3_util": "XCB DRI3 utilities",
           "xcb_present_util": "XCB Present utilities"}
_CALL = re.compile(r"\b(\w+)\(\)")


def escape(text):
    """Text as roff prints it: backslashes and minus signs escaped,
    non-ASCII as \\[uXXXX], nothing read as a request."""
    out = text.replace("\\", "\\e").replace("-", "\\-")
    out = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in out)
    return "\n".join("\\&" + ln if ln.startswith((".", "'")) else ln
                     for ln in out.split("\n"))


def prose(text, pages):
    """A paragraph: escaped, each NAME() of a page as NAME(3) in bold."""
    def call(m):
        name = m.group(1)
        return f"\\fB{name}\\fP(3)" if name in pages else f"\\fB{name}\\fP()"
    lines = "\n".join(ln.strip() for ln in text.split("\n"))
    return _CALL.sub(call, escape(lines))


def _blocks(blocks, pages, first=True):
    out = []
    for b in blocks:
        if b.verbatim:
            out += [".PP", ".nf", escape(b.text), ".fi"]
        elif not b.items:
            if not first:
                out.append(".PP")
            out.append(prose(b.text, pages))
        for tag, text in b.items:
            out.append(".IP \\(bu 2" if tag is None else ".TP\n.B " + escape(tag))
            out.append(prose(text, pages))
        first = False
    return out


def _struct_synopsis(decl):
    lines = [decl.synopsis] + ["    " + m.code for m in decl.members] + [f"}} {decl.name};"]
    return "\n".join(lines)


def _members(decl, pages):
    documented = [m for m in decl.members if m.name and m.doc]
    if not documented:
        return []
    out = [".SS " + ("Values" if decl.kind == "enum" else "Members")]
    for m in documented:
        out += [".TP", ".B " + escape(m.name), prose(m.doc, pages)]
    return out


def page(decl, pages):
    """The page of one declaration; pages: every name that has one."""
    prefix = library_prefix(decl.path)
    manual = MANUALS.get(prefix, "XCB " + prefix[4:-5] + " utilities")
    lib = prefix.replace("_", "-")
    doc = decl.doc
    synopsis = _struct_synopsis(decl) if decl.kind in ("struct", "enum") else decl.synopsis
    out = [f'.TH {decl.name} 3 {DATE} "{SOURCE}" "{manual}"',
           ".SH NAME", f"{decl.name} \\- {escape(doc.summary)}",
           ".SH SYNOPSIS", ".nf", f".B #include <xcb/{prefix}.h>", ".PP",
           escape(synopsis), ".fi"]
    if decl.kind == "function":
        out += [".PP", f"Link with \\fI{escape('-l' + lib)}\\fP "
                f"(pkg\\-config \\fB{escape(lib)}\\fP)."]
    description = _blocks(doc.description, pages) + _members(decl, pages)
    if description:
        out += [".SH DESCRIPTION"] + description
    if doc.returns:
        out += [".SH RETURN VALUE"] + _blocks(doc.returns, pages)
    for title, blocks in doc.sections:
        out += [".SH " + escape(title)] + _blocks(blocks, pages)
    if doc.see_also:
        out.append(".SH SEE ALSO")
        refs = [f".BR {escape(n)} ({s})" for n, s in doc.see_also]
        out += [r + "," for r in refs[:-1]] + refs[-1:]
    return "\n".join(out) + "\n"
