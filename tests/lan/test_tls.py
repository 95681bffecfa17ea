"""TLS on loopback, for real: a certificate made once and kept, a pinned server, a changed
certificate refused (and accepted only deliberately), plain clients unchanged beside it.

Real TCP on 127.0.0.1, real TLS handshakes (the standard library's ``ssl`` under trio's
``SSLStream``), real time bounded by ``fail_after``.
"""

from __future__ import annotations

import json
import ssl
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import trio

import protocol.messages as m
from client.pinning import KnownServers, TlsTrust
from client.session import ClientSession, SessionRefused, open_session
from protocol.fingerprint import fingerprint, normalize_fingerprint
from server.tls import load_or_create
from tests.server.harness import config, running
from tests.server.rawclient import RawClient
from tests.server.test_signals import read_banner

ROOT = Path(__file__).resolve().parents[2]
OTHER = ":".join(["AB"] * 32)


def trust(tmp_path: Path, port: int, **kw: object) -> TlsTrust:
    return TlsTrust(known=KnownServers(tmp_path / "known_servers.json"), server=f"127.0.0.1:{port}",
                    **kw)  # type: ignore[arg-type]


def test_the_certificate_is_made_once_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "hickory.db.tls"
    first = load_or_create(folder, "Friday night")
    again = load_or_create(folder, "Friday night")
    assert first.created and not again.created
    assert again.fingerprint == first.fingerprint
    der = ssl.PEM_cert_to_DER_cert(first.cert_path.read_text())
    assert first.fingerprint == fingerprint(der)
    assert stat.S_IMODE(first.key_path.stat().st_mode) == 0o600
    first.server_context()  # the pair loads
    # A certificate without its key is the host's to look at: not silently replaced.
    first.key_path.unlink()
    with pytest.raises(ValueError, match="its key .* is not"):
        load_or_create(folder, "Friday night")
    # A key without its certificate (a crash while making them): made again.
    first.cert_path.unlink()
    (folder / "key.pem").write_text("junk")
    remade = load_or_create(folder, "Friday night")
    assert remade.created and remade.fingerprint != first.fingerprint


def test_fingerprints_as_people_type_them() -> None:
    fp = ":".join(["0A"] * 32)
    assert normalize_fingerprint("0a" * 32) == fp
    assert normalize_fingerprint("sha256:" + fp.lower()) == fp
    with pytest.raises(ValueError, match="64 hex digits"):
        normalize_fingerprint("0A:0B")


async def test_first_use_pins_then_two_players_play_a_hand_over_tls(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with running(config(tls=True, tls_port=0, start_at=2, host="127.0.0.1")) as (srv, _):
            assert srv.tls_port is not None and srv.certificate is not None
            tls = srv.tls_port
            ended: list[m.HandEnded] = []

            def note(msg: m.ServerMessage, now: float) -> None:
                if isinstance(msg, m.HandEnded):
                    ended.append(msg)

            first = trust(tmp_path, tls)
            async with open_session("127.0.0.1", tls, name="alice", tls=first, on_message=note) as a, \
                    open_session("127.0.0.1", tls, name="bob", tls=trust(tmp_path, tls), on_message=note) as b:
                assert first.first_use
                pinned = json.loads((tmp_path / "known_servers.json").read_text())
                assert pinned[f"127.0.0.1:{tls}"]["fingerprint"] == srv.certificate.fingerprint
                while not ended:
                    for s in (a, b):
                        turn = s.model.turn
                        if turn is not None and not turn.acted:
                            await s.act(turn.legal.timeout_action())
                    await a.wait_changed()
            # The second time, the pin is there and matches: not a first use.
            again = trust(tmp_path, tls)
            async with open_session("127.0.0.1", tls, spectate=True, tls=again):
                assert not again.first_use


async def test_a_changed_certificate_is_refused_until_accepted_deliberately(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with running(config(tls=True, tls_port=0)) as (srv, _):
            assert srv.tls_port is not None and srv.certificate is not None
            tls, real = srv.tls_port, srv.certificate.fingerprint
            known = KnownServers(tmp_path / "known_servers.json")
            known.put(f"127.0.0.1:{tls}", OTHER)  # pinned before: someone else's certificate
            with pytest.raises(SessionRefused) as refused:
                async with open_session("127.0.0.1", tls, name="alice", tls=trust(tmp_path, tls)):
                    pass
            text = refused.value.reason
            assert "DIFFERENT certificate" in text and OTHER in text and real in text
            assert "pretending to be the server" in text and f"--accept-fingerprint {real}" in text
            assert known.get(f"127.0.0.1:{tls}") == (OTHER, known.get(f"127.0.0.1:{tls}")[1])  # type: ignore[index]
            # Accepting some other fingerprint than the one presented does not connect either.
            with pytest.raises(SessionRefused, match="not the .* given with --accept-fingerprint"):
                async with open_session("127.0.0.1", tls, name="alice", tls=trust(tmp_path, tls, accept=OTHER)):
                    pass
            # The one presented, typed deliberately: connects, and is the pin from now on.
            async with open_session("127.0.0.1", tls, name="alice", tls=trust(tmp_path, tls, accept=real)):
                pass
            assert known.get(f"127.0.0.1:{tls}")[0] == real  # type: ignore[index]


async def test_an_announced_fingerprint_that_is_not_presented_is_refused(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with running(config(tls=True, tls_port=0)) as (srv, _):
            assert srv.tls_port is not None
            with pytest.raises(SessionRefused, match="announced the certificate"):
                async with open_session("127.0.0.1", srv.tls_port, spectate=True,
                                        tls=trust(tmp_path, srv.tls_port, announced=OTHER)):
                    pass
            assert not (tmp_path / "known_servers.json").exists()


async def test_a_v1_client_on_the_plain_port_is_unchanged_and_plain_on_tls_fails_cleanly(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with running(config(tls=True, tls_port=0)) as (srv, port):
            assert srv.tls_port is not None
            plain = await RawClient.connect(port)
            welcome = await plain.join("carol", version=1)
            assert plain.version == 1 and welcome is not None
            # A plain client dialling the TLS port hears no hello, and the server goes on.
            stream = await trio.open_tcp_stream("127.0.0.1", srv.tls_port)
            await stream.send_all(b'{"type":"join","version":1,"name":"dave"}\n')
            with trio.move_on_after(12):
                while await stream.receive_some(4096):
                    pass
            await stream.aclose()
            # And a TLS session to the plain port fails with a word about it, not a hang.
            s = ClientSession("127.0.0.1", port, spectate=True, tls=trust(tmp_path, port),
                              reconnect=False, first_connect_final=True, handshake_timeout=5)
            await s.run()
            assert "TLS" in (s.model.connection_reason or "")
            again = await RawClient.connect(port)
            await again.join("erin", version=1)


async def test_the_server_prints_the_fingerprint_and_keeps_it_across_restarts(tmp_path: Path) -> None:
    db = tmp_path / "night.db"
    prints = []
    for _ in range(2):
        port_file = tmp_path / "port"
        proc = await trio.lowlevel.open_process(
            [sys.executable, "-m", "server", "--port", "0", "--port-file", str(port_file), "--db", str(db),
             "--tls", "--tls-port", "0", "--director-secret", "s3cret"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            with trio.fail_after(20):
                banner = await read_banner(proc)
        finally:
            proc.terminate()
            with trio.fail_after(10):
                await proc.wait()
        line = next(x for x in banner.splitlines() if "fingerprint" in x)
        prints.append(normalize_fingerprint(line.rsplit(" ", 1)[1]))
        assert "--tls --name NAME" in banner
    assert prints[0] == prints[1]
    assert (tmp_path / "night.db.tls" / "cert.pem").exists()


async def test_a_damaged_pin_file_refuses_with_what_to_do_and_is_left_alone(tmp_path: Path) -> None:
    known = tmp_path / "known_servers.json"
    known.write_text("{not json")
    with trio.fail_after(30):
        async with running(config(tls=True, tls_port=0)) as (srv, _):
            assert srv.tls_port is not None
            with pytest.raises(SessionRefused, match="repair the file, or remove it"):
                async with open_session("127.0.0.1", srv.tls_port, spectate=True, tls=trust(tmp_path, srv.tls_port)):
                    pass
    assert known.read_text() == "{not json"
