#!/usr/bin/env python3
"""Compares the functions our generated modules export with Debian's libraries.

    symbols-compare.py --gen DIR [--src DIR] MODULE...

DIR holds <MODULE>.c and xcb/<MODULE>.h as xcb-codegen wrote them; --src the
directory of reply_guard.h. Each module is compiled as a shared object and
its exported xcb_* functions are compared, as TAP, with those of Debian's
libxcb-<MODULE>.so (the extension id aside, which is data). For the core
protocol and the extensions libxcb itself carries (bigreq, xc_misc), the
reference is the functions Debian's header declares. A module with neither
is skipped.

Environment: CC (default cc), NM (default nm).
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genmods  # noqa: E402

CC = os.environ.get("CC", "cc")
NM = os.environ.get("NM", "nm")
IN_LIBXCB = {"xproto", "bigreq", "xc_misc"}


def library(module):
    """Debian's libxcb-<module>.so.N, or None."""
    name = f"libxcb-{module}.so."
    out = subprocess.run([CC, "-print-multiarch"], capture_output=True, text=True).stdout
    dirs = [f"/usr/lib/{out.strip()}", "/usr/lib64", "/usr/lib"] if out.strip() else \
        ["/usr/lib64", "/usr/lib"]
    for d in dirs:
        found = sorted(glob.glob(os.path.join(d, name + "[0-9]")))
        if found:
            return found[0]
    return None


def exported(path):
    out = subprocess.run([NM, "-D", "--defined-only", path], capture_output=True, text=True,
                         check=True).stdout
    return {parts[2] for parts in (line.split() for line in out.splitlines())
            if len(parts) == 3 and parts[1] in "Ti" and parts[2].startswith("xcb_")}


def declared(module):
    """The functions the system's <xcb/MODULE.h> declares."""
    src = f"#include <xcb/xcb.h>\n#include <xcb/{module}.h>\n"
    out = subprocess.run([CC, "-E", "-M", "-"], input=src, capture_output=True, text=True)
    path = next((w for w in out.stdout.replace("\\\n", " ").split()
                 if w.endswith(f"/xcb/{module}.h")), None)
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r"^(xcb_\w+)\s*\(", f.read(), re.M))


def ours(module, gen, src, tmp):
    so = os.path.join(tmp, f"lib{module}.so")
    cmd = [CC, "-std=c11", "-shared", "-fPIC", "-w", f"-I{gen}", f"-I{src}",
           os.path.join(gen, f"{module}.c"), "-o", so]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        return None, res.stderr
    return exported(so), ""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen")
    ap.add_argument("--generate", metavar="XML_DIR",
                    help="generate the modules from XML_DIR first (instead of --gen)")
    ap.add_argument("--src", default=".")
    ap.add_argument("modules", nargs="+")
    args = ap.parse_args(argv)
    n = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        if args.generate:
            args.gen = os.path.join(tmp, "gen")
            for module, err in genmods.generate(args.modules, args.generate, args.gen).items():
                n += 1
                failed += 1
                print(f"not ok {n} - {module}: generated\n#   {err}")
        for module in args.modules:
            n += 1
            if module in IN_LIBXCB:
                ref, what = declared(module), f"the functions <xcb/{module}.h> declares"
            else:
                lib = library(module)
                ref, what = (exported(lib), os.path.basename(lib)) if lib else (None, "")
            if not ref:
                print(f"ok {n} - {module}: exported functions # SKIP no Debian library "
                      f"or header")
                continue
            got, err = ours(module, args.gen, args.src, tmp)
            if got is None:
                failed += 1
                print(f"not ok {n} - {module}: compiles as a shared object")
                for line in err.splitlines()[:20]:
                    print(f"#   {line}")
                continue
            # Our reply check's helpers are internal; libxcb's library
            # exports nothing but the module's API.
            got = {s for s in got if not s.startswith("xcbdp_")}
            missing, extra = sorted(ref - got), sorted(got - ref)
            ok = not missing and not extra
            failed += not ok
            print(f"{'ok' if ok else 'not ok'} {n} - {module}: the {len(ref)} exported "
                  f"functions of {what}, no more, no fewer ({len(missing)} missing, "
                  f"{len(extra)} extra)")
            for s in missing[:30]:
                print(f"#   missing: {s}")
            for s in extra[:30]:
                print(f"#   extra:   {s}")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
