"""HTTP/2 beside HTTP/1.1 over Pocket's own HTTPS and over `--tls-cert`, chosen by ALPN: signed-in
pages, event streams, uploads and downloads work over it, and the 20 s idle limit and the
per-address connection bound hold for it as for HTTP/1.1. Debian's curl (built with nghttp2) is the
HTTP/2 client; the idle and bound checks speak HTTP/2's first frames themselves over Python's ssl."""
import json
import re
import shutil
import socket
import ssl
import struct
import subprocess
import threading
import time


from cli_helpers import free_port, run, start, wait_for
from https_helpers import NAME, OwnHTTPS
from people_helpers import add_person, sign_in

# Debian's curl (scripts/test.sh installs it) speaks HTTP/2 through nghttp2; without it these fail, never skip.
CURL = shutil.which("curl") or "curl"

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS, GOAWAY = 0x4, 0x7
# Served to anyone, before setup too.
PUBLIC = "/static/css/pocket.css"


def curl(url, cafile, *args, version="--http2"):
    """(HTTP version, status, body bytes) of one curl request."""
    done = subprocess.run([CURL, "-sS", version, "--cacert", str(cafile), "-o", "-", "-w", "\n%{http_version} %{http_code}", *args, url],
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    body, _, trailer = done.stdout.rpartition(b"\n")
    http_version, status = trailer.decode().split()
    return http_version, int(status), body


def frame(kind, flags=0, stream=0, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def http2_connection(port, cafile, source="127.0.0.1"):
    """A TLS connection from `source` on which ALPN chose h2 and the client has sent its preface and
    settings and acknowledged the server's; then it sends nothing more. None when Pocket refused it."""
    context = ssl.create_default_context(cafile=str(cafile))
    context.set_alpn_protocols(["h2", "http/1.1"])
    raw = socket.socket()
    raw.bind((source, 0))
    raw.settimeout(10)
    try:
        raw.connect(("127.0.0.1", port))
        connection = context.wrap_socket(raw, server_hostname="127.0.0.1")
    except OSError:
        raw.close()
        return None
    assert connection.selected_alpn_protocol() == "h2"
    connection.sendall(PREFACE + frame(SETTINGS))
    kinds = read_frames(connection, until=lambda kind, flags: kind == SETTINGS and not flags & 1)
    assert SETTINGS in kinds
    connection.sendall(frame(SETTINGS, flags=1))
    return connection


def read_frames(connection, until, pending=None):
    """Reads frames until `until(kind, flags)` holds or the connection ends; returns the kinds seen."""
    buffer, kinds = b"", []
    while True:
        while len(buffer) >= 9:
            length = int.from_bytes(buffer[:3], "big")
            if len(buffer) < 9 + length:
                break
            kind, flags = buffer[3], buffer[4]
            kinds.append(kind)
            buffer = buffer[9 + length:]
            if until(kind, flags):
                return kinds
        try:
            data = connection.recv(65536)
        except (ssl.SSLError, OSError):
            data = b""
        if data == b"":
            kinds.append(None)
            return kinds
        buffer += data


def signed_in(tmp_path):
    """Own HTTPS with an owner signed in: (server, Cookie header, CSRF token)."""
    data = tmp_path / "data"
    add_person(data)
    server = OwnHTTPS(tmp_path, data, "--https", "--name", NAME)
    _, cookie, _ = sign_in(server.https, context=server.context)
    assert cookie
    return server, cookie


def test_own_https_offers_http2_beside_http1_and_the_plain_listener_stays_http1(tmp_path):
    server = OwnHTTPS(tmp_path, tmp_path / "data", "--https", "--name", NAME)
    cafile = server.data / "tls" / "ca.pem"
    try:
        assert curl(server.https + PUBLIC, cafile)[:2] == ("2", 200)
        assert curl(server.https + PUBLIC, cafile, version="--http1.1")[:2] == ("1.1", 200)
        # ALPN offers h2 first and HTTP/1.1 beside it; a client naming neither still gets HTTP/1.1.
        for offered, chosen in [(["h2", "http/1.1"], "h2"), (["http/1.1"], "http/1.1"), (None, None)]:
            context = ssl.create_default_context(cafile=str(cafile))
            if offered:
                context.set_alpn_protocols(offered)
            with context.wrap_socket(socket.create_connection(("127.0.0.1", server.port)), server_hostname=NAME) as connection:
                assert connection.selected_alpn_protocol() == chosen, offered
        # The trust page's plain listener does not take an HTTP/1.1 request's offer of h2c.
        version, status, _ = curl(server.http + "/trust", cafile)
        assert (version, status) == ("1.1", 200)
    finally:
        server.stop()


def test_tls_cert_offers_http2_beside_http1(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    port = free_port()
    server = start("serve", "--port", str(port), "--data-dir", str(tmp_path / "data"), "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        base = f"https://127.0.0.1:{port}"
        wait_for(base + PUBLIC, context=ssl.create_default_context(cafile=str(cert)))
        assert curl(base + PUBLIC, cert)[:2] == ("2", 200)
        assert curl(base + PUBLIC, cert, version="--http1.1")[:2] == ("1.1", 200)
    finally:
        server.terminate()
        server.wait(timeout=15)


def test_signed_in_pages_event_streams_uploads_and_downloads_work_over_http2(tmp_path):
    server, cookie = signed_in(tmp_path)
    cafile = server.data / "tls" / "ca.pem"
    auth = ["-H", f"Cookie: {cookie}"]
    try:
        version, status, page = curl(server.https + "/settings", cafile, *auth)
        assert (version, status) == ("2", 200)
        token = re.search(rb'<meta name="csrf-token" content="([^"]+)"', page).group(1).decode()

        # An event stream: the clock ticks arrive one by one on a stream that stays open.
        stream = subprocess.Popen([CURL, "-sS", "-N", "--http2", "--cacert", str(cafile), "-D", "-", *auth,
                                   "-H", "Accept: text/event-stream", server.https + "/design/events"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            status_line = stream.stdout.readline()
            assert status_line.startswith(b"HTTP/2 200"), status_line
            ticks = 0
            deadline = time.time() + 15
            while ticks < 3:
                assert time.time() < deadline, "the event stream did not stream"
                line = stream.stdout.readline()
                assert line, stream.stderr.read()
                ticks += line.startswith(b"data:")
            assert stream.poll() is None, "the event stream ended"
        finally:
            stream.kill()
            stream.wait()

        # An upload larger than HTTP/2's first flow-control window (64 KiB): a Conference database.
        sample = tmp_path / "core.54.db"
        assert run("conference", "export-sample", str(sample)).returncode == 0
        assert sample.stat().st_size > 65535
        version, status, _ = curl(server.https + "/conference/settings/import", cafile, *auth, "-H", f"X-CSRF-Token: {token}",
                                  "-F", f"database=@{sample};type=application/octet-stream")
        assert (version, status) == ("2", 303)
        deadline = time.time() + 30
        while "Database: core.54.db (imported" not in run("conference", "status", "--data-dir", str(server.data)).stdout:
            assert time.time() < deadline, "the uploaded database was not installed"
            time.sleep(0.5)

        # Downloads: a person's export, and the newest backup, byte for byte.
        version, status, export = curl(server.https + "/settings/export", cafile, *auth)
        assert (version, status) == ("2", 200) and json.loads(export)["person"]
        archive = run("backup", "--data-dir", str(server.data)).stdout.strip().splitlines()[-1]
        version, status, body = curl(server.https + "/settings/backups/latest", cafile, *auth)
        assert (version, status) == ("2", 200) and body == open(archive, "rb").read()

        # A multipart form upload: the export, imported as a new person.
        exported = tmp_path / "export.json"
        exported.write_bytes(export)
        version, status, _ = curl(server.https + "/settings/import", cafile, *auth, "-H", f"X-CSRF-Token: {token}",
                                  "-F", f"file=@{exported};type=application/json", "-F", "person=new",
                                  "-F", "name=Bea", "-F", "password=long enough for bea")
        assert (version, status) == ("2", 303)
        assert b"Bea" in curl(server.https + "/settings", cafile, *auth)[2]
    finally:
        server.stop()


def test_idle_http2_connections_and_unfinished_handshakes_are_closed_after_20_s(tmp_path):
    """An HTTP/2 connection that sends nothing after its preface and settings is asked to go away
    and then closed even though it never answers; a connection that never starts TLS is closed too."""
    server = OwnHTTPS(tmp_path, tmp_path / "data", "--https", "--name", NAME)
    cafile = server.data / "tls" / "ca.pem"
    closed_after, seen = {}, {}
    try:
        def idle_http2():
            connection = http2_connection(server.port, cafile)
            started = time.monotonic()
            connection.settimeout(60)
            seen["http2"] = read_frames(connection, until=lambda kind, flags: False)
            closed_after["http2"] = time.monotonic() - started
            connection.close()

        def no_handshake():
            with socket.create_connection(("127.0.0.1", server.port), timeout=60) as connection:
                started = time.monotonic()
                try:
                    data = connection.recv(1)
                except OSError:
                    data = b""
                closed_after["handshake"] = time.monotonic() - started if data == b"" else 999

        threads = [threading.Thread(target=idle_http2), threading.Thread(target=no_handshake)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(70)
        assert 15 < closed_after["http2"] < 40, closed_after
        assert 15 < closed_after["handshake"] < 40, closed_after
        assert GOAWAY in seen["http2"], seen
        # Everyone else is still served.
        assert curl(server.https + PUBLIC, cafile)[:2] == ("2", 200)
    finally:
        server.stop()


def test_the_per_address_connection_bound_holds_for_http2(tmp_path):
    server = OwnHTTPS(tmp_path, tmp_path / "data", "--https", "--name", NAME)
    cafile = server.data / "tls" / "ca.pem"
    held = []
    try:
        for _ in range(140):
            connection = http2_connection(server.port, cafile, source="127.0.0.2")
            if connection:
                held.append(connection)
        # Beyond 128 from one address, connections are closed before TLS; the first 128 speak HTTP/2.
        assert 100 <= len(held) <= 128, len(held)
        assert curl(server.https + PUBLIC, cafile)[:2] == ("2", 200)
        while held:
            held.pop().close()
        deadline = time.time() + 10
        while (again := http2_connection(server.port, cafile, source="127.0.0.2")) is None:
            assert time.time() < deadline, "the address was not served again once its connections closed"
            time.sleep(0.2)
        again.close()
    finally:
        for connection in held:
            connection.close()
        server.stop()
