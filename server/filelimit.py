"""How many connections the process can hold: the open-file limit, raised and respected.

Every connection is a file descriptor. Most systems start a process with a soft limit of
1,024 open files and a much higher hard limit; a server that accepts past its limit fails
wherever it next opens a file (a database reader, a socket, the bots' pipe), far from the
cause. So at start-up the server raises its soft limit to the hard one, and then holds at
most as many connections as the limit leaves room for, keeping ``FD_RESERVE`` descriptors
for everything else and ``REFUSAL_ROOM`` for connections it accepts only to say
``server_full``.
"""

from __future__ import annotations

FD_RESERVE = 64
"""Descriptors kept for the database (its file, WAL, readers), the bots' pipe, listeners, logs."""

REFUSAL_ROOM = 32
"""Connections past ``max_connections`` accepted at once to be told ``server_full``; past
these the server stops accepting until some close (the kernel queues the rest)."""


def raise_file_limit() -> int:
    """Raise the soft limit on open files to the hard limit; the soft limit now in force.

    Where there is no such limit (or it cannot be read), a large number.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return 1 << 20
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            pass
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_capacity(max_connections: int, open_files: int) -> int:
    """The connections a server may hold with ``open_files`` descriptors: ``max_connections``,
    or fewer if the limit cannot hold that many with room for everything else."""
    return max(1, min(max_connections, open_files - FD_RESERVE - REFUSAL_ROOM))
