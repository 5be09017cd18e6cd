#!/usr/bin/env python3
"""Fuzzes the generator's input: mutated protocol XML must give a
`file:line: error:` or C that compiles, never any other exception.

    fuzz-codegen.py [--seconds N] [--seed S] [--out DIR] [--replay FILE...]

Starts from xml/dri3.xml, xml/present.xml and the generator's test
fixtures, applies a few random mutations (lines dropped, duplicated or
swapped, attribute values and tag names replaced, bytes inserted, the text
cut short) and runs the generator in-process. An input that raises anything
but the generator's own GenError, or whose GenError is not worded
`FILE:LINE: error: ...`, or whose output does not compile (`cc
-fsyntax-only`, once per distinct output), or that runs over 10 s, is a
finding: it is saved in --out with the traceback, and the exit status is 1.
Prints "executions: N" at the end.
"""

import argparse
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "codegen"))

from xcbgen.emit_c import emit_header, emit_source  # noqa: E402
from xcbgen.emit_man import emit_man_pages  # noqa: E402
from xcbgen.errors import GenError  # noqa: E402
from xcbgen.loader import Loader  # noqa: E402

ERROR_RE = re.compile(r"^[^\n]+:\d+: error: ")
VALUES = ["", "0", "1", "-1", "3", "4294967296", "99999999999999999999", "CARD8", "CARD64",
          "INT32", "BOOL", "fd", "void", "xcb", "length", "nfd", "int", "struct", "a b", "x-y",
          "DRAWABLE", "PIXMAP", "Notify", "true", "false", "1e3", "0x10", "é", "\t"]
SEEDS = ["xml/dri3.xml", "xml/present.xml", "codegen/tests/golden/mini.xml"]


class Timeout(Exception):
    pass


def on_alarm(_sig, _frame):
    raise Timeout()


def mutate(text, rng):
    lines = text.split("\n")
    tags = sorted(set(re.findall(r"<([a-zA-Z]+)", text))) or ["field"]
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines = [""]
        if op == 0 and len(lines) > 1:
            del lines[i:i + rng.randint(1, 3)]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            attrs = list(re.finditer(r'="([^"]*)"', lines[i]))
            if attrs:
                m = rng.choice(attrs)
                v = rng.choice(VALUES + [m.group(1) * 2])
                lines[i] = lines[i][:m.start(1)] + v + lines[i][m.end(1):]
        elif op == 4:
            m = re.search(r"<(/?)([a-zA-Z]+)", lines[i])
            if m:
                lines[i] = lines[i][:m.start(2)] + rng.choice(tags) + lines[i][m.end(2):]
        elif op == 5:
            pos = rng.randrange(len(lines[i]) + 1)
            junk = rng.choice(["<", ">", "&", '"', "\x00", "\xff", "<x/>", "]]>", "&#0;"])
            lines[i] = lines[i][:pos] + junk + lines[i][pos:]
        elif op == 6:
            attrs = list(re.finditer(r'\s[a-z-]+="[^"]*"', lines[i]))
            if attrs:
                m = rng.choice(attrs)
                lines[i] = lines[i][:m.start()] + lines[i][m.end():]
        else:
            lines = lines[:rng.randrange(len(lines) + 1)]
    return "\n".join(lines)


def generate(path, include):
    loader = Loader([os.path.dirname(path)] + include)
    mod = loader.load_path(path)
    return mod.header, emit_header(mod), emit_source(mod), emit_man_pages(mod)


def compiles(work, header, h_text, c_text, cc):
    """Whether the generated C passes `cc -fsyntax-only`."""
    os.makedirs(os.path.join(work, "out", "xcb"), exist_ok=True)
    with open(os.path.join(work, "out", "xcb", header + ".h"), "w", encoding="utf-8") as f:
        f.write(h_text)
    c_path = os.path.join(work, "out", header + ".c")
    with open(c_path, "w", encoding="utf-8") as f:
        f.write(c_text)
    r = subprocess.run([cc, "-std=c11", "-fsyntax-only", "-I", os.path.join(work, "out"),
                        "-I", os.path.join(TOP, "src"), c_path],
                       capture_output=True, text=True, check=False)
    return r.returncode == 0, r.stderr


def run_one(data, name, work, include, cc, compiled):
    """Runs one input (bytes); returns None or a description of the finding."""
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    signal.alarm(10)
    try:
        header, h_text, c_text, _man = generate(path, include)
    except GenError as e:
        if not ERROR_RE.match(str(e)):
            return f"GenError not worded FILE:LINE: error: {e}"
        return None
    except Timeout:
        return "the generator ran for more than 10 s"
    except Exception:  # noqa: BLE001 -- any other exception is what we look for
        return traceback.format_exc()
    finally:
        signal.alarm(0)
    digest = hashlib.sha1((h_text + c_text).encode()).hexdigest()
    if cc and digest not in compiled:
        compiled.add(digest)
        ok, err = compiles(work, header, h_text, c_text, cc)
        if not ok:
            return "the generated C does not compile:\n" + err[:2000]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--out", default="codegen-findings")
    ap.add_argument("--replay", nargs="*", default=None,
                    help="run these saved inputs instead of fuzzing")
    args = ap.parse_args()
    include = [os.environ.get("XCBPROTO_DIR", "/usr/share/xcb")]
    cc = shutil.which(os.environ.get("CC", "cc").split()[0])
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    signal.signal(signal.SIGALRM, on_alarm)
    work = tempfile.mkdtemp(prefix="fuzz-codegen-")
    # Imports resolve from the input's directory first: our own modules.
    for x in ("dri3.xml", "present.xml"):
        shutil.copy(os.path.join(TOP, "xml", x), os.path.join(work, x))
    texts = {}
    for s in SEEDS:
        with open(os.path.join(TOP, s), encoding="utf-8") as f:
            texts[os.path.basename(s)] = f.read()
    findings = 0
    execs = 0
    compiled = set()
    try:
        if args.replay is not None:
            print(f"1..{len(args.replay)}")
            for p in args.replay:
                with open(p, "rb") as f:
                    data = f.read()
                why = run_one(data, "input.xml", work, include, cc, compiled)
                execs += 1
                print(f"{'not ok' if why else 'ok'} {execs} - {p}")
                if why:
                    findings += 1
                    print("# " + why.replace("\n", "\n# "))
            print(f"executions: {execs}")
            return 1 if findings else 0
        print(f"seed: {seed}")
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            base = rng.choice(sorted(texts))
            data = mutate(texts[base], rng).encode("utf-8", "surrogateescape")
            # A module named like one we import would shadow it: use a fresh name.
            why = run_one(data, "fuzzed.xml", work, include, cc, compiled)
            execs += 1
            if why:
                findings += 1
                os.makedirs(args.out, exist_ok=True)
                name = hashlib.sha1(data).hexdigest()[:16]
                with open(os.path.join(args.out, name + ".xml"), "wb") as f:
                    f.write(data)
                with open(os.path.join(args.out, name + ".txt"), "w", encoding="utf-8") as f:
                    f.write(why)
                print(f"finding {name} (from {base}):\n{why}")
                if findings >= 20:
                    break
        print(f"executions: {execs}")
        print(f"findings: {findings}")
        return 1 if findings else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
