"""Finding the server: DNS-SD over multicast DNS, inside a network namespace the test makes.

A real server announces itself; the client's browser (run from the shared zip application
with no site packages, so zeroconf's pure-Python path) finds it with what the TXT record
says; ``hickory-bot auto`` joins it and the count follows; the terminal client with no
address joins it over TLS; a stopped server says goodbye; a server on loopback does not
announce unless told to.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

import protocol.messages as m
from client.discovery import DiscoveryError, Found, choose
from server.config import ServerConfig
from server.discovery import should_announce
from server.share import build_pyz
from tests.lan.netns import inside, network_namespace
from tests.server.test_signals import read_banner

ROOT = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def server_in(ns: str, tmp_path: Path, *args: str) -> AsyncIterator[tuple[trio.Process, str]]:
    proc = await trio.lowlevel.open_process(
        inside(ns, sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", "--no-db",
               "--director-secret", "s3cret", "--name", "Friday night", *args),
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        with trio.fail_after(30):
            banner = await read_banner(proc)
        yield proc, banner
    finally:
        if proc.returncode is None:
            proc.terminate()
            with trio.fail_after(15):
                await proc.wait()


def browse_in(ns: str, pyz: Path, seconds: float = 2.0) -> list[dict[str, object]]:
    """The servers found from inside ``ns``, by the shared client under ``python -I -S``."""
    code = (f"import sys, json; sys.path.insert(0, {str(pyz)!r}); import attrs; "
            f"from client.discovery import browse; print(json.dumps([attrs.asdict(f) for f in browse({seconds})]))")
    out = subprocess.run(inside(ns, sys.executable, "-I", "-S", "-c", code), capture_output=True, text=True,
                         timeout=60, cwd="/")
    assert out.returncode == 0, out.stderr
    found: list[dict[str, object]] = json.loads(out.stdout)
    return found


WATCH = """
import sys, time
sys.path.insert(0, {pyz!r})
from zeroconf import ServiceBrowser, ServiceStateChange, Zeroconf
def changed(zeroconf, service_type, name, state_change):
    print("added" if state_change is ServiceStateChange.Added else
          "removed" if state_change is ServiceStateChange.Removed else "updated", flush=True)
zc = Zeroconf()
ServiceBrowser(zc, "_hickory._tcp.local.", handlers=[changed])
time.sleep(60)
"""


async def browse_until(ns: str, pyz: Path, done: Callable[[list[dict[str, object]]], bool]
                       ) -> list[dict[str, object]]:
    """Browse again until ``done`` says so (a loaded machine may miss an answer once)."""
    with trio.fail_after(40):
        while True:
            found = await trio.to_thread.run_sync(browse_in, ns, pyz)
            if done(found):
                return found


def banner_value(banner: str, marker: str) -> str:
    return next(line for line in banner.splitlines() if marker in line).split(marker, 1)[1].strip()


@pytest.fixture(scope="module")
def pyz(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("shared") / "hickory.pyz"
    path.write_bytes(build_pyz())
    return path


async def test_announced_found_joined_by_auto_and_counted_then_gone(tmp_path: Path, pyz: Path) -> None:
    with network_namespace() as ns:
        async with server_in(ns, tmp_path, "--announce", "--tls", "--tls-port", "0",
                             "--share-client", "0", "--start-at", "3") as (proc, banner):
            port = int(banner_value(banner, "listening on 127.0.0.1:"))
            tls = int(banner_value(banner, "over TLS: hickory 127.0.0.1:").split()[0])
            fp = banner_value(banner, "TLS certificate fingerprint:")
            assert "announced on this network as 'Friday night'" in banner
            found = await browse_until(ns, pyz, bool)
            assert len(found) == 1
            f = found[0]
            assert (f["tournament"], f["host"], f["port"], f["players"], f["open"]) == \
                ("Friday night", "127.0.0.1", port, 0, True)
            assert f["versions"] == list(m.SUPPORTED_VERSIONS) and f["tls_port"] == tls and f["fingerprint"] == fp
            assert isinstance(f["share_port"], int)
            bots = await trio.lowlevel.open_process(
                inside(ns, sys.executable, "-m", "client.botcli", "auto", "--name", "bot", "--count", "2",
                       "--strategy", "calling-station", "--until-stdin-closes"),
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                # The count is refreshed every 2 s.
                await browse_until(ns, pyz, lambda found: [f["players"] for f in found] == [2])
            finally:
                assert bots.stdin is not None
                await bots.stdin.aclose()
                with trio.fail_after(15):
                    await bots.wait()
            # A browser that saw it when it stops hears its goodbye at once (without one it
            # would keep the server for the records' lifetime, two minutes and more).
            watcher = await trio.lowlevel.open_process(
                inside(ns, sys.executable, "-I", "-S", "-c", WATCH.format(pyz=str(pyz))),
                cwd="/", stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            try:
                assert watcher.stdout is not None
                heard = b""
                with trio.fail_after(30):
                    while b"added" not in heard:
                        heard += await watcher.stdout.receive_some(1024)
                proc.terminate()
                with trio.fail_after(15):
                    await proc.wait()
                with trio.fail_after(10):
                    while b"removed" not in heard:
                        chunk = await watcher.stdout.receive_some(1024)
                        assert chunk, heard
                        heard += chunk
            finally:
                watcher.kill()
                await watcher.wait()
        # Stopped: nothing answers for it any more.
        assert await trio.to_thread.run_sync(browse_in, ns, pyz) == []


async def test_the_terminal_client_with_no_address_joins_over_tls(tmp_path: Path, pyz: Path) -> None:
    if subprocess.run(["which", "tmux"], capture_output=True).returncode != 0:
        pytest.skip("*** tmux missing: the terminal client cannot be driven (make tools)")
    with network_namespace() as ns:
        async with server_in(ns, tmp_path, "--announce", "--tls", "--tls-port", "0") as (_, banner):
            fp = banner_value(banner, "TLS certificate fingerprint:")
            known = tmp_path / "known.json"
            sock = f"hk28-{ns}"
            cmd = " ".join([sys.executable, "-m", "client.cli", "--name", "alice", "--known-servers", str(known),
                            "--token-file", str(tmp_path / "tokens.json"), "--deck-record", str(tmp_path / "d.jsonl"),
                            "2>", str(tmp_path / "err.txt")])
            subprocess.run(inside(ns, "tmux", "-L", sock, "new-session", "-d", "-x", "120", "-y", "40",
                                  "-c", str(ROOT), cmd), check=True)
            try:
                await browse_until(ns, pyz, lambda found: [f["players"] for f in found] == [1])
                pinned = json.loads(known.read_text())
                assert [v["fingerprint"] for v in pinned.values()] == [fp]
                assert "over TLS" in (tmp_path / "err.txt").read_text()
            finally:
                subprocess.run(["tmux", "-L", sock, "kill-server"], check=False, capture_output=True)


async def test_a_server_on_loopback_does_not_announce_unless_told(tmp_path: Path, pyz: Path) -> None:
    with network_namespace() as ns:
        async with server_in(ns, tmp_path) as (_, banner):
            assert "announced" not in banner
            assert await trio.to_thread.run_sync(browse_in, ns, pyz, 1.5) == []


def test_when_the_server_announces() -> None:
    assert should_announce(ServerConfig(host="0.0.0.0"))
    assert should_announce(ServerConfig(host="192.168.1.20"))
    assert not should_announce(ServerConfig(host="0.0.0.0", no_announce=True))
    assert not should_announce(ServerConfig(host="127.0.0.1"))
    assert not should_announce(ServerConfig(host="::1"))
    assert should_announce(ServerConfig(host="127.0.0.1", announce=True))


def _found(name: str, port: int) -> Found:
    return Found(instance=name, tournament=name, host="10.0.0.5", port=port, players=3, open=True)


def test_choosing_among_servers() -> None:
    one, two = _found("Friday night", 7777), _found("Saturday cup", 7779)
    assert choose([one]) is one
    assert choose([one, two], pick="saturday") is two
    said: list[str] = []
    answers = iter(["9", "x", "2"])
    assert choose([one, two], ask=lambda _: next(answers), say=said.append) is two
    assert said[1] == "  1. Friday night at 10.0.0.5:7777: 3 players, registration open"
    assert said.count("  type a number from 1 to 2 (Ctrl-C to stop)") == 2
    with pytest.raises(DiscoveryError, match="2 servers found"):
        choose([one, two], say=said.append)
    with pytest.raises(DiscoveryError, match="no Hickory server announced itself"):
        choose([])
    with pytest.raises(DiscoveryError, match="0 of the servers"):
        choose([one, two], pick="sunday")


def test_the_bots_and_the_acpc_bridge_take_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    import client.discovery
    from client import botcli
    from client.acpc import cli as acpc_cli

    monkeypatch.setattr(client.discovery, "auto_address", lambda: ("10.0.0.5", 7790))
    assert botcli._play_parser().parse_args(["auto", "--name", "b"]).address == ("10.0.0.5", 7790)
    assert acpc_cli._parser().parse_args(["auto", "--name", "b"]).address == ("10.0.0.5", 7790)
    assert botcli._play_parser().parse_args(["10.0.0.9", "--name", "b"]).address == ("10.0.0.9", 7777)

    def nothing() -> tuple[str, int]:
        raise DiscoveryError("no Hickory server announced itself on this network")

    monkeypatch.setattr(client.discovery, "auto_address", nothing)
    with pytest.raises(SystemExit):
        botcli._play_parser().parse_args(["auto", "--name", "b"])
