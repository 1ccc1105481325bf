"""What the tests of the generators' forks share: a count of holders lost between threads."""

from __future__ import annotations

import random


def count_lost(rng: random.Random) -> None:
    """Sets the count of the forks holding ``rng``'s generator to one, as updates lost between
    two threads could leave it (the forks count their holders without a lock): each fork then
    draws from the generator itself. A generator of its own (not a fork) is left as it is."""
    holders = getattr(rng, "_holders", None)
    if holders is not None:
        holders[0] = 1
