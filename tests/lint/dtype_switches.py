#!/usr/bin/env python3
"""Every switch over an element type names every row of dtypes.def.

A `default:` in a switch over MtDtype (or MtDtypeClass) would quietly take
a new dtype row down the path meant for the others (docs/architecture.md,
"Switches over dtypes"). The whole tree is not built with -Wswitch-enum
(its switches over node kinds and opcodes use `default:` on purpose), so
this test compiles every C and C++ file of the build, syntax only, with
-Wswitch-enum, and fails on each warning about an MT_DT_ or MT_DC_
enumerator: list the cases (MT_DTYPE_COUNT too) instead of `default:`.

usage: dtype_switches.py BUILD_DIR/compile_commands.json
"""
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

ENUMERATOR = re.compile(r"'(MT_D[TC]_\w+|MT_DTYPE_COUNT)'")
PLACE = re.compile(r"^(.*?):(\d+):\d+: warning: ")


def syntax_command(entry):
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a not in ("-c", "-Werror") and not a.startswith("-Werror="):
            out.append(a)
    return out + ["-fsyntax-only", "-Wswitch-enum", "-Wno-error"]


def check(entry):
    env = dict(os.environ, LC_ALL="C")
    r = subprocess.run(syntax_command(entry), cwd=entry["directory"], env=env,
                       capture_output=True, text=True)
    found = {}
    for line in r.stderr.splitlines():
        m = PLACE.match(line)
        if not m or "-Wswitch-enum" not in line:
            continue
        names = ENUMERATOR.findall(line)
        if names:
            found.setdefault((m.group(1), int(m.group(2))), []).extend(names)
    return entry["file"], r.returncode, r.stderr if r.returncode else "", found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        entries = [e for e in json.load(f) if re.search(r"\.(c|cc|cpp)$", e["file"])]
    if not entries:
        sys.exit(f"{sys.argv[1]}: no C or C++ files")
    bad = {}
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, rc, err, found in pool.map(check, entries):
            if rc:
                failed += 1
                print(f"{path}: the compiler failed (exit {rc}):\n{err}", file=sys.stderr)
            bad.update(found)
    for (path, line), names in sorted(bad.items()):
        uniq = sorted(set(names))
        print(f"{path}:{line}: a switch over a dtype leaves out {', '.join(uniq)}: "
              "name every case (MT_DTYPE_COUNT included) instead of `default:`")
    print(f"{len(entries)} files, {len(bad)} dtype switches without every case")
    return 1 if bad or failed else 0


if __name__ == "__main__":
    sys.exit(main())
