"""Runs xcb-codegen on modules in this process, for the tests of this directory."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "codegen"))

from xcbgen.emit_c import emit_header, emit_source  # noqa: E402
from xcbgen.loader import Loader  # noqa: E402


def generate(modules, xml_dir, out_dir, search=()):
    """Writes <out_dir>/<m>.c and <out_dir>/xcb/<m>.h for each module of
    xml_dir; imports are looked up there, then in `search`. Returns
    {module: error text} for those that failed."""
    loader = Loader([xml_dir] + list(search))
    os.makedirs(os.path.join(out_dir, "xcb"), exist_ok=True)
    failed = {}
    for mod_name in modules:
        try:
            mod = loader.load_path(os.path.join(xml_dir, mod_name + ".xml"))
            files = {os.path.join(out_dir, "xcb", mod.header + ".h"): emit_header(mod),
                     os.path.join(out_dir, mod.header + ".c"): emit_source(mod)}
        except Exception as e:  # a test reports any failure, whatever its kind
            failed[mod_name] = str(e)
            continue
        for path, text in files.items():
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return failed


def modules_of(xml_dir):
    return sorted(f[:-4] for f in os.listdir(xml_dir) if f.endswith(".xml"))
