"""Running `pocket` from the end-to-end suites: the binary under test, a command and its result, its
one-line error, a server started in the background, a free port. Said once here for every suite."""
import os
import queue
import socket
import subprocess
import threading
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
    """A started process's output, drained from its pipe as it comes by a thread of its own (so the
    pipe never fills) and read as the pipe would be: a line is given as soon as it is whole, or at
    the end; `read()` gives what has come (after the end, everything)."""

    def __init__(self, pipe, process):
        self._process = process
        self._lines = queue.SimpleQueue()
        self._ended = False
        self._drain = threading.Thread(target=self._take, args=(pipe,), daemon=True)
        self._drain.start()

    def _take(self, pipe):
        with pipe:
            for line in pipe:
                self._lines.put(line)
        self._lines.put(None)

    def readline(self):
        if self._ended:
            return ""
        line = self._lines.get()
        if line is None:
            self._ended = True
            return ""
        return line

    def __iter__(self):
        while line := self.readline():
            yield line

    def read(self):
        if self._process.poll() is not None:
            self._drain.join(timeout=10)  # the rest of what it wrote is still in the pipe
        parts = []
        while not self._ended:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._ended = True
            else:
                parts.append(line)
        return "".join(parts)

    def close(self):
        """The drain thread closes the pipe when the process has closed its end."""


class Started(subprocess.Popen):
    """A `pocket` running in the background whose output `.stdout` and `.stderr` read (`Output`).
    Its pipes are drained as output comes: one nobody reads fills at 64 kB, and a server, which
    logs a line per request, then stops in the middle of one (the backup test's server stopped
    answering so at its 416th change, once a loaded machine's backup took long enough). Read from
    the pipe, a line reaches the test at once, as a test that acts the moment a line appears (the
    Conference update's "Installing") needs; a file polled every 10 ms let that moment pass."""

    def communicate(self, input=None, timeout=None):
        """Waits for the end, then (stdout, stderr) as a piped process gives them."""
        self.wait(timeout=timeout)
        return self.stdout.read(), self.stderr.read()


def start(*args, env=None):
    """`pocket ARGS…` in the background (`Started`)."""
    process = Started([BIN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                      env=environment(env))
    process.stdout, process.stderr = Output(process.stdout, process), Output(process.stderr, process)
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
