"""Running `pocket` from the end-to-end suites: the binary under test, a command and its result, its
one-line error, a server started in the background, a free port. Said once here for every suite."""
import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("POCKET_BIN", str(REPO / ".build/debug/pocket"))


def environment(env=None):
    """This process's environment without any POCKET_* (an inherited one must not change what is
    tested), plus what the test sets."""
    merged = {key: value for key, value in os.environ.items() if not key.startswith("POCKET_")}
    merged.update(env or {})
    return merged


def run(*args, stdin=None, env=None, timeout=120):
    """`pocket ARGS…` to its end, with `stdin` as its input."""
    return subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=environment(env))


class Output:
    """A started process's output file, read as its pipe would be: a line waits until it is whole
    or the process has ended; `read()` gives what is there (after the end, everything)."""

    def __init__(self, path, process):
        self._file = open(path)
        self._process = process

    def readline(self):
        line = ""
        while True:
            ended = self._process.poll() is not None  # before reading: all it wrote is then there
            line += self._file.readline()
            if line.endswith("\n") or ended:
                return line
            time.sleep(0.01)

    def __iter__(self):
        while line := self.readline():
            yield line

    def read(self):
        return self._file.read()

    def close(self):
        self._file.close()


class Started(subprocess.Popen):
    """A `pocket` running in the background whose output goes to files, which `.stdout` and
    `.stderr` read (`Output`). Not pipes: one nobody reads fills at 64 kB, and a server, which
    logs a line per request, then stops in the middle of one (the backup test's server stopped
    answering so at its 416th change, once a loaded machine's backup took long enough)."""

    def communicate(self, input=None, timeout=None):
        """Waits for the end, then (stdout, stderr) as a piped process gives them."""
        self.wait(timeout=timeout)
        return self.stdout.read(), self.stderr.read()


def start(*args, env=None):
    """`pocket ARGS…` in the background (`Started`)."""
    folder = Path(tempfile.mkdtemp(prefix="pocket-output-"))
    # Read until the process object goes, so kept to the suite's end, not past it.
    atexit.register(shutil.rmtree, folder, True)
    with open(folder / "stdout", "w") as out, open(folder / "stderr", "w") as err:
        process = Started([BIN, *args], stdout=out, stderr=err, stdin=subprocess.DEVNULL, text=True, env=environment(env))
    process.stdout, process.stderr = Output(folder / "stdout", process), Output(folder / "stderr", process)
    return process


def wait_for(url, context=None, timeout=20, server=None):
    """The body of `url` once it answers. Given the `server` process meant to answer, fails at once
    with what it printed when it ends first, rather than waiting out the timeout to say nothing."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if server is not None and server.poll() is not None:
            raise AssertionError(f"the server for {url} ended ({server.returncode}) before answering: {server.stderr.read()}")
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as response:
                return response.read().decode()
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{url} did not answer within {timeout}s")


def one_line_error(result):
    """The one `pocket: …` line a failed command printed, after checking it failed with only that."""
    assert result.returncode != 0, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("pocket: "), result.stderr
    return lines[0]


def free_port():
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
