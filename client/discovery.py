"""Finding a Hickory server on the LAN: browse DNS-SD (``_hickory._tcp``) for a moment.

``hickory --name alice`` with no address, ``hickory-bot auto`` and ``hickory-acpc auto``
come here first. The server's announcement (``server/discovery.py``) says the tournament's
name, how many have registered, whether registration is open, the protocol versions and,
with TLS, the TLS port and the certificate's fingerprint; a client that finds a TLS port
uses it, and checks the fingerprint on first use (``client/pinning.py``).

Browsing is multicast on the local network for ``BROWSE_SECONDS``; where multicast is
blocked nothing is found, and the player types the address shown on the clock screen
(``docs/hosting.md``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence

import attrs

__all__ = ["BROWSE_SECONDS", "DiscoveryError", "Found", "auto_address", "browse", "choose"]

SERVICE = "_hickory._tcp.local."
BROWSE_SECONDS = 2.0


class DiscoveryError(Exception):
    """No server could be chosen; the message says what to type instead."""


@attrs.frozen(kw_only=True)
class Found:
    """One announced server, as its TXT record describes it."""

    instance: str
    tournament: str
    host: str
    port: int
    players: int | None = None
    open: bool | None = None
    versions: tuple[int, ...] = ()
    tls_port: int | None = None
    fingerprint: str | None = None
    share_port: int | None = None

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def describe(self) -> str:
        """"Friday night at 192.168.1.20:7777 (TLS 7778): 12 players, registration open"."""
        parts = [f"{self.tournament} at {self.address}"]
        if self.tls_port is not None:
            parts.append(f" (TLS {self.tls_port})")
        facts = []
        if self.players is not None:
            facts.append(f"{self.players} player{'s' if self.players != 1 else ''}")
        if self.open is not None:
            facts.append("registration open" if self.open else "registration closed")
        return "".join(parts) + (": " + ", ".join(facts) if facts else "")


def _text(props: dict[bytes, bytes | None], key: str) -> str | None:
    value = props.get(key.encode())
    return value.decode(errors="replace") if value is not None else None


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _found(info: object, instance: str) -> Found | None:
    from zeroconf import ServiceInfo

    if not isinstance(info, ServiceInfo) or not info.port:
        return None
    addresses = info.parsed_addresses()
    if not addresses:
        return None
    props = info.properties
    versions = tuple(int(v) for v in (_text(props, "versions") or "").split(",") if v.strip().isdigit())
    open_text = _text(props, "open")
    return Found(
        instance=instance, tournament=_text(props, "name") or instance, host=addresses[0], port=info.port,
        players=_int(_text(props, "players")), open=None if open_text is None else open_text == "yes",
        versions=versions, tls_port=_int(_text(props, "tls")), fingerprint=_text(props, "fp"),
        share_port=_int(_text(props, "share")),
    )


def browse(seconds: float = BROWSE_SECONDS, *, interfaces: Sequence[str] | None = None) -> list[Found]:
    """The servers that answer within ``seconds``, sorted by tournament name.

    Raises ``DiscoveryError`` when this machine cannot browse at all (no multicast)."""
    from zeroconf import InterfaceChoice, IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf

    names: list[str] = []

    def changed(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is not ServiceStateChange.Removed and name not in names:
            names.append(name)

    try:
        zc = Zeroconf(interfaces=list(interfaces) if interfaces else InterfaceChoice.All, ip_version=IPVersion.V4Only)
    except OSError as exc:
        raise DiscoveryError(f"cannot look for servers on this network ({exc}); type the server's "
                             "address, as the clock screen or the host shows it") from exc
    try:
        browser = ServiceBrowser(zc, SERVICE, handlers=[changed])
        time.sleep(seconds)
        browser.cancel()
        found = []
        for name in list(names):
            info = zc.get_service_info(SERVICE, name, timeout=3000)
            entry = _found(info, name.removesuffix("." + SERVICE))
            if entry is not None:
                found.append(entry)
    finally:
        zc.close()
    return sorted(found, key=lambda f: (f.tournament.casefold(), f.address))


def choose(found: Sequence[Found], *, pick: str | None = None, ask: Callable[[str], str] | None = None,
           say: Callable[[str], None] = print) -> Found:
    """The server to join: the only one; else the one whose tournament name contains
    ``pick``; else the one the player picks from a numbered list (``ask``, when there is
    someone to ask). ``DiscoveryError`` when none fits."""
    if pick is not None:
        fits = [f for f in found if pick.casefold() in f.tournament.casefold()]
        if len(fits) == 1:
            return fits[0]
        listed = "; ".join(f.describe() for f in found) or "none"
        raise DiscoveryError(f"{len(fits)} of the servers found are named like {pick!r} (found: {listed})")
    if not found:
        raise DiscoveryError(
            "no Hickory server announced itself on this network within a couple of seconds. "
            "Type the address the clock screen or the host shows (hickory HOST:PORT --name NAME); "
            "on networks that block multicast, finding servers cannot work (docs/hosting.md)")
    if len(found) == 1:
        return found[0]
    say("Hickory servers on this network:")
    for i, f in enumerate(found, 1):
        say(f"  {i}. {f.describe()}")
    if ask is None:
        raise DiscoveryError(f"{len(found)} servers found: give one's address (HOST:PORT), or --tournament NAME")
    while True:
        answer = ask(f"Join which one? [1-{len(found)}] ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(found):
            return found[int(answer) - 1]
        say(f"  type a number from 1 to {len(found)} (Ctrl-C to stop)")


def auto_address(seconds: float = BROWSE_SECONDS) -> tuple[str, int]:
    """``auto`` for the bots: the plain address of the only server announced (they play
    plain TCP); ``DiscoveryError`` if there is none, or more than one."""
    found = browse(seconds)
    if len(found) > 1:
        raise DiscoveryError("several servers found, give one's address instead of auto: "
                             + "; ".join(f.describe() for f in found))
    chosen = choose(found)
    print(f"found {chosen.describe()}", file=sys.stderr, flush=True)
    return chosen.host, chosen.port
