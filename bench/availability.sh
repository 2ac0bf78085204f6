#!/usr/bin/env bash
# Nobody on the Wi-Fi can take Pocket down (issue #32): a signed-in person's requests alone, and
# beside each attack in turn, side by side in one run of one release build: a /healthz flood (wrk,
# 400 connections), a stranger holding 1,100 idle sockets from another address (127.0.0.2, the
# closed ones opened again at about 55 a second), a member holding 1,000 /remote/events streams
# (from one address, 127.0.0.4), and a member sending Plates changes flat out (8 threads).
# The person (Ann, from 127.0.0.10, a new connection for every request) loads the Plates screen and
# sends a Plates change in turn, every 20 ms; each column records the person's p50/p99 and whether
# every answer was 200, the server's open files and memory, and what the attacker got.
# Pocket runs under `prlimit --nofile=1024:1024` (systemd's default soft limit, with no room to
# raise it), the harshest limits a service meets. Writes bench/results/availability.txt.
#   bench/availability.sh          POCKET_BENCH_SECONDS overrides 10 s per column.
#   POCKET_BIN=…                   a prebuilt pocket (skips the build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
require_swift
ensure_debs wrk util-linux

if [ -z "${POCKET_BIN:-}" ]; then
  echo "==> swift build -c release (pocket)" >&2
  release_build --product pocket >&2
fi
pocket="${POCKET_BIN:-$(release_bin_path)/pocket}"
work="$(mktemp -d "${TMPDIR:-/tmp}/pocket-bench-availability-XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p bench/results
for name in ann bea cy; do
  printf 'bench password\n' | "$pocket" users add "$name" --data-dir "$work/data" $([ "$name" = ann ] && echo --owner) >/dev/null
done

POCKET="$pocket" WORK="$work" SECONDS_PER_COLUMN="${POCKET_BENCH_SECONDS:-10}" python3 - <<'PY' | tee bench/results/availability.txt
import http.client, http.cookies, json, os, re, signal, socket, statistics, subprocess, threading, time, urllib.parse, uuid

pocket, work, seconds = os.environ["POCKET"], os.environ["WORK"], float(os.environ["SECONDS_PER_COLUMN"])
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = subprocess.Popen(["prlimit", "--nofile=1024:1024", pocket, "serve", "--port", str(port), "--data-dir", f"{work}/data",
                           "--no-backups", "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=open(f"{work}/server.log", "w"))

def call(path, method="GET", body=None, headers=None, source="127.0.0.1", timeout=30):
    """(status, headers, body) over a new connection from `source`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()

for _ in range(300):
    try:
        if call("/healthz")[0] == 200:
            break
    except OSError:
        time.sleep(0.1)

def sign_in(name, source):
    _, headers, page = call("/signin", source=source)
    jar = http.cookies.SimpleCookie()
    for value in headers.get_all("Set-Cookie") or []:
        jar.load(value)
    token = re.search(rb'name="_csrf" value="([^"]+)"', page).group(1).decode()
    form = urllib.parse.urlencode({"name": name, "password": "bench password", "_csrf": token})
    _, headers, _ = call("/signin", "POST", form, {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"pocket_csrf={jar['pocket_csrf'].value}"}, source)
    jar = http.cookies.SimpleCookie()
    for value in headers.get_all("Set-Cookie") or []:
        jar.load(value)
    cookie = f"pocket_session={jar['pocket_session'].value}"
    _, _, home = call("/", headers={"Cookie": cookie}, source=source)
    return {"Cookie": cookie, "X-CSRF-Token": re.search(rb'name="csrf-token" content="([^"]+)"', home).group(1).decode(),
            "Content-Type": "application/json"}, re.search(rb'name="pocket-device" content="([^"]+)"', home).group(1).decode()

PERSON = "127.0.0.10"
ann, bea, cy = sign_in("ann", PERSON), sign_in("bea", "127.0.0.4"), sign_in("cy", "127.0.0.5")
states = ["AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD"]

def change_body(tag, index):
    body = {"kind": "spot" if index % 2 == 0 else "unspot", "state": states[(index // 2) % len(states)]}
    return json.dumps({"id": str(uuid.uuid4()), "at": int(time.time() * 1000), "device": tag, "body": body})

def person(duration):
    """Ann's requests for `duration` seconds: (each one's time in ms, every status that was not 200)."""
    headers, tag = ann
    times, failures, index = [], [], 0
    end = time.monotonic() + duration
    while time.monotonic() < end:
        begin = time.perf_counter()
        try:
            if index % 2 == 0:
                status = call("/plates", headers={"Cookie": headers["Cookie"]}, source=PERSON)[0]
            else:
                status = call("/plates/changes", "POST", change_body(tag, index), headers, PERSON)[0]
        except OSError as error:
            status = type(error).__name__
        times.append((time.perf_counter() - begin) * 1000)
        if status != 200:
            failures.append(status)
        index += 1
        time.sleep(0.02)
    return times, failures

def server_state():
    files = len(os.listdir(f"/proc/{server.pid}/fd"))
    rss = next(line for line in open(f"/proc/{server.pid}/status") if line.startswith("VmRSS")).split()[1]
    return files, int(rss) // 1024

# Attacks: each starts, runs while the person measures, and stops; each says what it got.
def healthz_flood(stop):
    flood = subprocess.Popen(["wrk", "-t2", "-c400", f"-d{int(seconds) + 5}s", f"http://127.0.0.1:{port}/healthz"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    stop.wait()
    flood.send_signal(signal.SIGINT)
    out = flood.communicate(timeout=30)[0]
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return (f"wrk -c400 /healthz: {float(rate.group(1)) if rate else 0:.0f} answers/s"
            + (f", non-2xx {non2xx.group(1)}" if non2xx else "") + (f", socket errors: {errors.group(1)}" if errors else ""))

def idle_sockets(stop):
    held, attempts, refused = [], 0, 0
    def still_open(connection):
        connection.setblocking(False)
        try:
            return connection.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False
    peak = 0
    while not stop.is_set():
        held = [connection for connection in held if still_open(connection) or connection.close()]
        peak = max(peak, len(held))
        # Up to 1,100 held; the closed ones opened again at about 55 a second.
        for _ in range(min(1100 - len(held), 1100 if attempts == 0 else 6)):
            connection = socket.socket()
            connection.bind(("127.0.0.2", 0))
            connection.settimeout(2)
            attempts += 1
            try:
                connection.connect(("127.0.0.1", port))
                held.append(connection)
            except OSError:
                refused += 1
                connection.close()
        time.sleep(0.1)
    open_now = sum(1 for connection in held if still_open(connection))
    for connection in held:
        connection.close()
    return f"1,100 idle sockets from 127.0.0.2: {attempts} connects, at most {peak} left open by Pocket, {open_now} open at the end"

def streams(stop):
    headers, _ = bea
    opened, refused, ended = [], 0, 0
    lock = threading.Lock()
    def open_one(index):
        nonlocal refused
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.0.4", 0))
        try:
            connection.request("GET", "/remote/events?view=tv", headers={"Cookie": headers["Cookie"], "Accept": "text/event-stream"})
            response = connection.getresponse()
            if response.status != 200:
                raise OSError(response.status)
            with lock:
                opened.append(connection)
        except OSError:
            with lock:
                refused += 1
            connection.close()
    threads = [threading.Thread(target=lambda k=k: [open_one(i) for i in range(k, 1000, 20)]) for k in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.wait()
    for connection in opened:
        connection.sock.setblocking(False)
        try:
            chunk = connection.sock.recv(65536)
            while chunk:
                if chunk.endswith(b"0\r\n\r\n"):
                    ended += 1
                    break
                chunk = connection.sock.recv(65536)
        except BlockingIOError:
            pass
        except OSError:
            ended += 1
        connection.close()
    return f"1,000 /remote/events streams asked for by one member (127.0.0.4): {len(opened)} answered 200, {refused} refused, {ended} of the answered ended by Pocket"

def changes(stop):
    headers, tag = cy
    counts, lock = {}, threading.Lock()
    def send():
        index = 0
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.5", 0))
        while not stop.is_set():
            try:
                connection.request("POST", "/plates/changes", body=change_body(tag, index), headers=headers)
                response = connection.getresponse()
                response.read()
                status = response.status
            except OSError:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.5", 0))
                status = "error"
            with lock:
                counts[status] = counts.get(status, 0) + 1
            index += 1
        connection.close()
    began = time.monotonic()
    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    taken = counts.get(200, 0)
    return (f"a member sending Plates changes flat out (8 keep-alive connections): {sum(counts.values()) / elapsed:.0f} sent/s, "
            f"{taken / elapsed:.0f} taken/s, answers {dict(sorted(counts.items(), key=str))}")

columns = [("alone", None), ("/healthz flood", healthz_flood), ("1,100 idle sockets", idle_sockets),
           ("1,000 streams", streams), ("changes flat out", changes)]
results = []
for name, attack in columns:
    stop, outcome = threading.Event(), {}
    if attack:
        runner = threading.Thread(target=lambda: outcome.update(text=attack(stop)))
        runner.start()
        time.sleep(2)  # the attack in full swing before the person starts
    times, failures = person(seconds)
    files, rss = server_state()
    alive = server.poll() is None
    stop.set()
    if attack:
        runner.join(timeout=60)
    results.append((name, times, failures, files, rss, alive, outcome.get("text", "")))
    time.sleep(22 if attack else 1)  # idle connections closed (20 s) before the next column

server.send_signal(signal.SIGINT)
server.wait(timeout=30)

def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * fraction + 0.5) - 1)]

load_average = open("/proc/loadavg").read().split()[:3]
print(f"A signed-in person's requests beside each attack ({time.strftime('%Y-%m-%d %H:%M')} UTC, {os.cpu_count()} cores, "
      f"load average at the end {' '.join(load_average)}; pocket under prlimit --nofile=1024:1024)")
print(f"Binary: {pocket}")
print(f"Ann, from 127.0.0.10, a new connection each time: GET /plates and POST /plates/changes in turn, every 20 ms, {seconds:.0f} s per column")
print()
print(f"{'column':<20} {'requests':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'not 200':>8} {'open files':>10} {'RSS MB':>7}  alive")
for name, times, failures, files, rss, alive, _ in results:
    print(f"{name:<20} {len(times):>8} {statistics.median(times):>8.1f} {percentile(times, 0.99):>8.1f} {max(times):>8.1f} "
          f"{len(failures):>8} {files:>10} {rss:>7}  {'yes' if alive else 'NO'}")
print()
for name, _, failures, _, _, _, text in results:
    if text:
        print(f"{name}: {text}")
    if failures:
        print(f"{name}: the person's answers that were not 200: {failures[:10]}")
print()
print(f"The person's requests all 200 in every column: {'yes' if all(not failures for _, _, failures, *_ in results) else 'NO'}")
PY
echo "==> wrote bench/results/availability.txt" >&2
