"""Links a phone can open (issue #34): on a network outside RFC 1918 (192.0.2.2 with fd00::2, as seen
in a home), on carrier-grade NAT as Tailscale hands out, and with a home name, `pocket serve` prints
every address its certificate authority covers, or one line on what to do, and never a QR code for
loopback. Each case runs Pocket in its own network namespace (`unshare -n`) with a veth pair carrying
those addresses, so the test sees what a machine on that network sees. `pocket pair` refuses a link
whose scheme the server does not speak, notes a dead trust-page port, and makes no data folder."""
import re
import shlex
import subprocess
import time

from people_helpers import BIN, PASSWORD, add_person
from cli_helpers import free_port, one_line_error, run, wait_for

QR_BLOCKS = ("\u2588", "\u2580", "\u2584")


def serve_on_network(tmp_path, addresses, *args, host="0.0.0.0"):
    """Starts `pocket serve` in a new network namespace whose only link carries `addresses`
    (`192.0.2.2/24`, `fd00::2/64`), waits for its start-up lines, stops it, and returns them."""
    data = tmp_path / "data"
    if not (data / "people.sqlite").exists():
        add_person(data, "ann")
    port, http_port = free_port(), free_port()
    setup = ["ip link set lo up", "ip link add v0 type veth peer name v1", "ip link set v1 up", "ip link set v0 up"]
    setup += [f"ip {'-6 ' if ':' in a else ''}addr add {a} dev v0{' nodad' if ':' in a else ''}" for a in addresses]
    serve = [BIN, "serve", "--host", host, "--port", str(port), "--http-port", str(http_port), "--data-dir", str(data), *args]
    # Stopped once the fingerprint line (the last start-up line) or a refusal is out.
    script = " && ".join(setup) + f" && exec {shlex.join(serve)}"
    out, err = tmp_path / "serve.out", tmp_path / "serve.err"
    proc = subprocess.Popen(["unshare", "-n", "sh", "-c", script], stdout=open(out, "w"), stderr=open(err, "w"),
                            stdin=subprocess.DEVNULL)
    try:
        for _ in range(300):
            if "SHA-256" in out.read_text() or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert "SHA-256" in out.read_text(), (out.read_text(), err.read_text())
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    return out.read_text(), err.read_text(), port


def test_outside_the_private_ranges_pocket_says_what_to_do_in_one_line_and_offers_no_loopback_qr_code(tmp_path):
    out, err, port = serve_on_network(tmp_path, ["192.0.2.2/24"])
    problem = [line for line in out.splitlines() if line.startswith("WARNING: no link a phone can open: ")]
    assert len(problem) == 1, out
    assert "this machine’s addresses (192.0.2.2) are outside the ranges Pocket’s certificate authority covers" in problem[0]
    assert "10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, fd00::/8" in problem[0] and "--name" in problem[0]
    assert ".home.arpa" in problem[0] and ".internal" in problem[0]
    assert "127.0.0.1" not in out and not any(block in out for block in QR_BLOCKS), out
    assert "SHA-256" in out, "the fingerprint is still printed"


def test_an_ipv6_home_address_the_ca_covers_is_offered_once_pocket_listens_on_ipv6(tmp_path):
    out, _, port = serve_on_network(tmp_path, ["192.0.2.2/24", "fd00::2/64"])
    assert "but --host 0.0.0.0 listens on IPv4 only: use --host ::" in out and "fd00::2" in out, out
    assert not any(block in out for block in QR_BLOCKS), out

    out, _, port = serve_on_network(tmp_path, ["192.0.2.2/24", "fd00::2/64"], host="::")
    assert f"Pocket is reachable at:\n  https://[fd00::2]:{port}\n" in out, out
    assert any(block in out for block in QR_BLOCKS) and "127.0.0.1" not in out and "192.0.2.2" not in out, out
    assert "WARNING" not in out


def test_tailscale_addresses_and_home_names_need_no_new_ca(tmp_path):
    out, _, port = serve_on_network(tmp_path, ["100.101.102.103/10"])
    assert f"Pocket is reachable at:\n  https://100.101.102.103:{port}\n" in out, out
    fingerprint = re.search(r"SHA-256 (\S+)", out).group(1)
    # A name under .home.arpa or .internal, added after the CA was made, is covered by the same CA.
    out, err, port = serve_on_network(tmp_path, ["192.0.2.2/24"], "--name", "pocket.home.arpa", "--name", "nas.internal")
    assert f"Pocket is reachable at:\n  https://pocket.home.arpa:{port}\n  https://nas.internal:{port}\n" in out, (out, err)
    assert fingerprint in out, "a new CA was made"


def test_pair_makes_no_data_folder_and_refuses_a_scheme_the_server_does_not_speak(tmp_path):
    missing = tmp_path / "nowhere"
    line = one_line_error(run("pair", "bea", "--data-dir", str(missing)))
    assert "no one is set up in" in line and "--data-dir" in line
    assert not missing.exists(), "pair made a data folder"

    data = tmp_path / "data"
    add_person(data, "bea")
    port, http_port = free_port(), free_port()
    server = subprocess.Popen([BIN, "serve", "--https", "--port", str(port), "--http-port", str(http_port), "--data-dir", str(data)],
                              stdout=open(tmp_path / "serve.out", "w"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        for _ in range(300):
            if "SHA-256" in (tmp_path / "serve.out").read_text():
                break
            time.sleep(0.1)
        # Without --https, pair would print http://…/join/CODE for the TLS port: the code in clear text.
        plain = run("pair", "bea", "--port", str(port), "--data-dir", str(data))
        line = one_line_error(plain)
        assert "does not speak plain HTTP" in line and "--https" in line and "/join/" not in plain.stdout
        # The trust page's port given wrong: the QR code would lead nowhere, and pair says so.
        dead = free_port()
        noted = run("pair", "bea", "--https", "--port", str(port), "--http-port", str(dead), "--data-dir", str(data))
        assert noted.returncode == 0, noted.stderr
        assert f"Note: nothing answers on --http-port {dead} of this machine" in noted.stdout
        right = run("pair", "bea", "--https", "--port", str(port), "--http-port", str(http_port), "--data-dir", str(data))
        assert right.returncode == 0 and "Note:" not in right.stdout, right.stdout
    finally:
        server.terminate()
        server.wait(timeout=15)

    plain_port = free_port()
    server = subprocess.Popen([BIN, "serve", "--port", str(plain_port), "--data-dir", str(data)],
                              stdout=open(tmp_path / "plain.out", "w"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{plain_port}/healthz")
        line = one_line_error(run("pair", "bea", "--https", "--port", str(plain_port), "--http-port", str(free_port()), "--data-dir", str(data)))
        assert "speaks plain HTTP, not HTTPS" in line
    finally:
        server.terminate()
        server.wait(timeout=15)
