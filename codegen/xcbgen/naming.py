"""XCB's C naming rules: CamelCase and UPPERCASE XML names to C identifiers."""

import re

# A word is a capital or digit followed by lower-case letters ("Pixmap"), a
# run of capitals and digits not followed by a lower-case letter (an acronym
# such as "FD", "DRI3" or "CHAR2B"), or a run of lower-case letters. These are
# the word boundaries libxcb's names have always had: "Dri2Buffer" is
# dri_2_buffer, "SAMovePtr" sa_move_ptr.
_WORD = re.compile(r"[A-Z0-9][a-z]+|[A-Z0-9]+(?![a-z])|[a-z]+")

# Names XCB spells as one word whatever their capitals.
_SPECIAL = {"DECnet": ["decnet"]}

# Extension names whose C prefix is split into words; every other extension's
# prefix is its name in lower case, in one word ("XF86VidMode": xf86vidmode).
_SPLIT_EXTENSIONS = frozenset({"XPrint", "XCMisc", "BigRequests"})


class BadName(ValueError):
    """A name that is not made of words; the caller knows where it came from."""


def words(name):
    if name in _SPECIAL:
        return _SPECIAL[name]
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


def ext_lower(ext_name):
    """An extension's part of C names: 'RandR' -> 'randr', 'BigRequests' -> 'big_requests'."""
    return lower(ext_name) if ext_name in _SPLIT_EXTENSIONS else ext_name.lower()


def c_prefix(header, ext_name=""):
    """The core protocol's names carry no module prefix: xcb_window_t; an
    extension's carry its extension name's (xinput.xml: xcb_input_),
    or without one, the header's."""
    if header == "xproto":
        return "xcb_"
    return f"xcb_{ext_lower(ext_name) if ext_name else header}_"


# XML field names that are C or C++ keywords, and the C names libxcb gives them.
KEYWORD_FIELDS = {"class": "_class", "new": "_new", "delete": "_delete", "default": "_default"}


def field(name):
    """A field's C name: its XML name, unless that is a keyword."""
    return KEYWORD_FIELDS.get(name, name)
