"""The server announces itself on the LAN: DNS-SD over multicast DNS (``zeroconf``).

Service ``_hickory._tcp.local.``, one instance per server, named after the tournament, its
address and plain port in the SRV and A records, and in the TXT record what a player's
client shows before choosing (``docs/hosting.md``, "Finding the server"):

- ``name``: the tournament's name; ``players``: how many have registered; ``open``:
  ``yes`` while registration is open, else ``no``; ``versions``: the protocol versions
  (``1,2``);
- with ``--tls``: ``tls`` (the TLS port) and ``fp`` (the certificate's fingerprint:
  a hint a client checks on first use, never a proof: anyone on the LAN can announce);
- when the client is shared: ``share`` (the HTTP port of ``/hickory.pyz``).

On by default when the server listens on a LAN address (the product: players type
nothing but their name); off when it listens on loopback (nobody else could connect, and
tests and ``make play`` never announce on a real network), and off with ``--no-announce``.
``--announce`` forces it on (the tests, inside a network namespace of their own). The
TXT record is refreshed when the count or the registration changes (checked every
``REFRESH`` seconds). A network where multicast is blocked only loses the announcement:
it is logged and said once, and the tournament goes on.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from functools import partial
from typing import TYPE_CHECKING

import trio

import protocol.messages as m

if TYPE_CHECKING:
    from zeroconf import ServiceInfo, Zeroconf

    from server.app import Server
    from server.config import ServerConfig

log = logging.getLogger("hickory.discovery")

__all__ = ["SERVICE", "announce", "properties", "should_announce"]

SERVICE = "_hickory._tcp.local."
REFRESH = 2.0  # seconds between looks at the count and the registration


def should_announce(config: ServerConfig) -> bool:
    if config.no_announce:
        return False
    if config.announce:
        return True
    try:
        return not ipaddress.ip_address(config.host or "0.0.0.0").is_loopback
    except ValueError:  # a host name: announce unless it is this machine's loopback name
        return config.host != "localhost"


def properties(server: Server, share_port: int | None = None) -> dict[str, str]:
    """The TXT record (each value well under DNS-SD's 255 bytes)."""
    t = server.tournament
    props = {
        "name": _clip(t.settings.name, 200),
        "players": str(len(t.registered)),
        "open": "yes" if t.registration_open() else "no",
        "versions": ",".join(str(v) for v in m.SUPPORTED_VERSIONS),
    }
    if server.tls_port is not None and server.certificate is not None:
        props["tls"] = str(server.tls_port)
        props["fp"] = server.certificate.fingerprint
    if share_port is not None:
        props["share"] = str(share_port)
    return props


def _clip(text: str, limit: int) -> str:
    data = text.encode()[:limit]
    return data.decode(errors="ignore")


def _instance(name: str) -> str:
    """A DNS-SD instance name from the tournament's: no dots (they would split the label),
    at most 63 bytes."""
    return _clip(name.replace(".", " ").strip() or "Hickory", 60).strip() or "Hickory"


def _host_label() -> str:
    label = re.sub(r"[^a-z0-9-]+", "-", socket.gethostname().lower()).strip("-") or "server"
    return f"hickory-{label[:40]}.local."


def _addresses(host: str) -> tuple[list[str], list[str] | None]:
    """(addresses to announce, interfaces to bind zeroconf to; None: every interface)."""
    if host in ("0.0.0.0", "", "::"):
        import ifaddr  # zeroconf's own dependency

        found = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
                 if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback]
        return found, None
    address = socket.gethostbyname(host)
    return [address], [address]


def _build_info(zeroconf_info: type[ServiceInfo], instance: str, server: Server, addresses: list[str],
                share_port: int | None) -> ServiceInfo:
    return zeroconf_info(SERVICE, f"{instance}.{SERVICE}", port=server.port, properties=properties(server, share_port),
                         parsed_addresses=addresses, server=_host_label())


async def announce(server: Server, share_port: int | None = None, *,
                   task_status: trio.TaskStatus[str | None] = trio.TASK_STATUS_IGNORED) -> None:
    """Announce ``server`` until cancelled; ``task_status`` gets the instance name it got
    (zeroconf renames it on a clash: "Friday night (2)"), or None if it cannot announce."""
    from zeroconf import IPVersion, NonUniqueNameException, ServiceInfo

    try:
        addresses, interfaces = _addresses(server.config.host)
    except OSError as exc:
        addresses, interfaces = [], None
        log.warning("cannot announce the server: %s", exc)
    if not addresses:
        _say("not announced on the LAN: no network address to announce (players type the address)")
        task_status.started(None)
        return
    zc: Zeroconf | None = None
    try:
        zc = await trio.to_thread.run_sync(partial(_open, interfaces, IPVersion.V4Only))
        info = _build_info(ServiceInfo, _instance(server.tournament.settings.name), server, addresses, share_port)
        await trio.to_thread.run_sync(partial(zc.register_service, info, allow_name_change=True))
    except (OSError, NonUniqueNameException) as exc:
        _say(f"not announced on the LAN ({exc}): players type the address; see docs/hosting.md")
        if zc is not None:
            await trio.to_thread.run_sync(zc.close)
        task_status.started(None)
        return
    zeroconf: Zeroconf = zc
    server.announcing = True
    instance = info.name.removesuffix("." + SERVICE)
    task_status.started(instance)
    try:
        sent = info.properties
        while True:
            await trio.sleep(REFRESH)
            fresh = _build_info(ServiceInfo, instance, server, addresses, share_port)
            if fresh.properties != sent:
                await trio.to_thread.run_sync(zeroconf.update_service, fresh)
                info, sent = fresh, fresh.properties
    finally:
        server.announcing = False
        with trio.CancelScope(shield=True), trio.move_on_after(3):
            # Goodbye packets, so browsers forget the server now rather than in 75 minutes.
            await trio.to_thread.run_sync(_goodbye, zeroconf, info, abandon_on_cancel=True)


def _open(interfaces: list[str] | None, version: object) -> Zeroconf:
    from zeroconf import InterfaceChoice, Zeroconf

    return Zeroconf(interfaces=interfaces if interfaces is not None else InterfaceChoice.All,
                    ip_version=version)  # type: ignore[arg-type]


def _goodbye(zc: Zeroconf, info: ServiceInfo) -> None:
    zc.unregister_service(info)
    zc.close()


def _say(text: str) -> None:
    import sys

    log.warning("%s", text)
    print(f"hickory-server: {text}", file=sys.stderr, flush=True)
