"""Links, embeds and lessons (issue 14): the Python groundwork of the pages.

- :mod:`chkobba.links.codec`: a record or a position as a short, URL-safe,
  versioned text (``encode``/``decode``, :class:`Link`); grammar in
  ``docs/links.md``.
- :mod:`chkobba.links.lessons`: the rule tutorial's steps, read from
  ``lessons/*.json`` and judged by the engine.
"""

from .codec import MAX_LENGTH, MODES, PREFIX, InvalidLink, Link, decode, decode_record, encode

__all__ = ["Link", "InvalidLink", "encode", "decode", "decode_record", "PREFIX", "MODES", "MAX_LENGTH"]
