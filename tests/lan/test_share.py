"""The client from the host: a wheel pip installs with no package index, and a zip
application that plays with no site packages at all. Against a real server process on
loopback, downloading over HTTP from its ``--share-client`` port and its clock port.
"""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
import venv
from pathlib import Path

import pytest
import trio

from server.share import VENDORED, build_pyz, wheel_name
from tests.server.test_processes import server_process, watch_hands

ROOT = Path(__file__).resolve().parents[2]
# No package index anywhere: a closed port on loopback, and no config file to name another.
NO_INDEX = {"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_CONFIG_FILE": os.devnull,
            "PIP_NO_CACHE_DIR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_RETRIES": "0",
            "PIP_TIMEOUT": "60"}


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=20) as reply:  # loopback only
        body: bytes = reply.read()
        return body


def banner_url(banner: str, suffix: str) -> str:
    return next(w for w in banner.split() if w.startswith("http://") and w.rstrip(",").endswith(suffix)).rstrip(",")


async def play_a_hand(port: int, command: list[str], env: dict[str, str] | None = None) -> str:
    """Two bots from ``command`` sit down; a hand is played to its end; the bots are stopped."""
    bots = await trio.lowlevel.open_process(
        [*command, f"127.0.0.1:{port}", "--name", "shared", "--count", "2", "--strategy",
         "calling-station", "--until-stdin-closes"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd="/")
    try:
        with trio.fail_after(60):
            ended = await watch_hands("127.0.0.1", port, 1)
        assert ended and ended[0].hand_no >= 1
    finally:
        assert bots.stdin is not None
        await bots.stdin.aclose()
        with trio.fail_after(20):
            await bots.wait()
        out = b""
        assert bots.stdout is not None
        while chunk := await bots.stdout.receive_some(65536):
            out += chunk
    return out.decode(errors="replace")


SERVER_ARGS = ("--no-db", "--start-at", "2", "--hand-pause", "0", "--action-clock", "10")


async def test_the_zip_application_plays_a_hand_with_no_site_packages(tmp_path: Path) -> None:
    async with server_process(tmp_path, *SERVER_ARGS, "--share-client", "0") as (_, port, banner):
        url = banner_url(banner, "/hickory.pyz")
        pyz = tmp_path / "hickory.pyz"
        pyz.write_bytes(await trio.to_thread.run_sync(get, url))
        # -I: no user site, no environment; -S: no site packages. Only the standard library
        # and what is inside the zip: the compiled evaluator and orjson are not there.
        bare = [sys.executable, "-I", "-S"]
        probe = subprocess.run(
            [*bare, "-c", f"import sys; sys.path.insert(0, {str(pyz)!r}); import poker.evaluator as e, "
             "protocol.jsontext as j, client.cli; print(e.COMPILED, j.BACKEND, sys.flags.no_site)"],
            capture_output=True, text=True, timeout=60, cwd="/")
        assert probe.stdout.split() == ["False", "json", "1"], probe.stderr
        helped = subprocess.run([*bare, str(pyz), "--help"], capture_output=True, text=True, timeout=60)
        assert "usage: hickory" in helped.stdout, helped.stderr
        run_bots = [*bare, "-c", f"import sys; sys.path.insert(0, {str(pyz)!r}); "
                    "from client.botcli import main; sys.exit(main(sys.argv[1:]))"]
        out = await play_a_hand(port, run_bots)
        assert "Traceback" not in out


@pytest.mark.skipif(not Path(sys.base_prefix, "lib").exists(), reason="no base Python to make a venv from")
async def test_a_fresh_venv_installs_the_wheel_from_the_server_with_no_index_and_plays(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    await trio.to_thread.run_sync(lambda: venv.EnvBuilder(with_pip=True).create(env_dir))
    py = env_dir / "bin" / "python"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON"))},
           **NO_INDEX}
    # The clock's port serves the client too.
    async with server_process(tmp_path, *SERVER_ARGS, "--clock-port", "0") as (_, port, banner):
        url = banner_url(banner, ".whl")
        assert url.endswith("/" + wheel_name())
        # The wheel alone, and the index unreachable: a dependency it forgot would fail here.
        installed = await trio.to_thread.run_sync(lambda: subprocess.run(
            [str(py), "-m", "pip", "install", url], capture_output=True, text=True, env=env, timeout=120))
        assert installed.returncode == 0, installed.stdout + installed.stderr
        probe = subprocess.run([str(py), "-c", "import poker.evaluator as e, trio; print(e.COMPILED, trio.__file__)"],
                               capture_output=True, text=True, env=env, timeout=60, cwd="/")
        compiled, trio_path = probe.stdout.split()
        assert compiled == "False" and "hickory_vendor" in trio_path, probe.stderr
        helped = subprocess.run([str(env_dir / "bin" / "hickory"), "--help"], capture_output=True, text=True,
                                env=env, timeout=60)
        assert "usage: hickory" in helped.stdout, helped.stderr
        out = await play_a_hand(port, [str(env_dir / "bin" / "hickory-bot")], env=env)
        assert "Traceback" not in out


def test_the_bundle_carries_only_pure_python() -> None:
    import io
    import zipfile

    names = zipfile.ZipFile(io.BytesIO(build_pyz())).namelist()
    assert "__main__.py" in names and "client/cli.py" in names and "poker/pure_strength.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    for dist in VENDORED:
        assert any(n.startswith(dist.replace("-", "_") + "/") or n == dist + ".py" for n in names), dist


async def test_the_clock_page_links_to_the_join_page_with_its_qr_code_and_the_client_lines() -> None:
    import html
    import re
    from functools import partial

    import segno

    from server.clock.web import serve_clock
    from server.share import ClientShare
    from server.share_web import join_source, share_routes
    from tests.server.harness import config, running

    with trio.fail_after(30):
        async with running(config(tls=True, tls_port=0, name="Friday night")) as (srv, port):
            assert srv.certificate is not None
            async with trio.open_nursery() as nursery:
                routes = share_routes(ClientShare(), join_source(srv))
                clock = await nursery.start(partial(serve_clock, srv, "127.0.0.1", 0, extra_routes=routes))
                base = f"http://127.0.0.1:{clock}"
                page = (await trio.to_thread.run_sync(get, base + "/")).decode()
                assert 'href="/join"' in page
                join = (await trio.to_thread.run_sync(get, base + "/join")).decode()
                command = f"hickory 127.0.0.1:{srv.tls_port} --tls --name NAME"
                assert "<h1>Join Friday night</h1>" in join and f"<pre>{html.escape(command)}</pre>" in join
                # The code on the page is the join command's own (segno drawing the same text).
                drawn = re.search(r'class="qrline"[^>]*? d="([^"]+)"', join)
                assert drawn is not None
                own = segno.make(command, error="m").svg_inline(scale=8, border=2)
                assert f' d="{drawn.group(1)}"' in own
                pairs = srv.certificate.fingerprint.split(":")
                for i in range(0, 32, 8):
                    assert f"<pre>{':'.join(pairs[i:i + 8])}</pre>" in join
                assert f"<pre>python3 -m pip install {base}/{wheel_name()}</pre>" in join
                assert f"<pre>{base}/hickory.pyz</pre>" in join
                assert f"<pre>python3 hickory.pyz 127.0.0.1:{srv.tls_port} --tls --name NAME</pre>" in join
                assert b"#code svg" in await trio.to_thread.run_sync(get, base + "/join.css")
                text = (await trio.to_thread.run_sync(get, base + "/join.txt")).decode()
                assert f"join: {command}" in text and srv.certificate.fingerprint in text
                nursery.cancel_scope.cancel()
