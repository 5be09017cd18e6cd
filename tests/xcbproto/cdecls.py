"""What a C header declares, read from its preprocessed text.

Enough of C for XCB headers: typedef'd structs and unions (with nested
anonymous structs), typedef'd enums, other typedefs, function prototypes and
extern variables. Each comes out as a normalized string, so that two headers
can be compared declaration by declaration.
"""

import re
import subprocess

_SPACE = re.compile(r"\s+")


def preprocess(cc, header, include_dirs):
    """The header's declarations after the preprocessor, as one string."""
    src = f"#include <stdint.h>\n#include <xcb/xcb.h>\n#include <xcb/{header}.h>\n"
    args = [cc, "-E", "-P", "-std=c11"] + [f"-I{d}" for d in include_dirs] + ["-"]
    out = subprocess.run(args, input=src, capture_output=True, text=True, check=True)
    return out.stdout


def macros(cc, header, include_dirs):
    """{name: value} of every macro once the header is included."""
    src = f"#include <xcb/xcb.h>\n#include <xcb/{header}.h>\n"
    args = [cc, "-E", "-dM", "-std=c11"] + [f"-I{d}" for d in include_dirs] + ["-"]
    out = subprocess.run(args, input=src, capture_output=True, text=True, check=True)
    found = {}
    for line in out.stdout.splitlines():
        parts = line.split(None, 2)
        if len(parts) >= 2 and parts[0] == "#define":
            found[parts[1]] = _SPACE.sub(" ", parts[2]).strip() if len(parts) > 2 else ""
    return found


def _split(text, sep, opens="({", closes=")}"):
    """`text` cut at each `sep` outside brackets; the last piece included."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def statements(text):
    """Top-level statements (up to a ';' outside braces and parentheses)."""
    out = [_SPACE.sub(" ", s).strip() for s in _split(text, ";")[:-1]]
    return [s for s in out if s]


def _norm(text):
    text = _SPACE.sub(" ", text).strip()
    text = re.sub(r"\s*([*,()\[\]{}=])\s*", r"\1", text)
    return text


_TYPEDEF_AGG = re.compile(r"typedef (struct|union|enum) (\w+)? ?\{(.*)\} ?([\w ]*?) ?(\w+)$",
                          re.S)


def _members(body):
    """'type name' strings of a struct body; nested braces kept whole."""
    out = [_norm(m) for m in _split(body, ";", "{", "}")[:-1]]
    return [m for m in out if m]


def _param_types(params):
    """A prototype's parameter list without the parameter names."""
    out = []
    for p in _split_params(params):
        p = p.strip()
        m = re.match(r"(.*?[\s*])(\w+)$", p)
        if m and p not in ("void",) and re.search(r"\w", m.group(1)):
            p = m.group(1)
        out.append(_norm(p))
    return out


def _split_params(params):
    return _split(params, ",", "(", ")")


def declarations(text):
    """{name: (kind, normalized declaration)} of a preprocessed header.

    kind is struct, union, enum, typedef, function or variable. A struct's
    declaration lists its members; a function's, its return and parameter
    types (names of parameters do not matter to a caller)."""
    found = {}
    for st in statements(text):
        m = _TYPEDEF_AGG.match(st)
        if m:
            kind, _tag, body, attrs, name = m.groups()
            if kind == "enum":
                items = [_norm(x) for x in body.split(",") if x.strip()]
                found[name] = ("enum", ",".join(items))
            else:
                packed = " packed" if "packed" in attrs or "packed" in st[-60:] else ""
                found[name] = (kind, ";".join(_members(body)) + packed)
            continue
        if st.startswith("typedef "):
            name = re.findall(r"\w+", st)[-1]
            found[name] = ("typedef", _norm(st))
            continue
        if st.startswith("extern ") and "(" not in st:
            name = re.findall(r"\w+", st)[-1]
            found[name] = ("variable", _norm(st))
            continue
        m = re.match(r"(.*?)\b(\w+)\s*\((.*)\)$", st, re.S)
        if m and not st.startswith(("struct ", "union ", "enum ")):
            ret, name, params = m.groups()
            found[name] = ("function", _norm(ret) + " " + name + "(" +
                           ",".join(_param_types(params)) + ")")
    return found


def enum_items(text):
    """Enumerator names of every enum in a preprocessed header."""
    items = []
    for st in statements(text):
        m = _TYPEDEF_AGG.match(st)
        if m and m.group(1) == "enum":
            items += [x.split("=")[0].strip() for x in m.group(3).split(",") if x.strip()]
    return items


def member_names(decl):
    """Member names of a struct or union declaration from declarations(); a
    nested struct's or union's members follow it as `outer.inner` (what
    offsetof() takes)."""
    names = []
    for mem in _split(decl.replace(" packed", ""), ";", "{", "}"):
        m = re.search(r"(\w+)(\[[^\]]*\])?$", mem)
        if not m:
            continue
        names.append(m.group(1))
        body = re.match(r"(?:struct|union) ?(?:\w+ ?)?\{(.*)\}", mem, re.S)
        if body and not m.group(2):
            names += [f"{m.group(1)}.{inner}" for inner in member_names(body.group(1))]
    return names
