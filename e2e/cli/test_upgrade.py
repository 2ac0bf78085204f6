"""Upgrades (issue #35): before any store is opened, `pocket serve` backs the data folder up when a
database misses a migration this Pocket knows, so what an older release left can be restored; with
nothing pending it makes no such backup, and when the backup cannot be made it does not migrate."""
import json
import shutil
import signal
import sqlite3
import zipfile
from contextlib import closing

from cli_helpers import REPO, free_port, run, start, wait_for

OLDER = REPO / "Tests/Fixtures/release-outbox-data"


def migrations(path):
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as database:
        return [row[0] for row in database.execute("SELECT identifier FROM grdb_migrations ORDER BY rowid")]


def serve_once(data, *extra):
    port = free_port()
    server = start("serve", "--port", str(port), "--data-dir", str(data), *extra)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", timeout=60)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def test_an_older_release_s_folder_is_backed_up_before_its_migrations_once(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(OLDER, data)
    before = {name: migrations(data / name) for name in ("plates.sqlite", "converter.sqlite", "people.sqlite")}
    serve_once(data)
    archives = list((data / "backups" / "before-upgrades").glob("*.zip"))
    assert len(archives) == 1, archives
    with zipfile.ZipFile(archives[0]) as archive:
        manifest = json.loads(archive.read("manifest.json"))
    version = run("--version").stdout.strip()
    assert manifest["pocketVersion"] == version
    files = {entry["path"]: entry["migrations"] for entry in manifest["files"] if entry.get("migrations")}
    for name, ran in before.items():
        assert files[name] == ran, name
        assert len(migrations(data / name)) >= len(ran)
    assert len(migrations(data / "plates.sqlite")) > len(before["plates.sqlite"]), "migrated after the backup"

    serve_once(data)
    assert len(list((data / "backups" / "before-upgrades").glob("*.zip"))) == 1, "nothing pending: no second backup"


def test_a_fresh_folder_gets_no_backup(tmp_path):
    serve_once(tmp_path / "data")
    assert not (tmp_path / "data" / "backups" / "before-upgrades").exists()


def test_when_the_backup_cannot_be_made_nothing_is_migrated(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(OLDER, data)
    before = migrations(data / "plates.sqlite")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backup folder should be")
    done = run("serve", "--port", str(free_port()), "--data-dir", str(data), "--backup-dir", str(blocked), timeout=60)
    # The log says which migrations were due; the failure is the last line, as every failure's.
    assert done.returncode != 0
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("pocket: cannot back up") and "nothing was changed" in line, done.stderr
    assert migrations(data / "plates.sqlite") == before
