"""Model -> man pages: one per request (with its reply) and one per event."""


def emit_man_pages(mod):
    return {}
