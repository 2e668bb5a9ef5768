"""Commands found by looking: each module of graders/commands adds one `grade` command."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from graders.cli import cli
from graders.pack import get_pack

PACK = get_pack("altnim")


def test_every_command_module_is_registered():
    folder = Path(__file__).parents[2] / "graders" / "commands"
    modules = {p.stem.replace("_", "-") for p in folder.glob("*.py") if p.stem != "__init__"}
    assert modules <= set(cli.commands)


def test_similarity_lists_the_near_copy_and_not_the_starter(tmp_path: Path):
    samples = PACK.fixtures_dir / "submissions"
    for name in ("correct", "do_nothing"):
        shutil.copytree(samples / name, tmp_path / name)
    shutil.copytree(samples / "correct", tmp_path / "copycat")
    result = CliRunner().invoke(cli, ["similarity", "altnim", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "copycat" in lines[0] and "correct" in lines[0]


def test_cluster_certs_makes_a_ca_and_three_certificates_once(tmp_path: Path):
    from cryptography import x509

    folder = tmp_path / "certs"
    result = CliRunner().invoke(cli, ["cluster-certs", str(folder), "--host", "10.0.0.5"])
    assert result.exit_code == 0, result.output
    assert "dask scheduler" in result.output and "--cluster-certs" in result.output
    ca = x509.load_pem_x509_certificate((folder / "ca.pem").read_bytes())
    for role in ("scheduler", "worker", "client"):
        cert = x509.load_pem_x509_certificate((folder / f"{role}.pem").read_bytes())
        cert.verify_directly_issued_by(ca)
        assert (folder / f"{role}-key.pem").stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700
    again = CliRunner().invoke(cli, ["cluster-certs", str(folder)])
    assert again.exit_code != 0  # never overwrites a CA
