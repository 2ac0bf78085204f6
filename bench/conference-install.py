#!/usr/bin/env python3
"""Conference install pipeline against `curl -o` + `md5sum` + `unzip` + `md5sum`.

For each size this builds a valid sci-core database (the synthetic one from `pocket conference
generate-synthetic`: "real" is that database as it is, 18.7 MB in a 7.4 MB zip, like the real
index; a number of MB pads it with a table of random blobs so the zip reaches that size), zips
it, writes a sci-core.json manifest with the real sizes and MD5s, and serves the folder from one
loopback HTTP server. Then, alternating and repeated, it times

  (a) pocket --data-dir FRESH conference update --manifest-url http://127.0.0.1:PORT/sci-core.json
      (then, untimed by the ratio, two `pocket conference search faith` calls: the first builds the
      search index, which the install leaves to the first search, the next does not)
  (b) curl -s -o f.zip URL && md5sum f.zip && unzip -q f.zip -d out && md5sum out/<db>

where FRESH is an empty data folder ("empty", what a new installation starts from) or a copy of
one whose built-in sample exists already ("sample", the install alone). It reports the median
wall times, their ratio (pocket / baseline) and pocket's peak RSS (GNU time's maximum resident
set size of the whole process). Python 3 standard library only; run as root so missing Debian
tools (curl, unzip, time) can be installed.

    bench/conference-install.py                  # release build; real, 40 and 400 MB; empty and sample folders; 3 rounds
    bench/conference-install.py --pocket .build/release/pocket --sizes real --folders empty --rounds 9
"""

import argparse
import datetime
import hashlib
import http.server
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MB = 1_000_000


def log(text):
    print(text, file=sys.stderr, flush=True)


def ensure_tools():
    """Installs curl, unzip and GNU time with apt-get when they are missing (md5sum is coreutils)."""
    packages = {"curl": "curl", "unzip": "unzip", "/usr/bin/time": "time"}
    missing = [package for tool, package in packages.items() if shutil.which(tool) is None]
    if not missing:
        return
    log(f"installing {' '.join(missing)} with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env)


def build_pocket():
    # The same flags as scripts/run.sh and the other benchmarks (scripts/lib.sh's release_build).
    log("building pocket in release (scripts/lib.sh: release_build --product pocket)")
    subprocess.run(["bash", "-c", "source scripts/lib.sh && release_build --product pocket"], cwd=ROOT, check=True)
    out = subprocess.run(["bash", "-c", "source scripts/lib.sh && release_bin_path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "pocket")


def md5_of(path):
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def zip_database(database, entry_name, archive):
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as out:
        out.write(database, arcname=entry_name)
    return os.path.getsize(archive)


def pad(database, extra_bytes, seed_text):
    """Adds a table of incompressible blobs (the verifier ignores tables it does not know)."""
    connection = sqlite3.connect(database)
    connection.execute("CREATE TABLE IF NOT EXISTS bench_padding (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
    chunk = 256 * 1024
    remaining = extra_bytes
    with connection:
        while remaining > 0:
            size = min(chunk, remaining)
            connection.execute("INSERT INTO bench_padding (data) VALUES (?)", (os.urandom(size),))
            remaining -= size
    connection.execute("UPDATE updated SET last_updated = ?", (f"synthetic benchmark data, {seed_text}",))
    connection.commit()
    connection.close()


def make_release(pocket, folder, target_mb, version):
    """Writes core.<version>.db, sci-core.<version>.zip (about target_mb MB; None: the database
    unpadded) and sci-core.json into folder."""
    os.makedirs(folder, exist_ok=True)
    content_name = f"core.{version}.db"
    zip_name = f"sci-core.{version}.zip"
    database = os.path.join(folder, content_name)
    archive = os.path.join(folder, zip_name)
    subprocess.run([pocket, "conference", "generate-synthetic", database], check=True, stdout=subprocess.DEVNULL)
    base = zip_database(database, content_name, archive)
    target = (target_mb or 0) * MB
    if target > base:
        pad(database, target - base, f"padded to a {target_mb} MB archive")
        # Random pages compress to a little over their size; one correction lands within 1%.
        size = zip_database(database, content_name, archive)
        if abs(size - target) > target // 100 and size < target:
            pad(database, target - size, "corrected")
            zip_database(database, content_name, archive)
    manifest = {
        "version": version,
        "download-name": zip_name,
        "download-size": str(os.path.getsize(archive)),
        "download-md5": md5_of(archive),
        "content-name": content_name,
        "content-size": str(os.path.getsize(database)),
        "content-md5": md5_of(database),
    }
    with open(os.path.join(folder, "sci-core.json"), "w") as handle:
        json.dump(manifest, handle)
    return manifest


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def serve(folder):
    handler = lambda *args, **kwargs: QuietHandler(*args, directory=folder, **kwargs)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


def timed(argv, scratch, **kwargs):
    """Runs argv under GNU time; returns (wall seconds, peak RSS in bytes, output).

    The RSS comes from GNU time, not from this script's own wait4: Linux carries a process's
    pre-exec peak over into ru_maxrss, so a child forked from this Python process would report
    at least Python's own size. GNU time is small, and its ru_maxrss covers the command and the
    children it waited for (curl, md5sum, unzip for the baseline)."""
    report = os.path.join(scratch, "time.txt")
    start = time.perf_counter()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report, *argv],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kwargs)
    samples = []
    sampler = threading.Thread(target=sample_rss, args=(process, start, samples), daemon=True)
    sampler.start()
    lines = []
    for raw in process.stdout:
        lines.append((time.perf_counter() - start, raw.decode(errors="replace").rstrip("\n")))
    process.wait()
    sampler.join()
    seconds = time.perf_counter() - start
    output = "\n".join(line for _, line in lines)
    if process.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({process.returncode}): {output}")
    with open(report) as handle:
        kilobytes = int(handle.read().strip().splitlines()[-1])
    return seconds, kilobytes * 1024, output, (lines, samples)


def sample_rss(process, start, samples):
    """Reads the measured command's resident size every 10 ms (it is GNU time's child), so the
    peak can be put down to an install phase."""
    children = f"/proc/{process.pid}/task/{process.pid}/children"
    while process.poll() is None:
        try:
            with open(children) as handle:
                pids = handle.read().split()
            for pid in pids:
                with open(f"/proc/{pid}/status") as handle:
                    for line in handle:
                        if line.startswith("VmRSS:"):
                            samples.append((time.perf_counter() - start, int(line.split()[1]) * 1024))
        except (OSError, ValueError):
            pass
        time.sleep(0.01)


def phases(trace, total):
    """Seconds and sampled peak RSS per install phase, from the times pocket printed each phase's
    first line ("Downloading (45.0 MB)…"); "start" is process start-up and opening the library."""
    lines, _ = trace
    starts = [(0.0, "start")]
    for at, line in lines:
        if line.endswith("…") and ":" not in line:
            starts.append((at, line.split(" (")[0].rstrip("…")))
    starts.append((total, "end"))
    lines, samples = trace
    spans = []
    for (at, name), (following, _) in zip(starts, starts[1:]):
        peak = max((rss for when, rss in samples if at <= when < following), default=0)
        spans.append((name, following - at, peak))
    return spans


def run_pocket(pocket, template, scratch, url, expected_version):
    """One install into a new data folder: a copy of `template`, or an empty folder when it is None."""
    data = os.path.join(scratch, "pocket-data")
    shutil.rmtree(data, ignore_errors=True)
    if template:
        shutil.copytree(template, data)
    seconds, rss, output, trace = timed([pocket, "conference", "update", "--data-dir", data, "--manifest-url", url], scratch)
    if f"Installed version {expected_version}" not in output:
        raise RuntimeError(f"pocket did not install version {expected_version}: {output}")
    # The install leaves the search index to the first search (a server builds it as soon as the
    # install ends): time that search, which builds it, and the next one, which does not.
    searches = []
    for _ in range(2):
        started = time.perf_counter()
        subprocess.run([pocket, "conference", "search", "faith", "--data-dir", data], check=True, stdout=subprocess.DEVNULL)
        searches.append(time.perf_counter() - started)
    shutil.rmtree(data, ignore_errors=True)
    return seconds, rss, phases(trace, seconds), searches


def run_baseline(scratch, url, content_name, manifest):
    work = os.path.join(scratch, "baseline")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    script = f"curl -s -o f.zip {url} && md5sum f.zip && unzip -q f.zip -d out && md5sum out/{content_name}"
    seconds, rss, output, _ = timed(["bash", "-c", script], scratch, cwd=work)
    if manifest["download-md5"] not in output or manifest["content-md5"] not in output:
        raise RuntimeError(f"the baseline's MD5s do not match the manifest: {output}")
    shutil.rmtree(work, ignore_errors=True)
    return seconds, rss


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as handle:
            kb = int(handle.readline().split()[1])
            memory = f", {kb / 1024 / 1024:.0f} GB RAM"
    except (OSError, ValueError, IndexError):
        pass
    load = ""
    try:
        with open("/proc/loadavg") as handle:
            load = "; load average at the end " + " ".join(handle.read().split()[:3])
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}{memory}, {platform.system()} {platform.release()}{load}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pocket", help="a prebuilt pocket binary (default: build the release one)")
    parser.add_argument("--sizes", default="real,40,400",
                        help="archive sizes in MB, comma-separated; 'real' is the synthetic database unpadded, "
                             "18.7 MB in a 7.4 MB zip (default real,40,400)")
    parser.add_argument("--folders", default="empty,sample",
                        help="which data folder each install starts from: 'empty' (nothing yet) and/or 'sample' "
                             "(the built-in sample already built), comma-separated (default empty,sample)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side per size; the median is reported (default 3)")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "conference-install.txt"),
                        help="where to write the results ('-' for nowhere)")
    args = parser.parse_args()

    ensure_tools()
    pocket = os.path.abspath(args.pocket) if args.pocket else build_pocket()
    sizes = [None if size.strip() == "real" else int(size) for size in args.sizes.split(",") if size.strip()]
    folders = [name.strip() for name in args.folders.split(",") if name.strip()]
    if not folders or any(name not in ("empty", "sample") for name in folders):
        parser.error("--folders takes 'empty' and/or 'sample'")
    rows = []
    with tempfile.TemporaryDirectory(prefix="pocket-bench-install-") as scratch:
        # A data folder whose built-in sample exists already, copied for every run, so each run
        # is the install alone (the sample is built once per data folder, on first use).
        template = os.path.join(scratch, "template")
        subprocess.run([pocket, "conference", "status", "--data-dir", template], check=True, stdout=subprocess.DEVNULL)
        # pocket's floor: the RSS of a command that only opens the library and prints.
        _, floor_rss, _, _ = timed([pocket, "conference", "status", "--data-dir", template], scratch)
        for size in sizes:
            folder = os.path.join(scratch, f"site-{size or 'real'}")
            version = f"bench{size or 'real'}"
            label = f"{size} MB" if size else "real"
            log(f"making a {label} release")
            manifest = make_release(pocket, folder, size, version)
            server = serve(folder)
            port = server.server_address[1]
            manifest_url = f"http://127.0.0.1:{port}/sci-core.json"
            zip_url = f"http://127.0.0.1:{port}/{manifest['download-name']}"
            pocket_times = {name: [] for name in folders}
            pocket_rss = {name: [] for name in folders}
            pocket_phases = {name: [] for name in folders}
            pocket_searches = {name: [] for name in folders}
            base_times, base_rss = [], []
            try:
                for round_number in range(args.rounds):
                    sides = [("pocket", name) for name in folders] + [("baseline", None)]
                    # Alternate which side goes first, so neither always finds a warmer cache.
                    order = sides if round_number % 2 == 0 else list(reversed(sides))
                    for side, start in order:
                        if side == "pocket":
                            seconds, rss, spans, searches = run_pocket(pocket, template if start == "sample" else None, scratch,
                                                             manifest_url, version)
                            pocket_times[start].append(seconds)
                            pocket_phases[start].append(spans)
                            pocket_rss[start].append(rss)
                            pocket_searches[start].append(searches)
                            name = f"pocket ({start} folder)"
                        else:
                            seconds, rss = run_baseline(scratch, zip_url, manifest["content-name"], manifest)
                            base_times.append(seconds)
                            base_rss.append(rss)
                            name = "baseline"
                        log(f"  {label} round {round_number + 1}: {name} {seconds:.3f} s, {rss / MB:.1f} MB RSS")
            finally:
                server.shutdown()
                server.server_close()
            base_median = statistics.median(base_times)
            for start in folders:
                times = pocket_times[start]
                pocket_median = statistics.median(times)
                rows.append({
                    "size": label,
                    "folder": start,
                    "zip": int(manifest["download-size"]),
                    "db": int(manifest["content-size"]),
                    "pocket": pocket_median,
                    "baseline": base_median,
                    "ratio": pocket_median / base_median,
                    "rss": max(pocket_rss[start]),
                    "base_rss": max(base_rss),
                    "pocket_all": times,
                    "base_all": base_times,
                    # The phases of the run whose time is the median.
                    "phases": pocket_phases[start][times.index(sorted(times)[(len(times) - 1) // 2])],
                    "first_search": statistics.median(first for first, _ in pocket_searches[start]),
                    "next_search": statistics.median(following for _, following in pocket_searches[start]),
                })
            shutil.rmtree(folder, ignore_errors=True)

    lines = [
        "Conference install: pocket conference update vs curl -o + md5sum + unzip + md5sum (loopback HTTP)",
        f"date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"machine: {machine()}",
        f"rounds: {args.rounds} per side, size and folder, alternating; medians shown; pocket RSS is the largest of its runs",
        "folder: the data folder pocket starts from: empty, or with the built-in sample already built",
        "",
        f"{'archive':>9} {'folder':>7} {'zip MB':>8} {'db MB':>8} {'pocket s':>9} {'baseline s':>11} {'ratio':>6} "
        f"{'pocket RSS MB':>14} {'baseline RSS MB':>16}",
    ]
    for row in rows:
        lines.append(f"{row['size']:>9} {row['folder']:>7} {row['zip'] / MB:>8.1f} {row['db'] / MB:>8.1f} {row['pocket']:>9.3f} "
                     f"{row['baseline']:>11.3f} {row['ratio']:>6.2f} {row['rss'] / MB:>14.1f} {row['base_rss'] / MB:>16.1f}")
    lines.append("")
    lines.append(f"pocket's RSS floor (`pocket conference status`, no install): {floor_rss / MB:.1f} MB")
    lines.append("goal: ratio <= 1.00 and pocket RSS <= 50 MB at every size, from either folder")
    for row in rows:
        verdict = "met" if row["ratio"] <= 1.0 and row["rss"] <= 50 * MB else "NOT met"
        runs = ", ".join(f"{t:.3f}" for t in row["pocket_all"])
        base = ", ".join(f"{t:.3f}" for t in row["base_all"])
        lines.append(f"{row['size']}, {row['folder']} folder: goal {verdict} (pocket runs {runs} s; baseline runs {base} s)")
        lines.append("  pocket's median run by phase (seconds, sampled peak RSS MB): "
                     + ", ".join(f"{name} {span:.3f} s " + (f"{peak / MB:.0f} MB" if peak else "-") for name, span, peak in row["phases"]))
        lines.append(f"  then `pocket conference search faith`, medians: the first {row['first_search']:.3f} s (it builds the search "
                     f"index the install left to it), the next {row['next_search']:.3f} s")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out != "-":
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w") as handle:
            handle.write(text)
        log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
