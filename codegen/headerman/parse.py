"""Pair each public declaration of a header with the comment above it.

Declarations: functions, typedefs of structs and enums (with their
members' comments), opaque struct typedefs, function-pointer typedefs and
#define constants.  A comment binds to the declaration directly below it
(no blank line between; #if lines and bodiless #defines may sit between).
A group heading such as `/* ---- fences ---- */` documents nothing, and a
run of #defines may share the comment above the first.
"""

import re

from .doc import comment_text, parse_doc
from .errors import HeaderError
from .model import Decl, Doc, Member

# The doc of a declaration whose comment had an error (already reported).
BROKEN = Doc(path="", line=0, summary="")
_MARKER = re.compile(r"^--.*--$")
_GROUP_HEADING = re.compile(r"^-{2,}.*-{2,}$")


def _strip_comments(code):
    return re.sub(r"/\*.*?\*/", " ", code, flags=re.S)


def _synopsis(raw):
    lines = [ln.rstrip() for ln in _strip_comments(raw).split("\n")]
    return "\n".join(ln for ln in lines if ln.strip())


def _member_name(code, enum):
    code = code.rstrip(";,").strip()
    if enum:
        return code.split("=")[0].strip()
    funcptr = re.search(r"\(\s*\*\s*(\w+)\s*\)", code)
    if funcptr:
        return funcptr.group(1)
    parts = [re.sub(r"\[.*?\]", "", p).strip() for p in code.split(",")]
    first = re.findall(r"\w+", parts[0])[-1]
    return ", ".join([first] + [re.findall(r"\w+", p)[-1] for p in parts[1:]])


def _body_pieces(body, line, stop):
    """The body of a struct or enum as (kind, text, first line, last line):
    comments, and code pieces ending at stop (';' for a struct's members,
    ',' for an enum's)."""
    pieces, pos, start = [], 0, None
    while pos < len(body):
        if body.startswith("/*", pos):
            end = body.index("*/", pos) + 2
            pieces.append(("comment", body[pos:end], line + body.count("\n", 0, pos),
                           line + body.count("\n", 0, end)))
            pos = end
            continue
        c = body[pos]
        if not c.isspace() and start is None:
            start = pos
        if c == stop and start is not None and body.count("(", start, pos) == body.count(
                ")", start, pos):
            pieces.append(("code", body[start:pos + 1], line + body.count("\n", 0, start),
                           line + body.count("\n", 0, pos)))
            start = None
        pos += 1
    if start is not None and body[start:].strip():
        rest = body[start:].rstrip()
        pieces.append(("code", rest, line + body.count("\n", 0, start),
                       line + body.count("\n", 0, start + len(rest))))
    return pieces


def _members(body, line, enum):
    """Members with their comments: a comment on the line where a member
    ends is that member's; one on lines of its own is the next member's,
    unless it is a `-- ... --` marker, which stays in the synopsis."""
    members, above, last_end = [], None, None
    for kind, text, first, last in _body_pieces(body, line, "," if enum else ";"):
        if kind == "code":
            code = " ".join(_strip_comments(text).split())
            members.append(Member(code=code, name=_member_name(code, enum),
                                  doc=comment_text(above) if above else ""))
            above, last_end = None, last
        elif first == last_end and members:
            m = members[-1]
            joined = (m.doc + " " if m.doc else "") + comment_text(text)
            members[-1] = Member(code=m.code, name=m.name, doc=joined)
        elif _MARKER.match(comment_text(text)):
            members.append(Member(code=" ".join(text.split()), name=None))
            above = None
        else:
            above = text
    return tuple(members)


def _typedef(code, raw, path, line, doc):
    body = re.match(r"typedef\s+(struct|enum|union)\s*(\w+)?\s*\{", code)
    if body:
        kind = body.group(1)
        open_at, close_at = raw.index("{"), raw.rindex("}")
        name = re.match(r"\s*(\w+)\s*;", raw[close_at + 1:])
        if not name:
            raise HeaderError(path, line, f"a typedef {kind} without a name after '}}'")
        members = _members(raw[open_at + 1:close_at], line + raw.count("\n", 0, open_at),
                           kind == "enum")
        names = tuple(m.name for m in members if kind == "enum" and m.name)
        if body.group(2):
            names += (body.group(2),)
        head = " ".join(code[:code.index("{") + 1].split())
        return Decl(kind=kind, name=name.group(1), path=path, line=line, synopsis=head,
                    doc=doc, members=members, names=names)
    opaque = re.match(r"typedef\s+(struct|union)\s+(\w+)\s+(\w+)\s*;$", code)
    if opaque:
        return Decl(kind="opaque", name=opaque.group(3), path=path, line=line,
                    synopsis=_synopsis(raw), doc=doc, names=(opaque.group(2),))
    funcptr = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", code)
    if funcptr:
        return Decl(kind="funcptr", name=funcptr.group(1), path=path, line=line,
                    synopsis=_synopsis(raw), doc=doc)
    plain = re.search(r"(\w+)\s*;$", code)
    if not plain:
        raise HeaderError(path, line, "a typedef whose name cannot be found")
    return Decl(kind="typedef", name=plain.group(1), path=path, line=line,
                synopsis=_synopsis(raw), doc=doc)


def _declaration(item, path, doc):
    code = " ".join(_strip_comments(item.text).split())
    if re.match(r"(struct|union) \w+ ?;$", code):
        return None     # another library's type, declared for our prototypes
    if code.startswith("typedef "):
        return _typedef(code, item.text, path, item.line, doc)
    function = re.search(r"(\w+)\s*\(", code)
    if function and code.endswith(");"):
        return Decl(kind="function", name=function.group(1), path=path, line=item.line,
                    synopsis=_synopsis(item.text), doc=doc)
    raise HeaderError(path, item.line, "a declaration that is neither a function nor a "
                      "typedef")


def _define(item):
    """(name, value) of a `#define NAME value`, or None."""
    m = re.match(r"#\s*define\s+(\w+)(\(.*?\))?\s*(.*)", item.text, flags=re.S)
    return (m.group(1), m.group(3).strip()) if m else None


def parse_header(items, path):
    """(declarations, errors) of a header: a bad comment or declaration is
    reported and the rest still read, so that one run shows every error.
    A declaration's doc is None when no comment stands above it (check
    reports that), and BROKEN when its comment had an error."""
    decls, errors, pending, previous = [], [], None, None

    def doc_of(item):
        if pending is None or pending.end_line + 1 != item.line:
            return None
        try:
            return parse_doc(pending.text, path, pending.line)
        except HeaderError as e:
            errors.append(e)
            return BROKEN

    for item in items:
        if item.kind == "comment":
            if _GROUP_HEADING.match(comment_text(item.text)):
                pending, previous = None, None
            else:
                pending = item
            continue
        if item.kind == "pp":
            define = _define(item)
            if define and define[1]:
                doc = doc_of(item)
                if doc is None and previous is not None and previous[0].kind == "macro" \
                        and previous[1] + 1 == item.line:
                    doc = previous[0].doc
                decl = Decl(kind="macro", name=define[0], path=path, line=item.line,
                            synopsis=" ".join(item.text.split()), doc=doc)
                decls.append(decl)
                pending, previous = None, (decl, item.end_line)
            elif define or re.match(r"#\s*(if|ifdef|ifndef|else|elif|endif)\b", item.text):
                # transparent: the comment above still binds below
                if pending is not None:
                    pending = type(pending)(pending.kind, pending.text, pending.line,
                                            item.end_line)
            else:
                pending, previous = None, None
            continue
        try:
            decl = _declaration(item, path, doc_of(item))
            if decl:
                decls.append(decl)
        except HeaderError as e:
            errors.append(e)
        pending, previous = None, None
    return decls, errors
