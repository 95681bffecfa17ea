"""Whether the server is still there, as the screen shows it: the clocks stop when it is not.

A killed server's machine closes the connection at once and the session says so
(``reconnecting``); a server that is stopped, or a network gone quiet, closes nothing. The
terminal client pings every second when it has nothing else to send (``client.cli``), so
in a healthy connection something is heard every second; SILENT_SECONDS without a line is
shown as a silent server, well before the session gives the connection up.
"""

from __future__ import annotations

from client.model import ClientModel, ConnectionState
from client.tui.state import UiState

SILENT_SECONDS = 2.0
"""Nothing heard from the server for this long (the terminal client pings it every second
when it has nothing else to send): it is said on screen and the clocks stop."""


def server_silent(model: ClientModel, ui: UiState, now: float) -> bool:
    """Connected, but the server has said nothing (not even a pong) for SILENT_SECONDS: a
    server stopped or a network gone quiet, before the session gives the connection up."""
    return (
        model.connection is ConnectionState.CONNECTED
        and ui.last_heard is not None
        and now - ui.last_heard > SILENT_SECONDS
    )


def screen_time(model: ClientModel, ui: UiState, now: float) -> float:
    """The time the screen's clocks show: ``now`` while connected; from the moment the
    connection is lost (or the server fell silent), that moment: nobody knows what the
    server's clocks do meanwhile, and a clock counting on a dead connection misleads."""
    if server_silent(model, ui, now):
        assert ui.last_heard is not None
        return ui.last_heard + SILENT_SECONDS
    if model.connection is ConnectionState.CONNECTED or model.me.role is None:
        ui.frozen_at = None
        return now
    if ui.frozen_at is None:
        # Down after a silence: the clocks stay where the silence stopped them.
        heard = ui.last_heard
        ui.frozen_at = now if heard is None else min(now, heard + SILENT_SECONDS)
    return ui.frozen_at


def stopped_by_silence(ui: UiState, shown: float) -> bool:
    """The clocks drawn at ``shown`` (what ``screen_time`` gave) are the ones a silence
    stopped: for the parts of the screen drawn with that time."""
    return ui.last_heard is not None and shown >= ui.last_heard + SILENT_SECONDS
