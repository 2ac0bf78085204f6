#!/usr/bin/env bash
# Page throughput, side by side in one run: nginx serving a small file, Pocket's /static route, and
# every screen, on the full-size synthetic Conference database, each at 32 connections for 15 s
# (three passes; the medians are kept), plus one request alone (median of 20 sequential ones).
# Requests carry a signed-in owner's session, as a phone's do. Release build. Needs wrk and nginx
# (Debian's wrk and nginx-light); writes bench/results/pages.txt.
#   bench/pages.sh            POCKET_BENCH_PASSES, POCKET_BENCH_SECONDS override 3 and 15.
#   POCKET_BIN=…              a prebuilt pocket (skips the build).
#   POCKET_BEFORE_BIN=…       an older pocket served beside it, each route measured on both in the same run.
#   POCKET_BEFORE_WITHOUT=…   both servers are this build's PocketBench serve (POCKET_BENCH_BIN skips its build),
#                             the second with these cache layers passed through (e.g. PageMemo or
#                             SignInCache,ScreenMemo); writes bench/results/pages-without-<layers>.txt.
#   POCKET_BENCH_GZIP=1       the second server is this build (or POCKET_BEFORE_BIN) asked as before, without
#                             Accept-Encoding; this build's requests ask for gzip as a browser's do
#                             (Accept-Encoding: gzip, Sec-Fetch-Site: same-origin); writes bench/results/pages-gzip.txt.
#   POCKET_BENCH_GZIP=both    with POCKET_BEFORE_BIN: both builds asked for gzip; writes bench/results/pages-gzip-both.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
require_swift
ensure_debs wrk nginx-light
passes="${POCKET_BENCH_PASSES:-3}"
seconds="${POCKET_BENCH_SECONDS:-15}"

without="${POCKET_BEFORE_WITHOUT:-}"
if [ -z "${POCKET_BIN:-}" ]; then
  echo "==> swift build -c release (pocket)" >&2
  release_build --product pocket >&2
fi
if [ -n "$without" ] && [ -z "${POCKET_BENCH_BIN:-}" ]; then
  echo "==> swift build -c release (PocketBench)" >&2
  release_build --product PocketBench >&2
fi
pocket="${POCKET_BIN:-$(release_bin_path)/pocket}"
# Pocket cannot turn a cache off: a layer is passed through only by PocketBench's server, which
# serves both columns of a comparison, so they differ in nothing but that layer.
bench_server="${POCKET_BENCH_BIN:-$([ -z "$without" ] || echo "$(release_bin_path)/PocketBench")}"
before_bin="${POCKET_BEFORE_BIN:-}"
[ -z "$without" ] || before_bin="$pocket"
gzip_columns="${POCKET_BENCH_GZIP:-}"
[ -z "$gzip_columns" ] || before_bin="${before_bin:-$pocket}"
before_label=$([ -n "$without" ] && echo "without $without" || { [ "$gzip_columns" = 1 ] && echo "no gzip asked"; } || echo before)
results="bench/results/pages$([ -z "$without" ] || echo "-without-${without//,/-}")$([ -z "$gzip_columns" ] || echo "-gzip")$([ "$gzip_columns" != both ] || echo "-both").txt"
# What this build's requests send besides the cookie: a browser's asking for gzip, from Pocket's own page.
now_headers=()
[ -z "$gzip_columns" ] || now_headers=(-H "Accept-Encoding: gzip" -H "Sec-Fetch-Site: same-origin")

servers=()
work="$(mktemp -d "${TMPDIR:-/tmp}/pocket-bench-pages-XXXXXX")"
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

echo "==> full-size synthetic Conference database" >&2
"$pocket" conference generate-synthetic "$work/core.db" >&2

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_pocket NAME BINARY [CACHES]: a data folder of its own with the database imported and an owner, a
# server on a free port, signed in as a browser would (the sign-in form's token, then the session
# cookie); in a cache comparison the server is PocketBench's, with CACHES passed through. Sets base_NAME,
# cookie_NAME, talk_NAME, asset_NAME.
start_pocket() {
  local name="$1" binary="$2" caches="${3:-}" data="$work/data-$1" port base cookie form token conference talk asset
  "$binary" conference import "$work/core.db" --data-dir "$data" >&2
  printf '%s\n' "bench password" | "$binary" users add owner --data-dir "$data" >&2
  port=$(free_port)
  if [ -n "$without" ]; then
    "$bench_server" serve --port "$port" --data-dir "$data" --without "$caches" >"$work/serve-$name.log" 2>&1 &
  else
    "$binary" serve --port "$port" --data-dir "$data" --demo --log-level error >"$work/serve-$name.log" 2>&1 &
  fi
  servers+=("$!")
  base="http://127.0.0.1:$port"
  for _ in $(seq 100); do curl -fs "$base/static/css/pocket.css" >/dev/null 2>&1 && break; sleep 0.2; done
  form=$(curl -fs -c "$work/jar-$name" "$base/signin")
  token=$(printf '%s' "$form" | sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' | head -1)
  curl -fs -b "$work/jar-$name" -c "$work/jar-$name" -o /dev/null --data-urlencode "name=owner" \
    --data-urlencode "password=bench password" --data-urlencode "_csrf=$token" "$base/signin"
  cookie="pocket_session=$(awk '$6 == "pocket_session" {print $7}' "$work/jar-$name")"
  [ "$cookie" != "pocket_session=" ] || { echo "pocket: could not sign in to $name for the benchmark" >&2; exit 1; }
  # Every cookie the browser holds goes with each request, as a phone's do (the sign-in form's token too).
  cookie="$cookie; pocket_csrf=$(awk '$6 == "pocket_csrf" {print $7}' "$work/jar-$name")"
  # The demo murals arrive with the start-up sync; a talk id from the installed database.
  for _ in $(seq 100); do curl -fs -H "Cookie: $cookie" "$base/murals" | grep -q 'murals-cell' && break; sleep 0.3; done
  conference=$(curl -fs -H "Cookie: $cookie" "$base/conference" | sed -n 's/.*href="\/conference\/conferences\/\([0-9]*\)".*/\1/p' | head -1)
  talk=$(curl -fs -H "Cookie: $cookie" "$base/conference/conferences/$conference" | sed -n 's/.*href="\/conference\/talks\/\([0-9]*\).*/\1/p' | head -1)
  asset=$(curl -fs -H "Cookie: $cookie" "$base/" | sed -n 's/.*href="\(\/static\/css\/pocket.css?v=[^"]*\)".*/\1/p' | head -1)
  printf -v "base_$name" '%s' "$base"; printf -v "cookie_$name" '%s' "$cookie"
  printf -v "talk_$name" '%s' "$talk"; printf -v "asset_$name" '%s' "$asset"
}

start_pocket now "$pocket"
labels=(now)
if [ -n "$before_bin" ]; then
  start_pocket before "$before_bin" "$without"
  labels=(now before)
fi

nginx_port=$(free_port)
mkdir -p "$work/www"
chmod 755 "$work" "$work/www"  # nginx's workers run as another user
head -c "$(curl -fs "$base_now$asset_now" | wc -c)" /dev/zero | tr '\0' 'x' >"$work/www/small.css"
cat >"$work/nginx.conf" <<CONF
daemon on; pid $work/nginx.pid; error_log $work/nginx-error.log; worker_processes 1;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:$nginx_port; root $work/www; } }
CONF
nginx -c "$work/nginx.conf" -p "$work" 2>/dev/null || /usr/sbin/nginx -c "$work/nginx.conf" -p "$work"

# Pages that differ per request: 2,000 talks, and searches for 2,000 words of their titles, in
# a shuffled order that wrk's two threads each go round, so the screens' kept answers (at most
# 512 per file) are of no help and every request reads the database.
python3 - "$work/core.db" "$work" <<'PY'
import random, re, sqlite3, sys, urllib.parse
db = sqlite3.connect(sys.argv[1])
rng = random.Random(14)
talks = [row[0] for row in db.execute("SELECT ID FROM talk ORDER BY ID")]
rng.shuffle(talks)
with open(sys.argv[2] + "/talks.txt", "w") as out:
    out.writelines(f"/conference/talks/{talk}\n" for talk in talks[:2000])
words = sorted({w.lower() for (title,) in db.execute("SELECT Title FROM talk") for w in re.findall(r"[A-Za-z]{3,}", title)})
prefixes = sorted(set(words) | {w[:n] for w in words for n in (3, 4)})
rng.shuffle(prefixes)
with open(sys.argv[2] + "/searches.txt", "w") as out:
    out.writelines(f"/conference/search?q={urllib.parse.quote(p)}\n" for p in prefixes[:2000])
PY
cat >"$work/paths.lua" <<'LUA'
-- Goes round the paths in POCKET_BENCH_PATHS, one per request (with the -H headers).
local paths = {}
for line in io.lines(os.getenv("POCKET_BENCH_PATHS")) do paths[#paths + 1] = line end
local next_path = 0
request = function()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end
LUA

# name|path below the server (a leading "nginx:" for nginx's file; "list:FILE" for a list of paths)
routes=(
  "nginx, small file|nginx:/small.css"
  "Pocket /static file|ASSET"
  "/|/"
  "/remote/tv|/remote/tv"
  "/converter|/converter"
  "/murals (24 murals)|/murals"
  "/conference|/conference"
  "/conference/search?q=faith|/conference/search?q=faith"
  "/plates (50 fixed rows)|/plates"
  "a talk page|/conference/talks/TALK"
  "2,000 different talk pages|list:talks.txt"
  "2,000 different searches|list:searches.txt"
)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); print v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v); print v} else if (v ~ /s$/) {sub(/s$/,"",v); print v*1000} else print v}'; }

# target LABEL NAME PATH: what a column asks for on a route; sets url, cookie, list.
target() {
  local label="$1" name="$2" path="$3" base_var="base_$1" cookie_var="cookie_$1" talk_var="talk_$1" asset_var="asset_$1"
  list=""
  if [[ "$path" == nginx:* ]]; then
    url="http://127.0.0.1:$nginx_port${path#nginx:}"; cookie=""; return
  fi
  url="${!base_var}${path/TALK/${!talk_var}}"; cookie="${!cookie_var}"
  [ "$path" = ASSET ] && url="${!base_var}${!asset_var}"
  if [[ "$path" == list:* ]]; then url="${!base_var}"; list="$work/${path#list:}"; fi
}

# headers_for COOKIE LABEL: the request headers a column sends; sets headers.
headers_for() {
  headers=()
  [ -n "$1" ] && headers=(-H "Cookie: $1")
  [ "$2" != now ] && [ "$gzip_columns" != both ] || headers+=("${now_headers[@]}")
}

# pass URL COOKIE PATHS LABEL: one wrk pass (going round PATHS' paths, if given); prints "req/s p99-ms".
pass() {
  local url="$1" list="$3" out non2xx script=()
  headers_for "$2" "$4"
  [ -n "$list" ] && script=(-s "$work/paths.lua")
  out=$(POCKET_BENCH_PATHS="$list" wrk -t2 -c32 -d"${seconds}s" --latency "${headers[@]}" "${script[@]}" "$url")
  non2xx=$(printf '%s\n' "$out" | awk '/Non-2xx/ {print $5}')
  [ -z "$non2xx" ] || { echo "pocket: $url answered $non2xx non-2xx responses" >&2; exit 1; }
  echo "$(printf '%s\n' "$out" | awk '/Requests\/sec/ {print $2}') $(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}' | to_ms)"
}

# alone_ms URL COOKIE PATHS LABEL: the median of 20 sequential requests (of PATHS' first path, if given).
alone_ms() {
  local url="$1"
  headers_for "$2" "$4"
  [ -n "$3" ] && url="$url$(head -1 "$3")"
  for _ in $(seq 20); do curl -fs -o /dev/null "${headers[@]}" -w '%{time_total}\n' "$url"; done | median | awk '{printf "%.2f", $1*1000}'
}

{
  echo "# Pocket page throughput ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
  echo "# wrk -t2 -c32 -d${seconds}s, median of $passes passes; alone = median of 20 sequential requests; talk $talk_now"
  echo "# vs /static: throughput as a share of the same build's /static route (goal: at least 20%, p99 under 10 ms)"
  if [ -n "$before_bin" ]; then
    if [ -n "$without" ]; then
      echo "# both columns: this build's PocketBench serve; $before_label: with --without $without, served beside it in the same run (each route measured on both, their passes alternating)"
    elif [ "$gzip_columns" = both ]; then
      echo "# both builds asked for gzip as a browser asks (Accept-Encoding: gzip, Sec-Fetch-Site: same-origin); before: $before_bin, served beside this build in the same run (their passes alternating)"
    elif [ -n "$gzip_columns" ]; then
      echo "# this build asked for gzip as a browser asks (Accept-Encoding: gzip, Sec-Fetch-Site: same-origin) beside $before_bin asked without, in the same run (their passes alternating)"
    else
      echo "# before: $before_bin, served beside this build in the same run (each route measured on both, their passes alternating)"
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "route" "req/s" "p99" "alone" "vs /static" "$before_label: req/s" "p99" "alone" "vs /static" "req/s ÷ $before_label"
    printf '|---|---|---|---|---|---|---|---|---|---|\n'
  else
    printf '| %s | %s | %s | %s | %s |\n' "route" "req/s" "p99" "one request alone" "vs /static"
    printf '|---|---|---|---|---|\n'
  fi
} >"$work/table"

# A route's passes alternate between the columns (now, before, now, …), so a slow spell of a
# shared machine falls on both columns rather than on one column's passes.
declare -A static_rps
for entry in "${routes[@]}"; do
  name="${entry%%|*}"; path="${entry#*|}"
  columns=("${labels[@]}")
  [[ "$path" != nginx:* ]] || columns=(now)
  declare -A samples=()
  for _ in $(seq "$passes"); do
    for label in "${columns[@]}"; do
      echo "==> $name ($([ "$label" = now ] && echo now || echo "$before_label"))" >&2
      target "$label" "$name" "$path"
      samples[$label]+="$(pass "$url" "$cookie" "$list" "$label")"$'\n'
    done
  done
  row="| $name |"
  for label in "${labels[@]}"; do
    if [ -z "${samples[$label]:-}" ]; then row+=" – | – | – | – |"; continue; fi
    target "$label" "$name" "$path"
    alone=$(alone_ms "$url" "$cookie" "$list" "$label")
    r=$(printf '%s' "${samples[$label]}" | awk '{print $1}' | median); p=$(printf '%s' "${samples[$label]}" | awk '{print $2}' | median)
    [ "$label" = now ] && r_now="$r"
    [ "$name" = "Pocket /static file" ] && static_rps[$label]="$r"
    ratio=$([ -n "${static_rps[$label]:-}" ] && awk -v a="$r" -v b="${static_rps[$label]}" 'BEGIN {printf "%.1f%%", 100*a/b}' || echo "–")
    row+="$(printf ' %.0f | %.1f ms | %s ms | %s |' "$r" "$p" "$alone" "$ratio")"
  done
  if [ "${#labels[@]}" -gt 1 ]; then
    row+="$([ -n "${samples[before]:-}" ] && awk -v a="${r_now}" -v b="${r}" 'BEGIN {printf " %.2f |", a/b}' || echo " – |")"
  fi
  unset samples
  echo "$row" >>"$work/table"
done
mkdir -p bench/results
cp "$work/table" "$results"
cat "$results"
echo "==> wrote $results" >&2
