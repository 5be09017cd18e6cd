#!/usr/bin/env python3
"""Compares the C API of headers: ours against a reference, module by module.

    abi-compare.py --ours DIR [--ref DIR] [--allow NAME]... MODULE...

DIR holds xcb/<MODULE>.h. Without --ref the reference is the system's header
(Debian's libxcb). For each module, as TAP: every type, function, variable,
enumerator and macro the reference header declares is declared the same in
ours (struct members and their types, parameter types, values); sizes,
alignments, member offsets and enumerator values are the same once compiled;
ours declares nothing more, but the names given with --allow (additions of a
newer protocol version). Exit status 0 when all hold.

Environment: CC (default cc).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdecls  # noqa: E402
import genmods  # noqa: E402

CC = os.environ.get("CC", "cc")


def header_path(module, dirs):
    """Where `#include <xcb/MODULE.h>` leads with these -I directories."""
    args = [CC, "-E", "-M", "-std=c11"] + [f"-I{d}" for d in dirs] + ["-"]
    out = subprocess.run(args, input=f"#include <xcb/{module}.h>\n", capture_output=True,
                         text=True)
    if out.returncode != 0:
        return None
    for word in out.stdout.replace("\\\n", " ").split():
        if word.endswith(f"/xcb/{module}.h"):
            return word
    return None


def own_names(path):
    """The names a header declares itself: types, functions, variables,
    enumerators and macros, read from its text."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    names = set(re.findall(r"^\}[^;{]*?(\w+);", text, re.M))
    names |= set(re.findall(r"^typedef [^;{]*?(\w+);", text, re.M))
    names |= set(re.findall(r"^extern \w+ (\w+);", text, re.M))
    names |= set(re.findall(r"^(xcb_\w+)\s*\(", text, re.M))
    macros = set(re.findall(r"^#define (XCB_\w+)", text, re.M))
    macros -= {m for m in macros if m.startswith("__")}
    enumerators = set(re.findall(r"^\s+(XCB_\w+)\s*=", text, re.M))
    return names, macros, enumerators


def _only_added_items(ref, ours, allow):
    """An enum of ours that is the reference's with allowed items appended."""
    if ref[0] != "enum" or ours[0] != "enum":
        return False
    kept = [i for i in ours[1].split(",") if i.split("=")[0] not in allow]
    return ",".join(kept) == ref[1]


def layout_program(decls, enumerators):
    """A C program printing the size, alignment and member offsets of each
    struct and union, and each enumerator's value."""
    lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <xcb/xcb.h>",
             "#include <xcb/{module}.h>", "int main(void)", "{"]
    for name, (kind, decl) in sorted(decls.items()):
        if kind not in ("struct", "union"):
            continue
        lines.append(f'    printf("type {name} %zu %zu\\n", sizeof({name}), _Alignof({name}));')
        for mem in cdecls.member_names(decl):
            lines.append(f'    printf("member {name}.{mem} %zu %zu\\n", offsetof({name}, {mem}), '
                         f'sizeof((({name} *) 0)->{mem}));')
    for e in sorted(enumerators):
        lines.append(f'    printf("enum {e} %lld\\n", (long long) ({e}));')
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def run_layout(program, module, dirs, tmp, tag):
    src = os.path.join(tmp, f"{module}-{tag}.c")
    exe = os.path.join(tmp, f"{module}-{tag}")
    with open(src, "w", encoding="utf-8") as f:
        f.write(program.replace("{module}", module))
    cc = subprocess.run([CC, "-std=c11", "-w"] + [f"-I{d}" for d in dirs] + [src, "-o", exe],
                        capture_output=True, text=True)
    if cc.returncode != 0:
        return None, cc.stderr
    run = subprocess.run([exe], capture_output=True, text=True)
    return run.stdout.splitlines(), run.stderr


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def result(self, ok, what, diag=()):
        self.n += 1
        self.failed += not ok
        print(f"{'ok' if ok else 'not ok'} {self.n} - {what}")
        diag = list(diag)
        for line in diag[:40]:
            print(f"#   {line}")
        if len(diag) > 40:
            print(f"#   ... and {len(diag) - 40} more")

    def skip(self, what, why):
        self.n += 1
        print(f"ok {self.n} - {what} # SKIP {why}")


def compare(module, ours_dirs, ref_dirs, allow, tap, tmp):
    ref_path = header_path(module, ref_dirs)
    ours_path = header_path(module, ours_dirs)
    if ref_path is None or (ref_dirs and not ref_path.startswith(ref_dirs[0])):
        tap.skip(f"{module}: API", "no reference header")
        return
    names, macro_names, enumerators = own_names(ref_path)
    ours_names, ours_macros, ours_enums = own_names(ours_path)
    ref = cdecls.declarations(cdecls.preprocess(CC, module, ref_dirs))
    ours = cdecls.declarations(cdecls.preprocess(CC, module, ours_dirs))

    diffs = []
    for name in sorted(names):
        if name not in ref:
            continue
        if name not in ours:
            diffs.append(f"missing: {ref[name][1]}")
        elif ours[name] != ref[name] and not _only_added_items(ref[name], ours[name], allow):
            diffs.append(f"reference: {ref[name][1]}")
            diffs.append(f"ours:      {ours[name][1]}")
    tap.result(not diffs, f"{module}: the {len(names)} declarations of the reference, "
                          f"the same in ours", diffs)

    added = (ours_names | ours_macros | ours_enums) - names - macro_names - enumerators
    for name in sorted(added & set(allow)):
        print(f"# {module}: allowed addition {name}")
    for name in sorted(macro_names & set(allow)):
        print(f"# {module}: allowed change {name}")
    extra = sorted(added - set(allow))
    tap.result(not extra, f"{module}: nothing declared beyond the reference"
               + (f" and {len(allow)} additions" if allow else ""), extra)

    ref_macros = cdecls.macros(CC, module, ref_dirs)
    our_macros = cdecls.macros(CC, module, ours_dirs)
    diffs = [f"{n}: reference '{ref_macros.get(n)}', ours '{our_macros.get(n)}'"
             for n in sorted(macro_names) if ref_macros.get(n) != our_macros.get(n)
             and n not in allow]
    tap.result(not diffs, f"{module}: the {len(macro_names)} macros have the same values",
               diffs)

    program = layout_program({n: ref[n] for n in names if n in ref}, enumerators)
    ref_out, ref_err = run_layout(program, module, ref_dirs, tmp, "ref")
    our_out, our_err = run_layout(program, module, ours_dirs, tmp, "ours")
    if ref_out is None or our_out is None:
        tap.result(False, f"{module}: layouts compile against both headers",
                   (ref_err or our_err or "").splitlines())
        return
    diffs = [f"reference: {a} / ours: {b}" for a, b in zip(ref_out, our_out) if a != b]
    tap.result(not diffs and len(ref_out) == len(our_out),
               f"{module}: {len(ref_out)} sizes, offsets and values identical", diffs)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours")
    ap.add_argument("--generate", metavar="XML_DIR",
                    help="generate the modules from XML_DIR first (instead of --ours)")
    ap.add_argument("--ref")
    ap.add_argument("--allow", action="append", default=[])
    ap.add_argument("modules", nargs="+")
    args = ap.parse_args(argv)
    tap = Tap()
    with tempfile.TemporaryDirectory() as tmp:
        if args.generate:
            args.ours = os.path.join(tmp, "gen")
            for module, err in genmods.generate(args.modules, args.generate, args.ours).items():
                tap.result(False, f"{module}: generated", err.splitlines())
        for module in args.modules:
            compare(module, [args.ours], [args.ref] if args.ref else [], args.allow, tap,
                    tmp)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
