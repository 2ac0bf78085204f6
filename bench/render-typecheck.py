#!/usr/bin/env python3
"""Type-checking time of the render prototypes, for bench/render.sh (issue #14, question 5).

1. Type-checks the PocketBench module with the compiler arguments of the last release build (from
   the build folder's release.yaml, so nothing is rebuilt) and -debug-time-function-bodies, and
   prints the time per page file and its slowest function.
2. Type-checks generated Plot pages written the way Plot is usually written (one expression, Plot's
   own typed attributes, string interpolation, ternaries, closures) with about 100 to 400 DSL calls,
   to see whether long variadic expressions grow the time faster than their length.

   bench/render-typecheck.py BUILD_FOLDER      (the folder holding release.yaml, e.g. .build)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

FILES = ["RenderBench+Plot.swift", "RenderBench+Mustache.swift", "RenderBench+Interpolation.swift", "RenderBench+Models.swift"]
# Arguments that make outputs; a type-check makes none.
DROP_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-emit-dependencies-path"}
DROP = {"-emit-dependencies", "-emit-module", "-incremental", "-parseable-output", "-c", "-g", "-enable-batch-mode", "-index-ignore-system-modules"}


def module_arguments(manifest):
    text = open(manifest, encoding="utf-8").read()
    match = re.search(r'"C\.PocketBench-[^"]*\.module":\n(?:    .*\n)*?    args: (\[.*\])', text)
    if not match:
        sys.exit(f"render-typecheck: no PocketBench module in {manifest}; build PocketBench in release first")
    args, result, skip = json.loads(match.group(1)), [], False
    for index, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in DROP_WITH_VALUE:
            skip = True
            continue
        if arg in DROP and args[index - 1] != "-Xcc":
            continue
        result.append(arg)
    return result


def function_times(output):
    """(milliseconds, file, line, function) for every function body the compiler timed."""
    for line in output.splitlines():
        match = re.match(r"\s*([0-9.]+)ms\s+(\S+?\.swift):(\d+):\d+\s+(.*)", line)
        if match and match.group(4).strip():
            yield float(match.group(1)), os.path.basename(match.group(2)), int(match.group(3)), match.group(4)


def stress_page(cells):
    cell = '''.li(.class(item.selected ? "cell cell--selected" : "cell"), .id("cell-\\(item.id)-{i}"),
            .a(.class("cell__main"), .href("/items/\\(item.id)?n={i}"),
               .span(.class("cell__text"), .span(.class("cell__title"), .text(item.title)),
                     .unwrap(item.subtitle) {{ .span(.class("cell__subtitle"), .text($0)) }}),
               .if(item.selected, .span(.class("cell__badge"), .text("✓")), else: .span(.class("cell__chevron")))))'''
    body = ",\n            ".join(cell.format(i=i) for i in range(cells))
    return f'''import Plot
struct Item {{ let id: Int; let title: String; let subtitle: String?; let selected: Bool }}
func page(title: String, items: [Item], item: Item) -> String {{
    HTML(
        .head(.title(title), .meta(.charset(.utf8)), .link(.rel(.stylesheet), .href("/s.css"))),
        .body(
            .header(.class("navbar"), .h1(.class("navbar__title"), .text(title))),
            .main(.id("main"), .ul(.class("list"),
            {body},
                .forEach(items) {{ item in .li(.class(item.selected ? "cell cell--selected" : "cell"), .a(.href("/i/\\(item.id)"), .text(item.title))) }}
            )),
            .footer(.class("toolbar"), .p(.text("\\(items.count) items")))
        )
    ).render()
}}
'''


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else ".build"
    args = module_arguments(os.path.join(build, "release.yaml"))
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:  # the driver leaves a diagnostics file in its working folder
        run = subprocess.run(args + ["-typecheck", "-Xfrontend", "-debug-time-function-bodies"], capture_output=True, text=True, cwd=folder)
    elapsed = time.monotonic() - start
    if run.returncode != 0:
        sys.exit("render-typecheck: the type-check failed:\n" + run.stderr[-3000:])
    times = list(function_times(run.stdout + run.stderr))
    print("## Type-checking time (swiftc -typecheck -debug-time-function-bodies, PocketBench's release arguments)")
    print(f"whole PocketBench module: {elapsed:.1f} s wall, of which function bodies {sum(t[0] for t in times):.0f} ms")
    for name in FILES:
        mine = [t for t in times if t[1] == name]
        if not mine:
            continue
        slowest = max(mine)
        function = re.sub(r"@.*$", "", slowest[3]).replace("PocketBench.(file).", "")
        print(f"{name}: {sum(t[0] for t in mine):.0f} ms in {len(mine)} functions; slowest {slowest[0]:.0f} ms, line {slowest[2]} ({function})")

    modules = next(args[i + 1] for i, a in enumerate(args) if a == "-I")
    print("one Plot expression (typed attributes, interpolation, ternaries, closures), type-checked alone:")
    with tempfile.TemporaryDirectory() as folder:
        for cells in (4, 8, 16, 24):
            path = os.path.join(folder, f"stress{cells}.swift")
            source = stress_page(cells)
            open(path, "w", encoding="utf-8").write(source)
            calls = len(re.findall(r"\.[a-z]+\(", source))
            run = subprocess.run(["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, path,
                                  "-Xfrontend", "-debug-time-function-bodies"], capture_output=True, text=True, cwd=folder)
            page = [t for t in function_times(run.stdout + run.stderr) if "page(" in t[3]]
            result = f"{page[0][0]:.0f} ms" if run.returncode == 0 and page else "failed: " + run.stderr.strip()[-200:]
            print(f"  {calls} DSL calls in one expression: {result}")


if __name__ == "__main__":
    main()
