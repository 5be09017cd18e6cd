"""<doc> elements -> Doc values."""

from . import model as m


def parse_doc(node):
    """<doc> -> Doc; a missing <doc> gives an empty Doc."""
    if node is None:
        return m.Doc()

    def text(tag):
        child = node.find(tag)
        return " ".join(child.text.split()) if child is not None else ""

    desc = node.find("description")
    return m.Doc(
        brief=text("brief"),
        # Descriptions keep their paragraphs: blank lines separate them.
        description=_paragraphs(desc.text) if desc is not None else "",
        fields=tuple((f.require("name"), " ".join(f.text.split()))
                     for f in node.find_all("field")),
        errors=tuple((e.require("type"), " ".join(e.text.split()))
                     for e in node.find_all("error")),
        see=tuple((s.get("type", ""), s.get("name", "")) for s in node.find_all("see")),
    )


def _paragraphs(text):
    paras, current = [], []
    for line in text.strip().splitlines():
        if line.strip():
            current.append(line.strip())
        elif current:
            paras.append(" ".join(current))
            current = []
    if current:
        paras.append(" ".join(current))
    return "\n\n".join(paras)
