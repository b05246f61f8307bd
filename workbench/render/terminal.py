"""Text for the terminal: whatever came from a user's file is shown, never obeyed."""

from __future__ import annotations

import re

#: C0 and C1 controls (terminal escapes, carriage returns, newlines), and the invisible
#: characters that reorder or hide text (bidi overrides, zero-width marks). Tabs stay.
_HIDDEN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    r"""``text`` with control and invisible characters written as escapes, so printing it cannot drive the terminal.

    >>> printable("Red \x1b[31mgame\x1b[0m\n")
    'Red \\x1b[31mgame\\x1b[0m\\x0a'
    >>> printable("tab\tstays, é and ♥ too")
    'tab\tstays, é and ♥ too'
    """
    return _HIDDEN.sub(_escape, text)
