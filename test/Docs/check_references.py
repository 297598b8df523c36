#!/usr/bin/env python3
"""Checks that the project's docs and sources stand alone.

    check_references.py REPO_ROOT

Scans the README, docs/ and every source, build and test file for
  - a mention of a design document or folder outside the repository (the
    project's docs must not send readers there), and
  - a repository path with a file extension (`docs/Explore.md`,
    `lib/Runner/WeightArguments.h`, `test/Codegen/CPU/x.mlir`, ...) that
    names no file in the repository.
Prints one line per finding and exits 1 if there is any.
"""

import os
import re
import sys

SCANNED_DIRS = ["docs", "include", "lib", "tools", "test", "unittests",
                "bench", "scripts", "examples", "cmake", ".ci"]
SCANNED_FILES = ["README.md", "CMakeLists.txt"]
SUFFIXES = (".md", ".h", ".cpp", ".td", ".txt", ".py", ".sh", ".mlir",
            ".test", ".js", ".cfg", ".in", ".cmake", "run")
SKIPPED_DIRS = {"node_modules", "__pycache__", "Inputs"}
# Names the project must not point at: documents that are not part of it.
OUTSIDE = re.compile(r"DESIGN\.md|\.\./shared\b")
ROOTS = ("docs", "include", "lib", "tools", "test", "unittests", "bench",
         "scripts", "examples")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*\w\.(?:md|h|cpp|td|py|sh|mlir|test|js))(?![\w/])"
                  % "|".join(ROOTS))


def files(root):
    for name in SCANNED_FILES:
        path = os.path.join(root, name)
        if os.path.isfile(path):
            yield path
    for top in SCANNED_DIRS:
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
            for name in names:
                if name.endswith(SUFFIXES):
                    yield os.path.join(folder, name)


def main():
    root = os.path.abspath(sys.argv[1])
    # This folder (the checker and its test) names broken references on
    # purpose.
    own = os.path.dirname(os.path.abspath(__file__))
    findings = []
    for path in files(root):
        if os.path.dirname(os.path.abspath(path)) == own:
            continue
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if OUTSIDE.search(line):
                    findings.append(f"{rel}:{number}: refers to a document "
                                    f"outside the repository: {line.strip()}")
                for match in PATH.finditer(line):
                    target = match.group(1)
                    if "*" in target or "<" in target:
                        continue
                    if not os.path.exists(os.path.join(root, target)):
                        findings.append(f"{rel}:{number}: {target} does not "
                                        f"exist")
    for finding in findings:
        print(finding)
    print(f"{len(findings)} broken references")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
