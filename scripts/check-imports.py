#!/usr/bin/env python3
"""Fails when a target imports a module it does not declare in Package.swift.

SwiftPM's `--explicit-target-dependency-import-check error` (which scripts/test.sh also passes)
checks nothing on Linux with Swift 6.3: a module that only arrives through another dependency
still builds. This reads every target's `import` lines and compares them with its declared
dependencies from `swift package dump-package`, so a transitive import is caught here.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Modules of the toolchain and the C library: never declared.
SYSTEM = {"Foundation", "FoundationXML", "FoundationNetworking", "FoundationEssentials", "Dispatch", "Glibc", "Darwin",
          "Musl", "Synchronization", "Testing", "XCTest", "_Concurrency", "os", "Observation", "RegexBuilder"}
IMPORT = re.compile(r"^(?:@testable\s+|@_exported\s+|(?:public|internal|package|private|fileprivate)\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def main() -> int:
    dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                     capture_output=True, text=True).stdout)
    problems = []
    for target in dump["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        declared = {target["name"]}
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            declared.add(value[0])
        default = {"test": "Tests", "executable": "Sources"}.get(target["type"], "Sources")
        folder = ROOT / (target.get("path") or f"{default}/{target['name']}")
        for source in sorted(folder.rglob("*.swift")):
            for module in IMPORT.findall(source.read_text(encoding="utf-8")):
                if module not in declared and module not in SYSTEM:
                    problems.append(f"{source.relative_to(ROOT)}: imports {module}, which target {target['name']} does not declare")
    for problem in problems:
        print(f"pocket: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
