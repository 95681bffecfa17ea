"""``make play`` (``python -m client.play``): a local tournament against bots, in one command.

Starts ``hickory-server`` as a child process on a free loopback port with five built-in
bots and a throwaway database, waits until it listens, and opens the terminal client
seated at the table (the tournament starts by itself when the sixth player, you, joins).
The tournament clock page is on too: its address is printed before the table opens.
When the client quits, the server is stopped and the temporary files go with it.

Everything the server prints goes to a log file in the temporary directory; if the server
fails to start, the end of that log is shown.
"""

from __future__ import annotations

import argparse
import getpass
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from client import cli

START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


def default_name() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    user = re.sub(r"[^A-Za-z0-9_.-]", "", user)[:24]
    return user if user and not user.startswith("bot-") else "you"


def free_port() -> int:
    """A free port for the clock page: the server's port file names only the game's port,
    so ``make play`` picks the clock's itself to print its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_command(port_file: Path, db: Path, bots: int, extra: Sequence[str] = (),
                   clock_port: int | None = None) -> list[str]:
    clock = [] if clock_port is None else ["--clock-port", str(clock_port)]
    return [
        sys.executable, "-m", "server",
        "--host", "127.0.0.1",
        "--port", "0",
        "--port-file", str(port_file),
        *clock,
        "--db", str(db),
        "--bots", str(bots),
        "--start-at", str(bots + 1),
        "--no-deadline",
        "--name", "Practice table",
        *extra,
    ]


def wait_for_port(proc: subprocess.Popen[bytes], port_file: Path, timeout: float) -> int:
    """The port the server wrote, once it is listening; RuntimeError if it dies or is slow."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode} before listening")
        try:
            text = port_file.read_text().strip()
        except OSError:
            text = ""
        if text.isdigit():
            return int(text)
        time.sleep(0.05)
    raise RuntimeError(f"the server did not start listening within {timeout:g} s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (the server says goodbye and closes its database), then SIGKILL if it hangs."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def log_tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no server log)"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="make play",
        description="Play a local tournament against built-in bots.",
    )
    p.add_argument("--name", default=default_name(), help="your name at the table")
    p.add_argument("--bots", type=int, default=5, help="how many bots (default 5)")
    p.add_argument("--ascii", action="store_true", help="plain letters for suits")
    p.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                   help="pass ARG on to hickory-server (e.g. --server-arg=--action-clock=15)")
    args = p.parse_args(argv)
    if not 1 <= args.bots <= 9:
        p.error("--bots must be 1 to 9 (one table)")
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("make play needs a terminal", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="hickory-play-") as tmp:
        tmpdir = Path(tmp)
        port_file, db, log_path = tmpdir / "port", tmpdir / "play.db", tmpdir / "server.log"
        clock_port = free_port()
        cmd = server_command(port_file, db, args.bots, args.server_arg, clock_port=clock_port)
        print(f"Starting a local server with {args.bots} bots...", flush=True)
        with open(log_path, "wb") as log:
            # Its own session: Ctrl-C in the terminal goes to the client (which quits
            # cleanly), and the server is stopped afterwards by us.
            proc = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        try:
            try:
                port = wait_for_port(proc, port_file, START_TIMEOUT)
            except RuntimeError as exc:
                print(f"make play: {exc}\n--- server log ---\n{log_tail(log_path)}", file=sys.stderr)
                return 1
            # In the terminal before the table takes the screen (and there again after it).
            print(f"Tournament clock (open it in a browser): http://127.0.0.1:{clock_port}/", flush=True)
            client_args = [f"127.0.0.1:{port}", "--name", args.name,
                           "--token-file", str(tmpdir / "tokens.json"), "--practice",
                           "--deck-record", str(tmpdir / "decks.jsonl")]
            if args.ascii:
                client_args.append("--ascii")
            code = cli.main(client_args)
        finally:
            stop_server(proc)
        if proc.returncode not in (0, -signal.SIGTERM):
            print(f"the local server exited with code {proc.returncode}\n--- server log ---\n"
                  f"{log_tail(log_path)}", file=sys.stderr)
        print("Local server stopped.")
        return code


if __name__ == "__main__":
    raise SystemExit(main())
