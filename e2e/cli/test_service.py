"""Pocket as a service (issue #26): `pocket service unit` prints a systemd unit that systemd
accepts, runs the binary as an unprivileged user, restarts it on failure and confines it; and
`GET /healthz` tells a monitor whether every database can be read, with no sign-in."""
import json
import os
import shutil
import sqlite3
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cli_helpers import BIN, free_port, run, start, wait_for

SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


def unit(*args):
    result = run("service", "unit", *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def setting(text, name):
    return [line.split("=", 1)[1] for line in text.splitlines() if line.startswith(name + "=")]


def test_the_unit_runs_this_binary_as_an_unprivileged_user_and_restarts_it(tmp_path):
    text = unit("--user", "pocket", "--", "--host", "0.0.0.0")
    binary = str(Path(BIN).resolve())
    assert setting(text, "ExecStart") == [f"{binary} serve --data-dir /var/lib/pocket --host 0.0.0.0"]
    assert setting(text, "User") == ["pocket"] and setting(text, "Group") == ["pocket"]
    assert setting(text, "Restart") == ["on-failure"]
    assert setting(text, "StateDirectory") == ["pocket"]
    assert setting(text, "ReadWritePaths") == ["/var/lib/pocket"]
    for name, value in [("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("PrivateTmp", "yes"), ("CapabilityBoundingSet", "")]:
        assert setting(text, name) == [value], name
    assert setting(text, "ProtectHome") in (["yes"], ["read-only"])


def test_a_low_port_gets_only_the_capability_to_bind_it_and_a_data_folder_its_own_path():
    text = unit("--data-dir", "/srv/pocket", "--", "--port", "443", "--host", "0.0.0.0")
    assert setting(text, "CapabilityBoundingSet") == ["CAP_NET_BIND_SERVICE"]
    assert setting(text, "AmbientCapabilities") == ["CAP_NET_BIND_SERVICE"]
    assert setting(text, "ReadWritePaths") == ["/srv/pocket"]
    assert "--data-dir /srv/pocket --port 443" in setting(text, "ExecStart")[0]


def test_the_unit_follows_the_folders_given_after_the_double_dash():
    """Issue #33: a data folder after `--` is the one made writable (and given once), a backup
    folder is writable too, and a folder under /home keeps homes read-only, not hidden."""
    text = unit("--", "--data-dir", "/home/ada/pocket", "--backup-dir", "/mnt/usb")
    assert setting(text, "ExecStart")[0].count("--data-dir") == 1
    assert "--data-dir /home/ada/pocket --backup-dir /mnt/usb" in setting(text, "ExecStart")[0]
    assert setting(text, "ReadWritePaths") == ["/home/ada/pocket /mnt/usb"]
    assert setting(text, "ProtectHome") == ["read-only"]
    text = unit("--data-dir", "/srv/pocket", "--", "--backup-dir=/srv/pocket-backups")
    assert setting(text, "ReadWritePaths") == ["/srv/pocket /srv/pocket-backups"]
    assert setting(text, "ProtectHome") == ["yes"]


@pytest.mark.parametrize("args", [["--data-dir", "relative/path"], ["--user", "0bad"], ["--user", "a b"], ["--", "--name", "50%"],
                                  ["--", "--backup-dir", "usb"], ["--data-dir", "/srv/a", "--", "--data-dir", "/srv/b"]])
def test_values_a_unit_cannot_carry_are_refused_in_one_line(args):
    result = run("service", "unit", *args)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pocket: cannot put"), result.stderr


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed (Debian's systemd package)")
def test_systemd_accepts_the_unit_and_rates_it(tmp_path):
    path = tmp_path / "pocket.service"
    path.write_text(unit("--", "--host", "0.0.0.0"))
    verify = subprocess.run([SYSTEMD_ANALYZE, "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stderr
    assert "pocket.service" not in verify.stderr, verify.stderr
    rating = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=true", str(path)], capture_output=True, text=True, timeout=60)
    exposure = [line for line in rating.stdout.splitlines() if "Overall exposure level" in line]
    assert exposure, rating.stdout + rating.stderr
    level = float(exposure[0].split(":")[1].split()[0])
    assert level <= 2.0, exposure[0]


def health(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status, json.loads(response.read()), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers


def test_healthz_says_ok_with_no_sign_in_and_names_a_database_that_cannot_be_read(tmp_path):
    port = free_port()
    data = tmp_path / "data"
    server = start("serve", "--port", str(port), "--data-dir", str(data))
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", server=server)
        status, answer, headers = health(port)
        assert status == 200
        assert answer["status"] == "ok" and answer["version"]
        assert "no-store" in headers["Cache-Control"]
        # The converter's file is overwritten with something that is not a database.
        (data / "converter.sqlite").write_bytes(b"not a database" * 1000)
        for suffix in ("-wal", "-shm"):
            (data / f"converter.sqlite{suffix}").unlink(missing_ok=True)
        status, answer, _ = health(port)
        assert status == 503, answer
        assert answer["status"] == "unwell" and list(answer["unwell"]) == ["converter"], answer
    finally:
        server.terminate()
        server.wait(20)


def test_a_packager_names_the_binary_and_a_settings_file_the_unit_reads():
    text = unit("--executable", "/usr/bin/pocket", "--environment-file", "/etc/default/pocket")
    assert setting(text, "ExecStart") == ["/usr/bin/pocket serve --data-dir /var/lib/pocket"]
    # `-`: a missing file leaves the defaults; a missing line of it too.
    assert setting(text, "EnvironmentFile") == ["-/etc/default/pocket"]
    assert "EnvironmentFile" not in unit()
    for args in (["--environment-file", "etc/default/pocket"], ["--executable", "pocket"], ["--environment-file", "/etc/50%"]):
        result = run("service", "unit", *args)
        assert result.returncode != 0 and result.stderr.startswith("pocket: cannot put"), result.stderr


def test_the_unit_gives_pocket_more_open_files_than_systemds_default():
    # systemd's default soft limit of 1,024 is what a few hundred idle sockets reach (issue #32).
    assert setting(unit(), "LimitNOFILE") == ["65536"]
