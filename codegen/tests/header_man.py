#!/usr/bin/env python3
"""Tests of codegen/header-man, as TAP on stdout (make check runs it).

    python3 codegen/tests/header_man.py

golden: header-man/golden/xcb_demo_util.h gives exactly the pages in
header-man/golden/demo-util/ (UPDATE_GOLDEN=1 rewrites them), and they
render without a groff warning.  bad: each header-man/bad/NAME.h fails
with exactly the line in NAME.err, and writes nothing.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import TapResult  # noqa: E402

TOOL = os.path.join(os.path.dirname(HERE), "header-man")
DATA = os.path.join(HERE, "header-man")
GOLDEN = os.path.join(DATA, "golden")
BAD = os.path.join(DATA, "bad")


def header_man(out, headers, cwd=None):
    python = os.environ.get("PYTHON") or sys.executable
    return subprocess.run([python, TOOL, "--out", out] + headers, cwd=cwd,
                          capture_output=True, text=True)


class Golden(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        r = header_man(self.tmp, ["xcb_demo_util.h"], cwd=GOLDEN)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.out = os.path.join(self.tmp, "demo-util")

    def test_pages_are_the_expected_ones(self):
        expected = os.path.join(GOLDEN, "demo-util")
        if os.environ.get("UPDATE_GOLDEN"):
            shutil.rmtree(expected, ignore_errors=True)
            shutil.copytree(self.out, expected)
        self.assertEqual(sorted(os.listdir(self.out)), sorted(os.listdir(expected)))
        for name in os.listdir(expected):
            with open(os.path.join(expected, name)) as e, open(os.path.join(self.out, name)) as o:
                self.assertEqual(o.read(), e.read(), name)

    def test_pages_render_without_warnings(self):
        if not shutil.which("groff"):
            self.skipTest("groff is not installed")
        for name in sorted(os.listdir(self.out)):
            r = subprocess.run(["groff", "-man", "-ww", "-z", os.path.join(self.out, name)],
                               capture_output=True, text=True)
            self.assertEqual((r.returncode, r.stdout + r.stderr), (0, ""), name)

    def test_stale_pages_go_and_unchanged_ones_stay(self):
        stale = os.path.join(self.out, "xcb_demo_util_gone.3")
        open(stale, "w").close()
        kept = os.path.join(self.out, "xcb_demo_util_thing_t.3")
        os.utime(kept, (1, 1))
        r = header_man(self.tmp, ["xcb_demo_util.h"], cwd=GOLDEN)
        self.assertEqual(r.returncode, 0)
        self.assertFalse(os.path.exists(stale))
        self.assertEqual(os.stat(kept).st_mtime, 1)


class Bad(unittest.TestCase):
    def test_fixtures(self):
        fixtures = sorted(f for f in os.listdir(BAD) if f.endswith(".h"))
        self.assertGreaterEqual(len(fixtures), 10)
        for header in fixtures:
            with self.subTest(header=header):
                with open(os.path.join(BAD, header[:-2] + ".err")) as f:
                    expected = f.read()
                out = tempfile.mkdtemp()
                self.addCleanup(shutil.rmtree, out)
                r = header_man(out, [header], cwd=BAD)
                self.assertEqual(r.returncode, 1)
                self.assertEqual(r.stderr, expected)
                self.assertEqual(os.listdir(out), [], "pages written despite the error")


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    result = TapResult(sys.stdout)
    suite.run(result)
    sys.stdout.write(f"1..{result.n}\n")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
