"""The `pocket` command line: start-up errors are one clear line, signals stop it cleanly."""
import signal
import socket
import ssl
import subprocess
import time
import urllib.request

import pytest

from people_helpers import add_person, request, sign_in
from cli_helpers import free_port, one_line_error, run, start, wait_for








def test_version_and_help():
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip().count(".") == 2
    help_text = run("serve", "--help").stdout
    for option in ["--host", "--port", "--data-dir", "--log-level", "--tls-cert", "--tls-key"]:
        assert option in help_text


def test_unknown_option_is_one_line():
    assert "--bogus" in one_line_error(run("serve", "--bogus"))


@pytest.mark.parametrize("port", ["99999", "http"])
def test_invalid_port_is_one_line(port):
    assert "invalid port" in one_line_error(run("serve", "--port", port))


def test_invalid_port_from_environment(tmp_path):
    assert "invalid port 'x'" in one_line_error(run("serve", "--data-dir", str(tmp_path), env={"POCKET_PORT": "x"}))


def test_bad_plates_image_base_stops_serve_with_one_line(tmp_path):
    # It used to be dropped without a word, and the pictures came from the real host after all.
    line = one_line_error(run("serve", "--port", str(free_port()), "--data-dir", str(tmp_path),
                              env={"POCKET_PLATES_IMAGE_BASE": "ftp://mirror.example"}))
    assert "invalid POCKET_PLATES_IMAGE_BASE 'ftp://mirror.example'" in line


@pytest.mark.parametrize("variable, value", [
    ("POCKET_MURALS_URL", "not a url"),
    ("POCKET_MURALS_IMAGES_URL", "file:///srv/murals"),
    ("POCKET_MURALS_TILES", "https://tile.example.org/{z}/{x}.png"),
    ("POCKET_SCI_TALKS_URL", "ftp://x"),
])
def test_bad_app_address_stops_serve_with_one_line(tmp_path, variable, value):
    line = one_line_error(run("serve", "--port", str(free_port()), "--data-dir", str(tmp_path), env={variable: value}))
    assert f"invalid {variable} '{value}'" in line


def test_port_in_use_is_one_line(tmp_path):
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        line = one_line_error(run("serve", "--port", str(port), "--data-dir", str(tmp_path)))
    assert f"port {port}" in line and "already in use" in line


def test_unwritable_data_dir_is_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    line = one_line_error(run("serve", "--data-dir", str(tmp_path / "file" / "pocket"), "--port", str(free_port())))
    assert "is a file, not a folder" in line


def test_missing_tls_file_is_one_line(tmp_path):
    line = one_line_error(run("serve", "--tls-cert", str(tmp_path / "c.pem"), "--tls-key", str(tmp_path / "k.pem"), "--data-dir", str(tmp_path)))
    assert "cannot read" in line


def test_half_tls_pair_is_one_line(tmp_path):
    assert "both --tls-cert and --tls-key" in one_line_error(run("serve", "--tls-cert", "/x.pem", "--data-dir", str(tmp_path)))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serves_with_environment_and_stops_cleanly_on_signal(tmp_path, sig):
    port = free_port()
    data = tmp_path / "xdg"
    # No --data-dir: the default follows XDG_DATA_HOME; the port comes from POCKET_PORT.
    add_person(data / "pocket")
    server = start(env={"POCKET_PORT": str(port), "XDG_DATA_HOME": str(data)})
    try:
        wait_for(f"http://127.0.0.1:{port}/signin", server=server)
        _, cookie, _ = sign_in(f"http://127.0.0.1:{port}")
        status, _, page = request(f"http://127.0.0.1:{port}/", headers={"Cookie": cookie})
        assert status == 200 and "<title>Pocket</title>" in page
        assert (data / "pocket").is_dir()
    finally:
        server.send_signal(sig)
        code = server.wait(timeout=15)
    assert code == 0, server.stderr.read()


def test_https_with_certificate(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    port = free_port()
    add_person(tmp_path)
    server = start("serve", "--port", str(port), "--data-dir", str(tmp_path), "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        context = ssl.create_default_context(cafile=str(cert))
        base = f"https://127.0.0.1:{port}"
        wait_for(base + "/signin", context=context, server=server)
        status, cookie, headers = sign_in(base, context=context)
        assert status == 303
        # Over HTTPS the session cookie is Secure and every response asks for HTTPS from now on.
        session = [c for c in headers.get_all("Set-Cookie") if c.startswith("pocket_session=")][0]
        assert "Secure" in session and "HttpOnly" in session, session
        assert headers["Strict-Transport-Security"] == "max-age=31536000"
        status, headers, page = request(base + "/design", headers={"Cookie": cookie}, context=context)
        assert status == 200 and "<title>Design · Pocket</title>" in page
        assert headers["Strict-Transport-Security"] == "max-age=31536000"
    finally:
        server.terminate()
        assert server.wait(timeout=15) == 0


def test_open_event_stream_does_not_hold_up_shutdown(tmp_path):
    port = free_port()
    add_person(tmp_path)
    server = start("serve", "--port", str(port), "--data-dir", str(tmp_path))
    try:
        wait_for(f"http://127.0.0.1:{port}/signin", server=server)
        _, cookie, _ = sign_in(f"http://127.0.0.1:{port}")
        stream = urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/design/events", headers={"Cookie": cookie}), timeout=10)
        first = stream.readline().decode()
        assert first.startswith("event: patch")
    finally:
        started = time.time()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=15)
    assert code == 0
    assert time.time() - started < 5, "an open event stream delayed shutdown"
    assert stream.read() is not None  # the server closed the stream rather than leaving it hanging


def test_slow_and_idle_connections_are_closed(tmp_path):
    """A client dribbling its headers a byte a second (slowloris), or sending nothing, is cut off
    after the 20 s idle limit instead of holding a connection for ever."""
    import threading
    port = free_port()
    server = start("serve", "--port", str(port), "--data-dir", str(tmp_path))
    try:
        wait_for(f"http://127.0.0.1:{port}/static/css/pocket.css", server=server)
        closed_after = {}

        def dribble(name, payload):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                started = time.monotonic()
                for byte in payload:
                    try:
                        sock.sendall(bytes([byte]))
                        sock.settimeout(1)
                        if sock.recv(1) == b"":
                            break
                    except socket.timeout:
                        continue
                    except OSError:
                        break
                    if time.monotonic() - started > 45:
                        break
                closed_after[name] = time.monotonic() - started

        slow = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200

        # The idle client sends nothing at all: it waits on its socket.
        def idle():
            with socket.create_connection(("127.0.0.1", port), timeout=45) as sock:
                started = time.monotonic()
                try:
                    data = sock.recv(1)
                except OSError:
                    data = b""
                closed_after["idle"] = time.monotonic() - started if data == b"" else 999
        threads = [threading.Thread(target=dribble, args=("slow", slow)), threading.Thread(target=idle)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert 15 < closed_after["slow"] < 40, closed_after
        assert 15 < closed_after["idle"] < 40, closed_after
        # The server still answers everyone else.
        wait_for(f"http://127.0.0.1:{port}/static/css/pocket.css")
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=15) == 0
