"""What holds across all headers: every public declaration has its
comment, every xcb_*_util_* name a comment mentions is declared, and no
name is declared twice with a page each."""

import re

from .errors import HeaderError

MENTION = re.compile(r"\bxcb_[a-z0-9]+_util_\w*")


def library_prefix(path):
    """xcb_dri3_util for .../xcb_dri3_util_fence.h."""
    m = re.match(r"(xcb_[a-z0-9]+_util)(_\w+)?\.h$", path.replace("\\", "/").split("/")[-1])
    if not m:
        raise HeaderError(path, 1, "a header name that is not xcb_NAME_util[_PART].h")
    return m.group(1)


def has_page(decl):
    """A declaration gets a page of its own when its name is its library's
    (a type declared again in the other library's header is not) and it is
    no macro (macros are described on the pages that use them)."""
    return decl.kind != "macro" and decl.name.startswith(library_prefix(decl.path) + "_")


def check(headers):
    """headers: [(path, items, decls)].  Returns the errors, in order."""
    errors, declared, pages = [], set(), {}
    for path, _, decls in headers:
        for d in decls:
            declared.add(d.name)
            declared.update(d.names)
    for path, items, decls in headers:
        for d in decls:
            if d.doc is None:
                errors.append(HeaderError(path, d.line, f"{d.name} is public but has no "
                                          "comment directly above it"))
            if has_page(d):
                if d.name in pages:
                    errors.append(HeaderError(path, d.line, f"{d.name} is declared again "
                                              f"(first at line {pages[d.name].line} of "
                                              f"{pages[d.name].path})"))
                pages.setdefault(d.name, d)
        for item in items:
            if item.kind == "pp":
                continue
            for m in MENTION.finditer(item.text):
                if item.kind == "code" and not _in_comment(item.text, m.start()):
                    continue
                if _is_pattern(item.text, m.end()):
                    continue
                if m.group(0) not in declared:
                    line = item.line + item.text.count("\n", 0, m.start())
                    errors.append(HeaderError(path, line, f"{m.group(0)} is mentioned "
                                              "but declared in none of the headers"))
    for path, _, decls in headers:
        for d in decls:
            for name, section in (d.doc.see_also if d.doc else ()):
                if MENTION.match(name) and name not in pages:
                    errors.append(HeaderError(path, d.doc.line, f"See also {name}(): no "
                                              "such page"))
    return errors


def _is_pattern(text, end):
    """A header's file name (xcb_dri3_util_fence.h) or a name pattern
    (xcb_dri3_util_<object>_<verb>) is no name to declare."""
    return text.startswith((".h", "<"), end)


def _in_comment(text, pos):
    return text.rfind("/*", 0, pos) > text.rfind("*/", 0, pos)
