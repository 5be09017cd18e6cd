"""Unit tests of the code generator: naming, the model, errors, output."""

import difflib
import os
import shutil
import subprocess
import tempfile
import unittest

from xcbgen import naming, passes
from xcbgen.emit_c import emit_header, emit_source
from xcbgen.emit_man import emit_man_pages, esc
from xcbgen.errors import GenError
from xcbgen.loader import Loader

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
XML = os.path.join(ROOT, "xml")
GOLDEN = os.path.join(HERE, "golden")
BAD = os.path.join(HERE, "bad")


def xcbproto_dir():
    d = os.environ.get("XCBPROTO_DIR")
    if d:
        return d
    try:
        out = subprocess.run(["pkg-config", "--variable=xcbincludedir", "xcb-proto"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return out or "/usr/share/xcb"
    except (OSError, subprocess.CalledProcessError):
        return "/usr/share/xcb"


def load(name, loader=None):
    loader = loader or Loader([XML, xcbproto_dir()])
    return loader.load_path(os.path.join(XML, name + ".xml"))


def outputs(mod):
    """Everything the generator writes for a module, by relative path."""
    out = {f"xcb/{mod.header}.h": emit_header(mod), f"{mod.header}.c": emit_source(mod)}
    for name, text in emit_man_pages(mod).items():
        out[f"man/{name}"] = text
    return out


class Naming(unittest.TestCase):
    CASES = [("PixmapFromBuffers", "pixmap_from_buffers", "PIXMAP_FROM_BUFFERS"),
             ("FDFromFence", "fd_from_fence", "FD_FROM_FENCE"),
             ("SetDRMDeviceInUse", "set_drm_device_in_use", "SET_DRM_DEVICE_IN_USE"),
             ("NotifyMSC", "notify_msc", "NOTIFY_MSC"),
             ("CHAR2B", "char2b", "CHAR2B"),
             ("AsyncMayTear", "async_may_tear", "ASYNC_MAY_TEAR")]

    def test_lower_upper(self):
        for name, lo, up in self.CASES:
            with self.subTest(name=name):
                self.assertEqual(naming.lower(name), lo)
                self.assertEqual(naming.upper(name), up)


class ModelSizes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        loader = Loader([XML, xcbproto_dir()])
        cls.dri3 = load("dri3", loader)
        cls.present = load("present", loader)

    def request(self, mod, name):
        return next(r for r in mod.requests if r.name == name)

    def event(self, name):
        return next(e for e in self.present.events if e.name == name)

    def test_request_fixed_sizes(self):
        for mod, name, size in [(self.present, "Pixmap", 72), (self.present, "PixmapSynced", 88),
                                (self.dri3, "PixmapFromBuffers", 64)]:
            with self.subTest(request=name):
                lay = self.request(mod, name).layout
                self.assertEqual(lay.wire_size, size)
                self.assertEqual(lay.mem_size, size)

    def test_event_sizes(self):
        for name, wire, mem, packed in [("ConfigureNotify", 40, 44, False),
                                        ("CompleteNotify", 40, 44, True),
                                        ("IdleNotify", 32, 36, False),
                                        ("RedirectNotify", 104, 108, True)]:
            with self.subTest(event=name):
                lay = self.event(name).layout
                self.assertEqual((lay.wire_size, lay.mem_size, lay.packed),
                                 (wire, mem, packed))
                full = lay.member("full_sequence")
                self.assertIsNotNone(full)
                self.assertEqual(full.mem_offset, 32)
                self.assertTrue(full.auto)

    def test_event_enum_renamed(self):
        enum = next(t for t in self.present.types if getattr(t, "name", "") == "Event"
                    and hasattr(t, "items"))
        self.assertEqual(enum.c_name, "xcb_present_event_enum_t")

    def test_reply_fd_count_at_byte_1(self):
        for r in self.dri3.requests:
            if r.reply and r.reply.layout.fds:
                with self.subTest(request=r.name):
                    counter = next(mem for mem in r.reply.layout.members if mem.wire_offset == 1)
                    self.assertEqual(counter.name, "nfd")
                    self.assertEqual(counter.type.size, 1)
                    self.assertFalse(counter.pad)


class BadInput(unittest.TestCase):
    def expectation(self, path):
        with open(path, encoding="utf-8") as f:
            first = f.readline().strip()
        prefix, suffix = "<!-- expect: ", " -->"
        self.assertTrue(first.startswith(prefix) and first.endswith(suffix),
                        f"{path}: the first line must be {prefix}LINE: MESSAGE{suffix}")
        line, message = first[len(prefix):-len(suffix)].split(": ", 1)
        return int(line), message

    def test_fixtures(self):
        paths = sorted(os.path.join(BAD, f) for f in os.listdir(BAD) if f.endswith(".xml"))
        self.assertGreaterEqual(len(paths), 9)
        for path in paths:
            with self.subTest(fixture=os.path.basename(path)):
                line, message = self.expectation(path)
                with self.assertRaises(GenError) as cm:
                    Loader([BAD]).load_path(path)
                text = str(cm.exception)
                self.assertTrue(text.startswith(f"{path}:{line}: error: {message}"),
                                f"expected '{path}:{line}: error: {message}...', got '{text}'")


class Golden(unittest.TestCase):
    def setUp(self):
        self.mod = Loader([GOLDEN]).load_path(os.path.join(GOLDEN, "mini.xml"))
        self.got = outputs(self.mod)

    def test_golden_output(self):
        update = os.environ.get("UPDATE_GOLDEN") == "1"
        expected_names = set()
        for d, _, files in os.walk(GOLDEN):
            for f in files:
                rel = os.path.relpath(os.path.join(d, f), GOLDEN)
                if rel != "mini.xml":
                    expected_names.add(rel)
        for rel, text in sorted(self.got.items()):
            path = os.path.join(GOLDEN, rel)
            if update:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                continue
            with self.subTest(file=rel):
                self.assertTrue(os.path.exists(path), f"{rel} is not in {GOLDEN} "
                                                      f"(UPDATE_GOLDEN=1 writes it)")
                with open(path, encoding="utf-8") as f:
                    want = f.read()
                if want != text:
                    diff = "".join(difflib.unified_diff(
                        want.splitlines(True), text.splitlines(True),
                        f"expected/{rel}", f"generated/{rel}"))
                    self.fail(f"{rel} differs from the golden file "
                              f"(UPDATE_GOLDEN=1 to accept):\n{diff}")
        if not update:
            self.assertEqual(sorted(expected_names - set(self.got)), [],
                             "golden files the generator no longer writes")

    def test_compiles(self):
        cc = shutil.which(os.environ.get("CC", "cc"))
        if cc is None:
            self.skipTest("no C compiler")
        with tempfile.TemporaryDirectory() as tmp:
            for rel in ("xcb/mini.h", "mini.c"):
                os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
                with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                    f.write(self.got[rel])
            proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror",
                                   "-fsyntax-only", f"-I{tmp}", f"-I{os.path.join(ROOT, 'src')}",
                                   os.path.join(tmp, "mini.c")],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_man_pages_render_cleanly(self):
        groff = shutil.which("groff")
        if groff is None:
            self.skipTest("no groff")
        for rel, text in sorted(self.got.items()):
            if not rel.startswith("man/"):
                continue
            with self.subTest(page=rel):
                proc = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z"], input=text,
                                      capture_output=True, text=True)
                self.assertEqual((proc.returncode, proc.stderr), (0, ""))

    def test_man_page_content(self):
        page = self.got["man/xcb_mini_get_things.3"]
        self.assertIn('.TH xcb_mini_get_things 3 "" "xcb-dri3-present" "XCB Requests"', page)
        self.assertIn("xcb_mini_get_things \\- Gets a widget's things", page)
        self.assertIn("\\&.profile-like", page)
        self.assertIn("\\&'Quoted'", page)
        self.assertIn(".SH FILE DESCRIPTORS", page)
        self.assertIn("close-on-exec", page)
        event = self.got["man/xcb_mini_changed_event_t.3"]
        self.assertIn('"XCB Events"', event)
        self.assertIn(".SH EVENT FIELDS", event)
        put = self.got["man/xcb_mini_put_points.3"]
        self.assertIn("even when sending fails", put)

    def test_escape(self):
        self.assertEqual(esc("a\\b"), "a\\eb")


class Determinism(unittest.TestCase):
    def test_two_runs_same_text(self):
        for name in ("dri3", "present"):
            with self.subTest(module=name):
                self.assertEqual(outputs(load(name)), outputs(load(name)))

    def test_two_loaders_equal_models(self):
        for name in ("dri3", "present"):
            with self.subTest(module=name):
                a, b = load(name), load(name)
                self.assertIsNot(a, b)
                self.assertEqual(a, b)

    def test_emitters_leave_model_alone(self):
        mod = load("present")
        before = repr(mod)
        outputs(mod)
        self.assertEqual(repr(mod), before)

    def test_no_module_level_mutable_state(self):
        """No module global of xcbgen is a container that a run fills or changes."""
        import xcbgen
        from xcbgen import (capi, docs, emit_c, emit_man, errors, expr, loader, model,
                            pass_check, pass_declare, pass_layout, pass_resolve, writer,
                            xmlparse)
        mods = (passes, pass_declare, pass_resolve, pass_layout, pass_check, capi, docs,
                emit_c, emit_man, errors, expr, loader, model, naming, writer,
                xmlparse, xcbgen)

        def snapshot():
            return {(mod.__name__, name): repr(value)
                    for mod in mods for name, value in vars(mod).items()
                    if not name.startswith("__")
                    and isinstance(value, (list, dict, set, bytearray))}

        before = snapshot()
        for name in ("dri3", "present"):
            outputs(load(name))
        self.assertEqual(snapshot(), before)


if __name__ == "__main__":
    unittest.main()
