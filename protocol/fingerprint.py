"""How a server's TLS certificate is named to people: the SHA-256 of its DER bytes.

The server prints it, announces it (DNS-SD ``fp``) and shows it on the clock page; the
client pins it per server, as SSH pins host keys. Written as upper-case hex pairs joined
by colons (``AB:CD:...``), the way browsers and ``openssl x509 -fingerprint`` show one, so
a person can compare the two screens pair by pair. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["fingerprint", "normalize_fingerprint"]

_HEX64 = re.compile(r"[0-9A-F]{64}")


def fingerprint(der: bytes) -> str:
    """``AB:CD:...``: the SHA-256 of a certificate's DER encoding, in hex pairs."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, 64, 2))


def normalize_fingerprint(text: str) -> str:
    """A fingerprint as a person may type or paste it (any case, with or without colons or
    spaces, an optional ``sha256:`` prefix) in the canonical form; ValueError if it is not one."""
    bare = text.strip().upper().removeprefix("SHA256:").replace(":", "").replace(" ", "")
    if not _HEX64.fullmatch(bare):
        raise ValueError(f"not a SHA-256 fingerprint: {text!r} (64 hex digits, e.g. AB:CD:...)")
    return ":".join(bare[i:i + 2] for i in range(0, 64, 2))
