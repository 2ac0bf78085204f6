"""Pocket's own HTTPS from the command line: the certificate authority made once and kept private,
the plain-HTTP trust page beside HTTPS, name-first links from `serve` and `pair`, `pocket trust`,
and one clear line for every bad state. Traffic goes to loopback only (binding 0.0.0.0 is fine)."""
import re
import socket
import ssl
import stat
import subprocess

from people_helpers import add_person, cookies, request, sign_in
from cli_helpers import free_port, one_line_error, run
from https_helpers import NAME, OwnHTTPS


def test_own_https_with_a_trust_page_and_nothing_secret_on_plain_http(tmp_path):
    data = tmp_path / "data"
    add_person(data, "ann")
    server = OwnHTTPS(tmp_path, data, "--https", "--name", NAME)
    try:
        out = server.out.read_text()
        # Where Pocket is (name first), a QR code of the trust page, and the CA's fingerprint.
        assert f"https://{NAME}:{server.port}" in out.split("Pocket is reachable at:")[1].splitlines()[1], out
        assert "\u2588" in out or "\u2580" in out, "no QR code printed"
        assert f"http://{NAME}:{server.http_port}/trust" in out
        fingerprint = re.search(r"SHA-256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})", out).group(1)

        # The CA is made once, private, and verifies the server as 127.0.0.1 and as its name.
        tls = data / "tls"
        assert stat.S_IMODE(tls.stat().st_mode) == 0o700
        assert stat.S_IMODE((tls / "ca.key").stat().st_mode) == 0o600
        status, cookie, headers = sign_in(server.https, "ann", context=server.context)
        assert status == 303 and "Secure" in [c for c in headers.get_all("Set-Cookie") if c.startswith("pocket_session=")][0]
        with socket.create_connection(("127.0.0.1", server.port)) as raw:
            with server.context.wrap_socket(raw, server_hostname=NAME) as tls_socket:
                names = [v for k, v in tls_socket.getpeercert()["subjectAltName"] if k == "DNS"]
        assert names == [NAME, "localhost"], names

        # Plain HTTP: the trust page, the downloads, and a redirect to HTTPS for everything else; no cookie.
        status, headers, page = request(server.http + "/trust", headers={"Host": f"{NAME}:{server.http_port}"})
        assert status == 200 and fingerprint in page.replace("<wbr>", "") and headers.get_all("Set-Cookie") is None
        status, headers, _ = request(server.http + "/trust/Pocket.mobileconfig")
        assert status == 200 and headers["Content-Type"] == "application/x-apple-aspen-config"
        status, headers, _ = request(server.http + "/trust/Pocket-CA.crt")
        assert status == 200 and headers["Content-Type"] == "application/x-x509-ca-cert"
        for path in ["/", "/signin", "/settings", "/join/abc"]:
            status, headers, _ = request(server.http + path, headers={"Host": f"{NAME}:{server.http_port}"})
            assert status == 307 and headers["Location"] == f"https://{NAME}:{server.port}{path}", (path, status)
            assert headers.get_all("Set-Cookie") is None
        status, headers, _ = request(server.http + "/signin", "POST", {"name": "ann", "password": "x"})
        assert status == 307 and headers.get_all("Set-Cookie") is None

        # `pocket pair` prints the server's links: name first, the code only in the fragment.
        paired = run("pair", "ann", "--https", "--name", NAME, "--port", str(server.port), "--http-port", str(server.http_port),
                     "--data-dir", str(data))
        assert paired.returncode == 0, paired.stderr
        links = re.findall(r"http://(\S+):(\d+)/trust#/join/([A-Za-z0-9_-]{43})", paired.stdout)
        assert links and links[0][0] == NAME and links[0][1] == str(server.http_port), paired.stdout
        assert fingerprint in paired.stdout
        status, _, text = request(f"{server.https}/join/{links[0][2]}", context=server.context)
        assert status == 200 and "Continue as ann" in text

        # `pocket trust` says the same, and gives the PEM.
        trust = run("trust", "--data-dir", str(data))
        assert trust.returncode == 0, trust.stderr
        assert fingerprint in trust.stdout and str(tls / "ca.pem") in trust.stdout
        assert f"Names: {NAME}, localhost" in trust.stdout and "Addresses: 127.0.0.1, ::1" in trust.stdout
        pem = run("trust", "--pem", "--data-dir", str(data)).stdout
        assert pem == (tls / "ca.pem").read_text()
    finally:
        server.stop()

    # A restart keeps the same CA: phones trust nothing new.
    again = OwnHTTPS(tmp_path, data, "--https", "--name", NAME)
    try:
        assert fingerprint in again.out.read_text()
    finally:
        again.stop()


def test_binding_beyond_loopback_turns_on_https_and_a_first_start_sends_the_setup_link_through_the_trust_page(tmp_path):
    data = tmp_path / "data"
    server = OwnHTTPS(tmp_path, data, "--name", NAME, host="0.0.0.0")
    try:
        out = server.out.read_text()
        assert "WARNING" not in server.err.read_text()
        setup = re.search(rf"http://{re.escape(NAME)}:{server.http_port}/trust#(/setup/[A-Za-z0-9_-]{{43}})", out)
        assert setup, out
        assert re.search(r"/setup/", out.replace(setup.group(0), "")) is None, "the setup token crossed plain HTTP in a link"
        status, _, text = request(server.https + setup.group(1), context=server.context)
        assert status == 200 and "choose the owner" in text
    finally:
        server.stop()


def test_a_ca_key_others_can_read_or_a_replaced_one_stops_pocket_with_what_to_do(tmp_path):
    data = tmp_path / "data"
    add_person(data, "ann")
    OwnHTTPS(tmp_path, data, "--https").stop()
    key = data / "tls" / "ca.key"
    args = ["serve", "--https", "--port", str(free_port()), "--http-port", str(free_port()), "--data-dir", str(data)]

    key.chmod(0o644)
    line = one_line_error(run(*args))
    assert "can be read or changed by other users" in line and "chmod 600" in line and "every phone must then trust Pocket again" in line
    assert "can be read or changed" in one_line_error(run("trust", "--data-dir", str(data)))

    key.chmod(0o600)
    original = key.read_text()
    subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", str(tmp_path / "other.key")], check=True)
    other = subprocess.run(["openssl", "pkcs8", "-topk8", "-nocrypt", "-in", str(tmp_path / "other.key")], check=True,
                           capture_output=True, text=True).stdout
    key.write_text(other)
    line = one_line_error(run(*args))
    assert "is not the key of Pocket's certificate authority" in line and f"rm -r '{data / 'tls'}'" in line

    key.write_text("garbage")
    assert "cannot read Pocket's certificate authority key" in one_line_error(run(*args))
    key.write_text(original)
    assert run("trust", "--data-dir", str(data)).returncode == 0


def test_bad_https_options_are_one_line(tmp_path):
    data = ["--data-dir", str(tmp_path)]
    assert "invalid --name 'bad_name'" in one_line_error(run("serve", "--name", "bad_name", *data))
    assert "invalid --name '10.0.0.1'" in one_line_error(run("serve", "--https", "--name", "10.0.0.1", *data))
    assert "--http-port needs HTTPS" in one_line_error(run("serve", "--http-port", "9080", *data))
    assert "POCKET_HTTPS 'maybe'" in one_line_error(run("serve", *data, env={"POCKET_HTTPS": "maybe"}))
    assert "contradict" in one_line_error(run("serve", "--no-https", "--tls-cert", "c.pem", "--tls-key", "k.pem", *data))
    assert "no certificate authority" in one_line_error(run("trust", *data))
    # A name made after the CA, outside what it may vouch for.
    OwnHTTPS(tmp_path, tmp_path / "ca", "--https").stop()
    line = one_line_error(run("serve", "--https", "--name", "nas.lan", "--port", str(free_port()), "--http-port", str(free_port()),
                              "--data-dir", str(tmp_path / "ca")))
    assert "--name nas.lan is not one Pocket's certificate authority may vouch for" in line
    # The trust page's port taken by another program: one line naming it. (The log would also say the
    # HTTPS listener started and, at error level, that Hummingbird cancelled it: --log-level critical.)
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        line = one_line_error(run("serve", "--https", "--port", str(free_port()), "--http-port", str(taken), "--log-level", "critical",
                                  "--data-dir", str(tmp_path / "ca")))
    assert f"or {taken} on 127.0.0.1 is already in use" in line and "--http-port" in line


def test_plain_http_answers_only_pockets_own_names_head_like_get_and_tls_1_2_offers_only_aead(tmp_path):
    # Issue #32: the trust listener built its redirect from any Host; HEAD /trust/* answered 404; TLS 1.2 offered CBC.
    data = tmp_path / "data"
    server = OwnHTTPS(tmp_path, data, "--https", "--name", NAME)
    try:
        for path in ["/", "/trust", "/signin"]:
            status, headers, _ = request(server.http + path, headers={"Host": f"evil.example:{server.http_port}"})
            assert status == 421 and headers.get("Location") is None, (path, status)
        status, headers, _ = request(server.http + "/signin", headers={"Host": f"{NAME}:{server.http_port}"})
        assert status == 307 and headers["Location"] == f"https://{NAME}:{server.port}/signin"
        for name in ["Pocket.mobileconfig", "Pocket-CA.crt", "Pocket-CA.pem"]:
            got, got_headers, body = request(server.http + "/trust/" + name)
            head, head_headers, empty = request(server.http + "/trust/" + name, "HEAD")
            assert (head, head_headers["Content-Type"], empty) == (got, got_headers["Content-Type"], ""), name
            assert got == 200 and body
        offered = set()
        for cipher in ["ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA", "AES256-SHA", "AES128-SHA", "ECDHE-ECDSA-AES128-SHA256"]:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_2
            try:
                context.set_ciphers(cipher)
                with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
                    with context.wrap_socket(raw) as tls_socket:
                        offered.add(tls_socket.cipher()[0])
            except (ssl.SSLError, ConnectionResetError):
                pass
        assert offered == set(), f"TLS 1.2 still offers {offered}"
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_2
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            with context.wrap_socket(raw) as tls_socket:
                assert "GCM" in tls_socket.cipher()[0] or "CHACHA20" in tls_socket.cipher()[0]
    finally:
        server.stop()
