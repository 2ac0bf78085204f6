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
        wait_for(f"http://127.0.0.1:{port}/healthz", timeout=60, server=server)
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


def interrupted_copy(path):
    """`path` as a Pocket stopped part-way through a transaction leaves it: a committed table `kept`
    with one row, and a hot journal holding what an uncommitted transaction overwrote. Made by
    copying the files while the transaction is open and has spilled to disk (a cache of one page)."""
    source = path.with_name("source.sqlite")
    with closing(sqlite3.connect(source, isolation_level=None)) as database:
        database.execute("CREATE TABLE kept (value TEXT)")
        database.execute("INSERT INTO kept VALUES ('committed')")
        database.execute("PRAGMA cache_size = 1")
        database.execute("BEGIN")
        database.execute("CREATE TABLE lost (value BLOB)")
        for _ in range(200):
            database.execute("INSERT INTO lost VALUES (randomblob(1000))")
        database.execute("DELETE FROM kept")
        assert source.with_name("source.sqlite-journal").stat().st_size > 0
        shutil.copy(source, path)
        shutil.copy(source.with_name("source.sqlite-journal"), path.with_name(path.name + "-journal"))
        database.execute("ROLLBACK")
    source.unlink()


def test_a_database_left_with_a_hot_journal_is_rolled_back_and_pocket_starts(tmp_path):
    """The project's CI once found a Pocket stopped while it started could not start again: reading
    which migrations were due opened the databases read-only, and SQLite refuses a read-only
    connection a journal it must roll back first."""
    data = tmp_path / "data"
    serve_once(data)
    for leftover in data.glob("remote.sqlite*"):
        leftover.unlink()
    interrupted_copy(data / "remote.sqlite")
    with closing(sqlite3.connect(f"file:{data / 'remote.sqlite'}?mode=ro", uri=True)) as database:
        try:
            database.execute("SELECT count(*) FROM sqlite_master").fetchall()
            raise AssertionError("the copy should need a writer to roll its journal back")
        except sqlite3.OperationalError as error:
            assert "readonly" in str(error)
    serve_once(data)
    with closing(sqlite3.connect(data / "remote.sqlite")) as database:
        assert database.execute("SELECT value FROM kept").fetchall() == [("committed",)]
        tables = {row[0] for row in database.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "lost" not in tables and "grdb_migrations" in tables, tables
