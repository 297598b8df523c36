#!/usr/bin/env python3
"""Checks docs/Errors.md against the tests it names.

Every table row is `| bad input | `message` | `test` |`: the test file must
exist and contain the message, whose `…` stands for a varying part (each
piece between them must appear, in order). Prints one line per broken row
and "N errors checked, M broken".
"""
import os
import sys


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def unquote(cell):
    for fence in ("`` ", "`"):
        if cell.startswith(fence) and cell.endswith(fence[::-1]):
            return cell[len(fence):len(cell) - len(fence)]
    return cell


def main(root, doc="docs/Errors.md"):
    checked = broken = 0
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.startswith("| ") or line.startswith("|---"):
                continue
            row = cells(line)
            if len(row) != 3 or row[0] == "bad input":
                continue
            message, test = unquote(row[1]), unquote(row[2])
            checked += 1
            path = os.path.join(root, test)
            if not os.path.isfile(path):
                print(f"{doc}:{number}: {test} does not exist")
                broken += 1
                continue
            with open(path, encoding="utf-8", errors="replace") as t:
                text = t.read()
            position = 0
            for piece in (p.strip() for p in message.split("…")):
                if not piece:
                    continue
                found = text.find(piece, position)
                if found < 0:
                    print(f"{doc}:{number}: {test} does not contain {piece!r}")
                    broken += 1
                    break
                position = found + len(piece)
    print(f"{checked} errors checked, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
