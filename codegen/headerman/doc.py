"""Turn a doc comment into a page's parts (the comment convention).

- The first sentence is the NAME line (100 characters at most).
- Paragraphs are separated by blank lines; a paragraph starting with
  "Returns" is the RETURN VALUE, one starting with "See also" the SEE ALSO
  list ("See also a(), b(2)."); a line underlined with === or --- starts a
  section of that title.
- Indented lines are lists: "- text" bullets or "TAG  text" items (two
  spaces at least between tag and text); a line indented deeper than its
  item continues it.
- Lines starting with "| " are shown as they are (a table, an example).
"""

import re

from .errors import HeaderError
from .model import Block, Doc

NAME_MAX = 100
_UNDERLINE = re.compile(r"^\s*(={3,}|-{3,})\s*$")
_TAGGED = re.compile(r"^(\S+(?: \S+)*)\s{2,}(\S.*)$")
_SEE_ALSO_ENTRY = re.compile(r"^(\w+)(?:\((\w*)\))?$")
_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "cf")


def comment_lines(raw, first_line):
    """The comment's text lines as (line number, text), with /*, */ and
    the leading ' * ' of each line removed; indentation past it is kept."""
    body = raw[2:-2] if raw.startswith("/*") else raw[2:]
    out = []
    for i, text in enumerate(body.split("\n")):
        if i == 0:
            text = text[1:] if text.startswith(" ") else text
        else:
            stripped = text.lstrip()
            if stripped.startswith("*"):
                text = stripped[1:]
                text = text[1:] if text.startswith(" ") else text
            else:
                text = stripped
        out.append((first_line + i, text.rstrip()))
    while out and not out[0][1]:
        out.pop(0)
    while out and not out[-1][1]:
        out.pop()
    return out


def comment_text(raw):
    """A comment as one line of words (member comments, markers)."""
    return " ".join(t.strip() for _, t in comment_lines(raw, 1) if t.strip())


def _groups(lines, path):
    """Blank-line separated groups of blocks; a heading is its own group
    ("heading", title).  Each group: (kind, line, first text, blocks)."""
    groups, blocks, para, item, verbatim = [], [], [], None, []
    start = None

    def flush_verbatim():
        nonlocal verbatim
        if verbatim:
            blocks.append(Block(text="\n".join(verbatim), verbatim=True))
            verbatim = []

    def flush_text():
        nonlocal para
        if para:
            blocks.append(Block(text="\n".join(para)))
            para = []

    def flush_para():
        flush_verbatim()
        flush_text()

    def flush_item():
        nonlocal item
        if item:
            tag, indent, text = item
            if blocks and blocks[-1].items:
                blocks[-1] = Block(items=blocks[-1].items + ((tag, text),))
            else:
                blocks.append(Block(items=((tag, text),)))
            item = None

    def flush_group():
        nonlocal blocks, start
        flush_para()
        flush_item()
        if blocks:
            groups.append(("text", start, blocks))
        blocks, start = [], None

    for i, (number, text) in enumerate(lines):
        following = lines[i + 1][1] if i + 1 < len(lines) else ""
        if not text.strip():
            flush_group()
            continue
        if _UNDERLINE.match(text):
            raise HeaderError(path, number, "an underline with no heading above it")
        if _UNDERLINE.match(following) and not text.startswith(" "):
            flush_group()
            groups.append(("heading", number, text.strip()))
            lines[i + 1] = (lines[i + 1][0], "")
            continue
        if start is None:
            start = number
        indent = len(text) - len(text.lstrip())
        stripped = text.strip()
        if text.startswith("|"):
            flush_text()
            flush_item()
            verbatim.append(text[2:] if text.startswith("| ") else "")
            continue
        flush_verbatim()
        if indent == 0:
            flush_item()
            para.append(stripped)
            continue
        if item and indent > item[1]:
            item = (item[0], item[1], item[2] + "\n" + stripped)
            continue
        flush_para()
        flush_item()
        if stripped.startswith("- "):
            item = (None, indent, stripped[2:].strip())
            continue
        tagged = _TAGGED.match(stripped)
        if not tagged:
            raise HeaderError(path, number, "an indented line that is neither a '- ' bullet "
                              "nor a 'TAG  text' item (two spaces after the tag)")
        item = (tagged.group(1), indent, tagged.group(2))
    flush_group()
    return groups


def _first_sentence(text):
    """(sentence, rest) of a paragraph: the sentence ends at the first
    period outside parentheses that a space or the end follows."""
    depth = 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "." and depth <= 0 and (i + 1 == len(text) or text[i + 1].isspace()):
            word = text[:i].split()[-1] if text[:i].split() else ""
            if word.lower().lstrip("(") in _ABBREVIATIONS:
                continue
            return text[:i], text[i + 1:].strip()
    return text, ""


def _see_also(text, path, line):
    body = text[len("See also"):].strip().rstrip(".")
    entries = []
    for entry in re.split(r",\s*|\s+and\s+", body):
        m = _SEE_ALSO_ENTRY.match(entry.strip())
        if not m:
            raise HeaderError(path, line, f"a See also entry that is not NAME() or "
                              f"NAME(SECTION): '{entry.strip()}'")
        entries.append((m.group(1), m.group(2) or "3"))
    return tuple(entries)


def parse_doc(raw, path, line):
    """The Doc of a comment that starts on line."""
    lines = comment_lines(raw, line)
    if not lines:
        raise HeaderError(path, line, "an empty comment")
    groups = _groups(lines, path)
    if not groups or groups[0][0] != "text" or groups[0][2][0].items \
            or groups[0][2][0].verbatim:
        raise HeaderError(path, line, "a comment must open with a sentence, its NAME line")
    first = groups[0][2]
    sentence, rest = _first_sentence(" ".join(first[0].text.split()))
    if len(sentence) > NAME_MAX:
        raise HeaderError(path, groups[0][1], f"the first sentence has {len(sentence)} "
                          f"characters; the NAME line takes {NAME_MAX} at most")
    if not sentence:
        raise HeaderError(path, groups[0][1], "the first sentence is empty")
    summary = sentence[0].lower() + sentence[1:] if sentence[1:2].islower() else sentence
    description = ([Block(text=rest)] if rest else []) + list(first[1:])
    returns, sections, see_also = [], [], ()
    current = description
    for kind, number, body in groups[1:]:
        if kind == "heading":
            current = []
            sections.append((body.upper(), current))
            continue
        head = body[0].text
        if head.startswith("See also"):
            if see_also:
                raise HeaderError(path, number, "a second See also paragraph")
            if len(body) > 1:
                raise HeaderError(path, number, "a See also paragraph with a list in it")
            see_also = _see_also(" ".join(head.split()), path, number)
        elif re.match(r"Returns\b", head):
            returns.extend(body)
        else:
            current.extend(body)
    return Doc(path=path, line=line, summary=summary, description=tuple(description),
               returns=tuple(returns),
               sections=tuple((t, tuple(b)) for t, b in sections), see_also=see_also)
