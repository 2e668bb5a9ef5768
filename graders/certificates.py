"""A private certificate authority for one grading cluster (``grade cluster-certs DIR``).

Dask's TLS (:class:`distributed.security.Security`) is mutual: the scheduler, every worker
and the client each present a certificate, and each checks the others' against ``ca.pem``.
This makes that CA and one certificate per role, with the ``cryptography`` package Dask uses
itself: EC P-256 keys, each certificate valid for ``days``, good for both ends of a TLS
connection (every Dask role both listens and connects). Private keys are written ``0600`` in
a folder of mode ``0700``; nothing is overwritten.

Whoever holds a key signed by this CA is trusted by the cluster in every role (Dask itself
does not tell roles apart): keep ``ca-key.pem`` off the workers, copy each worker only
``ca.pem``, ``worker.pem`` and ``worker-key.pem``, and make a new folder to revoke.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from collections.abc import Sequence
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from graders.errors import GraderError

ROLES = ("scheduler", "worker", "client")
DEFAULT_DAYS = 365
Key = ec.EllipticCurvePrivateKey


def make_cluster_certs(
    folder: Path, hosts: Sequence[str] = (), days: int = DEFAULT_DAYS
) -> list[Path]:
    """Write ``ca.pem`` (+ ``ca-key.pem``) and ``<role>.pem`` + ``<role>-key.pem`` for each
    role into ``folder``; ``hosts`` (names or IP addresses) are added to the certificates'
    names beside localhost. Returns the files written. Refuses to overwrite any."""
    names = ["ca", *ROLES]
    targets = [folder / f"{n}{tail}" for n in names for tail in (".pem", "-key.pem")]
    existing = [p.name for p in targets if p.exists()]
    if existing:
        raise GraderError(f"{folder} already holds {', '.join(existing)}: choose a new folder "
                          "(a new CA revokes every old certificate)")
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("graders cluster CA")
    ca_cert = _builder(ca_name, ca_name, ca_key.public_key(), days).add_extension(
        x509.BasicConstraints(ca=True, path_length=0), critical=True,
    ).add_extension(
        x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                      content_commitment=False, key_encipherment=False,
                      data_encipherment=False, key_agreement=False, encipher_only=False,
                      decipher_only=False), critical=True,
    ).sign(ca_key, hashes.SHA256())
    written = _write_pair(folder, "ca", ca_cert, ca_key)
    for role in ROLES:
        key = ec.generate_private_key(ec.SECP256R1())
        cert = _leaf(_name(f"graders cluster {role}"), ca_name, key, ca_key, hosts, days)
        written += _write_pair(folder, role, cert, key)
    return written


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _builder(
    subject: x509.Name, issuer: x509.Name, public: ec.EllipticCurvePublicKey, days: int
) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
            .public_key(public).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=days)))


def _leaf(
    subject: x509.Name, issuer: x509.Name, key: Key, ca_key: Key, hosts: Sequence[str],
    days: int,
) -> x509.Certificate:
    usage = [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
    return _builder(subject, issuer, key.public_key(), days).add_extension(
        x509.BasicConstraints(ca=False, path_length=None), critical=True,
    ).add_extension(
        x509.ExtendedKeyUsage(usage), critical=False,
    ).add_extension(
        x509.SubjectAlternativeName(_alt_names(hosts)), critical=False,
    ).sign(ca_key, hashes.SHA256())


def _alt_names(hosts: Sequence[str]) -> list[x509.GeneralName]:
    names: list[x509.GeneralName] = [x509.DNSName("localhost"),
                                     x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return names


def _write_pair(folder: Path, name: str, cert: x509.Certificate, key: Key) -> list[Path]:
    cert_path, key_path = folder / f"{name}.pem", folder / f"{name}-key.pem"
    key_bytes = key.private_bytes(serialization.Encoding.PEM,
                                  serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption())
    descriptor = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as stream:
        stream.write(key_bytes)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return [cert_path, key_path]
