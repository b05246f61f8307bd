"""Independent random streams derived from a seed and names, the same on every machine."""

from __future__ import annotations

import hashlib
import random


def stream(seed: int, *names: object) -> random.Random:
    """A ``random.Random`` that depends only on ``seed`` and ``names``.

    Game ``i`` of a run with seed ``S`` uses ``stream(S, i, "chance", point)`` for its dice and
    ``stream(S, i, "bot", seat)`` for each bot, so no stream ever shares state with another.

    >>> stream(1, 0, "chance").random() == stream(1, 0, "chance").random()
    True
    >>> stream(1, 0, "chance").random() == stream(1, 1, "chance").random()
    False
    """
    text = ":".join(str(part) for part in (seed, *names))
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))
