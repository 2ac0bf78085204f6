"""`pocket setup-link` (issue #35): the running server's one-time setup link and QR code for an
owner whose Pocket runs as a service, or, once someone is set up, how to pair a phone instead."""
import re
import signal
import stat
import subprocess
import time

from cli_helpers import BIN, free_port, one_line_error, run
from people_helpers import add_person


def serve_own_https(tmp_path, data):
    port, http_port = free_port(), free_port()
    out = tmp_path / "serve.out"
    proc = subprocess.Popen([BIN, "serve", "--https", "--port", str(port), "--http-port", str(http_port), "--data-dir", str(data)],
                            stdout=open(out, "w"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.time() + 30
    while "SHA-256" not in out.read_text():
        assert proc.poll() is None and time.time() < deadline, out.read_text()
        time.sleep(0.1)
    return proc, out, http_port


def test_the_link_is_the_one_the_server_printed_until_someone_is_set_up(tmp_path):
    data = tmp_path / "data"
    proc, out, http_port = serve_own_https(tmp_path, data)
    try:
        shown = run("setup-link", "--data-dir", str(data))
        assert shown.returncode == 0, shown.stderr
        link = re.search(rf"http://\S+:{http_port}/trust#/setup/[A-Za-z0-9_-]{{43}}", shown.stdout)
        assert link and link.group(0) in out.read_text(), shown.stdout
        assert "\u2588" in shown.stdout and "SHA-256" in shown.stdout
        assert stat.S_IMODE((data / "setup-link.txt").stat().st_mode) == 0o600

        add_person(data, "owner")
        done = run("setup-link", "--data-dir", str(data))
        assert done.returncode == 0, done.stderr
        assert "already set up" in done.stdout and f"pocket pair NAME --data-dir {data}" in done.stdout
        assert "/setup/" not in done.stdout
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def test_without_a_running_server_or_a_data_folder_it_says_what_to_do(tmp_path):
    line = one_line_error(run("setup-link", "--data-dir", str(tmp_path / "missing")))
    assert "no Pocket data folder at" in line and "systemctl start pocket" in line
    data = tmp_path / "data"
    data.mkdir()
    line = one_line_error(run("setup-link", "--data-dir", str(data)))
    assert "no Pocket is running on" in line
    line = one_line_error(run("setup-link", env={"POCKET_DATA_DIR": str(tmp_path / "elsewhere")}))
    assert str(tmp_path / "elsewhere") in line
