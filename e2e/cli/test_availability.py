"""Nobody on the Wi-Fi can take Pocket down (issue #32): a /healthz flood leaves no file handles
behind, Pocket raises its soft open-file limit, and a stranger holding a thousand idle sockets
neither starves the databases nor keeps a signed-in person out. Run under the limit systemd gives
a service by default (1,024 open files), with `prlimit`."""
import http.client
import os
import re
import shutil
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest

from cli_helpers import BIN, environment, free_port, wait_for
from people_helpers import add_person, request, sign_in

PRLIMIT = shutil.which("prlimit")
pytestmark = pytest.mark.skipif(PRLIMIT is None, reason="prlimit (util-linux) is not installed")


def serve_limited(data, port, soft, hard, *extra):
    """`pocket serve` under an open-file limit of soft:hard, as systemd would start it. Its log goes
    to a file beside the data folder (a pipe nobody reads would fill and stop the server)."""
    log = open(f"{data}.log", "w")
    process = subprocess.Popen([PRLIMIT, f"--nofile={soft}:{hard}", BIN, "serve", "--port", str(port), "--data-dir", str(data), *extra],
                               stdout=subprocess.DEVNULL, stderr=log, env=environment())
    log.close()
    wait_for(f"http://127.0.0.1:{port}/healthz", timeout=60)
    return process


@contextmanager
def holding(data, soft, hard, *extra):
    """A person added to `data`, then `pocket serve` under soft:hard open files: yields (server,
    port, held), where `held` is a list of sockets the test opens, all closed with the server."""
    add_person(data)
    port = free_port()
    server = serve_limited(data, port, soft, hard, *extra)
    held = []
    try:
        yield server, port, held
    finally:
        for connection in held:
            connection.close()
        stop(server)


def server_log(data):
    """The end of what the server logged."""
    with open(f"{data}.log") as log:
        return log.read()[-2000:]


def open_files(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def stop(process):
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def healthz_status(port, source="127.0.0.1"):
    """The status of one GET /healthz on a connection of its own from `source`, or the error's name."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
        connection.request("GET", "/healthz")
        status = connection.getresponse().status
        connection.close()
        return status
    except OSError as error:
        return type(error).__name__


def test_a_healthz_flood_leaves_no_file_handles_behind(tmp_path):
    port = free_port()
    server = serve_limited(tmp_path / "data", port, 1024, 1024)
    try:
        before = open_files(server.pid)
        # 160 at once from four addresses: well within the 128 connections each may hold (a closed
        # connection is counted until the server sees it close), so every one is answered.
        with ThreadPoolExecutor(160) as pool:
            statuses = list(pool.map(lambda index: healthz_status(port, f"127.0.0.{3 + index % 4}"), range(2000)))
        assert server.poll() is None, "Pocket died during the flood: " + server_log(tmp_path / "data")
        # Every request was answered: healthy, or 503 when a database could not be opened.
        assert set(statuses) <= {200, 503}, {status: statuses.count(status) for status in set(statuses)}
        assert statuses.count(200) > 0
        # Connections close as answers go out; give the last ones a moment.
        deadline = time.time() + 10
        while open_files(server.pid) > before + 32 and time.time() < deadline:
            time.sleep(0.2)
        after = open_files(server.pid)
        assert after <= before + 32, f"{before} open files before the flood, {after} after"
        assert healthz_status(port) == 200
    finally:
        stop(server)


def test_pocket_raises_its_soft_file_limit_to_the_hard_one(tmp_path):
    port = free_port()
    server = serve_limited(tmp_path / "data", port, 1024, 4096)
    try:
        limits = open(f"/proc/{server.pid}/limits").read()
        line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        assert line.split()[3:5] == ["4096", "4096"], line
    finally:
        stop(server)


def hold_sockets(count, source, port):
    """`count` idle connections to Pocket from `source` (a loopback address of its own)."""
    held = []
    for _ in range(count):
        connection = socket.socket()
        connection.bind((source, 0))
        connection.settimeout(5)
        try:
            connection.connect(("127.0.0.1", port))
        except OSError:
            connection.close()
            continue
        held.append(connection)
    return held


def still_open(connection):
    """Whether Pocket has left this connection open (a closed one reads as end of file or a reset)."""
    connection.setblocking(False)
    try:
        return connection.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_a_stranger_holding_1100_idle_sockets_does_not_keep_a_signed_in_person_out(tmp_path):
    data = tmp_path / "data"
    with holding(data, 1024, 1024) as (server, port, held):
        base = f"http://127.0.0.1:{port}"
        _, cookie, _ = sign_in(base)
        assert cookie
        held += hold_sockets(1100, "127.0.0.2", port)
        time.sleep(1)
        assert server.poll() is None
        # Beyond its bound, the stranger's connections are closed at once.
        open_now = sum(still_open(connection) for connection in held)
        assert open_now <= 256, f"Pocket keeps {open_now} of one stranger's idle connections open"
        statuses = []
        for path in ["/", "/plates/", "/remote/tv", "/converter/", "/healthz"] * 4:
            status, _, body = request(base + path, headers={"Cookie": cookie})
            statuses.append((path, status))
        assert all(status == 200 for _, status in statuses), statuses


def test_connections_in_all_are_bounded_by_what_the_file_limit_leaves(tmp_path):
    # With 400 open files Pocket keeps 256 for its databases and holds at most 144 connections in
    # all, however many addresses share them (each stays under the 128 of one address here).
    data = tmp_path / "data"
    with holding(data, 400, 400) as (server, port, held):
        for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
            held += hold_sockets(100, source, port)
        time.sleep(1)
        assert server.poll() is None
        open_now = sum(still_open(connection) for connection in held)
        assert 100 <= open_now <= 144, f"Pocket holds {open_now} connections with room for 144"
        assert healthz_status(port) != 200, "a connection beyond the bound in all was served"
        assert "refusing new connections: Pocket holds 144 connections, its limit" in server_log(data)
        while held:
            held.pop().close()
        # Once they are gone, everyone is served again.
        deadline = time.time() + 10
        while healthz_status(port) != 200:
            assert time.time() < deadline, "Pocket did not serve again once the connections closed"
            time.sleep(0.2)


def test_the_trusted_proxy_is_not_bound_per_address(tmp_path):
    # Everyone comes through the reverse proxy: its address may hold more than one address's 128.
    with holding(tmp_path / "data", 1024, 1024, "--trusted-proxy", "127.0.0.5") as (server, port, held):
        proxy = hold_sockets(200, "127.0.0.5", port)
        held += proxy
        other = hold_sockets(200, "127.0.0.6", port)
        held += other
        time.sleep(1)
        assert sum(still_open(connection) for connection in proxy) == 200, "the trusted proxy's connections were closed"
        assert sum(still_open(connection) for connection in other) <= 128, "another address held more than 128"
        assert healthz_status(port, "127.0.0.5") == 200


def open_stream(port, cookie, path="/remote/events?view=tv"):
    """An event stream held open, its headers read."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Cookie": cookie, "Accept": "text/event-stream"})
    response = connection.getresponse()
    assert response.status == 200, response.status
    return connection, response


def stream_ended(connection, within):
    """Whether Pocket ends the stream (the chunked body's end, or the connection closing) within `within` seconds."""
    connection.sock.settimeout(within)
    deadline = time.time() + within
    try:
        while time.time() < deadline:
            data = connection.sock.recv(4096)
            if data == b"" or data.endswith(b"0\r\n\r\n"):
                return True
    except (socket.timeout, TimeoutError):
        return False
    except OSError:
        return True
    return False


def test_a_person_holds_at_most_8_event_streams_and_they_end_when_the_device_signs_out(tmp_path):
    data = tmp_path / "data"
    add_person(data)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve_limited(data, port, 1024, 1024)
    streams = []
    try:
        _, cookie, _ = sign_in(base)
        streams = [open_stream(port, cookie) for _ in range(11)]
        time.sleep(0.5)
        # The three oldest were ended to make room; the eight newest stay open.
        assert [stream_ended(connection, 5) for connection, _ in streams[:3]] == [True] * 3
        assert [stream_ended(connection, 0.2) for connection, _ in streams[3:]] == [False] * 8
        status, _, text = request(base + "/settings", headers={"Cookie": cookie})
        assert status == 200, status
        token = re.search(r'name="_csrf" value="([^"]+)"', text).group(1)
        status, _, _ = request(base + "/signout", "POST", {"_csrf": token}, {"Cookie": cookie})
        assert status in (200, 303), status
        # Signed out: every stream of that device ends soon after.
        assert [stream_ended(connection, 12) for connection, _ in streams[3:]] == [True] * 8
    finally:
        for connection, _ in streams:
            connection.close()
        stop(server)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("runuser") is None, reason="needs root, to run Pocket as another user")
def runnable_by_nobody(home):
    """BIN, or when `nobody` may not reach it (a checkout in a private folder, as `mktemp -d` makes)
    a copy in `home` with the resource bundles it reads from beside it."""
    if subprocess.run(["runuser", "-u", "nobody", "--", "test", "-x", BIN], check=False).returncode == 0:
        return BIN
    folder = os.path.join(home, "bin")
    os.makedirs(folder)
    for name in os.listdir(os.path.dirname(BIN)):
        if name.endswith(".resources"):
            shutil.copytree(os.path.join(os.path.dirname(BIN), name), os.path.join(folder, name))
    copy = shutil.copy2(BIN, folder)
    subprocess.run(["chmod", "-R", "a+rX", folder], check=True)
    return copy


def test_healthz_says_a_database_pocket_may_no_longer_open():
    """/healthz asks of each database what its store needs, reading and writing: a file Pocket's user
    may no longer open (`chmod 000`, a wrong owner after a restore) is 503 naming it, though SQLite
    still holds a descriptor of that file from an earlier connection (issue #33)."""
    import tempfile
    import urllib.error
    import urllib.request
    home = tempfile.mkdtemp(prefix="pocket-health-", dir="/tmp")
    os.chmod(home, 0o755)
    os.chown(home, 65534, 65534)  # nobody's, as /var/lib/pocket is the service user's
    data = os.path.join(home, "data")
    port = free_port()
    process = subprocess.Popen(["runuser", "-u", "nobody", "--", runnable_by_nobody(home), "serve", "--port", str(port), "--data-dir", data],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment())
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", timeout=60)
        assert healthz_status(port) == 200
        os.chmod(os.path.join(data, "plates.sqlite"), 0)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
                status, body = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode()
        assert status == 503, body
        assert '"plates"' in body and "unable to open" in body, body
    finally:
        subprocess.run(["pkill", "-TERM", "-f", f"serve --port {port} "], check=False)
        process.wait(20)
        shutil.rmtree(home, ignore_errors=True)
