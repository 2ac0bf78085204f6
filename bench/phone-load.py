#!/usr/bin/env python3
"""A phone on Slow 4G opening each Pocket screen, two builds side by side in one run (issue #37).

The phone is Debian's headless Chromium through chromedriver (`Service(executable_path=…)`), as a
390×844 mobile viewport, its network throttled through DevTools (150 ms latency, 1.6 Mbps down,
750 kbps up, `Network.emulateNetworkConditions`, on the page and on Pocket's service worker) and
its CPU slowed 4× (`Emulation.setCPUThrottlingRate`, on the page). Each build runs as a release
`pocket serve --demo` over its own HTTPS (`--https --name pocket.test`), its certificate authority
trusted in a throw-away NSS database (never --ignore-certificate-errors: Chromium then keeps
nothing in its HTTP cache and runs no service worker), the name mapped to 127.0.0.1 with
--host-resolver-rules, and signed in as its owner (the session cookie is put in the profile
through DevTools before the first navigation, so no request warms a connection or the cache).

For each screen and sample, a fresh profile (cold HTTP cache, no service worker) opens the screen:

  first FCP   first contentful paint of that first visit
  bytes       transferSize of the navigation and every same-origin resource entry, summed
  requests    how many of those entries there were
  repeat FCP  once the first visit has settled (the worker active, nothing loading for a while),
              the same profile opens about:blank and the screen again: cache and worker warm

and, to show what was in play: each response's protocol (Resource Timing's `nextHopProtocol`),
encoded/decoded body bytes (below 1.00 means compressed), and the bytes the service worker fetched
for itself while the first visit ran (its install's precache, over the same throttled link).
The builds' samples alternate (before, after; then after, before) so the machine's load falls on
both alike. Medians of `--samples` (5) per screen and build, with after/before ratios and the
issue's goals: first-visit bytes ≤ 0.40×, first FCP ≤ 0.80×, repeat FCP ≤ 1.00× the before build.

Needs selenium and websocket-client (pip), chromium, chromedriver and certutil (libnss3-tools).

    bench/phone-load.py --pocket .build/release/pocket --before /tmp/old/pocket
    bench/phone-load.py --pocket A --before B --samples 1 --screens /,/plates    # a quick look
    bench/phone-load.py                                # builds pocket in release; beside itself
"""

import argparse
import http.cookies
import json
import os
import platform
import re
import shutil
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "e2e" / "support"))
from https_helpers import NAME, trust_authority  # noqa: E402 - from e2e/support, just put on the path

SCREENS = ("/", "/plates", "/murals", "/conference", "/converter", "/remote/tv")
OWNER, PASSWORD = "owner", "phone load bench password"
# Slow 4G as DevTools' own preset has it, in bytes per second and milliseconds.
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8,
           "connectionType": "cellular4g"}
CPU_SLOWDOWN = 4
VIEWPORT = (390, 844)
SETTLE_S = 1.5  # a first visit has settled once no resource entry has appeared for this long
GOALS = {"bytes": 0.40, "first": 0.80, "repeat": 1.00}

# Resolves once the page has painted and loaded; returns its timings and what it fetched.
PAINTED_JS = """
const done = arguments[arguments.length - 1];
const read = () => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  if (!nav || !paint || nav.loadEventEnd === 0) return setTimeout(read, 50);
  done({paint: paint.startTime, controlled: !!navigator.serviceWorker.controller});
};
read();
"""

# Resolves once the service worker is active and no resource entry has appeared for SETTLE_MS.
SETTLED_JS = """
const [settleMs, done] = [arguments[0], arguments[arguments.length - 1]];
const started = performance.now();
navigator.serviceWorker.ready.then(async (reg) => {
  while (reg.active.state !== 'activated') await new Promise((r) => setTimeout(r, 50));
  let count = -1, since = performance.now();
  const poll = () => {
    const now = performance.getEntriesByType('resource').length;
    if (now !== count) { count = now; since = performance.now(); }
    if (performance.now() - since >= settleMs) return done(performance.now() - started);
    setTimeout(poll, 100);
  };
  poll();
});
"""

ENTRIES_JS = """
const origin = location.origin;
return [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((e) => ({
  name: e.name, sameOrigin: e.name.startsWith(origin + '/') || e.name === origin, type: e.initiatorType || 'navigation',
  transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize, protocol: e.nextHopProtocol,
}));
"""


def log(text):
    print(text, file=sys.stderr, flush=True)


def release_pocket() -> str:
    # The same flags as scripts/run.sh and the other benchmarks (scripts/lib.sh's release_build).
    log("building pocket in release (scripts/lib.sh: release_build --product pocket)")
    subprocess.run(["bash", "-c", "source scripts/lib.sh && release_build --product pocket"], cwd=ROOT, check=True)
    out = subprocess.run(["bash", "-c", "source scripts/lib.sh && release_bin_path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "pocket")


def machine() -> str:
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " · load %.2f %.2f %.2f" % os.getloadavg()
    return f"{os.cpu_count()} cores, {model}, {platform.system()} {platform.release()}{load}"


def chromium_version() -> str:
    import pocket_helpers as helpers
    done = subprocess.run([helpers.CHROMIUM, "--version"], capture_output=True, text=True)
    return done.stdout.strip() or "chromium (version unknown)"


class Build:
    """One pocket binary served over its own HTTPS with the demo murals service, its owner signed in."""

    def __init__(self, label: str, binary: str, work: Path, chromium_flags: tuple = ()):
        self.label, self.binary = label, str(Path(binary).resolve())
        self.chromium_flags = chromium_flags  # extra flags for this build's phones (e.g. --disable-http2)
        self.work = work / label
        self.data = self.work / "data"
        self.data.mkdir(parents=True)
        self.log_path = self.work / "server.log"
        self.proc = None
        self.port = self.http_port = None
        self.cookie = None
        self.nssdb = self.work / "trusting" / ".pki" / "nssdb"  # copied into each fresh phone's HOME
        self.version = subprocess.run([self.binary, "--version"], capture_output=True, text=True).stdout.strip()

    @property
    def origin(self) -> str:
        return f"https://{NAME}:{self.port}"

    def start(self) -> "Build":
        import pocket_helpers as helpers
        added = subprocess.run([self.binary, "users", "add", OWNER, "--owner", "--data-dir", str(self.data)],
                               input=PASSWORD + "\n", text=True, capture_output=True, timeout=60)
        if added.returncode != 0:
            raise SystemExit(f"pocket users add ({self.label}) failed: {added.stderr.strip()}")
        self.port, self.http_port = helpers.free_port(), helpers.free_port()
        # Outside sources point at a closed loopback port, as in the browser tests: nothing leaves the machine.
        env = {**os.environ, "POCKET_SCI_MANIFEST_URL": "http://127.0.0.1:9/sci-core.json",
               "POCKET_SCI_TALKS_URL": "http://127.0.0.1:9"}
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--demo", "--https", "--name", NAME, "--host", "127.0.0.1", "--port", str(self.port),
             "--http-port", str(self.http_port), "--data-dir", str(self.data), "--no-backups"],
            stdout=open(self.log_path, "wb"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + 30
        while "SHA-256" not in self.log_path.read_text(errors="replace"):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"pocket serve ({self.label}) did not start:\n{self.log_path.read_text(errors='replace')}")
            time.sleep(0.1)
        self._trust()
        self._sign_in()
        return self

    def _trust(self):
        """Pocket's CA in an NSS database, as "trust it once" leaves it on a phone."""
        trust_authority(self.work / "trusting", self.data / "tls" / "ca.pem")

    def request(self, path: str, data: dict | None = None, cookies: dict | None = None):
        """A request to this server's HTTPS on 127.0.0.1 (the certificate names it), trusting only its CA;
        returns (status, headers, body) without following redirects."""
        context = ssl.create_default_context(cafile=str(self.data / "tls" / "ca.pem"))

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        req = urllib.request.Request(f"https://127.0.0.1:{self.port}{path}",
                                     data=urllib.parse.urlencode(data).encode() if data else None)
        if cookies:
            req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=context),
                                             NoRedirect())
        try:
            with opener.open(req, timeout=15) as res:
                return res.status, res.headers, res.read()
        except urllib.error.HTTPError as err:
            return err.code, err.headers, err.read()

    def _sign_in(self):
        """Signs in through the form over HTTPS, as a phone does: the session cookie's value."""
        def cookies_of(headers) -> dict:
            jar = http.cookies.SimpleCookie()
            for header in headers.get_all("Set-Cookie") or []:
                jar.load(header)
            return {k: m.value for k, m in jar.items()}

        status, headers, body = self.request("/signin")
        form_cookies = cookies_of(headers)
        token = re.search(rb'name="_csrf" value="([^"]+)"', body)
        if status != 200 or token is None:
            raise SystemExit(f"GET /signin ({self.label}) answered {status} without a form")
        status, headers, body = self.request("/signin", {"name": OWNER, "password": PASSWORD, "_csrf": token.group(1).decode()},
                                             form_cookies)
        session = cookies_of(headers).get("pocket_session")
        if status != 303 or not session:
            raise SystemExit(f"sign-in ({self.label}) answered {status}: {body[:300]!r}")
        self.cookie = session
        status, _, _ = self.request("/", cookies={"pocket_session": session})
        if status != 200:
            raise SystemExit(f"signed-in GET / ({self.label}) answered {status}")

    def warm(self, screens):
        """One unthrottled request per screen, so neither build's first sample pays its server's first render."""
        for path in screens:
            status, _, _ = self.request(path, cookies={"pocket_session": self.cookie})
            if status != 200:
                raise SystemExit(f"GET {path} ({self.label}) answered {status}")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class WorkerThrottle:
    """Applies the page's network conditions to every service worker of the browser too.

    DevTools throttles per target: conditions set on the page do not reach its service worker, whose
    fetches (the install's precache, a navigation's network-first request) would otherwise run at
    loopback speed. This second DevTools client (chromedriver keeps the first) auto-attaches to
    service workers as they start, paused, throttles them, lets them run, and counts what they fetch
    over the network."""

    def __init__(self, driver):
        import websocket  # websocket-client, which selenium depends on
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"http://{address}/json/version", timeout=10) as res:
            url = json.load(res)["webSocketDebuggerUrl"]
        self.ws = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.lock = threading.Lock()
        self.next_id = 0
        self.workers = 0
        self.bytes = 0  # encodedDataLength of the workers' finished network loads
        self.requests = 0
        self.protocols = Counter()
        self._network = {}  # requestId -> its protocol, for responses that came over the network
        self.closed = False
        self.thread = threading.Thread(target=self._read, name="worker-throttle", daemon=True)
        self.thread.start()
        self.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True,
                                           "filter": [{"type": "service_worker", "exclude": False}]})

    def send(self, method, params=None, session=None):
        with self.lock:
            self.next_id += 1
            message = {"id": self.next_id, "method": method, "params": params or {}}
            if session:
                message["sessionId"] = session
            self.ws.send(json.dumps(message))

    def _read(self):
        while not self.closed:
            try:
                message = json.loads(self.ws.recv())
            except Exception:  # the browser went away, or close() was called
                return
            method, params, session = message.get("method"), message.get("params", {}), message.get("sessionId")
            if method == "Target.attachedToTarget" and params["targetInfo"]["type"] == "service_worker":
                worker = params["sessionId"]
                self.workers += 1
                self.send("Network.enable", {}, worker)
                self.send("Network.emulateNetworkConditions", NETWORK, worker)
                self.send("Runtime.runIfWaitingForDebugger", {}, worker)
            elif method == "Network.responseReceived" and session:
                response = params["response"]
                if not (response.get("fromDiskCache") or response.get("fromServiceWorker") or response.get("fromPrefetchCache")):
                    self._network[params["requestId"]] = response.get("protocol", "")
            elif method == "Network.loadingFinished" and session and params["requestId"] in self._network:
                self.protocols[self._network.pop(params["requestId"])] += 1
                self.bytes += int(params.get("encodedDataLength", 0))
                self.requests += 1

    def close(self):
        self.closed = True
        try:
            self.ws.close()
        except Exception:
            pass


def summarise(entries) -> dict:
    mine = [e for e in entries if e["sameOrigin"]]
    protocols = Counter(e["protocol"] for e in mine if e["protocol"] and e["transfer"] > 0)
    return {"bytes": sum(e["transfer"] for e in mine), "requests": len(mine),
            "encoded": sum(e["encoded"] for e in mine), "decoded": sum(e["decoded"] for e in mine),
            "protocols": protocols, "elsewhere": len(entries) - len(mine)}


def visit(build: Build, path: str, home: Path) -> dict:
    """A fresh phone's first visit to `path`, then its repeat visit once the first has settled."""
    import pocket_helpers as helpers
    shutil.copytree(build.nssdb, home / ".pki" / "nssdb")
    # Only Pocket's name resolves (map tiles and plate pictures from elsewhere fail at once, off the
    # measured origin), so nothing leaves the machine.
    driver = helpers.make_driver(profile=home / "profile", env={"HOME": str(home)},
                                 extra_args=(f"--host-resolver-rules=MAP {NAME} 127.0.0.1, MAP * ~NOTFOUND",
                                             *build.chromium_flags))
    worker = None
    try:
        driver.set_script_timeout(120)
        driver.set_page_load_timeout(120)
        worker = WorkerThrottle(driver)
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", NETWORK)
        driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        helpers.set_viewport(driver, *VIEWPORT, mobile=True, reload=False)
        driver.execute_cdp_cmd("Network.setCookie", {
            "name": "pocket_session", "value": build.cookie, "url": build.origin + "/", "secure": True, "httpOnly": True,
            "sameSite": "Lax", "expires": time.time() + 3600})

        driver.get(build.origin + path)
        first = driver.execute_async_script(PAINTED_JS)
        if urllib.parse.urlsplit(driver.current_url).path != path:
            raise SystemExit(f"{path} ({build.label}) ended at {driver.current_url}: not signed in?")
        settle_ms = driver.execute_async_script(SETTLED_JS, SETTLE_S * 1000)
        loaded = summarise(driver.execute_script(ENTRIES_JS))
        worker_bytes, worker_requests, worker_protocols = worker.bytes, worker.requests, Counter(worker.protocols)

        driver.get("about:blank")
        driver.get(build.origin + path)
        repeat = driver.execute_async_script(PAINTED_JS)
        if not repeat["controlled"]:
            raise SystemExit(f"{path} ({build.label}): the repeat visit was not under the service worker")
        again = summarise(driver.execute_script(ENTRIES_JS))
        return {"first": first["paint"], "repeat": repeat["paint"], "settle": settle_ms, **loaded,
                "worker_bytes": worker_bytes, "worker_requests": worker_requests, "workers": worker.workers,
                "worker_protocols": worker_protocols, "repeat_bytes": again["bytes"]}
    finally:
        if worker:
            worker.close()
        driver.quit()


def median(samples, key):
    return statistics.median(s[key] for s in samples)


def protocol_text(counters) -> str:
    total = Counter()
    for c in counters:
        total.update(c)
    return " ".join(f"{p}×{n}" for p, n in total.most_common()) or "–"


def visit_line(sample: int, path: str, label: str, result: dict) -> str:
    return (f"sample {sample} {path:12} {label:6} first {result['first']:6.0f} ms · {result['bytes'] / 1000:6.1f} kB in "
            f"{result['requests']:3} · repeat {result['repeat']:5.0f} ms · worker {result['worker_bytes'] / 1000:6.1f} kB in "
            f"{result['worker_requests']} · {protocol_text([result['protocols']])}")


def report(args, builds, samples, screens, started, visits) -> str:
    before, after = builds
    n = args.samples
    lines = [f"Phone load on Slow 4G (bench/phone-load.py), {n} sample{'s' if n != 1 else ''} per screen and build, medians",
             f"phone: Chromium {VIEWPORT[0]}×{VIEWPORT[1]} mobile, {NETWORK['latency']} ms latency, "
             f"{NETWORK['downloadThroughput'] * 8 / 1e6:.1f} Mbps down, {NETWORK['uploadThroughput'] * 8 / 1e3:.0f} kbps up "
             f"(page and service worker), CPU {CPU_SLOWDOWN}× slower; pocket serve --demo --https, signed in",
             f"before: {before.version} ({before.binary}){' with Chromium ' + ' '.join(before.chromium_flags) if before.chromium_flags else ''}",
             f"after:  {after.version} ({after.binary})",
             f"browser: {chromium_version()}",
             f"machine: {machine()}",
             f"started {started}, finished {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             "",
             "first FCP, bytes, requests: a fresh profile's first visit (cold cache, no worker); bytes = transferSize of the",
             "navigation and every same-origin resource entry. repeat FCP: the same profile again once settled (worker and",
             "cache warm). worker: what the service worker fetched over the network during the first visit (its precache).",
             "enc/dec: encoded / decoded body bytes (< 1.00: compressed). Ranges are min–max of the samples; after/before",
             "is the ratio of the medians (the goals' figure), paired the median of each sample's after/before (the",
             "builds' k-th visits to a screen ran back to back). Every visit is listed at the end.",
             ""]
    verdicts = []
    for path in screens:
        b, a = samples[(path, before.label)], samples[(path, after.label)]
        rows = []

        def row(what, key, scale=1.0, fmt="{:.0f}", goal=None, spread=False):
            vb, va = median(b, key) * scale, median(a, key) * scale
            ratio = va / vb if vb else float("nan")
            # The two builds' k-th samples of a screen ran back to back: the median of their ratios
            # is less swayed by the machine's load drifting over the run than the ratio of medians.
            paired = statistics.median(y[key] / x[key] for x, y in zip(b, a)) if all(x[key] for x in b) else float("nan")
            cells = [fmt.format(vb), fmt.format(va)]
            if spread:
                cells = [f"{fmt.format(vb)} ({min(s[key] for s in b) * scale:.0f}–{max(s[key] for s in b) * scale:.0f})",
                         f"{fmt.format(va)} ({min(s[key] for s in a) * scale:.0f}–{max(s[key] for s in a) * scale:.0f})"]
            verdict = ""
            if goal is not None:
                met = ratio <= GOALS[goal]
                verdict = f"≤ {GOALS[goal]:.2f}×: {'met' if met else 'not met'}"
                verdicts.append((path, what, met))
            rows.append(f"  {what:18} {cells[0]:>22} {cells[1]:>22} {ratio:12.2f} {paired:7.2f}  {verdict}".rstrip())

        lines.append(f"{path:20} {'before':>22} {'after':>22} {'after/before':>12} {'paired':>7}  goal")
        row("first FCP (ms)", "first", goal="first", spread=True)
        row("bytes (kB)", "bytes", 1 / 1000, "{:.1f}", goal="bytes")
        row("requests", "requests")
        row("repeat FCP (ms)", "repeat", goal="repeat", spread=True)
        row("repeat bytes (kB)", "repeat_bytes", 1 / 1000, "{:.1f}")
        row("worker (kB)", "worker_bytes", 1 / 1000, "{:.1f}")
        row("worker requests", "worker_requests")
        lines.extend(rows)
        enc = [sum(s["encoded"] for s in x) / max(1, sum(s["decoded"] for s in x)) for x in (b, a)]
        lines.append(f"  {'enc/dec':18} {enc[0]:>22.2f} {enc[1]:>22.2f}")
        for what, key in (("protocols (page)", "protocols"), ("protocols (worker)", "worker_protocols")):
            lines.append(f"  {what:18} before {protocol_text(s[key] for s in b)} · after {protocol_text(s[key] for s in a)}")
        lines.append("")
    missed = [f"{p} {w}" for p, w, met in verdicts if not met]
    lines.append(f"goals met: {len(verdicts) - len(missed)} of {len(verdicts)}" + (f"; not met: {', '.join(missed)}" if missed else ""))
    lines += ["", "every visit, in the order run:", *visits]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pocket", help="the build measured (default: build the release one)")
    parser.add_argument("--before", help="the build it is compared with (default: --pocket, beside itself)")
    parser.add_argument("--samples", type=int, default=5, help="samples per screen and build (default 5)")
    parser.add_argument("--screens", default=",".join(SCREENS), help="comma-separated paths (default: all six)")
    parser.add_argument("--before-flags", default="", help="extra Chromium flags, space-separated, for the before build's "
                                                            "phones: --before X --pocket X --before-flags=--disable-http2 "
                                                            "puts HTTP/1.1 beside HTTP/2 on one build")
    parser.add_argument("--out", help="results file (default: bench/results/phone-load.txt for a full run, "
                                      "none for a quick one)")
    args = parser.parse_args()
    screens = [s.strip() for s in args.screens.split(",") if s.strip()]
    for path in screens:
        if not path.startswith("/"):
            parser.error(f"--screens: {path!r} is not a path")
    if args.samples < 1:
        parser.error("--samples must be at least 1")
    full = args.samples >= 5 and set(screens) >= set(SCREENS) and not args.before_flags
    out = args.out or (str(ROOT / "bench" / "results" / "phone-load.txt") if full else None)

    pocket = args.pocket or release_pocket()
    before_binary = args.before or pocket
    for binary in (pocket, before_binary):
        if not os.access(binary, os.X_OK):
            parser.error(f"{binary} is not an executable pocket binary")
    import pocket_helpers as helpers
    helpers.ARTIFACTS.mkdir(parents=True, exist_ok=True)

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    work = Path(tempfile.mkdtemp(prefix="pocket-phone-load-"))
    builds = [Build("before", before_binary, work, tuple(args.before_flags.split())), Build("after", pocket, work)]
    samples = {(path, b.label): [] for path in screens for b in builds}
    visits = []
    try:
        for build in builds:
            build.start().warm(screens)
            log(f"{build.label}: {build.version} at {build.origin} ({build.binary})")
        phone = 0
        for sample in range(args.samples):
            for path in screens:
                # Alternate which build goes first, so a trend in the machine's load falls on both.
                for build in (builds if (sample + screens.index(path)) % 2 == 0 else builds[::-1]):
                    phone += 1
                    home = work / f"phone-{phone}"
                    home.mkdir()
                    try:
                        result = visit(build, path, home)
                    finally:
                        shutil.rmtree(home, ignore_errors=True)
                    samples[(path, build.label)].append(result)
                    visits.append(visit_line(sample + 1, path, build.label, result))
                    log(visits[-1])
    finally:
        for build in builds:
            build.stop()
        shutil.rmtree(work, ignore_errors=True)

    text = report(args, builds, samples, screens, started, visits)
    print(text, end="")
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text)
        log(f"wrote {out}")


if __name__ == "__main__":
    main()
