"""XCB's C naming rules: CamelCase and UPPERCASE XML names to C identifiers."""

import re

# A word is a run of capitals and digits (an acronym such as "FD", "DRI3" or
# "CHAR2B") that stops before a capitalised word, a capitalised word, or a run
# of lower-case letters.
_WORD = re.compile(r"[A-Z0-9]+(?=[A-Z][a-z])|[A-Z0-9]?[a-z][a-z0-9]*|[A-Z0-9]+")


class BadName(ValueError):
    """A name that is not made of words; the caller knows where it came from."""


def words(name):
    found = _WORD.findall(name)
    if "".join(found) != name.replace("_", ""):
        raise BadName(f"cannot split the name '{name}' into words")
    return found


def lower(name):
    """'PixmapFromBuffers' -> 'pixmap_from_buffers', 'SYNCOBJ' -> 'syncobj'."""
    return "_".join(w.lower() for w in words(name))


def upper(name):
    """'NotifyMSC' -> 'NOTIFY_MSC'."""
    return "_".join(w.upper() for w in words(name))


def c_prefix(header):
    """The core protocol's names carry no module prefix: xcb_window_t."""
    return "xcb_" if header == "xproto" else f"xcb_{header}_"
