"""The client, served by the server itself: a hall often has no internet.

Two downloads, built from what this server runs, on the clock's port (``/hickory.whl``,
``/hickory.pyz``) or a port of their own (``--share-client PORT``):

- ``hickory-VERSION-py3-none-any.whl``: ``python3 -m pip install http://HOST:PORT/hickory.whl``
  installs ``hickory``, ``hickory-bot`` and ``hickory-acpc`` with no package index: the
  wheel declares no dependencies and carries the pure-Python ones in ``hickory_vendor/``,
  which a ``.pth`` file puts at the end of ``sys.path`` (so a newer copy the player already
  has wins);
- ``hickory.pyz``: a zip application, ``python3 hickory.pyz HOST:7777 --name alice``,
  needing nothing but Python 3.11 (the dependencies at the top of the zip, which is the
  first entry of ``sys.path``).

Both hold ``client``, ``protocol`` and ``poker`` and none of the compiled packages: the
client's pure-Python paths take over (``poker/pure_strength.py`` for the evaluator, the
standard ``json`` for the codec). The server never imports the client: the files are read
from where the packages are. Built once, on the first request, in a thread.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import importlib.util
import io
import logging
import zipfile
from collections.abc import Iterator
from pathlib import Path

import attrs
import trio

log = logging.getLogger("hickory.share")

__all__ = ["Bundle", "ClientShare", "VENDORED", "build_pyz", "build_wheel", "client_files", "wheel_name"]

FIRST_PARTY = ("client", "protocol", "poker")
VENDORED = ("trio", "attrs", "cattrs", "prompt_toolkit", "sniffio", "outcome", "idna",
            "sortedcontainers", "wcwidth", "typing_extensions", "zeroconf", "ifaddr")
"""The client's pure-Python dependencies and theirs (``tests/lan/test_share.py`` runs the zip
application with no site packages at all, so a missing one fails there)."""

ENTRY_POINTS = {"hickory": "client.cli:main", "hickory-bot": "client.botcli:main",
                "hickory-acpc": "client.acpc.cli:main"}
PYZ_MAIN = b"""# The Hickory client as one file: python3 hickory.pyz HOST:PORT --name NAME
import sys

from client.cli import main

sys.exit(main())
"""


def version() -> str:
    try:
        return importlib.metadata.version("hickory")
    except importlib.metadata.PackageNotFoundError:
        return "0.0.0"


def wheel_name() -> str:
    return f"hickory-{version()}-py3-none-any.whl"


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # finds, does not import
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"cannot find the {name!r} package to share")
    return Path(next(iter(spec.submodule_search_locations)))


def _first_party() -> Iterator[tuple[str, Path]]:
    for package in FIRST_PARTY:
        root = _package_dir(package)
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield f"{package}/{path.relative_to(root).as_posix()}", path


def _vendored() -> Iterator[tuple[str, Path]]:
    for name in VENDORED:
        dist = importlib.metadata.distribution(name)
        for file in dist.files or ():
            parts = file.parts
            if (not parts or parts[0].endswith((".dist-info", ".egg-info")) or parts[0] == ".."
                    or "__pycache__" in parts or file.suffix == ".pyc"):
                continue
            if file.suffix in (".so", ".pyd", ".dylib"):
                continue  # an optional accelerator (wcwidth's): each has its pure fallback
            yield file.as_posix(), Path(str(dist.locate_file(file)))


def client_files() -> tuple[list[tuple[str, Path]], list[tuple[str, Path]]]:
    """(the client's own files, the vendored ones), as (path in the archive, file)."""
    return list(_first_party()), list(_vendored())


def _zip(entries: list[tuple[str, bytes]], prefix: bytes = b"") -> bytes:
    out = io.BytesIO()
    out.write(prefix)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return out.getvalue()


def build_pyz() -> bytes:
    """The zip application, each module with its compiled form beside it: Python does not
    write bytecode into a zip, so without it every start would compile the whole client
    again (seconds of CPU). The compiled forms are for this server's Python; another
    version's ``zipimport`` sees the other magic number and compiles from the source."""
    own, vendored = client_files()
    entries = []
    for name, path in own + vendored:
        source = path.read_bytes()
        entries.append((name, source))
        if name.endswith(".py"):
            compiled = _unchecked_pyc(source, name)
            if compiled is not None:
                entries.append((name + "c", compiled))
    entries.append(("__main__.py", PYZ_MAIN))
    return _zip(entries, b"#!/usr/bin/env python3\n")


def _unchecked_pyc(source: bytes, name: str) -> bytes | None:
    """A PEP 552 unchecked hash-based ``.pyc`` (``zipimport`` takes it as it is: the zip
    never changes), or None for a file this Python cannot compile."""
    import importlib.util
    import marshal

    try:
        code = compile(source, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    flags = (0b01).to_bytes(4, "little")  # hash-based, source not checked
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source) + marshal.dumps(code)


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel() -> bytes:
    own, vendored = client_files()
    v = version()
    info = f"hickory-{v}.dist-info"
    entries = [(name, path.read_bytes()) for name, path in own]
    entries += [(f"hickory_vendor/{name}", path.read_bytes()) for name, path in vendored]
    entries.append(("hickory_vendor.pth", b"hickory_vendor\n"))
    entries.append((f"{info}/METADATA", (
        "Metadata-Version: 2.1\nName: hickory\n"
        f"Version: {v}\nSummary: The Hickory poker client, as served by a Hickory server\n"
        "Requires-Python: >=3.11\n").encode()))
    entries.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: hickory-server\n"
                                     b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    entries.append((f"{info}/entry_points.txt", ("[console_scripts]\n" + "".join(
        f"{k} = {t}\n" for k, t in ENTRY_POINTS.items())).encode()))
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in entries)
    entries.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
    return _zip(entries)


@attrs.frozen
class Bundle:
    wheel: bytes
    pyz: bytes


class ClientShare:
    """The two downloads, built on first use (in a thread: zipping takes about a second)
    and kept; a failure is logged and answered as unavailable, the tournament goes on."""

    def __init__(self) -> None:
        self._bundle: Bundle | None = None
        self._lock = trio.Lock()
        self.failed: str | None = None

    async def bundle(self) -> Bundle | None:
        async with self._lock:
            if self._bundle is None and self.failed is None:
                try:
                    self._bundle = await _build_in_child()
                except Exception as exc:  # answered as unavailable (503); the tournament goes on
                    self.failed = str(exc) or type(exc).__name__
                    log.exception("cannot build the client to share")
            return self._bundle


async def _build_in_child() -> Bundle:
    """Both archives, built by ``python -m server.share DIR`` in a child process: compiling
    the whole client takes seconds of CPU, which in a thread of the server would hold the
    interpreter's lock against the tables."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="hickory-share-") as folder:
        done = await trio.run_process([sys.executable, "-m", "server.share", folder], check=False,
                                      stdout=subprocess.DEVNULL, capture_stderr=True)
        if done.returncode != 0:
            said = done.stderr.decode(errors="replace").strip().splitlines()
            raise RuntimeError(said[-1] if said else f"the build exited with status {done.returncode}")
        out = Path(folder)
        return Bundle(wheel=(out / "hickory.whl").read_bytes(), pyz=(out / "hickory.pyz").read_bytes())


# -- what the host and the clock page tell the players ----------------------------------------


def lan_address() -> str | None:
    """This machine's address on its LAN (the one its default route leaves from), or None.

    A UDP ``connect`` sends nothing: it only asks the kernel which source address a packet
    to that destination would get."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 9))
            address: str = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def shown_host(listen_host: str, asked: str | None = None) -> str:
    """The address to print for players: the one a browser used to reach us (``asked``),
    unless that is this machine's loopback; else the listening address; for "every
    address", this machine's LAN address if it has one."""
    loopback = ("127.0.0.1", "localhost", "::1", "")
    if asked and asked not in loopback:
        return asked
    if listen_host in ("0.0.0.0", "::", ""):
        return lan_address() or "<this machine's address>"
    return listen_host


def _where(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@attrs.frozen(kw_only=True)
class JoinInfo:
    """Everything a player needs to get the client and sit down, as lines to print."""

    host: str
    port: int
    tournament: str = "Hickory"
    share_port: int | None = None
    tls_port: int | None = None
    fingerprint: str | None = None
    announced: bool = False

    @property
    def join_command(self) -> str:
        if self.tls_port is not None:
            return f"hickory {_where(self.host, self.tls_port)} --tls --name NAME"
        return f"hickory {_where(self.host, self.port)} --name NAME"

    def lines(self) -> list[str]:
        out = []
        if self.share_port is not None:
            base = f"http://{_where(self.host, self.share_port)}"
            out.append(f"get the client: python3 -m pip install {base}/{wheel_name()}")
            out.append(f"  or, with nothing installed: download {base}/hickory.pyz, then "
                       f"python3 hickory.pyz {_where(self.host, self.tls_port or self.port)}"
                       + (" --tls" if self.tls_port is not None else "") + " --name NAME")
        out.append(f"join: {self.join_command}")
        if self.announced:
            out.append("  (on this network, just: hickory --name NAME)")
        if self.fingerprint is not None:
            out.append(f"certificate fingerprint: {self.fingerprint}")
        return out

    def page(self) -> bytes:
        """``/join``: the page for the room's screen while people sit down: the join
        command large with its QR code, the certificate's fingerprint, where to get the
        client. Text, not pictures of text, except the code itself (``segno``)."""
        import html

        import segno

        esc = html.escape
        qr = segno.make(self.join_command, error="m").svg_inline(scale=8, border=2, dark="#000", light="#fff",
                                                                 omitsize=True)
        blocks = []
        if self.announced:
            blocks.append(("On this network, type", ["hickory --name NAME"]))
            blocks.append(("or, anywhere", [self.join_command]))
        else:
            blocks.append(("Type", [self.join_command]))
        if self.fingerprint is not None:
            pairs = self.fingerprint.split(":")
            blocks.append(("The first time, your client shows this certificate; compare it",
                           [":".join(pairs[i:i + 8]) for i in range(0, len(pairs), 8)]))
        if self.share_port is not None:
            base = f"http://{_where(self.host, self.share_port)}"
            blocks.append(("No client yet? With pip", [f"python3 -m pip install {base}/{wheel_name()}"]))
            blocks.append(("or with nothing but Python 3.11: download", [
                f"{base}/hickory.pyz", "python3 hickory.pyz " + self.join_command.removeprefix("hickory ")]))
        body = "".join(f"<section><h2>{esc(title)}</h2>" + "".join(f"<pre>{esc(x)}</pre>" for x in lines)
                       + "</section>" for title, lines in blocks)
        return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>Join {esc(self.tournament)}</title>"
                f'<link rel="stylesheet" href="/join.css"></head><body><main>'
                f"<h1>Join {esc(self.tournament)}</h1><div id=\"code\">{qr}</div><div id=\"how\">{body}"
                f'<p><a href="/">Back to the clock</a></p></div></main></body></html>\n').encode()


JOIN_CSS = b"""body { margin: 0; background: #06120e; color: #e8e4d8; font-family: sans-serif; }
main { display: flex; flex-wrap: wrap; gap: 3vw; align-items: flex-start; padding: 3vw; }
h1 { flex: 1 0 100%; margin: 0; font-size: 4vw; color: #f0c75e; }
h2 { margin: 1.2vw 0 0.4vw; font-size: 1.6vw; color: #f0c75e; font-weight: normal; }
#code svg { width: min(40vw, 70vh); height: auto; display: block; }
#how { flex: 1 1 30em; min-width: 0; }
pre { margin: 0.2vw 0; font-size: max(1.8vw, 14px); white-space: pre-wrap; overflow-wrap: anywhere; }
a { color: #8fc7b8; }
"""


if __name__ == "__main__":
    import sys

    target = Path(sys.argv[1])
    (target / "hickory.whl").write_bytes(build_wheel())
    (target / "hickory.pyz").write_bytes(build_pyz())
