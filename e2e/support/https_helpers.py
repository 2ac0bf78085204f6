"""`pocket serve` with its own HTTPS, for the CLI suites that talk to it over TLS."""
import signal
import ssl
import subprocess
import time

from cli_helpers import BIN, free_port

NAME = "pocket.test"


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
