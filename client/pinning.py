"""Trust on first use for a server's TLS certificate, pinned per server like SSH's known hosts.

A LAN server's certificate is self-signed (``server/tls.py``): no authority vouches for it,
so the first connection to a server remembers its fingerprint (the SHA-256 of the
certificate) in ``known_servers.json`` in the client's config directory, and every later
connection to the same ``host:port`` must present the same one. A different certificate is
refused, with a warning that says what it may mean and how to accept it deliberately
(``--accept-fingerprint``, after comparing it with the one the host shows).

An announced fingerprint (DNS-SD, ``client/discovery.py``) is not proof of anything, since
anyone on the LAN can announce; it is only checked against on first use, so a server that
answers with a certificate other than the one announced is not trusted blindly.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import ssl
import tempfile
from pathlib import Path

import attrs

from protocol.fingerprint import fingerprint

__all__ = ["CertificateRefused", "KnownServers", "TlsTrust", "client_context"]


class CertificateRefused(Exception):
    """The server's certificate is not the one trusted for it; ``reason`` says what to do."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def client_context() -> ssl.SSLContext:
    """TLS 1.2+ without the authority check (a LAN server's certificate is self-signed): the
    check is the pin, made on the certificate's fingerprint after the handshake."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


class KnownServers:
    """Pinned fingerprints by server (``host:port``), in one JSON file written atomically.

    A damaged file is read as empty for reading, but never silently overwritten: losing
    every pin would turn the next connections into first uses.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        data = json.loads(text)  # a damaged file is an error: see the class docstring
        if not isinstance(data, dict):
            raise ValueError(f"{self.path}: not a JSON object")
        return {k: v for k, v in data.items() if isinstance(v, dict) and isinstance(v.get("fingerprint"), str)}

    def get(self, server: str) -> tuple[str, str] | None:
        """(fingerprint, when it was first trusted) for ``server``, or None."""
        entry = self._load().get(server)
        return None if entry is None else (entry["fingerprint"], entry.get("since", "?"))

    def put(self, server: str, print_: str, now: dt.datetime | None = None) -> None:
        data = self._load()
        when = (now or dt.datetime.now().astimezone()).isoformat(timespec="seconds")
        data[server] = {"fingerprint": print_, "since": when}
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=".known-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=2, sort_keys=True)
                f.write("\n")
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


@attrs.define(kw_only=True)
class TlsTrust:
    """What a session trusts when it connects to ``server`` over TLS.

    ``accept`` is a fingerprint the player typed (``--accept-fingerprint``): the certificate
    must be that one, and it replaces any pin. ``announced`` is the one discovery heard.
    ``first_use`` is set when this connection pinned a server for the first time.
    """

    known: KnownServers
    server: str
    accept: str | None = None
    announced: str | None = None
    first_use: bool = False
    presented: str | None = None  # the fingerprint the last connection trusted

    def check_der(self, der: bytes) -> str:
        return self.check(fingerprint(der))

    def check(self, presented: str) -> str:
        """Trust ``presented`` (returned) or raise ``CertificateRefused`` saying why not."""
        try:
            trusted = self._check(presented)
        except (OSError, ValueError) as exc:
            raise CertificateRefused(
                f"cannot read or write the trusted certificates in {self.known.path} ({exc}): repair "
                "the file, or remove it (every server is then trusted anew on first use)") from exc
        self.presented = trusted
        return trusted

    def _check(self, presented: str) -> str:
        if self.accept is not None:
            if presented != self.accept:
                raise CertificateRefused(
                    f"the server at {self.server} presented the certificate {presented}, not the "
                    f"{self.accept} given with --accept-fingerprint: not connecting")
            self.known.put(self.server, presented)
            return presented
        pinned = self.known.get(self.server)
        if pinned is None:
            if self.announced is not None and presented != self.announced:
                raise CertificateRefused(
                    f"the server at {self.server} announced the certificate {self.announced} but "
                    f"presented {presented}: something between you and it may be listening in. "
                    "Not connecting; ask the host which fingerprint their screen shows")
            self.known.put(self.server, presented)
            self.first_use = True
            return presented
        fp, since = pinned
        if presented == fp:
            return presented
        raise CertificateRefused(
            f"WARNING: the server at {self.server} presented a DIFFERENT certificate from the one "
            f"trusted for it since {since}.\n"
            f"  trusted:   {fp}\n  presented: {presented}\n"
            "This happens when the host started a new tournament or deleted its certificate, but "
            "it is also what someone on the network pretending to be the server would look like. "
            "Not connecting. Ask the host to read you the fingerprint the server printed (also on "
            "the clock page); if it is the presented one, accept it deliberately with "
            f"--accept-fingerprint {presented}  (the pins are kept in {self.known.path})")
