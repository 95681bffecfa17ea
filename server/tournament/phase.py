"""Where a tournament is in its night: registering, running, or finished."""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
