"""Backups and restore (issue #26): `pocket backup` while a server runs and 20 clients write,
an archive that verifies, `pocket restore` into a folder a new server serves, and every refusal
of `pocket restore` leaving the folder it would replace untouched."""
import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import stat
import subprocess
import threading
import time
import uuid
import zipfile
from contextlib import closing
from pathlib import Path

import pytest

from people_helpers import add_person, request, sign_in
from cli_helpers import REPO, free_port, one_line_error, run, start, wait_for

PEOPLE = ["ann", "bea", "cy", "dee", "eve"]
STATES = ["AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD",
          "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC"]


def serve(data, *extra):
    port = free_port()
    server = start("serve", "--port", str(port), "--data-dir", str(data), *extra)
    wait_for(f"http://127.0.0.1:{port}/healthz", server=server)
    return server, f"http://127.0.0.1:{port}"


def stop(server):
    server.send_signal(signal.SIGTERM)
    # A liveness bound, not a speed check: on a loaded machine a stop after 20 writers took over 20 s.
    server.wait(timeout=60)


def device(base, name):
    """A signed-in client: (headers for outbox posts, device tag)."""
    status, cookie, _ = sign_in(base, name)
    assert status == 303 and cookie, status
    _, _, page = request(base + "/", headers={"Cookie": cookie})
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
    tag = re.search(r'<meta name="pocket-device" content="([^"]+)"', page).group(1)
    return {"Cookie": cookie, "X-CSRF-Token": token, "Content-Type": "application/json"}, tag


def spotted(base, name):
    _, cookie, _ = sign_in(base, name)
    _, _, page = request(base + "/plates", headers={"Cookie": cookie})
    return set(re.findall(r'class="cell cell--bg-green cell--spotted[^"]*" id="[^"]*" data-state="([A-Z]{2})"', page))


def verify(archive):
    """The archive's manifest matches every entry, byte for byte; returns the manifest."""
    with zipfile.ZipFile(archive) as zip_file:
        manifest = json.loads(zip_file.read("manifest.json"))
        names = set(zip_file.namelist()) - {"manifest.json"}
        assert names == {entry["path"] for entry in manifest["files"]}
        for entry in manifest["files"]:
            data = zip_file.read(entry["path"])
            assert len(data) == entry["size"] and hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
    return manifest


def tree(folder):
    """Every file under `folder` with its bytes' digest and mode: what "left intact" means."""
    return {str(path.relative_to(folder)): (hashlib.sha256(path.read_bytes()).hexdigest(), stat.S_IMODE(path.stat().st_mode))
            for path in sorted(Path(folder).rglob("*")) if path.is_file()}


def archive_path(result):
    assert result.returncode == 0, result.stderr
    path = Path(result.stdout.strip().splitlines()[-1])
    assert path.is_file(), result.stdout
    return path


def test_a_backup_while_20_clients_write_holds_every_acknowledged_change_and_restores_to_a_server_showing_them(tmp_path):
    data = tmp_path / "data"
    for index, name in enumerate(PEOPLE):
        add_person(data, name, owner=index == 0)
    server, base = serve(data)
    acknowledged = []  # (person, change id, monotonic time of the answer)
    lock = threading.Lock()
    stop_writing = threading.Event()
    failures = []
    try:
        clients = [(name, *device(base, name)) for name in PEOPLE for _ in range(4)]
        assert len(clients) == 20

        def write(name, headers, tag, seed):
            count = 0
            while not stop_writing.is_set() and count < 400:
                state = STATES[(seed * 7 + count) % len(STATES)]
                change_id = str(uuid.uuid4())
                body = json.dumps({"id": change_id, "at": int(time.time() * 1000), "device": tag, "body": {"kind": "spot", "state": state}}).encode()
                status, answer, text = request(base + "/plates/changes", "POST", body, headers)
                while status == 429 and not stop_writing.is_set():
                    # Faster than one person's change rate (a fast machine): as the outbox does,
                    # wait and send the same change again.
                    time.sleep(min(float(answer.get("Retry-After", "1")), 1.0))
                    status, answer, text = request(base + "/plates/changes", "POST", body, headers)
                if status == 429:
                    return
                if status != 200:
                    failures.append((status, text))
                    return
                with lock:
                    acknowledged.append((name, change_id, time.monotonic()))
                count += 1

        threads = [threading.Thread(target=write, args=(name, headers, tag, seed)) for seed, (name, headers, tag) in enumerate(clients)]
        for thread in threads:
            thread.start()
        while len(acknowledged) < 100 and not failures:
            time.sleep(0.02)
        began = time.monotonic()
        result = run("backup", "--to", str(tmp_path / "backups"), "--data-dir", str(data))
        stop_writing.set()
        for thread in threads:
            thread.join(timeout=30)
        assert not failures, failures[:3]
        archive = archive_path(result)
    finally:
        stop_writing.set()
        stop(server)

    # The archive verifies, and holds every change acknowledged before the backup began.
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    manifest = verify(archive)
    assert {entry["path"] for entry in manifest["files"]} >= {"people.sqlite", "plates.sqlite", "converter.sqlite", "remote.sqlite", "conference/state.sqlite"}
    assert any(entry["path"] == "conference/databases" for entry in manifest["leftOut"])
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(archive) as zip_file:
        zip_file.extractall(unpacked)
    with closing(sqlite3.connect(unpacked / "people.sqlite")) as people:
        ids = dict(people.execute("SELECT name, id FROM person"))
    with closing(sqlite3.connect(unpacked / "plates.sqlite")) as plates:
        changes = set(plates.execute("SELECT personID, id FROM plateChange"))
        states = {name: {row[0] for row in plates.execute("SELECT stateCode FROM plateChange WHERE personID = ?", (ids[name],))} for name in PEOPLE}
    before = [(name, change_id) for name, change_id, at in acknowledged if at < began]
    assert len(before) >= 100
    missing = [(name, change_id) for name, change_id in before if (ids[name], change_id) not in changes]
    assert not missing, f"{len(missing)} acknowledged changes are not in the backup"

    # Restored into a new folder, a new server shows exactly what the backup holds.
    restored = tmp_path / "restored"
    done = run("restore", str(archive), "--data-dir", str(restored))
    assert done.returncode == 0, done.stderr
    server, base = serve(restored)
    try:
        for name in PEOPLE:
            assert spotted(base, name) == states[name], name
    finally:
        stop(server)


def make_authority(data):
    """Pocket's own CA and a leaf in data/tls, made as `pocket serve --https` makes them."""
    server = start("serve", "--https", "--name", "pocket.test", "--port", str(free_port()), "--http-port", str(free_port()), "--data-dir", str(data))
    try:
        deadline = time.time() + 30
        while not (data / "tls" / "leaf.pem").exists():
            assert server.poll() is None, server.stderr.read()
            assert time.time() < deadline, "pocket serve --https made no certificate"
            time.sleep(0.1)
    finally:
        stop(server)


def make_folder(tmp_path):
    """A data folder with people, a game and Pocket's CA, and a backup of it."""
    data = tmp_path / "data"
    add_person(data, "ann")
    make_authority(data)
    server, base = serve(data)
    try:
        headers, tag = device(base, "ann")
        body = json.dumps({"id": "first", "at": int(time.time() * 1000), "device": tag, "body": {"kind": "spot", "state": "OR"}}).encode()
        assert request(base + "/plates/changes", "POST", body, headers)[0] == 200
    finally:
        stop(server)
    archive = archive_path(run("backup", "--to", str(tmp_path / "backups"), "--data-dir", str(data)))
    return data, archive


def test_restore_refuses_a_truncated_a_tampered_and_a_newer_archive_and_a_running_server_leaving_the_folder_intact(tmp_path):
    data, archive = make_folder(tmp_path)
    with zipfile.ZipFile(archive) as zip_file:
        info = zip_file.getinfo("tls/ca.key")
        assert (info.external_attr >> 16) & 0o777 == 0o600
    before = tree(data)
    content = archive.read_bytes()

    truncated = tmp_path / "truncated.zip"
    truncated.write_bytes(content[: len(content) * 2 // 3])
    line = one_line_error(run("restore", str(truncated), "--data-dir", str(data)))
    assert "not a readable Pocket backup" in line and "nothing was changed" in line
    assert tree(data) == before

    flipped = bytearray(content)
    offset = content.index(b"plates.sqlite") + 200  # inside the plates database's compressed bytes
    flipped[offset] ^= 0x01
    tampered = tmp_path / "tampered.zip"
    tampered.write_bytes(bytes(flipped))
    line = one_line_error(run("restore", str(tampered), "--data-dir", str(data)))
    assert "nothing was changed" in line
    assert tree(data) == before

    # A newer Pocket: its plates database ran a migration this one does not know.
    newer_folder = tmp_path / "newer"
    newer_folder.mkdir()
    for name in ["people.sqlite", "plates.sqlite"]:
        with closing(sqlite3.connect(data / name)) as source, closing(sqlite3.connect(newer_folder / name)) as copy:
            source.backup(copy)
    with closing(sqlite3.connect(newer_folder / "plates.sqlite")) as plates:
        plates.execute("INSERT INTO grdb_migrations(identifier) VALUES ('v99: from the future')")
        plates.commit()
    newer = archive_path(run("backup", "--to", str(tmp_path / "newer-backups"), "--data-dir", str(newer_folder)))
    line = one_line_error(run("restore", str(newer), "--data-dir", str(data)))
    assert "newer Pocket" in line and "v99: from the future" in line
    assert tree(data) == before

    server, _ = serve(data)
    try:
        line = one_line_error(run("restore", str(archive), "--data-dir", str(data)))
        assert "a Pocket server is running" in line
    finally:
        stop(server)
    after_serving = tree(data)

    # The sound archive restores; the CA key keeps its mode.
    done = run("restore", str(archive), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((data / "tls" / "ca.key").stat().st_mode) == 0o600
    with zipfile.ZipFile(archive) as zip_file:
        assert (data / "tls" / "ca.key").read_bytes() == zip_file.read("tls/ca.key")
    assert set(after_serving) >= {"people.sqlite", "plates.sqlite"}
    assert not [path for path in tmp_path.iterdir() if "restoring" in path.name or "before-restore" in path.name]


def test_backup_and_restore_refuse_what_they_cannot_use_in_one_line(tmp_path):
    line = one_line_error(run("backup", "--data-dir", str(tmp_path / "nothing-here")))
    assert "no Pocket data to back up" in line
    line = one_line_error(run("restore", str(tmp_path / "missing.zip"), "--data-dir", str(tmp_path / "data")))
    assert "cannot read" in line
    not_zip = tmp_path / "notes.zip"
    not_zip.write_text("hello")
    line = one_line_error(run("restore", str(not_zip), "--data-dir", str(tmp_path / "data")))
    assert "not a readable Pocket backup" in line
    assert not (tmp_path / "data").exists()
    line = one_line_error(run("serve", "--backup-time", "25:00", "--data-dir", str(tmp_path / "data")))
    assert "--backup-time '25:00'" in line


def backed_up_and_restored(tmp_path, fixture, database):
    """Backs up the data folder an older release wrote (`Tests/Fixtures/<fixture>`), restores the
    archive into a new folder, and returns that folder and `database`'s entry in the archive's
    manifest (the migrations it had run when it was archived)."""
    data = tmp_path / "data"
    shutil.copytree(REPO / "Tests/Fixtures" / fixture, data)
    archive = archive_path(run("backup", "--to", str(tmp_path / "backups"), "--data-dir", str(data)))
    entry = next(entry for entry in verify(archive)["files"] if entry["path"] == database)
    restored = tmp_path / "restored"
    done = run("restore", str(archive), "--data-dir", str(restored))
    assert done.returncode == 0, done.stderr
    return restored, entry


def test_an_archive_of_an_older_pocket_is_migrated_as_it_is_restored(tmp_path):
    restored, plates = backed_up_and_restored(tmp_path, "release-outbox-data", "plates.sqlite")
    assert plates["migrations"][-1] == "v3: the change log"
    with closing(sqlite3.connect(restored / "plates.sqlite")) as database:
        ran = [row[0] for row in database.execute("SELECT identifier FROM grdb_migrations ORDER BY rowid")]
    assert ran[:3] == plates["migrations"] and len(ran) > 3


def rewritten(archive, target, change):
    """A copy of `archive` whose files `change(files, entries)` edits (path → bytes, path → manifest
    entry), with a manifest whose sizes and SHA-256s are right again: only what the restorer itself
    knows can refuse it."""
    with zipfile.ZipFile(archive) as source:
        manifest = json.loads(source.read("manifest.json"))
        files = {entry["path"]: source.read(entry["path"]) for entry in manifest["files"]}
    entries = {entry["path"]: entry for entry in manifest["files"]}
    change(files, entries)
    manifest["files"] = []
    for path, data in files.items():
        entry = entries.get(path, {"path": path, "mode": 0o600})
        entry.update(size=len(data), sha256=hashlib.sha256(data).hexdigest())
        manifest["files"].append(entry)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        copy.writestr("manifest.json", json.dumps(manifest))
        for path, data in files.items():
            copy.writestr(path, data)
    return target


def test_restore_knows_pockets_files_by_name_and_refuses_what_it_does_not_write_a_hidden_damaged_database_and_a_bad_ca(tmp_path):
    """Issue #32: the manifest no longer decides which files are databases, nor which files belong."""
    data, archive = make_folder(tmp_path)
    before = tree(data)

    def junk(files, entries):
        files["junk.bin"] = b"\0" * 4096

    def damaged_plates(files, entries):
        plates = bytearray(files["plates.sqlite"])
        for offset in range(4096, len(plates) - 64, 512):
            plates[offset:offset + 64] = b"Z" * 64
        files["plates.sqlite"] = bytes(plates)
        del entries["plates.sqlite"]["migrations"]  # "not a database", says the manifest

    def open_key(files, entries):
        entries["tls/ca.key"]["mode"] = 0o644

    def garbage_certificate(files, entries):
        files["tls/ca.pem"] = b"-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n"

    def another_key(files, entries):
        files["tls/ca.key"] = files["tls/leaf.key"]

    for change, words in [(junk, "holds junk.bin, which Pocket does not write"),
                          (damaged_plates, "the database plates.sqlite in the backup is damaged"),
                          (open_key, "tls/ca.key can be read or changed by other users"),
                          (garbage_certificate, "tls/ca.pem cannot be used"),
                          (another_key, "tls/ca.key is not the key of tls/ca.pem")]:
        crafted = rewritten(archive, tmp_path / f"{change.__name__}.zip", change)
        line = one_line_error(run("restore", str(crafted), "--data-dir", str(data)))
        assert words in line and "nothing was changed" in line, line
        assert tree(data) == before
        assert not [path for path in tmp_path.iterdir() if "restoring" in path.name or "before-restore" in path.name]

    # The archive as Pocket wrote it restores, and so does one rewritten without a change.
    assert run("restore", str(rewritten(archive, tmp_path / "same.zip", lambda files, entries: None)), "--data-dir", str(data)).returncode == 0


def test_a_backup_leaves_out_files_pocket_does_not_write_and_its_restore_keeps_them(tmp_path):
    data, _ = make_folder(tmp_path)
    (data / "notes.txt").write_text("mine")
    archive = archive_path(run("backup", "--to", str(tmp_path / "more-backups"), "--data-dir", str(data)))
    manifest = verify(archive)
    assert "notes.txt" not in {entry["path"] for entry in manifest["files"]}
    assert {"path": "notes.txt", "reason": "not written by Pocket: a restore keeps it in the folder"} in manifest["leftOut"]
    done = run("restore", str(archive), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert (data / "notes.txt").read_text() == "mine"


# Issue #33: backups and restores that can't hurt.

def test_restore_refuses_a_folder_of_someone_elses_files_though_it_holds_an_sqlite_file_and_deletes_nothing(tmp_path):
    _, archive = make_folder(tmp_path)
    documents = tmp_path / "documents"
    documents.mkdir()
    (documents / "thesis.txt").write_text("chapter one")
    with closing(sqlite3.connect(documents / "firefox-history.sqlite")) as history:
        history.execute("CREATE TABLE visit(url TEXT)")
        history.commit()
    before = tree(documents)
    line = one_line_error(run("restore", str(archive), "--data-dir", str(documents)))
    assert "is not a Pocket data folder" in line and "nothing was changed" in line
    assert tree(documents) == before


def test_a_restore_into_pockets_folder_keeps_the_files_pocket_did_not_write(tmp_path):
    data, archive = make_folder(tmp_path)
    (data / "thesis.txt").write_text("chapter one")
    done = run("restore", str(archive), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert (data / "thesis.txt").read_text() == "chapter one"
    assert "thesis.txt" in done.stdout


def test_a_restore_killed_between_its_two_renames_is_finished_by_the_next_command(tmp_path):
    data, archive = make_folder(tmp_path)
    add_person(data, "bea", owner=False)
    # Acted out with the real binary: the restored folder complete beside the data folder, which was moved aside.
    staging, aside = tmp_path / ".data.restoring-1a2b3c4d", tmp_path / ".data.before-restore-1a2b3c4d"
    assert run("restore", str(archive), "--data-dir", str(staging)).returncode == 0
    data.rename(aside)

    listed = run("users", "list", "--data-dir", str(data))
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr.strip().splitlines() == [f"pocket: a restore into {data} had been cut short after its archive was unpacked and checked: it is now finished"]
    assert "ann" in listed.stdout and "bea" not in listed.stdout
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith(".data")) == []


def test_a_restore_killed_before_it_was_ready_is_rolled_back_by_the_next_server(tmp_path):
    data, archive = make_folder(tmp_path)
    staging, aside = tmp_path / ".data.restoring-00000001", tmp_path / ".data.before-restore-00000001"
    staging.mkdir()
    (staging / "people.sqlite").write_bytes(b"half written")
    data.rename(aside)

    server, base = serve(data)
    try:
        assert spotted(base, "ann") == {"OR"}
    finally:
        stop(server)
    assert f"pocket: a restore into {data} had been cut short before it was ready: it is rolled back" in server.stderr.read()
    assert not staging.exists() and not aside.exists()


def test_restore_refuses_an_archive_without_the_people_database(tmp_path):
    data, archive = make_folder(tmp_path)
    without = tmp_path / "without-people.zip"
    with zipfile.ZipFile(archive) as source, zipfile.ZipFile(without, "w", zipfile.ZIP_DEFLATED) as copy:
        manifest = json.loads(source.read("manifest.json"))
        manifest["files"] = [entry for entry in manifest["files"] if entry["path"] != "people.sqlite"]
        copy.writestr("manifest.json", json.dumps(manifest))
        for entry in manifest["files"]:
            copy.writestr(entry["path"], source.read(entry["path"]))
    before = tree(data)
    line = one_line_error(run("restore", str(without), "--data-dir", str(data)))
    assert "has no people.sqlite" in line and "nothing was changed" in line
    assert tree(data) == before


def test_backups_never_hold_earlier_backups_and_a_killed_backups_copies_are_cleaned(tmp_path):
    data, _ = make_folder(tmp_path)
    inside = [archive_path(run("backup", "--data-dir", str(data))) for _ in range(3)]
    assert all(path.parent == data / "backups" for path in inside)
    killed = tmp_path / "usb" / f".pocket-backup-{uuid.uuid4()}"
    killed.mkdir(parents=True)
    shutil.copy(data / "people.sqlite", killed / "people.sqlite")

    usb = archive_path(run("backup", "--to", str(tmp_path / "usb"), "--data-dir", str(data)))
    manifest = verify(usb)
    assert not [entry["path"] for entry in manifest["files"] if entry["path"].startswith("backups/")]
    assert {"path": "backups", "reason": "earlier backups"} in manifest["leftOut"]
    assert usb.stat().st_size < inside[0].stat().st_size * 3 // 2
    assert not killed.exists()


def test_a_full_disk_says_the_disk_is_full_and_where(tmp_path):
    data, _ = make_folder(tmp_path)
    with closing(sqlite3.connect(data / "plates.sqlite")) as plates:
        plates.execute("CREATE TABLE IF NOT EXISTS padding(blob BLOB)")
        plates.execute("INSERT INTO padding VALUES (randomblob(2000000))")
        plates.commit()
    small = tmp_path / "small"
    small.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(small)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a small file system needs root: " + mounted.stderr.decode().strip())
    try:
        line = one_line_error(run("backup", "--to", str(small), "--data-dir", str(data)))
        assert f"the disk holding {small} is full" in line, line
    finally:
        subprocess.run(["umount", str(small)], check=True)


def test_restore_as_root_keeps_the_folders_owner_and_mode(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can give files to another user")
    data, archive = make_folder(tmp_path)
    tmp_path.chmod(0o755)
    for path in [data, *data.rglob("*")]:
        os.lchown(path, 65534, 65534)
    data.chmod(0o750)
    done = run("restore", str(archive), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    owners = {str(path.relative_to(data)): (path.lstat().st_uid, path.lstat().st_gid) for path in [data, *data.rglob("*")]}
    assert set(owners.values()) == {(65534, 65534)}, owners
    assert stat.S_IMODE(data.stat().st_mode) == 0o750


def test_every_file_pocket_writes_is_its_owners_alone_however_it_is_started(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o755)
    add_person(data, "ann")
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert stat.S_IMODE((data / "people.sqlite").stat().st_mode) == 0o600
    archive = archive_path(run("backup", "--data-dir", str(data)))
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    assert stat.S_IMODE(archive.parent.stat().st_mode) == 0o700


def test_an_archive_of_the_release_before_the_shared_toggle_restores_every_bookmark_and_star(tmp_path):
    """Bookmarks and stars moved into one table shape (issue #36): an archive of that release's
    folder (the backup copies the databases as they are) restores with every bookmark, star,
    decision and seen change id in the new tables, a bookmark's date now its milliseconds."""
    restored, murals = backed_up_and_restored(tmp_path, "release-toggle-data", "murals-demo.sqlite")
    assert murals["migrations"][-1] == "v5: star and visit times ahead of the clock brought back"
    t = 1795880093705
    with closing(sqlite3.connect(restored / "murals-demo.sqlite")) as database:
        assert database.execute("SELECT personID, itemID, addedAt FROM favourite ORDER BY personID, itemID").fetchall() == [
            (1, 1, t + 17), (1, 2, t + 1000), (2, 4, t + 4000)]
        assert database.execute("SELECT personID, itemID, at, changeID FROM favourite_decision ORDER BY personID, itemID").fetchall() == [
            (1, 1, t + 17, ""), (1, 2, t + 1000, "toggle-star-1"), (1, 3, t + 3000, "toggle-unstar-2"), (2, 4, t + 4000, "toggle-bea-star")]
        assert sorted(database.execute("SELECT personID, changeID FROM favourite_change_seen").fetchall()) == [
            (1, "toggle-old-3"), (1, "toggle-star-1"), (1, "toggle-star-2"), (1, "toggle-unstar-2"), (2, "toggle-bea-star")]
    # Conference's state is migrated when Pocket next opens it.
    server, _ = serve(restored)
    stop(server)
    with closing(sqlite3.connect(restored / "conference" / "state.sqlite")) as database:
        assert database.execute("SELECT personID, itemID, addedAt FROM bookmark ORDER BY personID, itemID").fetchall() == [
            (1, 8802, t + 67), (1, 8803, t + 1000), (2, 8805, t + 4000)]
        assert database.execute("SELECT personID, itemID, at, changeID FROM bookmark_decision ORDER BY personID, itemID").fetchall() == [
            (1, 8802, t + 67, ""), (1, 8803, t + 1000, "toggle-mark-1"), (1, 8804, t + 3000, "toggle-unmark-2"), (2, 8805, t + 4000, "toggle-bea-mark")]
        assert sorted(database.execute("SELECT personID, changeID FROM bookmark_change_seen").fetchall()) == [
            (1, "toggle-mark-1"), (1, "toggle-mark-2"), (1, "toggle-old-mark"), (1, "toggle-unmark-2"), (2, "toggle-bea-mark")]
