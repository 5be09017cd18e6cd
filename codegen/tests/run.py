#!/usr/bin/env python3
"""Runs the generator's unit tests and reports them as TAP on stdout.

    python3 codegen/tests/run.py [-v]

UPDATE_GOLDEN=1 rewrites the expected files of the golden-output test.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))      # codegen/, for xcbgen
sys.path.insert(0, HERE)


class TapResult(unittest.TestResult):
    """Prints one TAP line per test as it finishes; the plan comes first."""

    def __init__(self, out):
        super().__init__()
        self.out = out
        self.n = 0

    def _line(self, ok, test, note="", diag=""):
        self.n += 1
        status = "ok" if ok else "not ok"
        self.out.write(f"{status} {self.n} - {test.id()}{note}\n")
        for line in diag.rstrip("\n").splitlines():
            self.out.write(f"# {line}\n")
        self.out.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test, diag=self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._line(False, test, diag=self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, note=f" # SKIP {reason}")

    def addSubTest(self, test, subtest, err):
        # A failed subtest is reported as its own line; passing ones fold
        # into their test's line.
        if err is not None:
            super().addSubTest(test, subtest, err)
            failed = self.failures if issubclass(err[0], test.failureException) else self.errors
            self._line(False, subtest, diag=failed[-1][1])


def main():
    verbosity = "-v" in sys.argv[1:]
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    # A failing subtest gets a line of its own, so the number of lines is
    # known only at the end; TAP allows the plan there.
    result = TapResult(sys.stdout)
    suite.run(result)
    sys.stdout.write(f"1..{result.n}\n")
    if verbosity:
        sys.stderr.write(f"{result.testsRun} tests, {len(result.failures)} failures, "
                         f"{len(result.errors)} errors, {len(result.skipped)} skipped\n")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
