"""People from the command line: `pocket users`, the setup link, `pocket pair`, HTTPS behind a proxy,
throttling, and upgrading a data folder the previous release wrote."""
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import time

import pytest

from people_helpers import BIN, PASSWORD, add_person, cookies, request, sign_in
from cli_helpers import REPO, free_port, run
from person_rows import rows_of





class Serve:
    """`pocket serve` in the background, its stdout and stderr kept in files."""

    def __init__(self, tmp_path, *args, host="127.0.0.1"):
        self.port = free_port()
        self.out, self.err = tmp_path / "serve.out", tmp_path / "serve.err"
        self.proc = subprocess.Popen([BIN, "serve", "--host", host, "--port", str(self.port), *args],
                                     stdout=open(self.out, "w"), stderr=open(self.err, "w"), stdin=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                request(self.base + "/static/css/pocket.css")
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"pocket serve did not start: {self.err.read_text()}")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(timeout=15) == 0, self.err.read_text()

    def stdout(self):
        return self.out.read_text()


def test_users_add_list_passwd_remove(tmp_path):
    data = ["--data-dir", str(tmp_path)]
    assert "Added ann (owner)." in run("users", "add", "ann", *data, stdin="first password\n").stdout
    assert "Added bea." in run("users", "add", "bea", *data, stdin="second password\n").stdout
    listing = run("users", "list", *data).stdout.splitlines()
    assert listing == ["ann\towner\t0 devices", "bea\tmember\t0 devices"]
    # One clear line for each mistake, and nothing changes.
    for args, stdin, message in [
        (["add", "ANN"], "some password\n", "Someone is already called"),
        (["add", "cal"], "short\n", "at least 8 characters"),
        (["add", "cal"], "", "no password on standard input"),
        (["remove", "ann"], "", "only owner"),
        (["remove", "zed"], "", "There is no one called"),
        (["passwd", "zed"], "new password\n", "There is no one called"),
    ]:
        result = run("users", *args, *data, stdin=stdin)
        assert result.returncode != 0 and result.stderr.count("\n") == 1 and message in result.stderr, (args, result.stderr)
    # A password is never an argument.
    assert run("users", "add", "cal", "a password", *data).returncode != 0
    assert "Password changed for bea" in run("users", "passwd", "bea", *data, stdin="third password\n").stdout
    assert "Removed bea and their data." in run("users", "remove", "bea", *data).stdout
    assert run("users", "list", *data).stdout.splitlines() == ["ann\towner\t0 devices"]
    # A name with a terminal escape is refused, and never echoed raw.
    hostile = run("users", "add", "x\x1b[2Jy", *data, stdin="long enough\n")
    assert hostile.returncode != 0 and "\x1b" not in hostile.stderr


def test_users_remove_beside_a_running_server_deletes_every_row_of_theirs_and_no_one_elses(tmp_path):
    data = tmp_path / "data"
    add_person(data, "ann")
    add_person(data, "bea", owner=False)
    server = Serve(tmp_path, "--data-dir", str(data))
    try:
        ids = {}
        for name, state in [("ann", "TX"), ("bea", "OR")]:
            _, cookie, _ = sign_in(server.base, name)
            _, _, page = request(server.base + "/plates", headers={"Cookie": cookie})
            token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
            device = re.search(r'<meta name="pocket-device" content="([^"]+)"', page).group(1)
            ids[name] = int(re.search(r'<meta name="pocket-device" [^>]*data-person="(\d+)"', page).group(1))
            body = json.dumps({"id": f"{name}-spot", "at": int(time.time() * 1000), "device": device,
                               "body": {"kind": "spot", "state": state}}).encode()
            headers = {"Cookie": cookie, "X-CSRF-Token": token, "Content-Type": "application/json"}
            assert request(server.base + "/plates/changes", "POST", body, headers)[0] == 200
        assert rows_of(ids["bea"], data)["plates.sqlite"] > 0

        done = run("users", "remove", "bea", "--data-dir", str(data))
        assert done.returncode == 0 and "Removed bea and their data." in done.stdout, done.stderr
        left = rows_of(ids["bea"], data)
        assert left and all(count == 0 for count in left.values()), left
        # Ann's game is as it was, on the running server too.
        assert rows_of(ids["ann"], data)["plates.sqlite"] > 0
        _, cookie, _ = sign_in(server.base, "ann")
        _, _, page = request(server.base + "/plates", headers={"Cookie": cookie})
        assert set(re.findall(r'class="cell cell--bg-green cell--spotted[^"]*" id="[^"]*" data-state="([A-Z]{2})"', page)) == {"TX"}
    finally:
        server.stop()


def test_first_start_serves_only_a_one_time_setup_link(tmp_path):
    server = Serve(tmp_path, "--data-dir", str(tmp_path / "data"))
    try:
        deadline = time.time() + 10
        while time.time() < deadline and "/setup/" not in server.stdout():
            time.sleep(0.1)
        out = server.stdout()
        link = re.search(r"(http://127\.0\.0\.1:\d+/setup/[A-Za-z0-9_-]{43})", out)
        assert link, out
        assert "\u2588" in out or "\u2580" in out, "no QR code printed"
        # Nothing else is served before that.
        for path in ["/", "/plates", "/signin", "/settings"]:
            status, _, text = request(server.base + path, headers={"Accept": "text/html"})
            assert status == 503 and "no owner yet" in text, (path, status)
        assert request(server.base + "/setup/" + "x" * 43)[0] == 404
        status, headers, text = request(link.group(1))
        assert status == 200
        token = re.search(r'name="_csrf" value="([^"]+)"', text).group(1)
        status, headers, _ = request(link.group(1), "POST", {"name": "Ann", "password": "long enough", "confirm": "long enough", "_csrf": token},
                                     {"Cookie": f"pocket_csrf={cookies(headers)['pocket_csrf'].value}"})
        assert status == 303
        cookie = f"pocket_session={cookies(headers)['pocket_session'].value}"
        assert request(server.base + "/", headers={"Cookie": cookie})[0] == 200
        assert request(link.group(1))[0] == 404, "the setup link works only once"
        assert "Ann\towner" in run("users", "list", "--data-dir", str(tmp_path / "data")).stdout
    finally:
        server.stop()


def test_pair_prints_a_qr_code_and_every_address_and_signs_a_phone_in_once(tmp_path):
    data = tmp_path / "data"
    add_person(data, "ann")
    # Plain HTTP beyond loopback (--no-https, as behind a TLS proxy); test_trust.py has Pocket's own HTTPS.
    server = Serve(tmp_path, "--data-dir", str(data), "--no-https", host="0.0.0.0")
    try:
        assert "WARNING: serving plain HTTP on 0.0.0.0" in server.err.read_text()
        result = run("pair", "ann", "--host", "0.0.0.0", "--no-https", "--port", str(server.port), "--data-dir", str(data))
        assert result.returncode == 0, result.stderr
        out = result.stdout
        assert "\u2588" in out or "\u2580" in out, "no QR code printed"
        links = re.findall(r"(https?://\S+/join/[A-Za-z0-9_-]{43})", out)
        assert links and all("0.0.0.0" not in link and f":{server.port}/" in link for link in links), out
        short = re.search(r"type ([0-9A-Z]{4}-[0-9A-Z]{4})", out).group(1)
        path = "/join/" + links[0].rsplit("/join/", 1)[1]
        status, headers, text = request(server.base + path)
        assert status == 200 and "Continue as ann" in text
        token = re.search(r'name="_csrf" value="([^"]+)"', text).group(1)
        anonymous = {"Cookie": f"pocket_csrf={cookies(headers)['pocket_csrf'].value}"}
        status, headers, _ = request(server.base + path, "POST", {"_csrf": token}, anonymous)
        assert status == 303 and "pocket_session" in cookies(headers)
        status, _, _ = request(server.base + path, "POST", {"_csrf": token}, anonymous)
        assert status == 404, "a pairing link works once"
        # The short code of that printout was used up with it.
        status, _, _ = request(server.base + "/join", "POST", {"code": short, "_csrf": token}, anonymous)
        assert status == 404
        # Bound to one address, pair prints that address.
        bound = run("pair", "ann", "--host", "127.0.0.1", "--port", "9999", "--data-dir", str(data)).stdout
        assert re.findall(r"(https?://\S+)/join/", bound) == ["http://127.0.0.1:9999"], bound
        assert "No one is set up yet" not in server.stdout()
        assert run("pair", "zed", "--data-dir", str(data)).returncode != 0
    finally:
        server.stop()


def _fail_sign_ins(base, name, count, forwarded=None):
    headers = {"X-Forwarded-For": forwarded} if forwarded else None
    return [sign_in(base, name, "wrong password", extra_headers=headers)[0] for _ in range(count)]


@pytest.mark.parametrize("trusted", ["127.0.0.1", "127.0.0.2"])
def test_forwarded_client_addresses_count_only_from_the_trusted_proxy(tmp_path, trusted):
    data = tmp_path / "data"
    add_person(data, "ann")
    add_person(data, "bea", owner=False)
    server = Serve(tmp_path, "--data-dir", str(data), "--trusted-proxy", trusted)
    try:
        assert _fail_sign_ins(server.base, "ann", 5, forwarded="10.0.0.1") == [401] * 5
        # Another name from the same forwarded address is held back by the address's failures.
        assert sign_in(server.base, "bea", PASSWORD, extra_headers={"X-Forwarded-For": "10.0.0.1"})[0] == 429
        # From another forwarded address: believed only when the peer is the trusted proxy.
        status = sign_in(server.base, "bea", PASSWORD, extra_headers={"X-Forwarded-For": "10.0.0.2"})[0]
        assert status == (303 if trusted == "127.0.0.1" else 429)
        log = server.err.read_text()
        assert "sign-in failed for name \"ann\" from " + ("10.0.0.1" if trusted == "127.0.0.1" else "127.0.0.1") in log
    finally:
        server.stop()


def test_behind_caddy_the_scheme_comes_from_the_proxy(tmp_path):
    if not shutil.which("caddy"):
        pytest.fail("caddy is not installed (scripts/test.sh installs it)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    data = tmp_path / "data"
    add_person(data, "ann")
    server = Serve(tmp_path, "--data-dir", str(data), "--trusted-proxy", "127.0.0.1")
    proxy_port = free_port()
    caddyfile = tmp_path / "Caddyfile"
    caddyfile.write_text(f"""{{
    admin off
    auto_https off
    storage file_system {tmp_path / "caddy"}
}}
https://127.0.0.1:{proxy_port} {{
    tls {cert} {key}
    reverse_proxy 127.0.0.1:{server.port}
}}
""")
    caddy = subprocess.Popen(["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
                             stdout=subprocess.DEVNULL, stderr=open(tmp_path / "caddy.log", "w"),
                             env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)})
    try:
        context = ssl.create_default_context(cafile=str(cert))
        base = f"https://127.0.0.1:{proxy_port}"
        deadline = time.time() + 20
        while True:
            try:
                request(base + "/signin", context=context)
                break
            except OSError:
                if time.time() > deadline:
                    raise AssertionError((tmp_path / "caddy.log").read_text())
                time.sleep(0.2)
        status, cookie, headers = sign_in(base, "ann", context=context)
        assert status == 303
        session = [c for c in headers.get_all("Set-Cookie") if c.startswith("pocket_session=")][0]
        assert "Secure" in session, session
        assert headers["Strict-Transport-Security"] == "max-age=31536000"
        status, headers, page = request(base + "/", headers={"Cookie": cookie}, context=context)
        assert status == 200 and "Settings (ann)" in page
        # Straight to Pocket over plain HTTP: no HSTS, and the cookie is not Secure.
        status, direct_cookie, headers = sign_in(server.base, "ann")
        assert status == 303 and "Strict-Transport-Security" not in headers
        assert "Secure" not in [c for c in headers.get_all("Set-Cookie") if c.startswith("pocket_session=")][0]
    finally:
        caddy.terminate()
        caddy.wait(timeout=10)
        server.stop()


def test_an_upgraded_data_folder_keeps_everything_as_the_owners(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(REPO / "Tests/Fixtures/previous-release-data", data)
    add_person(data, "ann")
    add_person(data, "bea", owner=False)
    server = Serve(tmp_path, "--data-dir", str(data), "--demo")
    try:
        _, ann, _ = sign_in(server.base, "ann")
        _, bea, _ = sign_in(server.base, "bea")
        plates = request(server.base + "/plates", headers={"Cookie": ann})[2]
        assert "Score: 2 / 50" in plates
        assert "Score: 0 / 50" in request(server.base + "/plates", headers={"Cookie": bea})[2]
        trips = request(server.base + "/plates/trips", headers={"Cookie": ann})[2]
        assert "3 / 50" in trips, "the finished trip (AL, CA, TX) was lost"
        assert "3 / 50" not in request(server.base + "/plates/trips", headers={"Cookie": bea})[2]
        converter = request(server.base + "/converter", headers={"Cookie": ann})[2]
        assert 'id="converter-from">100<' in converter and re.search(r'id="converter-to"[^>]*>212<', converter)
        assert 'id="converter-from">100<' not in request(server.base + "/converter", headers={"Cookie": bea})[2]
        favourites = request(server.base + "/murals?show=favourites", headers={"Cookie": ann})[2]
        assert favourites.count('<li class="cell murals-cell') == 2
        assert request(server.base + "/murals?show=favourites", headers={"Cookie": bea})[2].count('<li class="cell murals-cell') == 0
        recent = request(server.base + "/conference", headers={"Cookie": ann})[2]
        assert "/conference/talks/8802" in recent and "/conference/talks/8803" in recent
        assert "/conference/talks/8802" not in request(server.base + "/conference", headers={"Cookie": bea})[2]
        tv = request(server.base + "/remote/tv", headers={"Cookie": bea})[2]
        assert "47" in tv
    finally:
        server.stop()


def test_pair_says_which_data_folder_it_looked_in_and_when_no_pocket_answers(tmp_path):
    data, other = tmp_path / "data", tmp_path / "other"
    add_person(data, "ann")
    add_person(other, "bob")
    # The server's folder is `data`; pair was given another one.
    wrong = run("pair", "ann", "--data-dir", str(other))
    assert wrong.returncode != 0
    line = wrong.stderr.strip()
    assert "There is no one called “ann”" in line and str(other / "people.sqlite") in line and "--data-dir" in line, line
    # Nothing listens on the port the link would name: the link is printed, with a note saying so.
    port = free_port()
    result = run("pair", "ann", "--port", str(port), "--no-https", "--data-dir", str(data))
    assert result.returncode == 0, result.stderr
    assert f"no Pocket answers on port {port}" in result.stdout, result.stdout
    server = Serve(tmp_path, "--data-dir", str(data), "--no-https")
    try:
        answered = run("pair", "ann", "--port", str(server.port), "--no-https", "--data-dir", str(data))
        assert answered.returncode == 0 and "no Pocket answers" not in answered.stdout, answered.stdout
    finally:
        server.stop()
