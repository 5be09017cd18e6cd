"""Unit tests of the code generator: naming, the model, errors, output."""

import difflib
import os
import shutil
import subprocess
import tempfile
import unittest

from xcbgen import capi, model, naming, passes
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


def own_loader(dirs):
    """A loader with the rules our build applies to our own XML."""
    return Loader(dirs, require_docs=True, strict_names=True)


def load(name, loader=None):
    loader = loader or own_loader([XML, xcbproto_dir()])
    return loader.load_path(os.path.join(XML, name + ".xml"))


_SHARED = {}


def shared(name):
    """dri3 or present, built once for the tests that only read them."""
    if name not in _SHARED:
        loader = _SHARED.setdefault("loader", own_loader([XML, xcbproto_dir()]))
        _SHARED[name] = load(name, loader)
    return _SHARED[name]


def run_codegen(args):
    """xcb-codegen's main() in this process: (exit status, stderr text)."""
    import contextlib
    import importlib.machinery
    import importlib.util
    import io
    path = os.path.join(ROOT, "codegen", "xcb-codegen")
    spec = importlib.util.spec_from_loader(
        "xcb_codegen", importlib.machinery.SourceFileLoader("xcb_codegen", path))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = tool.main(args)
    return status, err.getvalue()


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
        cls.dri3 = shared("dri3")
        cls.present = shared("present")

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

    @staticmethod
    def fixtures():
        """Every bad-XML file but the modules that fixtures import."""
        out = []
        for f in sorted(os.listdir(BAD)):
            path = os.path.join(BAD, f)
            with open(path, encoding="utf-8") as fh:
                if f.endswith(".xml") and "imported by another fixture" not in fh.readline():
                    out.append(path)
        return out

    def test_fixtures(self):
        paths = self.fixtures()
        self.assertGreaterEqual(len(paths), 21)
        for path in paths:
            with self.subTest(fixture=os.path.basename(path)):
                line, message = self.expectation(path)
                with self.assertRaises(GenError) as cm:
                    own_loader([BAD]).load_path(path)
                text = str(cm.exception)
                self.assertTrue(text.startswith(f"{path}:{line}: error: {message}"),
                                f"expected '{path}:{line}: error: {message}...', got '{text}'")


    def test_doc_rule_holds_for_c_output_alone(self):
        """The checks run whatever is written: --c-dir alone refuses a missing <doc>."""
        path = os.path.join(BAD, "missing-doc.xml")
        line, message = self.expectation(path)
        with tempfile.TemporaryDirectory() as tmp:
            status, err = run_codegen(["--require-docs", "--c-dir", tmp, path])
            self.assertEqual(status, 1)
            self.assertTrue(err.startswith(f"{path}:{line}: error: {message}"), err)
            self.assertEqual(os.listdir(tmp), [])

    def test_own_rules_only_with_their_flags(self):
        """Docs and C++-keyword names are rules for our XML: other modules
        (xcb-proto's have few docs, xkb has a field 'explicit') pass without
        the flags."""
        for name in ("missing-doc.xml", "name-cxx-keyword.xml"):
            with self.subTest(fixture=name), tempfile.TemporaryDirectory() as tmp:
                status, err = run_codegen(["--c-dir", tmp, os.path.join(BAD, name)])
                self.assertEqual(status, 0, err)


# Fields named like the generated code's former locals and parameters:
# the code must still compile, without shadowing, and the names stay as
# the XML has them in the API.
NAMES_XML = """<?xml version="1.0"?>
<xcb header="names" extension-xname="NAMES" extension-name="Names">
  <request name="Take" opcode="0">
    <field type="CARD32" name="cookie" />
    <field type="CARD32" name="fds" />
    <field type="CARD32" name="flags" />
    <field type="CARD32" name="size" />
    <field type="CARD32" name="e" />
    <field type="CARD32" name="R" />
    <fd name="fd" />
    <list type="CARD16" name="ids"><fieldref>size</fieldref></list>
    <list type="CARD32" name="end" />
    <doc>
      <brief>Takes names</brief>
      <field name="cookie">A.</field> <field name="fds">B.</field>
      <field name="flags">C.</field> <field name="size">D.</field>
      <field name="e">E.</field> <field name="R">F.</field> <field name="fd">G.</field>
      <field name="ids">H.</field> <field name="end">I.</field>
    </doc>
  </request>
  <request name="Give" opcode="1">
    <field type="CARD32" name="i" />
    <reply>
      <field type="CARD8" name="nfd" />
      <field type="CARD32" name="have" />
      <field type="CARD32" name="need" />
      <pad bytes="16" />
      <fd name="fds" />
    </reply>
    <doc><brief>Gives names</brief><field name="i">J.</field></doc>
  </request>
</xcb>
"""


# Reads the request-side accessors of Take on bytes laid out as libxcb sends
# them: the 28-byte fixed part, ids (size = 3 CARD16s) and 2 pad bytes, then
# the 2 CARD32s of end that the request length leaves room for.
ACCESSOR_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "xcb/names.h"

int main(void)
{
    static union { uint8_t b[44]; uint32_t word; } req;
    xcb_names_take_request_t *R = (xcb_names_take_request_t *) req.b;

    memset(req.b, 0, sizeof(req.b));
    R->size = 3;
    R->length = sizeof(req.b) / 4;
    if ((uint8_t *) xcb_names_take_ids(R) != req.b + 28 || xcb_names_take_ids_length(R) != 3)
        return puts("ids misplaced"), 1;
    if ((uint8_t *) xcb_names_take_end(R) != req.b + 36 || xcb_names_take_end_length(R) != 2)
        return puts("end misplaced"), 1;
    if (xcb_names_take_sizeof(R, 2) != 28 + 6 + 2 + 8)
        return puts("sizeof wrong"), 1;
    return 0;
}
"""


class Names(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.xml = os.path.join(self.tmp, "names.xml")
        with open(self.xml, "w", encoding="utf-8") as f:
            f.write(NAMES_XML)
        self.mod = Loader([self.tmp]).load_path(self.xml)

    def test_fields_named_like_generated_locals_compile(self):
        cc = shutil.which(os.environ.get("CC", "cc"))
        if cc is None:
            self.skipTest("no C compiler")
        os.makedirs(os.path.join(self.tmp, "xcb"))
        for rel, text in (("xcb/names.h", emit_header(self.mod)),
                          ("names.c", emit_source(self.mod))):
            with open(os.path.join(self.tmp, rel), "w", encoding="utf-8") as f:
                f.write(text)
        proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Wshadow", "-Werror",
                               "-fsyntax-only", f"-I{self.tmp}",
                               f"-I{os.path.join(ROOT, 'src')}",
                               os.path.join(self.tmp, "names.c")],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_request_accessors_find_lists_where_they_were_sent(self):
        """Take's ids (3 CARD16s) end 2 bytes off a word; libxcb pads them to
        4, so `end` starts at byte 36 of the request, not 34."""
        cc = shutil.which(os.environ.get("CC", "cc"))
        pkg = shutil.which("pkg-config")
        if cc is None or pkg is None:
            self.skipTest("no C compiler or pkg-config")
        libs = subprocess.run([pkg, "--cflags", "--libs", "xcb"], capture_output=True,
                              text=True)
        if libs.returncode != 0:
            self.skipTest("no libxcb to link with")
        os.makedirs(os.path.join(self.tmp, "xcb"))
        main = os.path.join(self.tmp, "main.c")
        for path, text in ((os.path.join(self.tmp, "xcb", "names.h"), emit_header(self.mod)),
                           (os.path.join(self.tmp, "names.c"), emit_source(self.mod)),
                           (main, ACCESSOR_MAIN)):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        exe = os.path.join(self.tmp, "accessors")
        proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", exe,
                               f"-I{self.tmp}", f"-I{os.path.join(ROOT, 'src')}", main,
                               os.path.join(self.tmp, "names.c"),
                               os.path.join(ROOT, "src", "reply_guard.c")]
                              + libs.stdout.split(), capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        run = subprocess.run([exe], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_request_lists_start_where_the_encoding_pads_them(self):
        take = self.mod.requests[0]
        ids, end = take.layout.lists
        self.assertEqual((ids.align, end.align), (4, 4))
        # The fixed part is 28 bytes; ids' CARD16s may end 2 bytes off a word.
        self.assertEqual((ids.start_align, end.start_align), (4, 4))
        self.assertEqual((ids.length_param, end.length_param), (None, "end_len"))
        src = emit_source(self.mod)
        self.assertIn("xcb_names_take_ids_offset(R) + (size_t) xcb_names_take_ids_count(R) "
                      "* 2 + 3) & ~(size_t) 3", src)

    def test_reply_facts(self):
        rep = self.mod.requests[1].reply
        self.assertEqual(rep.fd_count.name, "nfd")
        self.assertTrue(rep.checked)
        self.assertEqual(rep.fds_at, rep.layout.end)
        self.assertEqual(rep.layout.fd_total, model.Value(1))


class Lookup(unittest.TestCase):
    """The stated rule: this module's declaration hides an imported one; two
    imported ones of the same name are an error (see BadInput's fixture)."""

    @classmethod
    def setUpClass(cls):
        cls.present = shared("present")

    def test_local_declaration_hides_imported(self):
        xproto = next(mod for mod in self.present.imported if mod.header == "xproto")
        self.assertIsNotNone(xproto.declared("EventMask"))
        select = next(r for r in self.present.requests if r.name == "SelectInput")
        mask = select.layout.member("event_mask")
        self.assertEqual(mask.enum.module, "present")
        self.assertEqual(mask.enum.c_name, "xcb_present_event_mask_t")
        # Notify: RandR declares one too; Pixmap's notifies are Present's.
        randr = next(mod for mod in self.present.imported if mod.header == "randr")
        self.assertIsNotNone(randr.declared("Notify"))
        pixmap = next(r for r in self.present.requests if r.name == "Pixmap")
        self.assertEqual(pixmap.layout.lists[0].type.c_name, "xcb_present_notify_t")

    def test_qualified_name_reaches_the_import(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "q.xml")
            with open(path, "w", encoding="utf-8") as f:
                f.write('<xcb header="q"><import>imported-a</import><import>imported-b'
                        '</import><struct name="S"><field type="imported-b:THING" name="t"/>'
                        '</struct></xcb>')
            mod = Loader([BAD]).load_path(path)
            self.assertEqual(mod.declared("S").layout.member("t").type.module, "imported-b")


# The golden modules: mini.xml (every output: C and man pages) and
# constructs.xml (C only: the constructs of xcb-proto beyond our XML).
GOLDEN_MODULES = ("mini.xml", "constructs.xml")


def golden_outputs():
    """What the generator writes for the golden modules, by relative path."""
    out = {}
    for name in GOLDEN_MODULES:
        mod = Loader([GOLDEN]).load_path(os.path.join(GOLDEN, name))
        got = outputs(mod)
        if name != "mini.xml":
            got = {rel: text for rel, text in got.items() if not rel.startswith("man/")}
        out.update(got)
    return out


class ParamRefs(unittest.TestCase):
    """Which functions take a <paramref>'s value: what finds an item takes
    the params where it starts depends on, what counts it also those it
    reads; a packet with a field of that name gives it to its elements."""

    @classmethod
    def setUpClass(cls):
        cls.mod = Loader([GOLDEN]).load_path(os.path.join(GOLDEN, "constructs.xml"))

    def signatures(self, typ):
        apis = capi.list_apis(typ.c_name[:-2], typ.c_name, typ.layout)
        return {fn.name[len(typ.c_name) - 1:]: tuple(p.name for p in fn.params)
                for api in apis for fn in (api.pointer, api.length, api.end) if fn}

    def test_struct_accessors(self):
        grid = self.mod.declared("Grid")
        self.assertEqual(self.signatures(grid), {
            "cells": ("R",), "cells_length": ("R", "width"), "cells_end": ("R", "width"),
            "tags": ("R", "width"), "tags_length": ("R", "width"),
            "tags_end": ("R", "width")})
        self.assertEqual([p.name for p in capi.struct_sizeof(grid).params],
                         ["_buffer", "width"])

    def test_packet_field_gives_the_param(self):
        query = next(r for r in self.mod.requests if r.name == "Query")
        self.assertEqual(query.reply.layout.params, ())
        self.assertNotIn("uint8_t width", emit_header(self.mod).split(
            "xcb_cons_query_rows_iterator(")[1].split(";")[0])
        self.assertIn("xcb_i.width = R->width;", emit_source(self.mod))


NEST_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "xcb/cons.h"

int main(void)
{
    /* Nest's reply: parts = Colour; colours: n_cells 2, kinds = Size,
       2 pad bytes; detail: the cells 7 and 9. */
    static union { uint8_t b[44]; uint32_t word; } rep;
    const xcb_cons_nest_reply_t *R = (const xcb_cons_nest_reply_t *) rep.b;
    xcb_cons_nest_found_t S;
    uint32_t cells[2] = { 7, 9 };

    rep.b[0] = 1;
    rep.b[1] = XCB_CONS_PART_COLOUR;
    rep.b[4] = 3;                           /* length: 3 words after 32 bytes */
    rep.b[32] = 2;
    rep.b[33] = XCB_CONS_PART_SIZE;
    memcpy(rep.b + 36, cells, sizeof(cells));
    if (xcb_cons_nest_found_unpack(xcb_cons_nest_found(R), R->parts, &S) != 12)
        return puts("unpack read another size"), 1;
    if (xcb_cons_nest_found_colours_detail(&S) != &S.colours.detail)
        return puts("the inner switch is elsewhere"), 1;
    if (xcb_cons_nest_found_colours_detail_cells_length(R, &S) != 2)
        return puts("cells_length wrong"), 1;
    if (xcb_cons_nest_found_colours_detail_cells(&S)[1] != 9)
        return puts("cells wrong"), 1;
    if ((const uint32_t *) xcb_cons_nest_found_colours_detail_cells_end(R, &S).data
            != (const uint32_t *) (rep.b + 44))
        return puts("cells_end wrong"), 1;
    return 0;
}
"""


class NestedSwitch(unittest.TestCase):
    """A switch in a switch's case (constructs.xml's Nest, as xkb's
    GetKbdByName): its lists' accessors take the outermost switch, as
    unpacked, and find the lists and their lengths in it."""

    def test_accessors_read_the_unpacked_switch(self):
        cc = shutil.which(os.environ.get("CC", "cc"))
        pkg = shutil.which("pkg-config")
        if cc is None or pkg is None:
            self.skipTest("no C compiler or pkg-config")
        libs = subprocess.run([pkg, "--cflags", "--libs", "xcb"], capture_output=True,
                              text=True)
        if libs.returncode != 0:
            self.skipTest("no libxcb to link with")
        mod = Loader([GOLDEN]).load_path(os.path.join(GOLDEN, "constructs.xml"))
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "xcb"))
            main = os.path.join(tmp, "main.c")
            for path, text in ((os.path.join(tmp, "xcb", "cons.h"), emit_header(mod)),
                               (os.path.join(tmp, "cons.c"), emit_source(mod)),
                               (main, NEST_MAIN)):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            exe = os.path.join(tmp, "nest")
            proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", exe,
                                   f"-I{tmp}", f"-I{os.path.join(ROOT, 'src')}", main,
                                   os.path.join(tmp, "cons.c"),
                                   os.path.join(ROOT, "src", "reply_guard.c")]
                                  + libs.stdout.split(), capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            run = subprocess.run([exe], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


class Golden(unittest.TestCase):
    def setUp(self):
        self.got = golden_outputs()

    def test_golden_output(self):
        update = os.environ.get("UPDATE_GOLDEN") == "1"
        expected_names = set()
        for d, _, files in os.walk(GOLDEN):
            for f in files:
                rel = os.path.relpath(os.path.join(d, f), GOLDEN)
                if rel not in GOLDEN_MODULES:
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
            for rel in ("xcb/mini.h", "mini.c", "xcb/cons.h", "cons.c"):
                os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
                with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                    f.write(self.got[rel])
            for src in ("mini.c", "cons.c"):
                with self.subTest(source=src):
                    proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror",
                                           "-fsyntax-only", f"-I{tmp}",
                                           f"-I{os.path.join(ROOT, 'src')}",
                                           os.path.join(tmp, src)],
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


class Passes(unittest.TestCase):
    """The passes run in their stated order, and each leaves the draft as
    the next one expects it."""

    def draft(self):
        from xcbgen.xmlparse import parse_file
        return passes.Draft(parse_file(os.path.join(GOLDEN, "mini.xml")), Loader([GOLDEN]),
                            True)

    def test_stated_order(self):
        self.assertEqual([passes.pass_name(p) for p in passes.PASSES],
                         ["declare", "resolve", "layout", "check"])

    def test_no_other_order_runs(self):
        import itertools
        for order in itertools.permutations(passes.PASSES):
            if order == passes.PASSES:
                continue
            with self.subTest(order=[passes.pass_name(p) for p in order]):
                with self.assertRaises(RuntimeError):
                    passes.run(self.draft(), order)

    def test_each_pass_leaves_what_the_next_needs(self):
        d = self.draft()
        declare, resolve, layout, check = passes.PASSES
        declare.run(d)
        self.assertEqual([x.name for x in d.decls],
                         ["WIDGET", "Mode", "Point", "GetThings", "PutPoints", "Changed"])
        self.assertEqual(set(d.table), {"WIDGET", "Mode", "Point"})
        self.assertIsNone(d.refs)
        self.assertIsNone(d.module)

        resolve.run(d)
        point = d.decls[2]
        x = point.node.find("field")
        self.assertIs(d.refs[id(x)].type, resolve.PRIMITIVES["INT16"])
        things = d.decls[3].node.find("reply")
        values = things.find("list")
        self.assertEqual(d.refs[id(values)].length, model.FieldRef("num_values"))
        mode = next(f for f in things.find_all("field") if f.get("name") == "mode")
        self.assertIs(d.refs[id(mode)].enum, d.table["Mode"])   # built by layout
        self.assertIsNone(d.module)

        layout.run(d)
        mod = d.module
        self.assertIsInstance(mod, model.Module)
        reply = mod.requests[0].reply
        self.assertEqual(reply.fd_count.name, "nfd")
        self.assertIsInstance(reply.layout.member("mode").enum, model.Enum)

        before = repr(mod)
        check.run(d)
        self.assertIs(d.module, mod)
        self.assertEqual(repr(d.module), before)

    def test_checks_wait_for_the_check_pass(self):
        """A layout that breaks a rule is still built; only the check pass refuses it."""
        from xcbgen.xmlparse import parse_file
        path = os.path.join(BAD, "name-c-keyword.xml")
        d = passes.Draft(parse_file(path), Loader([BAD]), True)
        passes.run(d, passes.PASSES[:3])
        self.assertEqual(d.module.requests[0].layout.member("int").name, "int")
        with self.assertRaises(GenError):
            passes.PASSES[3].run(d)


class Outputs(unittest.TestCase):
    def test_unchanged_output_is_not_rewritten(self):
        xml = os.path.join(GOLDEN, "mini.xml")
        with tempfile.TemporaryDirectory() as tmp:
            args = ["--c-dir", tmp, "--h-dir", os.path.join(tmp, "xcb"), "--man-dir",
                    os.path.join(tmp, "man"), xml]
            self.assertEqual(run_codegen(args), (0, ""))
            header = os.path.join(tmp, "xcb", "mini.h")
            os.utime(header, (1000000000, 1000000000))
            with open(os.path.join(tmp, "mini.c"), "a", encoding="utf-8") as f:
                f.write("/* stale */\n")
            self.assertEqual(run_codegen(args), (0, ""))
            self.assertEqual(os.stat(header).st_mtime, 1000000000)
            with open(os.path.join(tmp, "mini.c"), encoding="utf-8") as f:
                self.assertNotIn("stale", f.read())


class Determinism(unittest.TestCase):
    def test_two_runs_equal_models_same_text(self):
        for name in ("dri3", "present"):
            with self.subTest(module=name):
                a, b = load(name), load(name)
                self.assertIsNot(a, b)
                self.assertEqual(a, b)
                self.assertEqual(outputs(a), outputs(b))

    def test_emitters_leave_model_alone(self):
        mod = shared("present")
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
