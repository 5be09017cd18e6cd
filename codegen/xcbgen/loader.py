"""Finds protocol modules by header name and builds each one once."""

import os

from .errors import GenError, Loc
from .xmlparse import parse_file


class Loader:
    """Loads `<header>.xml` from the first search directory that has it.

    Our own descriptions come first in the search path, the installed
    xcb-proto ones after, so `present.xml` imports our `dri3.xml`.
    Imported modules are built for their types only (`full=False`): we never
    emit code for them, so requests and events there are not our concern.
    """

    def __init__(self, search_dirs, require_docs=False, strict_names=False):
        self.search_dirs = list(search_dirs)
        # The rules for our own descriptions: every request, parameter and
        # event has <doc> text; no field is named after a C++ keyword.
        self.require_docs = require_docs
        self.strict_names = strict_names
        self._built = {}
        self._loading = []

    def find(self, header, loc):
        for d in self.search_dirs:
            path = os.path.join(d, header + ".xml")
            if os.path.exists(path):
                return path
        raise GenError(loc, f"cannot find the module '{header}' "
                            f"(looked in: {', '.join(self.search_dirs)})")

    def load(self, header, loc=None, full=False):
        loc = loc or Loc("<command line>", 0)
        key = (header, full)
        if key in self._built:
            return self._built[key]
        if header in self._loading:
            cycle = " -> ".join(self._loading + [header])
            raise GenError(loc, f"import cycle: {cycle}")
        self._loading.append(header)
        try:
            from .passes import build_module   # the passes import the loader's users
            module = build_module(parse_file(self.find(header, loc)), self, full)
        finally:
            self._loading.pop()
        self._built[key] = module
        return module

    def load_path(self, path, full=True):
        """Build the module in `path` itself (its imports come from the search path)."""
        from .passes import build_module
        return build_module(parse_file(path), self, full)
