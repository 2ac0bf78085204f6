"""Pocket's own HTTPS from the test side: `pocket serve --https --name pocket.test` for the CLI suites,
a browser's trust in Pocket's certificate authority (a throw-away NSS database, as "trust it once"
leaves it on a phone), and requests that reach pocket.test on loopback as the browser does. No
selenium here: the CLI suites, the browser suites and the benchmarks share it."""
import atexit
import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from cli_helpers import BIN, free_port

NAME = "pocket.test"
# POCKET_E2E_HTTPS=1: the browser suite runs Pocket over its own HTTPS (pocket_helpers.PocketServer), and the
# fixture hosts the browser itself reaches (the map's tile host) serve HTTPS too, as the real ones do.
HTTPS = os.environ.get("POCKET_E2E_HTTPS", "") not in ("", "0")
# Chromium finds NAME at 127.0.0.1, so a browser reaches Pocket by name and all traffic stays on loopback.
RESOLVE_NAME = f"--host-resolver-rules=MAP {NAME} 127.0.0.1"


def trust_authority(home: Path, *ca_pems: Path) -> Path:
    """A new NSS database at HOME/.pki/nssdb (where Chromium on Linux reads the authorities it trusts)
    trusting each of `ca_pems` for websites; a Chromium whose HOME is `home` then trusts Pocket's
    certificates, keeps an HTTP cache and runs service workers (never --ignore-certificate-errors: then
    it does neither)."""
    nssdb = Path(home) / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True, capture_output=True)
    for number, pem in enumerate(ca_pems):
        subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-n", f"Pocket {number}", "-t", "C,,", "-i", str(pem)],
                       check=True, capture_output=True)
    return nssdb


_FIXTURE_TLS: tuple[ssl.SSLContext, Path] | None = None


def fixture_tls() -> tuple[ssl.SSLContext, Path]:
    """TLS for fixture hosts on 127.0.0.1 (a server context, and the CA that signed its certificate, for
    browsers to trust): Pocket's own authority may only vouch for Pocket's names, so the stand-ins for
    outside hosts get a throw-away one of their own (openssl), made once per session."""
    global _FIXTURE_TLS
    if _FIXTURE_TLS is None:
        folder = Path(tempfile.mkdtemp(prefix="pocket-e2e-fixture-tls-"))
        atexit.register(shutil.rmtree, folder, True)
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "7"]
        subprocess.run(["openssl", "req", "-x509", *ec, "-subj", "/CN=Pocket e2e fixture hosts", "-keyout", folder / "ca.key",
                        "-out", folder / "ca.pem", "-addext", "basicConstraints=critical,CA:TRUE",
                        "-addext", "keyUsage=critical,keyCertSign,cRLSign"], check=True, capture_output=True)
        subprocess.run(["openssl", "req", "-x509", *ec, "-subj", "/CN=127.0.0.1", "-CA", folder / "ca.pem", "-CAkey", folder / "ca.key",
                        "-keyout", folder / "host.key", "-out", folder / "host.pem", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-addext", "basicConstraints=critical,CA:FALSE", "-addext", "extendedKeyUsage=serverAuth"],
                       check=True, capture_output=True)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(folder / "host.pem", folder / "host.key")
        _FIXTURE_TLS = (context, folder / "ca.pem")
    return _FIXTURE_TLS


class _ByName(http.client.HTTPSConnection):
    """Connects to 127.0.0.1 for NAME, and still says NAME in SNI, Host and the certificate check."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = lambda address, *rest, **kw: socket.create_connection(
            ("127.0.0.1" if address[0] == NAME else address[0], address[1]), *rest, **kw)


class LoopbackHTTPSHandler(urllib.request.HTTPSHandler):
    """urllib's HTTPS that trusts only `cafile` and finds NAME at 127.0.0.1, as the browser does."""

    def __init__(self, cafile: Path):
        super().__init__(context=ssl.create_default_context(cafile=str(cafile)))

    def https_open(self, req):
        return self.do_open(_ByName, req, context=self._context)


class OwnHTTPS:
    """`pocket serve --https --name pocket.test` on free loopback ports (or on 0.0.0.0 with `host`)."""

    def __init__(self, tmp_path, data, *args, host="127.0.0.1"):
        self.port, self.http_port = free_port(), free_port()
        self.data = data
        self.out, self.err = tmp_path / "serve.out", tmp_path / "serve.err"
        self.args = ["--host", host, "--port", str(self.port), "--http-port", str(self.http_port), "--data-dir", str(data), *args]
        self.proc = subprocess.Popen([BIN, "serve", *self.args], stdout=open(self.out, "w"), stderr=open(self.err, "w"),
                                     stdin=subprocess.DEVNULL)
        deadline = time.time() + 30
        while "SHA-256" not in self.out.read_text():
            assert self.proc.poll() is None, self.err.read_text()
            assert time.time() < deadline, f"pocket serve did not start: {self.err.read_text()}"
            time.sleep(0.1)
        self.context = ssl.create_default_context(cafile=str(data / "tls" / "ca.pem"))

    @property
    def https(self):
        return f"https://127.0.0.1:{self.port}"

    @property
    def http(self):
        return f"http://127.0.0.1:{self.http_port}"

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(timeout=15) == 0, self.err.read_text()
