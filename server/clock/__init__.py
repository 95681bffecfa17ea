"""The tournament clock for the room's screen: a read-only web page on a port of its own.

``state.py`` builds what the screen shows from the tournament (pure); ``feeds.py`` turns it
into one JSON state a second per feed, shared by every open page; ``web.py`` serves the
page and the server-sent events (hypercorn's Trio worker, Starlette); ``static/`` is the
page. ``hickory-server --clock-port N`` starts it beside the game server (``serve.py``).
"""


class ClockPortError(Exception):
    """The clock's port could not be opened (in use, not allowed): the host's to fix."""
