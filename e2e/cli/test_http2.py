"""HTTP/2 beside HTTP/1.1 over Pocket's own HTTPS and over `--tls-cert`, chosen by ALPN: signed-in
pages, event streams, uploads and downloads (resumed with Range too) work over it, and the 20 s
idle limit and the per-address bounds (connections, and requests at once) hold for it as for
HTTP/1.1. Debian's curl (built with nghttp2) is the HTTP/2 client; the idle and bound checks speak
HTTP/2's frames themselves over Python's ssl."""
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
HEADERS, RST_STREAM, SETTINGS, GOAWAY = 0x1, 0x3, 0x4, 0x7
MAX_CONCURRENT_STREAMS, REFUSED_STREAM = 0x3, 0x7
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
    frames = FrameReader(connection).read(lambda kind, flags, stream, payload: until(kind, flags))
    return [entry and entry[0] for entry in frames]


class FrameReader:
    """A connection's frames as (kind, flags, stream, payload), the unread rest kept between reads;
    None in the list once the connection has ended."""

    def __init__(self, connection):
        self.connection, self.buffer = connection, b""

    def read(self, until):
        frames = []
        while True:
            while len(self.buffer) >= 9:
                length = int.from_bytes(self.buffer[:3], "big")
                if len(self.buffer) < 9 + length:
                    break
                kind, flags = self.buffer[3], self.buffer[4]
                stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
                payload = self.buffer[9:9 + length]
                self.buffer = self.buffer[9 + length:]
                frames.append((kind, flags, stream, payload))
                if until(kind, flags, stream, payload):
                    return frames
            try:
                data = self.connection.recv(65536)
            except TimeoutError:
                raise
            except (ssl.SSLError, OSError):
                data = b""
            if data == b"":
                frames.append(None)
                return frames
            self.buffer += data


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
        wait_for(base + PUBLIC, context=ssl.create_default_context(cafile=str(cert)), server=server)
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
        whole = open(archive, "rb").read()
        version, status, body = curl(server.https + "/settings/backups/latest", cafile, *auth)
        assert (version, status) == ("2", 200) and body == whole
        # A download stopped part-way goes on with a Range request, as a phone's resumed download does.
        version, status, rest = curl(server.https + "/settings/backups/latest", cafile, *auth, "-r", f"{len(whole) // 3}-")
        assert (version, status) == ("2", 206) and rest == whole[len(whole) // 3:]

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
    and then closed even though it never answers; a connection that never starts TLS is closed too;
    a connection with an event stream open is not idle, however long the stream lasts."""
    server, cookie = signed_in(tmp_path)
    cafile = server.data / "tls" / "ca.pem"
    closed_after, seen = {}, {}
    try:
        def event_stream():
            started = time.monotonic()
            stream = subprocess.Popen([CURL, "-sS", "-N", "--http2", "--max-time", "30", "--cacert", str(cafile),
                                       "-H", f"Cookie: {cookie}", "-H", "Accept: text/event-stream", server.https + "/design/events"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for line in stream.stdout:
                if line.startswith(b"data:"):
                    seen["last tick"] = time.monotonic() - started
            stream.wait()

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

        threads = [threading.Thread(target=target) for target in (idle_http2, no_handshake, event_stream)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(70)
        assert 15 < closed_after["http2"] < 40, closed_after
        assert 15 < closed_after["handshake"] < 40, closed_after
        assert GOAWAY in seen["http2"], seen
        assert seen.get("last tick", 0) > 27, f"the event stream ended early: {seen}"
        # Everyone else is still served.
        assert curl(server.https + PUBLIC, cafile)[:2] == ("2", 200)
    finally:
        server.stop()


def test_a_silent_http2_client_does_not_hold_up_a_graceful_stop(tmp_path):
    """A client that opened an HTTP/2 connection and went silent (as a browser's spare connection does)
    never answers the GOAWAY a stopping server sends; Pocket still ends within seconds of SIGTERM."""
    server = OwnHTTPS(tmp_path, tmp_path / "data", "--https", "--name", NAME)
    cafile = server.data / "tls" / "ca.pem"
    silent = http2_connection(server.port, cafile)
    try:
        started = time.monotonic()
        server.stop()
        assert time.monotonic() - started < 8, f"pocket serve took {time.monotonic() - started:.1f} s to stop"
    finally:
        silent.close()


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


def hpack_string(text):
    """An HPACK string literal, not Huffman-coded (RFC 7541 §5.2), its length a 7-bit-prefix integer."""
    data, length, prefix = text.encode(), len(text.encode()), b""
    if length < 127:
        return bytes([length]) + data
    prefix, length = b"\x7f", length - 127
    while length >= 128:
        prefix, length = prefix + bytes([length % 128 + 128]), length // 128
    return prefix + bytes([length]) + data


def post_headers(stream, authority, path, *fields):
    """A HEADERS frame starting a POST to `path` whose body never comes, so the stream stays open
    while Pocket waits for it (its header block: POST and https from the static table, the rest
    literals never indexed, so nothing depends on the server's table)."""
    block = bytes([0x83, 0x87]) + b"\x04" + hpack_string(path) + b"\x01" + hpack_string(authority)
    for name, value in fields:
        block += b"\x00" + hpack_string(name) + hpack_string(value)
    return frame(HEADERS, flags=0x4, stream=stream, payload=block)


def waiting_uploads(tmp_path):
    """Own HTTPS with an owner signed in, and what a signed-in upload needs to start and then wait
    for a body that never comes (a household-data import of a megabyte): (server, CA file, the
    :authority, the header fields with the session cookie and CSRF token)."""
    server, cookie = signed_in(tmp_path)
    cafile = server.data / "tls" / "ca.pem"
    _, _, page = curl(server.https + "/settings", cafile, "-H", f"Cookie: {cookie}")
    token = re.search(rb'<meta name="csrf-token" content="([^"]+)"', page).group(1).decode()
    fields = (("cookie", cookie), ("x-csrf-token", token), ("content-type", "multipart/form-data; boundary=pocket"),
              ("content-length", "1000000"))
    return server, cafile, f"127.0.0.1:{server.port}", fields


def test_http2_streams_are_bounded_per_connection_and_per_address(tmp_path):
    """One HTTP/2 connection may carry 64 requests at once (announced in its settings), and one address
    128 over all its connections, as HTTP/1.1's 128 connections carry 128: a stream beyond either is
    refused (REFUSED_STREAM, which a client may retry), the address is served again as streams close,
    and other addresses are served throughout. Each request is an upload whose body never comes."""
    server, cafile, authority, fields = waiting_uploads(tmp_path)
    connections = []

    def connect(acknowledge):
        connection = http2_connection(server.port, cafile, source="127.0.0.3")
        assert connection, "a connection from 127.0.0.3 was refused"
        reader = FrameReader(connection)
        # Pocket's second SETTINGS announces the per-connection bound; acknowledging it binds the client by HTTP/2's rules.
        settings = reader.read(lambda kind, flags, stream, payload: kind == SETTINGS and not flags & 1)
        announced = {int.from_bytes(p[i:i + 2], "big"): int.from_bytes(p[i + 2:i + 6], "big")
                     for k, _, _, p in filter(None, settings) if k == SETTINGS for i in range(0, len(p), 6)}
        assert announced.get(MAX_CONCURRENT_STREAMS) == 64, announced
        if acknowledge:
            connection.sendall(frame(SETTINGS, flags=1))
        connections.append(connection)
        return connection, reader

    def open_streams(connection, reader, ids, wait=1.0):
        """Starts an upload on each of `ids`; returns {id: "refused" | other answer} for those answered
        within `wait` seconds. Pocket answers an admitted upload only once its body has come."""
        connection.sendall(b"".join(post_headers(i, authority, "/settings/import", *fields) for i in ids))
        outcome = {}

        def until(kind, flags, stream, payload):
            if kind == GOAWAY:
                outcome["goaway"] = int.from_bytes(payload[4:8], "big")
            if stream in ids and kind == HEADERS:
                outcome.setdefault(stream, f"answered {payload[:8].hex()}")
            elif stream in ids and kind == RST_STREAM:
                outcome[stream] = "refused" if int.from_bytes(payload, "big") == REFUSED_STREAM else f"reset {payload.hex()}"
            return len(outcome) == len(ids)

        connection.settimeout(wait)
        try:
            frames = reader.read(until)
            assert frames[-1] is not None, f"the connection ended: {outcome}"
        except TimeoutError:
            pass
        finally:
            connection.settimeout(10)
        return outcome

    try:
        # A client that never acknowledges the bound is held to it all the same: a 65th at once is refused.
        first, first_reader = connect(acknowledge=False)
        assert open_streams(first, first_reader, list(range(1, 129, 2))) == {}  # 64 uploads, all waiting
        assert open_streams(first, first_reader, [129]) == {129: "refused"}
        second, second_reader = connect(acknowledge=True)
        assert open_streams(second, second_reader, list(range(1, 129, 2))) == {}
        # 128 open from 127.0.0.3: a third connection is let in, but not its request.
        third, third_reader = connect(acknowledge=True)
        assert open_streams(third, third_reader, [1]) == {1: "refused"}
        # Another address is served meanwhile.
        assert curl(server.https + PUBLIC, cafile)[:2] == ("2", 200)
        # A client that acknowledged the bound and breaks it is sent away (GOAWAY, PROTOCOL_ERROR)...
        assert open_streams(second, second_reader, [129]) == {"goaway": 1}
        # ...and once its uploads are gone, the address's requests are let in again.
        deadline, stream = time.time() + 10, 3
        while open_streams(third, third_reader, [stream], wait=0.5) != {}:
            assert time.time() < deadline, "the address was not served again once its requests ended"
            stream += 2
        assert "refusing new HTTP/2 streams: 127.0.0.3 has 128 open" in server.err.read_text() + server.out.read_text()
    finally:
        for connection in connections:
            connection.close()
        server.stop()


def test_forty_clients_at_once_get_exactly_the_per_address_bound_of_http2_requests(tmp_path):
    """40 clients from one address, each on its own HTTP/2 connection, start 4 uploads at the same
    moment (160 requests, bodies never sent): exactly 128 are let in and 32 refused (REFUSED_STREAM),
    whatever the order they arrive in; another address is served meanwhile; and once the clients
    have gone, every admitted request has been counted out, so the address is served again."""
    server, cafile, authority, fields = waiting_uploads(tmp_path)
    clients, per_client = 40, 4
    connections = [http2_connection(server.port, cafile, source="127.0.0.4") for _ in range(clients)]
    assert all(connections), "a connection from 127.0.0.4 was refused"
    refused, answered, lock, start_line = [], [], threading.Lock(), threading.Barrier(clients)

    def client(connection):
        reader = FrameReader(connection)
        ids = list(range(1, 2 * per_client, 2))
        start_line.wait()
        connection.sendall(b"".join(post_headers(i, authority, "/settings/import", *fields) for i in ids))

        def note(kind, flags, stream, payload):
            if stream in ids and kind == RST_STREAM and int.from_bytes(payload, "big") == REFUSED_STREAM:
                with lock:
                    refused.append(stream)
            elif stream in ids and kind in (HEADERS, RST_STREAM):
                with lock:
                    answered.append((stream, kind, payload.hex()))
            return False

        connection.settimeout(8)
        try:
            reader.read(note)
        except TimeoutError:
            pass  # Admitted uploads wait for their bodies: no answer is the answer.

    threads = [threading.Thread(target=client, args=(connection,)) for connection in connections]
    try:
        for thread in threads:
            thread.start()
        # Another address is served while the 160 arrive.
        assert curl(server.https + PUBLIC, cafile)[:2] == ("2", 200)
        for thread in threads:
            thread.join(30)
        assert answered == [], answered
        assert len(refused) == clients * per_client - 128, f"{len(refused)} refused of {clients * per_client}"
    finally:
        for connection in connections:
            if connection:
                connection.close()
    try:
        deadline = time.time() + 10
        while True:
            again = http2_connection(server.port, cafile, source="127.0.0.4")
            reader = FrameReader(again)
            again.sendall(post_headers(1, authority, "/settings/import", *fields))
            again.settimeout(1)
            outcome = []
            try:
                reader.read(lambda kind, flags, stream, payload: stream == 1 and kind == RST_STREAM and not outcome.append(kind))
            except TimeoutError:
                pass
            again.close()
            if not outcome:
                break
            assert time.time() < deadline, "127.0.0.4's requests were not all counted out once its clients went"
            time.sleep(0.2)
    finally:
        server.stop()
