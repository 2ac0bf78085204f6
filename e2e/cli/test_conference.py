"""`pocket conference …`: status, update from a manifest, import; failures are one clear line."""
import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
import zipfile
from pathlib import Path

import pytest

from fixture_servers import FolderServer
from people_helpers import add_person, request, sign_in
from cli_helpers import BIN, free_port, one_line_error, run, start





def md5(path):
    return hashlib.md5(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    fixture = FolderServer(root).start()
    yield fixture
    fixture.stop()


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The sample database, exported by the CLI itself."""
    path = tmp_path_factory.mktemp("sample") / "sample.db"
    result = run("conference", "export-sample", str(path))
    assert result.returncode == 0, result.stderr
    return path


def publish(server, sample, version, *, download_md5=None, content=None):
    """Serves a release built from the sample: its zip, and a manifest (values as strings)."""
    root = server.root
    db = root / f"core.{version}.db"
    if content is None:
        shutil.copy(sample, db)
        with sqlite3.connect(db) as connection:
            connection.execute("UPDATE updated SET last_updated = ?", (f"release {version}",))
        connection.close()
    else:
        db.write_bytes(content)
    archive = root / f"sci-core.{version}.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.write(db, db.name)
    manifest = {
        "version": version,
        "download-name": archive.name,
        "download-size": str(archive.stat().st_size),
        "download-md5": download_md5 or md5(archive),
        "content-name": db.name,
        "content-size": str(db.stat().st_size),
        "content-md5": md5(db),
    }
    (root / "sci-core.json").write_text(json.dumps(manifest))
    return server.url("sci-core.json")


def incoming(data):
    folder = Path(data) / "conference" / "incoming"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_status_says_sample_data_out_of_the_box(tmp_path):
    result = run("conference", "status", "--data-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Sample data (April and October 2025)" in result.stdout
    assert "Conferences: 2" in result.stdout
    assert "Talks: 65" in result.stdout
    assert "Citations: 1457" in result.stdout


def test_update_installs_then_skips_with_one_request(tmp_path, server, sample):
    url = publish(server, sample, "7")
    result = run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", url)
    assert result.returncode == 0, result.stderr
    # Not a terminal: plain progress lines, no carriage returns.
    assert "Downloading" in result.stdout and "\r" not in result.stdout
    assert "Downloading: 100%" in result.stdout
    assert "Installed version 7 (core.7.db)." in result.stdout
    assert incoming(tmp_path) == []
    status = run("conference", "status", "--data-dir", str(tmp_path)).stdout
    assert "Database: version 7 (core.7.db, downloaded" in status
    assert "Last updated: release 7" in status

    server.requests.clear()
    again = run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", url)
    assert again.returncode == 0, again.stderr
    assert "Version 7 is already installed." in again.stdout
    assert server.requests == ["/sci-core.json"]


def test_environment_chooses_the_manifest_and_data_folder(tmp_path, server, sample):
    url = publish(server, sample, "8")
    result = run("conference", "update", env={"POCKET_SCI_MANIFEST_URL": url, "POCKET_DATA_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert "version 8" in run("conference", "status", env={"POCKET_DATA_DIR": str(tmp_path)}).stdout


def test_bad_md5_is_one_line_and_the_old_database_stays(tmp_path, server, sample):
    assert run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", publish(server, sample, "7")).returncode == 0
    url = publish(server, sample, "8", download_md5="0" * 32)
    line = one_line_error(run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", url))
    assert "sci-core.8.zip is damaged" in line and "0" * 32 in line
    assert incoming(tmp_path) == []
    status = run("conference", "status", "--data-dir", str(tmp_path)).stdout
    assert "version 7" in status and "Last updated: release 7" in status


def test_missing_manifest_and_unreachable_server_are_one_line(tmp_path, server):
    line = one_line_error(run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", server.url("sci-core.json")))
    assert "the server answered 404" in line
    line = one_line_error(run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", "http://127.0.0.1:9/sci-core.json"))
    assert "127.0.0.1 could not be reached" in line
    assert "Sample data" in run("conference", "status", "--data-dir", str(tmp_path)).stdout


def test_a_file_that_is_not_a_database_is_refused(tmp_path, server, sample):
    url = publish(server, sample, "9", content=b"not a database\n" * 200)
    line = one_line_error(run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", url))
    assert "not an SQLite database" in line
    assert incoming(tmp_path) == []


def test_invalid_manifest_url_is_one_line(tmp_path):
    line = one_line_error(run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", "ftp://example.com/x.json"))
    assert "invalid --manifest-url 'ftp://example.com/x.json'" in line
    line = one_line_error(run("conference", "update", "--data-dir", str(tmp_path), env={"POCKET_SCI_MANIFEST_URL": "not a url"}))
    assert "invalid POCKET_SCI_MANIFEST_URL 'not a url'" in line


def test_import_of_a_non_database_is_one_line(tmp_path):
    notes = tmp_path / "notes.db"
    notes.write_text("just some text\n")
    line = one_line_error(run("conference", "import", str(notes), "--data-dir", str(tmp_path)))
    assert "not a Scripture Citation Index database" in line
    line = one_line_error(run("conference", "import", str(tmp_path / "missing.db"), "--data-dir", str(tmp_path)))
    assert "cannot read" in line
    assert "Sample data" in run("conference", "status", "--data-dir", str(tmp_path)).stdout


def test_import_of_a_database_without_the_expected_tables_is_one_line(tmp_path, sample):
    broken = tmp_path / "broken.db"
    shutil.copy(sample, broken)
    with sqlite3.connect(broken) as connection:
        connection.execute("DROP TABLE talk")
    connection.close()
    line = one_line_error(run("conference", "import", str(broken), "--data-dir", str(tmp_path)))
    assert "lacks talk" in line


def test_import_installs_a_database(tmp_path, sample):
    copy = tmp_path / "core.53.db"
    shutil.copy(sample, copy)
    result = run("conference", "import", str(copy), "--data-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Imported core.53.db" in result.stdout
    assert "Database: core.53.db (imported" in run("conference", "status", "--data-dir", str(tmp_path)).stdout


def test_export_sample_is_reproducible_and_refuses_to_overwrite(tmp_path, sample):
    again = tmp_path / "again.db"
    assert run("conference", "export-sample", str(again)).returncode == 0
    assert md5(again) == md5(sample)
    assert "already exists" in one_line_error(run("conference", "export-sample", str(again)))


def test_search_finds_talks_by_speaker_ignoring_accents(tmp_path):
    result = run("conference", "search", "gimenez", "--data-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "My Love for the Savior Is My “Why” — Ricardo P. Giménez (Apr 2025)" in result.stdout



def wait_for_part(data, timeout=30):
    """Waits until a partial download exists in the incoming folder, with the record beside it of
    which version of the file it holds (saved once the server has said), so it can be resumed."""
    folder = Path(data) / "conference" / "incoming"
    deadline = time.time() + timeout
    while time.time() < deadline:
        names = incoming(data)
        if any(name.endswith(".part") and (folder / name).stat().st_size > 0 and name[:-len(".part")] + ".resume.json" in names
               for name in names):
            return
        time.sleep(0.05)
    raise AssertionError("the download did not start")


def test_ctrl_c_cancels_cleanly_and_keeps_the_old_database(tmp_path, server, sample):
    assert run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", publish(server, sample, "7")).returncode == 0
    url = publish(server, sample, "8")
    server.slow_zips = True
    process = start("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", url)
    wait_for_part(tmp_path)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode != 0
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pocket: ") and "cancelled" in lines[0], stderr
    assert incoming(tmp_path) == []
    assert "version 7" in run("conference", "status", "--data-dir", str(tmp_path)).stdout


def test_a_killed_update_leaves_the_old_database_and_the_next_run_finishes(tmp_path, server, sample):
    assert run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", publish(server, sample, "7")).returncode == 0
    url = publish(server, sample, "8")
    server.slow_zips = True
    process = start("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", url)
    wait_for_part(tmp_path)
    process.kill()
    process.wait(timeout=10)
    # Killed half way: the old database still serves; the partial download is still there.
    assert "version 7" in run("conference", "status", "--data-dir", str(tmp_path)).stdout
    assert any(name.endswith(".part") for name in incoming(tmp_path))

    server.slow_zips = False
    result = run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", url)
    assert result.returncode == 0, result.stderr
    assert incoming(tmp_path) == []
    assert "version 8" in run("conference", "status", "--data-dir", str(tmp_path)).stdout
    databases = sorted(p.name for p in (tmp_path / "conference" / "databases").iterdir())
    # Only the new database is left: version 7's file went with the swap, and an update into a
    # folder that never showed a screen does not build the sample just to replace it.
    assert len(databases) == 1 and databases[0].startswith("core.8."), databases


def test_serve_refuses_a_bad_manifest_url(tmp_path):
    line = one_line_error(run("serve", "--port", "0", "--data-dir", str(tmp_path), "--manifest-url", "ftp://example.com/x.json"))
    assert "invalid --manifest-url 'ftp://example.com/x.json'" in line
    line = one_line_error(run("serve", "--port", "0", "--data-dir", str(tmp_path), env={"POCKET_SCI_MANIFEST_URL": "not a url"}))
    assert "invalid POCKET_SCI_MANIFEST_URL 'not a url'" in line


def test_serve_auto_update_installs_at_start_and_stops_cleanly(tmp_path, server, sample):
    url = publish(server, sample, "9")
    port = free_port()
    # --demo keeps the Murals app off the network, so this test only depends on the Conference fixture.
    add_person(tmp_path)
    process = subprocess.Popen([BIN, "serve", "--port", str(port), "--data-dir", str(tmp_path), "--manifest-url", url, "--auto-update",
                                "--demo"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.time() + 30
        page, cookie = "", None
        while time.time() < deadline and "Database version 9" not in page:
            try:
                if cookie is None:
                    cookie = sign_in(f"http://127.0.0.1:{port}")[1]
                page = request(f"http://127.0.0.1:{port}/conference/settings", headers={"Cookie": cookie})[2]
            except OSError:
                pass
            time.sleep(0.2)
        assert "Database version 9" in page, "--auto-update did not install the offered database"
        assert "conference-sample-banner" not in page
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=15)
    assert code == 0, process.stdout.read()
    assert "version 9" in run("conference", "status", "--data-dir", str(tmp_path)).stdout


def test_manifest_values_never_drive_the_terminal(tmp_path, server):
    """A download-name holding an escape sequence (which would clear the screen) is shown escaped."""
    (server.root / "sci-core.json").write_text(json.dumps({
        "version": "9", "download-name": "sci\x1b[2Jcore.zip", "download-size": "10", "download-md5": "0" * 32,
        "content-name": "core\x1b[31m.db", "content-size": "5", "content-md5": "0" * 32}))
    result = run("conference", "update", "--data-dir", str(tmp_path), "--manifest-url", server.url("sci-core.json"))
    line = one_line_error(result)
    assert "\x1b" not in result.stderr and "\x1b" not in result.stdout
    assert "sci\\u{1b}[2Jcore.zip" in line


# Installs beside other commands (#28): a command that opens the Conference folder while an update
# moves its new file in and records it must neither delete that file nor make the update fail.

def databases(data):
    folder = Path(data) / "conference" / "databases"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def installed_versions(data):
    """The versions of the core files in the data folder (the sample aside)."""
    return [name.split(".")[1] for name in databases(data) if name.startswith("core.")]



def serve(data, url, *extra):
    """Starts `pocket serve` and returns (process, base address) once it answers."""
    port = free_port()
    merged = {key: value for key, value in os.environ.items() if not key.startswith("POCKET_")}
    # --demo keeps the Murals app off the network.
    process = subprocess.Popen([BIN, "serve", "--port", str(port), "--data-dir", str(data), "--manifest-url", url, "--demo", *extra],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=merged)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        assert process.poll() is None, process.stderr.read()
        try:
            request(base + "/signin")
            return process, base
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError("pocket serve did not start")


def stop(process):
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0, process.stderr.read()


def expect_serving(data, version):
    """`status` names `version`, with no warning, and its file is the only core file left."""
    status = run("conference", "status", "--data-dir", str(data))
    assert status.returncode == 0, status.stderr
    assert f"Database: version {version} " in status.stdout and f"Last updated: release {version}" in status.stdout, status.stdout
    assert "Warning" not in status.stdout, status.stdout
    assert installed_versions(data) == [str(version)], databases(data)


def test_commands_while_an_update_records_its_file_lose_nothing(tmp_path, server, sample):
    """The state database's write lock is held from the moment the update says it is installing,
    so it moves its new file in but cannot record it yet; `status`, `search`, a second `update`
    and a starting `serve` run meanwhile. The update then either installs its file, or fails and
    the previous one serves. The update may have recorded its file before the lock is taken (the
    try missed the window): it is tried again with the next version until one catches it."""
    data = tmp_path / "data"
    assert run("conference", "update", "--data-dir", str(data), "--manifest-url", publish(server, sample, "1")).returncode == 0
    # Builds version 1's search index, so the commands below only read the state database.
    assert run("conference", "status", "--data-dir", str(data)).returncode == 0
    state = sqlite3.connect(data / "conference" / "state.sqlite", timeout=30, isolation_level=None)
    hit, version = False, 1
    try:
        while not hit and version < 21:
            version += 1
            url = publish(server, sample, str(version))
            update = start("conference", "update", "--data-dir", str(data), "--manifest-url", url)
            for line in update.stdout:
                if line.startswith("Installing"):
                    break
            state.execute("BEGIN IMMEDIATE")
            try:
                recorded = state.execute("SELECT fileName FROM installed_database").fetchone()[0]
                hit = recorded.startswith(f"core.{version - 1}.")
                if hit:
                    while update.poll() is None and installed_versions(data) != [str(version - 1), str(version)]:
                        time.sleep(0.001)
                    moved = next(name for name in databases(data) if name.startswith(f"core.{version}."))
                    for args in (["status"], ["search", "holland"]):
                        result = run("conference", *args, "--data-dir", str(data))
                        assert result.returncode == 0, result.stderr
                        assert "Warning" not in result.stdout, result.stdout
                    assert f"Database: version {version - 1} " in run("conference", "status", "--data-dir", str(data)).stdout
                    assert moved in databases(data)
                    again = run("conference", "update", "--data-dir", str(data), "--manifest-url", url)
                    assert "Another Pocket process is installing" in one_line_error(again)
                    stop(serve(data, url)[0])
                    assert moved in databases(data)
            finally:
                state.execute("ROLLBACK")
            out, err = update.communicate(timeout=60)
            if update.returncode == 0:
                assert f"Installed version {version} " in out
                expect_serving(data, version)
            else:
                # Held past the update's patience for the state database: it gave up and changed nothing.
                one_line_error(subprocess.CompletedProcess(update.args, update.returncode, out, err))
                expect_serving(data, version - 1)
                break
        assert hit, "no try caught the update between moving its file in and recording it"
    finally:
        state.close()


def test_status_in_a_loop_during_updates_never_loses_the_database(tmp_path, server, sample):
    """`pocket conference status` every few milliseconds while 20 updates run, each replacing the last."""
    data = tmp_path / "data"
    assert run("conference", "update", "--data-dir", str(data), "--manifest-url", publish(server, sample, "1")).returncode == 0
    for version in range(2, 22):
        url = publish(server, sample, str(version))
        done, answers = threading.Event(), []

        def statuses():
            while not done.is_set():
                answers.append(run("conference", "status", "--data-dir", str(data)))
                time.sleep(0.003)

        readers = [threading.Thread(target=statuses) for _ in range(4)]
        for reader in readers:
            reader.start()
        try:
            result = run("conference", "update", "--data-dir", str(data), "--manifest-url", url)
        finally:
            done.set()
            for reader in readers:
                reader.join()
        assert result.returncode == 0, result.stderr
        assert f"Installed version {version} " in result.stdout
        # Each status answered from the file the record named then: the previous version or this one.
        for answer in answers:
            assert answer.returncode == 0, answer.stderr
            assert re.search(rf"^Database: version ({version - 1}|{version}) ", answer.stdout, re.M), answer.stdout
            assert "Warning" not in answer.stdout, answer.stdout
        expect_serving(data, version)


def test_a_settings_page_install_beside_cli_status_still_serves_after_a_restart(tmp_path, server, sample):
    data = tmp_path / "data"
    add_person(data)
    url = publish(server, sample, "2")
    process, base = serve(data, url)
    try:
        cookie = sign_in(base)[1]
        settings = base + "/conference/settings"
        page = request(settings, headers={"Cookie": cookie})[2]
        token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        done, answers = threading.Event(), []

        def statuses():
            while not done.is_set():
                answers.append(run("conference", "status", "--data-dir", str(data)))
                time.sleep(0.003)

        readers = [threading.Thread(target=statuses) for _ in range(4)]
        for reader in readers:
            reader.start()
        try:
            assert request(base + "/conference/settings/install", "POST", {"_csrf": token}, {"Cookie": cookie})[0] == 303
            deadline = time.time() + 60
            while time.time() < deadline and "Installed version 2." not in page:
                time.sleep(0.05)
                page = request(settings, headers={"Cookie": cookie})[2]
        finally:
            done.set()
            for reader in readers:
                reader.join()
        assert "Installed version 2." in page and "Database version 2" in page
        for answer in answers:
            assert answer.returncode == 0, answer.stderr
            assert re.search(r"^Database: (Sample data|version 2) ", answer.stdout, re.M), answer.stdout
            assert "Warning" not in answer.stdout, answer.stdout
    finally:
        stop(process)

    process, base = serve(data, url)
    try:
        page = request(base + "/conference/settings", headers={"Cookie": sign_in(base)[1]})[2]
        assert "Database version 2" in page and "conference-sample-banner" not in page
    finally:
        stop(process)
    expect_serving(data, 2)


@pytest.mark.parametrize("phase", ["Downloading", "Extracting", "Checking the database", "Installing"])
def test_an_update_killed_in_any_phase_leaves_nothing_stale_after_the_next_start(tmp_path, server, sample, phase):
    """kill -9 as the update reports `phase`, then a plain `status`: it finds whichever version the
    record names and removes every leftover but a download to resume; the next update finishes."""
    data = tmp_path / "data"
    assert run("conference", "update", "--data-dir", str(data), "--manifest-url", publish(server, sample, "1")).returncode == 0
    url = publish(server, sample, "2")
    server.slow_zips = phase == "Downloading"
    process = start("conference", "update", "--data-dir", str(data), "--manifest-url", url)
    for line in process.stdout:
        if line.startswith(phase):
            break
    process.kill()
    process.wait(timeout=10)

    status = run("conference", "status", "--data-dir", str(data))
    assert status.returncode == 0, status.stderr
    assert re.search(r"^Database: version [12] ", status.stdout, re.M) and "Warning" not in status.stdout, status.stdout
    left = incoming(data)
    assert all(name.endswith((".part", ".resume.json")) for name in left), left
    assert all(name.replace(".part", ".resume.json") in left for name in left if name.endswith(".part")), left
    assert len(installed_versions(data)) == 1, databases(data)
    with sqlite3.connect(data / "conference" / "state.sqlite") as state:
        assert state.execute("SELECT COUNT(*) FROM digest WHERE fileName IS NULL").fetchone()[0] == 0
    state.close()

    server.slow_zips = False
    result = run("conference", "update", "--data-dir", str(data), "--manifest-url", url)
    assert result.returncode == 0, result.stderr
    assert incoming(data) == []
    expect_serving(data, 2)
