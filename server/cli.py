"""``hickory-server``: run a tournament (the default), or a tool on its database.

    hickory-server [--host H] [--port P] [--db PATH] ...     run the server
    hickory-server simulate ...                              play hands in process
    hickory-server history --db PATH [...]                   export hands
    hickory-server standings --db PATH [--stats]             print standings
    hickory-server stats --db PATH                           every player's statistics
    hickory-server director-secret --db PATH                 a new director secret
    hickory-server verify --db PATH                          check every deck and the hand chain

Adding a tool is one function and one parser entry in ``SUBCOMMANDS``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

Subcommand = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]


def _serve_parser(p: argparse.ArgumentParser) -> None:
    from server.serve import add_serve_arguments

    add_serve_arguments(p)


def _serve(args: argparse.Namespace) -> int:
    from server.serve import serve

    return serve(args)


def _subcommands() -> list[Subcommand]:
    """(name, add its arguments, run it). Imported lazily so `--help` stays fast."""
    subs: list[Subcommand] = []
    from server.tournament.simulate import with_tournament_mode

    try:
        from server.simulate import add_simulate_arguments, run_simulate

        subs.append(("simulate", *with_tournament_mode(add_simulate_arguments, run_simulate)))
    except ImportError:
        subs.append(("simulate", *with_tournament_mode(None, None)))  # --tournament only
    try:
        from server.history_tool import add_history_arguments, run_history
        from server.standings_tool import (
            add_standings_arguments,
            add_stats_arguments,
            run_standings,
            run_stats,
        )

        subs.append(("history", add_history_arguments, run_history))
        subs.append(("standings", add_standings_arguments, run_standings))
        subs.append(("stats", add_stats_arguments, run_stats))
    except ImportError:
        pass
    from server import director_key

    subs.append(("director-secret", director_key.add_arguments, director_key.run))
    from server.verify import add_verify_arguments, run_verify

    subs.append(("verify", add_verify_arguments, run_verify))
    return subs


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    subs = {name: (add, run) for name, add, run in _subcommands()}
    if args_list and args_list[0] in subs:
        name = args_list[0]
        add, run = subs[name]
        parser = argparse.ArgumentParser(prog=f"hickory-server {name}")
        add(parser)
        return run(parser.parse_args(args_list[1:]))
    parser = argparse.ArgumentParser(
        prog="hickory-server",
        description="Run a Hickory poker tournament server. Tools: "
        + ", ".join(f"'hickory-server {n} --help'" for n in subs),
    )
    _serve_parser(parser)
    return _serve(parser.parse_args(args_list))


if __name__ == "__main__":
    raise SystemExit(main())
