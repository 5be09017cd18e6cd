"""xcbgen: turns XCB-schema protocol descriptions into C bindings and man pages.

The stages, each in its own module, with no state shared between runs:

    xmlparse  XML text -> Node tree, every node carrying its file:line
    loader    finds a module and the modules it imports
    passes    Node tree -> resolved, immutable model, through the passes it
              lists in order: declare, resolve, layout, check (pass_*.py)
    capi      the C API a module gets (names and signatures), for both emitters
    emit_c    model -> C header and source text
    emit_man  model -> man pages

Emitters are pure functions of the model; they never write onto it, and
they check nothing: every rule is the check pass's.
"""
