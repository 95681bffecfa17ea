"""The garbage collector, set for a server that holds a large, long-lived heap.

CPython's cyclic collector runs in whatever step allocates past its threshold and scans
everything in the generations it collects. A server with a thousand players holds a few
hundred thousand long-lived objects (connections, tasks, seats, players), and every full
collection walked all of them: 100-180 ms with the event loop stopped, the largest
stalls measured (docs/architecture.md, "Performance"). Two cures, as CPython's docs advise
for servers: ``gc.freeze()`` once start-up is done and again once the tournament has
seated everyone, which moves every object alive then out of the collector's sight
(refcounting still frees them; only cycles among frozen objects would be kept), and
thresholds that make the young collections rarer, so fewer short-lived objects are
promoted into the old generations.

Only the server process (``serve.py``) does this; tests run servers inside a shared
process and leave its collector alone.
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 20, 20)
"""Young collections every 50,000 net allocations instead of CPython's 700, the middle
one every 20 of those, the full one every 20 middle ones (and, as always, only when the
old generation has grown by a quarter since the last).

Why a young collection is not cheap here: every task waiting on a socket or a channel
holds a chain of suspended coroutines, allocated when it began waiting. With a thousand
players (two thousand waiting tasks) the young generation held about 18,000 such objects
at each collection (measured with ``gc.get_objects(0)``) and none of them garbage, so a
young collection cost 2-12 ms of CPU whatever the threshold, and the middle one 14-25 ms.
A lower threshold only makes them more frequent; at 50,000 they come every minute or two
(the server makes no cyclic garbage in play: every collection measured found 0 objects)."""


def tune_collector() -> None:
    gc.set_threshold(*THRESHOLDS)


def freeze_long_lived() -> None:
    """Move every object alive now out of the collector's sight (``gc.freeze``)."""
    gc.freeze()
