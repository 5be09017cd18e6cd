"""header-man: section-3 man pages from the util libraries' header comments.

The stages, one module each: scan (a header into comments, preprocessor
lines and declarations), doc (a comment into the parts of a page), parse
(a declaration into a model entry), check (names a comment mentions),
emit_man (a model entry into roff).  Every error carries FILE:LINE.
"""
