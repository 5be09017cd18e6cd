"""The one place that knows the passes and their order.

    declare   names: every top-level element gets its XML and C names    (pass_declare)
    resolve   every type, enum and length a field names -> its meaning   (pass_resolve)
    layout    declarations -> the immutable model, facts included        (pass_layout)
    check     the model against the rules of the wire, C and the docs    (pass_check)

Each pass reads what the passes before it left in a Draft (its NEEDS) and
adds what it GIVES; run() refuses an order in which a pass would read
something that no pass before it gave, so the order above is the only one
that runs.
"""

from . import pass_check, pass_declare, pass_layout, pass_resolve

PASSES = (pass_declare, pass_resolve, pass_layout, pass_check)


def pass_name(p):
    return p.__name__.rsplit(".", 1)[-1][len("pass_"):]


class Draft:
    """What the passes know about one module so far; None means not yet."""

    def __init__(self, root, loader, full):
        self.root = root
        self.loader = loader
        self.full = full
        # declare
        self.header = self.prefix = self.macro = None
        self.imports = self.decls = self.table = None
        # resolve
        self.refs = None
        # layout
        self.module = None


def run(draft, passes=PASSES):
    """Runs the passes in order on `draft`; returns the model the last one left."""
    given = {"root", "loader", "full"}
    for p in passes:
        missing = [n for n in p.NEEDS if n not in given]
        if missing:
            raise RuntimeError(f"the pass '{pass_name(p)}' needs {', '.join(missing)}, "
                               f"which no pass before it gives")
        p.run(draft)
        unset = [n for n in p.GIVES if getattr(draft, n) is None]
        if unset:
            raise RuntimeError(f"the pass '{pass_name(p)}' left {', '.join(unset)} unset")
        given.update(p.GIVES)
    return draft.module


def build_module(root, loader, full):
    return run(Draft(root, loader, full))
