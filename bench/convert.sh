#!/usr/bin/env bash
# The cost of one `pocket convert` call beside GNU `units -t` doing the same conversion (issue #14:
# no slower per call), for a fixed set of conversions. Per call: wall time and CPU time (user +
# system) from hyperfine, both tools in the same run, each round starting with another tool;
# instructions from valgrind's callgrind, which stay the same however loaded the machine is.
# Release build. Needs units, hyperfine, valgrind and binutils (installed with apt-get if missing);
# writes bench/results/convert.txt.
#   bench/convert.sh                  builds pocket; POCKET_BIN=path measures that binary instead
#   POCKET_BEFORE_BIN=path           also measures an older build in the same rounds (now / before)
#   POCKET_BENCH_ROUNDS, POCKET_BENCH_RUNS override 6 rounds of 20 runs per tool and conversion.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_debs units hyperfine valgrind binutils
rounds="${POCKET_BENCH_ROUNDS:-6}"
runs="${POCKET_BENCH_RUNS:-20}"

if [ -z "${POCKET_BIN:-}" ]; then
  require_swift
  echo "==> swift build -c release (pocket)" >&2
  release_build --product pocket >&2
fi
pocket="${POCKET_BIN:-$(release_bin_path)/pocket}"
[ -x "$pocket" ] || { echo "pocket: no executable at $pocket" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/pocket-bench-convert-XXXXXX")"
trap 'rm -rf "$work"' EXIT
# valgrind gives up on the release binary's DWARF ("possibly corrupted debuginfo"); a copy without
# it runs the same instructions.
objcopy --strip-debug "$pocket" "$work/pocket"
before="${POCKET_BEFORE_BIN:-}"
if [ -n "$before" ]; then objcopy --strip-debug "$before" "$work/before"; fi

# pocket's arguments | units' "have" | units' "want". Pocket's KB is binary, GNU's kilobyte is
# decimal, so units is asked for kibibytes; absolute temperatures need units' tempC/tempF.
conversions=(
  "12 KB MB --plain|12 kibibytes|mebibytes"
  "5 km mi|5 km|mi"
  "-- -40 C F|tempC(-40)|tempF"
  "1 acre m2|1 acre|m^2"
  "1 gal L|1 usgallon|liter"
)

# Both tools run in the same small environment: GNU units does 60% more work in a UTF-8 locale
# (it then reads the Unicode names in its database), which is what people have, and its
# instruction count moves by a few hundred thousand with the size of the environment.
clean() { env -i PATH="$PATH" HOME="$HOME" LANG=C.UTF-8 "$@"; }
instructions() { clean valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }

rows="$work/rows.jsonl"
: >"$rows"
for entry in "${conversions[@]}"; do
  IFS='|' read -r args have want <<<"$entry"
  read -r -a words <<<"$args"
  echo "==> pocket convert $args / units -t '$have' '$want'" >&2
  pocket_out=$(clean "$pocket" convert "${words[@]}")
  units_out=$(clean units -t "$have" "$want")
  # name|command|instructions, one per tool.
  tools=("pocket|'$pocket' convert $args|$(instructions "$work/pocket" convert "${words[@]}")"
         "units|units -t '$have' '$want'|$(instructions units -t "$have" "$want")")
  if [ -n "$before" ]; then
    tools+=("before|'$before' convert $args|$(instructions "$work/before" convert "${words[@]}")")
  fi
  rm -f "$work"/round-*.json
  for round in $(seq "$rounds"); do
    # Each round starts with the next tool, so none is always first (or always after another).
    order=()
    for i in "${!tools[@]}"; do
      tool="${tools[$(((i + round) % ${#tools[@]}))]}"
      order+=("$(cut -d'|' -f2 <<<"$tool")")
    done
    clean hyperfine -N --style none --warmup 3 --runs "$runs" --export-json "$work/round-$round.json" "${order[@]}" \
      >/dev/null 2>"$work/hyperfine.log" || { cat "$work/hyperfine.log" >&2; exit 1; }
  done
  python3 - "$work" "$args" "$pocket_out" "$units_out" "${tools[@]}" >>"$rows" <<'PY'
import glob, json, sys
work, args, pocket_out, units_out, *tools = sys.argv[1:]
names = {}
measures = {}
for tool in tools:
    name, command, instructions = tool.split("|")
    names[command] = name
    measures[name] = {"wall": [], "cpu": [], "instructions": int(instructions)}
for path in glob.glob(f"{work}/round-*.json"):
    for result in json.load(open(path))["results"]:
        measure = measures[names[result["command"]]]
        measure["wall"] += result["times"]
        measure["cpu"].append(result["user"] + result["system"])
print(json.dumps({"args": args, "pocket_out": pocket_out, "units_out": units_out, "tools": measures}))
PY
done

mkdir -p bench/results
{
  echo "pocket convert vs GNU units -t: one call each (release build)"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(awk '/MemTotal/ {printf "%.0f GB RAM", $2/1048576}' /proc/meminfo), Linux $(uname -r); load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "pocket: $pocket${before:+; before: $before}; $(units --version | head -1)"
  echo "time: hyperfine -N, $rounds rounds of $runs runs per tool and conversion after 3 warm-up runs, each round"
  echo "      starting with another tool; wall = median of every run, cpu = user + system, median of the rounds' means"
  echo "instructions: valgrind --tool=callgrind, one run each (they do not change from run to run)"
  echo "environment of both tools: PATH, HOME and LANG=C.UTF-8 only"
  echo
  python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]

def figures(measure):
    return (statistics.median(measure["wall"]) * 1000, statistics.median(measure["cpu"]) * 1000,
            measure["instructions"])

def table(header, lines):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i < 3 else "---:" for i in range(len(header))) + "|")
    for line in lines:
        print("| " + " | ".join(line) + " |")

def compared(mine, theirs):
    (wall, cpu, ir), (other_wall, other_cpu, other_ir) = figures(mine), figures(theirs)
    return (f"{wall:.2f}", f"{other_wall:.2f}", f"{wall / other_wall:.2f}",
            f"{cpu:.2f}", f"{other_cpu:.2f}", f"{cpu / other_cpu:.2f}",
            f"{ir:,}", f"{other_ir:,}", f"{ir / other_ir:.2f}")

table(("pocket convert", "pocket says", "units -t says", "wall ms pocket", "units", "ratio",
       "cpu ms pocket", "units", "ratio", "instructions pocket", "units", "ratio"),
      [(row["args"], row["pocket_out"], row["units_out"]) + compared(row["tools"]["pocket"], row["tools"]["units"])
       for row in rows])
if all("before" in row["tools"] for row in rows):
    print()
    table(("pocket convert", "", "", "wall ms now", "before", "ratio", "cpu ms now", "before", "ratio",
           "instructions now", "before", "ratio"),
          [(row["args"], "", "") + compared(row["tools"]["pocket"], row["tools"]["before"]) for row in rows])
PY
  echo
  echo "ratio = pocket / units (now / before); goal (issue #14): pocket convert no slower per call than units -t"
} >"$work/convert.txt"
cp "$work/convert.txt" bench/results/convert.txt
cat bench/results/convert.txt
echo "==> wrote bench/results/convert.txt" >&2
