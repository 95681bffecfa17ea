"""The server's TLS identity: one self-signed certificate per tournament, made once, kept.

Nobody on a LAN night has a certificate authority, so the server makes its own certificate
(an EC P-256 key, valid for ten years) the first time it is asked to serve TLS and keeps it
beside the tournament's database (``hickory.db.tls/cert.pem`` and ``key.pem``, the key
readable by its owner only). Restarting the same tournament presents the same certificate,
so the clients that pinned its fingerprint (``client/pinning.py``) keep trusting it; a new
database is a new tournament and gets a new one. With no database (``--no-db``) the
certificate lives in a temporary directory for this run only.

The protocol over TLS is the same JSON lines as over plain TCP (``docs/protocol.md``).
"""

from __future__ import annotations

import datetime as dt
import os
import ssl
import tempfile
from pathlib import Path

import attrs
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from protocol.fingerprint import fingerprint

__all__ = ["ServerCertificate", "certificate_dir", "load_or_create"]

VALID_DAYS = 3650


@attrs.frozen(kw_only=True)
class ServerCertificate:
    """Where the certificate and key are, and the fingerprint people compare."""

    cert_path: Path
    key_path: Path
    fingerprint: str
    created: bool  # made just now (a new tournament, or the files were missing)

    def server_context(self) -> ssl.SSLContext:
        """A TLS 1.2+ server context presenting this certificate (clients are not asked for one)."""
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(self.cert_path, self.key_path)
        return ctx


def certificate_dir(db: Path | None) -> Path:
    """Where a tournament keeps its certificate: beside its database, or (no database) a
    temporary directory of this run's own."""
    if db is None:
        return Path(tempfile.mkdtemp(prefix="hickory-tls-"))
    return db.with_name(db.name + ".tls")


def load_or_create(folder: Path, common_name: str, *, now: dt.datetime | None = None) -> ServerCertificate:
    """The certificate kept in ``folder``, made there first if it is not there yet.

    A certificate without its key is an error the host must look at, not something to paper
    over with a new one (every pinned client would refuse it); a key without its certificate
    is what a crash while making them leaves (no client can have pinned it): made again.
    """
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    if cert_path.exists() and not key_path.exists():
        raise ValueError(f"{cert_path} is there but its key {key_path} is not: restore the key from "
                         f"a backup, or delete {folder} to make a new certificate (every player's "
                         "client will then warn that the certificate changed)")
    created = not cert_path.exists()
    if created:
        _create(folder, cert_path, key_path, common_name, now or dt.datetime.now(dt.UTC))
    try:
        der = ssl.PEM_cert_to_DER_cert(cert_path.read_text(encoding="ascii"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the TLS certificate {cert_path}: {exc}") from exc
    return ServerCertificate(cert_path=cert_path, key_path=key_path, fingerprint=fingerprint(der),
                             created=created)


def _create(folder: Path, cert_path: Path, key_path: Path, common_name: str, now: dt.datetime) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name[:64] or "Hickory")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    # The key first, owner-only from its first byte; the certificate last, so a crash in
    # between leaves a key alone (an error said plainly), never a certificate without its key.
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key_pem)
    tmp = cert_path.with_suffix(".tmp")
    tmp.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    os.replace(tmp, cert_path)
