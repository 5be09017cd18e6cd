"""xcbgen: turns XCB-schema protocol descriptions into C bindings and man pages.

The stages, each in its own module, with no state shared between runs:

    xmlparse  XML text -> Node tree, every node carrying its file:line
    loader    finds a module and the modules it imports
    build     Node tree -> resolved, immutable model (types, sizes, offsets,
              lists with length expressions, fds, docs), checking as it goes
    emit_c    model -> C header and source text
    emit_man  model -> man pages

Emitters are pure functions of the model; they never write onto it.
"""
