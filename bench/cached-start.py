#!/usr/bin/env python3
"""A signed-in phone opening Pocket from its home screen while the server is away (issue #25).

The browser is Debian's headless Chromium through chromedriver (`Service(executable_path=…)`, so
nothing reaches out), emulating a 390×844 phone, on one persistent profile: the phone has opened
Pocket's home screen and Plates once, so its service worker holds them. Then, for each round and
each state of the server, the browser is closed and started again on that profile — its service
worker is not running, as on the first start of the day — and opens a page:

  live     the server answers (the baseline: the same page from a server that is there)
  refused  the server is stopped, so its port refuses connections (a phone at home, Pocket off)
  hung     a socket takes over the port and never answers (a home address from a mobile network)

It reports, per page and state, the median of the navigation's `responseEnd` (the document is in
hand, from the network or from the worker's copy) and of first contentful paint (what a person
sees), from the page's own Performance timeline, and each median's ratio to the live one. Goals:
a cached start under 2 s refused and under 5 s hung (the worker waits NETWORK_WAIT_MS for a hung
server before it answers from its copy). Needs selenium (pip) and chromium + chromedriver (apt).

    bench/cached-start.py                               # builds pocket in release; 5 rounds
    bench/cached-start.py --pocket .build/release/pocket --rounds 9
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

PAGES = ("/", "/plates")
STATES = ("live", "refused", "hung")
GOALS_MS = {"refused": 2000, "hung": 5000}

TIMING_JS = """
const done = arguments[arguments.length - 1];
const read = () => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  if (!nav || !paint || nav.loadEventEnd === 0) return setTimeout(read, 50);
  done({response: nav.responseEnd, paint: paint.startTime, worker: !!navigator.serviceWorker.controller});
};
read();
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


def open_cold(helpers, profile: Path, server, path: str) -> dict:
    """Starts the browser on `profile` (its worker stopped, as after a night), opens `path`, and
    returns the page's timings in milliseconds."""
    driver = helpers.make_driver(profile=profile)
    try:
        helpers.set_viewport(driver, 390, 844, reload=False)
        driver.get(server.url(path))
        return driver.execute_async_script(TIMING_JS)
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pocket", help="a prebuilt pocket binary (default: build the release one)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "cached-start.txt"))
    args = parser.parse_args()

    pocket = args.pocket or release_pocket()
    os.environ["POCKET_BIN"] = str(Path(pocket).resolve())
    import pocket_helpers as helpers  # after POCKET_BIN: the helpers read it
    helpers.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    build = subprocess.run([pocket, "--version"], capture_output=True, text=True).stdout.strip()

    work = Path(tempfile.mkdtemp(prefix="pocket-cached-start-"))
    profile = work / "profile"
    server = helpers.PocketServer(log_path=work / "server.log", data_dir=work / "data").start()
    samples = {(page, state): [] for page in PAGES for state in STATES}
    try:
        # The phone opens Pocket once: the worker installs and keeps each page it shows.
        driver = helpers.make_driver(profile=profile)
        try:
            page = helpers.Page(driver, server.base_url)
            page.reset()
            for path in PAGES:
                page.open(path)
            helpers.wait_for_worker(page)
            for path in PAGES:
                page.open(path)
        finally:
            driver.quit()

        for round_ in range(args.rounds):
            for state in STATES:
                hole = None
                if state == "live":
                    if server.proc is None:
                        server.resume()
                else:
                    if server.proc is not None:
                        assert server.stop() == 0
                    if state == "hung":
                        hole = helpers.Blackhole(server.port).start()
                try:
                    for path in PAGES:
                        timing = open_cold(helpers, profile, server, path)
                        if not timing["worker"]:
                            raise SystemExit(f"{path} ({state}) was not served under the service worker")
                        samples[(path, state)].append(timing)
                        log(f"round {round_ + 1} {state:7} {path:8} response {timing['response']:7.0f} ms · "
                            f"first paint {timing['paint']:7.0f} ms")
                finally:
                    if hole:
                        hole.stop()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)

    lines = [f"Cached start from the home screen (bench/cached-start.py), {args.rounds} rounds, "
             f"median ms; ratio = state / live",
             f"pocket: {build} ({pocket})",
             f"machine: {machine()}",
             "",
             f"{'page':8} {'state':8} {'response':>9} {'ratio':>6} {'paint':>8} {'ratio':>6}  goal"]
    for path in PAGES:
        live = samples[(path, "live")]
        live_response = statistics.median(t["response"] for t in live)
        live_paint = statistics.median(t["paint"] for t in live)
        for state in STATES:
            runs = samples[(path, state)]
            response = statistics.median(t["response"] for t in runs)
            paint = statistics.median(t["paint"] for t in runs)
            goal = GOALS_MS.get(state)
            verdict = f"< {goal} ms: {'met' if paint < goal else 'MISSED'}" if goal else "baseline"
            lines.append(f"{path:8} {state:8} {response:9.0f} {response / live_response:6.1f} "
                         f"{paint:8.0f} {paint / live_paint:6.1f}  {verdict}")
    report = "\n".join(lines) + "\n"
    print(report, end="")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(report)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
