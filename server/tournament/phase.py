"""Where a tournament is in its night: registering, running, or finished."""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


# The members as plain module names, for the comparisons made on every deal, hand end and
# tick: on Python 3.11 ``Phase.RUNNING`` goes through ``EnumType.__getattr__`` and costs
# eight times a global's lookup (3.12 dropped that hook).
REGISTERING, RUNNING, FINISHED = Phase.REGISTERING, Phase.RUNNING, Phase.FINISHED
