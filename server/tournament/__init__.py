"""The tournament as a sans-I/O state object: registration, seating and balancing, the level
clock, standings and the director. Driven by calls with a time value and an RNG passed in;
no trio, no clock reads, no global random (like ``poker``)."""

from .director import Director
from .errors import TournamentError
from .events import (
    Announcement,
    BreakEnded,
    BreakStarted,
    ChipsCorrected,
    ClockPaused,
    ClockResumed,
    DeadlinePassed,
    DirectorAction,
    FinalTable,
    FinishReason,
    FloorCalled,
    LevelChanged,
    MoveReason,
    PlayerEliminated,
    PlayerMoved,
    PlayerRegistered,
    PlayerSeated,
    RuleChange,
    RulesChanged,
    TableBroken,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from .settings import Settings
from .standings import Standing
from .tournament import LevelInfo, Location, Phase, Tournament

__all__ = [
    "Announcement", "BreakEnded", "BreakStarted", "ChipsCorrected", "ClockPaused", "ClockResumed", "DeadlinePassed",
    "Director", "DirectorAction", "FinalTable", "FinishReason", "FloorCalled", "LevelChanged",
    "LevelInfo", "Location", "MoveReason", "Phase", "PlayerEliminated", "PlayerMoved",
    "PlayerRegistered", "PlayerSeated", "RuleChange", "RulesChanged", "Settings", "Standing", "TableBroken",
    "Tournament", "TournamentError", "TournamentEvent", "TournamentFinished",
    "TournamentStarted",
]
