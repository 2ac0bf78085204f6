"""The Debian package (issue #35), in a throwaway Debian 12 root made with mmdebstrap from Debian's
own mirror: apt installs it, the service's user, unit and settings are there, `pocket serve` run as
the unit's ExecStart runs it answers /healthz over HTTPS with the package's own CA, `pocket
setup-link` prints the owner's link, a person and a Plates spot survive an upgrade to a second
build (with a backup taken before its migrations), `apt remove` keeps the data and `apt purge`
removes it. lintian and `systemd-analyze verify` check the package and its unit.

Run as root (chroot, mounting /proc): `python3 -m pytest e2e/package -q`. POCKET_DEB and
POCKET_DEB_UPGRADE name two packages to test (the second of a higher version); without them the
test builds both with scripts/package.sh (the second with --revision 2, no new compile).
POCKET_DEBIAN_TAR names the base root's tarball, made once a day by mmdebstrap when missing."""
import json
import os
import re
import shlex
import shutil
import signal
import sqlite3
import ssl
import subprocess
import tempfile
import time
import urllib.request
import zipfile
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from cli_helpers import REPO, free_port
from people_helpers import request, sign_in

PASSWORD = "package test password"
# Found on the host's PATH: the service's environment (a PATH without /usr/sbin) is not where to look.
CHROOT = shutil.which("chroot") or "/usr/sbin/chroot"
pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mmdebstrap") is None,
                                reason="needs root and mmdebstrap (chroot into a Debian root)")


def sh(*args, check=True, **kwargs):
    done = subprocess.run(list(args), capture_output=True, text=True, timeout=900, **kwargs)
    if check:
        assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def debs(tmp_path_factory):
    """(first package, its upgrade): given, or built by scripts/package.sh."""
    given = os.environ.get("POCKET_DEB"), os.environ.get("POCKET_DEB_UPGRADE")
    if all(given):
        return Path(given[0]), Path(given[1])
    out = tmp_path_factory.mktemp("debs")
    first = Path(sh(str(REPO / "scripts/package.sh"), "--output", str(out)).stdout.strip().splitlines()[-1])
    second = Path(sh(str(REPO / "scripts/package.sh"), "--revision", "2", "--output", str(out)).stdout.strip().splitlines()[-1])
    return first, second


def field(deb, name):
    return sh("dpkg-deb", "--field", str(deb), name).stdout.strip()


@pytest.fixture(scope="module")
def base_tar():
    """Debian 12 (Essential packages and apt) from the mirror apt uses here, remade after a day."""
    tar = Path(os.environ.get("POCKET_DEBIAN_TAR", "/var/tmp/pocket-e2e/bookworm-apt.tar"))
    if not tar.exists() or time.time() - tar.stat().st_mtime > 86400:
        tar.parent.mkdir(parents=True, exist_ok=True)
        partial = tar.with_suffix(".partial.tar")
        sh("mmdebstrap", "--variant=apt", "--quiet", "bookworm", str(partial), "http://deb.debian.org/debian")
        partial.rename(tar)
    return tar


class Root:
    """A Debian root from the tarball, with /proc mounted while it is used."""

    def __init__(self, tar):
        self.path = Path(tempfile.mkdtemp(prefix="pocket-package-root-", dir="/var/tmp"))
        sh("tar", "-xf", str(tar), "-C", str(self.path))
        shutil.copy("/etc/resolv.conf", self.path / "etc/resolv.conf")
        sh("mount", "-t", "proc", "proc", str(self.path / "proc"))

    def close(self):
        sh("umount", "-l", str(self.path / "proc"), check=False)
        # --one-file-system: never follows a mount that is somehow still there.
        sh("rm", "-rf", "--one-file-system", str(self.path), check=False)

    def run(self, command, check=True, user=None, env=None, stdin=None):
        """`command` (a shell line) inside the root, as root or `user`, with `stdin` as its input."""
        base = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
                "DEBIAN_FRONTEND": "noninteractive"}
        spec = [f"--userspec={user}:{user}"] if user else []
        return sh(CHROOT, *spec, str(self.path), "/bin/sh", "-c", command, check=check, env={**base, **(env or {})}, input=stdin)

    def file(self, path):
        return self.path / path.lstrip("/")

    def apt(self, line):
        return self.run(f"apt-get -y -q -o Dpkg::Options::=--force-confold {line}")

    def install(self, deb):
        shutil.copy(deb, self.file("/tmp") / deb.name)
        # Recommends (Avahi, Leaflet) are left out: they would only slow the test.
        return self.apt(f"install --no-install-recommends /tmp/{deb.name}")


@pytest.fixture
def root(base_tar):
    made = Root(base_tar)
    try:
        made.apt("update")
        yield made
    finally:
        made.close()


def unit_settings(text):
    values = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            values.setdefault(key, []).append(value)
    return values


class Service:
    """`pocket serve` started as pocket.service's ExecStart starts it: as its User, with the
    settings of its EnvironmentFile, in the root."""

    def __init__(self, root, log):
        unit = unit_settings(root.file("/lib/systemd/system/pocket.service").read_text())
        settings_file = unit["EnvironmentFile"][0].lstrip("-")
        settings = {}
        for line in root.file(settings_file).read_text().splitlines():
            if line and not line.startswith("#"):
                key, value = line.split("=", 1)
                settings[key] = value
        self.settings = settings
        user = unit["User"][0]
        home = root.file("/etc/passwd").read_text()
        home = next(line.split(":")[5] for line in home.splitlines() if line.startswith(user + ":"))
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "USER": user, "LOGNAME": user, "LANG": "C.UTF-8", **settings}
        self.log = log
        self.proc = subprocess.Popen([CHROOT, f"--userspec={user}:{user}", str(root.path), *shlex.split(unit["ExecStart"][0])],
                                     env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     preexec_fn=lambda: os.umask(0o077))
        deadline = time.time() + 60
        while "SHA-256" not in log.read_text():
            assert self.proc.poll() is None, log.read_text()
            assert time.time() < deadline, f"pocket serve did not start: {log.read_text()}"
            time.sleep(0.2)
        self.context = ssl.create_default_context(cafile=str(root.file("/var/lib/pocket/tls/ca.pem")))
        self.base = f"https://127.0.0.1:{settings['POCKET_PORT']}"

    def health(self):
        with urllib.request.urlopen(self.base + "/healthz", timeout=10, context=self.context) as response:
            return response.status, json.loads(response.read())

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(timeout=60) == 0, self.log.read_text()


def spotted(service, name):
    _, cookie, _ = sign_in(service.base, name, PASSWORD, context=service.context)
    _, _, page = request(service.base + "/plates", headers={"Cookie": cookie}, context=service.context)
    return set(re.findall(r'class="cell cell--bg-green cell--spotted[^"]*" id="[^"]*" data-state="([A-Z]{2})"', page))


def spot(service, name, state):
    _, cookie, _ = sign_in(service.base, name, PASSWORD, context=service.context)
    _, _, page = request(service.base + "/", headers={"Cookie": cookie}, context=service.context)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
    tag = re.search(r'<meta name="pocket-device" content="([^"]+)"', page).group(1)
    body = json.dumps({"id": "package-test-spot", "at": int(time.time() * 1000), "device": tag, "body": {"kind": "spot", "state": state}}).encode()
    headers = {"Cookie": cookie, "X-CSRF-Token": token, "Content-Type": "application/json"}
    status, _, text = request(service.base + "/plates/changes", "POST", body, headers, context=service.context)
    assert status == 200, text


def migrations(path):
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as database:
        return [row[0] for row in database.execute("SELECT identifier FROM grdb_migrations ORDER BY rowid")]


def test_install_serve_upgrade_remove_and_purge(root, debs, tmp_path):
    first, second = debs
    version = field(first, "Version")
    assert first.name == f"pocket_{version}_amd64.deb"
    assert sh("dpkg", "--compare-versions", field(second, "Version"), "gt", version).returncode == 0

    installed = root.install(first)
    # No systemd runs in a chroot: the install still succeeds and says how to start Pocket.
    assert "systemd is not running" in installed.stdout and "pocket serve --data-dir /var/lib/pocket" in installed.stdout
    assert root.run("pocket --version").stdout.strip() == version.split("-")[0]
    assert root.run("getent passwd pocket").stdout.split(":")[6].strip() == "/usr/sbin/nologin"
    data = root.file("/var/lib/pocket")
    assert oct(data.stat().st_mode & 0o777) == "0o700"
    assert root.file("/etc/systemd/system/multi-user.target.wants/pocket.service").is_symlink(), "enabled for the next boot"
    unit = unit_settings(root.file("/lib/systemd/system/pocket.service").read_text())
    assert unit["ExecStart"] == ["/usr/bin/pocket serve --data-dir /var/lib/pocket"]
    assert unit["EnvironmentFile"] == ["-/etc/default/pocket"] and unit["User"] == ["pocket"]

    # setup-link before a server runs says so, in one line.
    refused = root.run("pocket setup-link", check=False)
    assert refused.returncode != 0 and refused.stderr.startswith("pocket: no Pocket is running"), refused.stderr

    # The household's settings: free ports here, since this machine's 8443 and 8080 may be taken, and
    # a home name the router would serve (this machine's own network, 192.0.2.0/24, is outside the
    # private ranges Pocket's CA covers, so without a name it offers no link a phone could open).
    settings = root.file("/etc/default/pocket")
    port, http_port = free_port(), free_port()
    text = settings.read_text()
    assert "POCKET_HOST=0.0.0.0" in text and "POCKET_PORT=8443" in text and "POCKET_HTTP_PORT=8080" in text
    assert "#POCKET_NAME=" in text
    settings.write_text(text.replace("POCKET_PORT=8443", f"POCKET_PORT={port}").replace("POCKET_HTTP_PORT=8080", f"POCKET_HTTP_PORT={http_port}")
                        + "POCKET_NAME=pocket.home.arpa\n")

    service = Service(root, tmp_path / "serve-1.log")
    try:
        status, answer = service.health()
        assert status == 200 and answer == {"status": "ok", "version": version.split("-")[0]}
        # The owner's first step, as root: the same link and QR code the server printed.
        link = root.run("pocket setup-link").stdout
        printed = service.log.read_text()
        setup = re.search(rf"http://pocket\.home\.arpa:{http_port}/trust#(/setup/[A-Za-z0-9_-]{{43}})", link)
        assert setup and setup.group(0) in printed, link
        assert "\u2588" in link and "SHA-256" in link
        assert not list(data.glob("*-wal")) or all(path.stat().st_uid == data.stat().st_uid for path in data.iterdir()), "nothing became root's"
        status, _, page = request(service.base + setup.group(1), context=service.context)
        assert status == 200 and "choose the owner" in page

        root.run("pocket users add ann --owner --data-dir /var/lib/pocket", user="pocket", env={"HOME": "/var/lib/pocket"}, stdin=PASSWORD + "\n")
        already = root.run("pocket setup-link").stdout
        assert "already set up" in already and "pocket pair NAME" in already
        spot(service, "ann", "UT")
        assert spotted(service, "ann") == {"UT"}
    finally:
        service.stop()
    assert not list((data / "backups").glob("before-upgrades/*.zip")), "nothing was pending: no backup"

    # A second build of the same source has no new migration, so the folder gets one database as
    # an older release wrote it (the converter's, from Tests/Fixtures/release-outbox-data, which
    # lacks "v3: the saved time as milliseconds"): what an upgrade from that release finds.
    older = REPO / "Tests/Fixtures/release-outbox-data/converter.sqlite"
    for suffix in ("", "-wal", "-shm"):
        (data / f"converter.sqlite{suffix}").unlink(missing_ok=True)
    shutil.copy(older, data / "converter.sqlite")
    owner = data.stat()
    os.chown(data / "converter.sqlite", owner.st_uid, owner.st_gid)
    before = migrations(older)  # read from the fixture: a reader in the root would leave root's -shm there

    upgraded = root.install(second)
    assert "systemd is not running" in upgraded.stdout
    assert root.file("/etc/default/pocket").read_text() == settings.read_text(), "the household's settings are kept"
    service = Service(root, tmp_path / "serve-2.log")
    try:
        status, answer = service.health()
        assert status == 200 and answer["version"] == version.split("-")[0]
        assert spotted(service, "ann") == {"UT"}
    finally:
        service.stop()
    archives = list((data / "backups" / "before-upgrades").glob("*.zip"))
    assert len(archives) == 1, archives
    with zipfile.ZipFile(archives[0]) as archive:
        manifest = json.loads(archive.read("manifest.json"))
    assert manifest["pocketVersion"] == version.split("-")[0]
    files = {entry["path"]: entry for entry in manifest["files"]}
    assert files["converter.sqlite"]["migrations"] == before and "plates.sqlite" in files
    assert len(migrations(data / "converter.sqlite")) > len(before), "migrated after the backup"

    removed = root.apt("remove pocket")
    assert "data is kept" in removed.stdout
    assert (data / "plates.sqlite").exists() and root.file("/etc/default/pocket").exists()
    assert not root.file("/usr/bin/pocket").exists()

    purged = root.apt("purge pocket")
    assert "removing /var/lib/pocket" in purged.stdout
    assert not data.exists() and not root.file("/etc/default/pocket").exists()
    assert root.run("getent passwd pocket", check=False).returncode != 0


def test_lintian_finds_no_errors(debs):
    first, _ = debs
    if shutil.which("lintian") is None:
        pytest.skip("lintian is not installed")
    done = sh("lintian", "--fail-on", "error", "--tag-display-limit", "0", str(first), check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # Each warning kept is explained in scripts/package.sh's header; any other fails the test.
    kept = {line.split()[2] for line in done.stdout.splitlines() if line.startswith("W: ")}
    assert kept <= KEPT_WARNINGS, done.stdout


# lintian warnings that stay, each for its reason (listed in scripts/package.sh).
KEPT_WARNINGS = set()


def test_systemd_accepts_the_installed_unit_and_rates_it_as_before(debs, tmp_path):
    first, _ = debs
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    unpacked = tmp_path / "unpacked"
    sh("dpkg-deb", "-x", str(first), str(unpacked))
    text = (unpacked / "lib/systemd/system/pocket.service").read_text()
    assert "ExecStart=/usr/bin/pocket serve" in text and (unpacked / "usr/bin/pocket").resolve() == (unpacked / "usr/lib/pocket/pocket").resolve()
    # verify checks that ExecStart's binary exists on this machine: the unit is checked as the
    # package installs it, with only that path pointing into the unpacked package.
    unit = tmp_path / "pocket.service"
    unit.write_text(text.replace("ExecStart=/usr/bin/pocket ", f"ExecStart={unpacked}/usr/lib/pocket/pocket "))
    done = sh("systemd-analyze", "verify", str(unit), check=False)
    assert done.returncode == 0 and "pocket.service" not in done.stderr, done.stderr
    rating = sh("systemd-analyze", "security", "--offline=true", str(unit), check=False)
    exposure = [line for line in rating.stdout.splitlines() if "Overall exposure level" in line]
    assert exposure and float(exposure[0].split(":")[1].split()[0]) <= 2.0, rating.stdout + rating.stderr
