"""Runs N copies of a command at once, '{i}' in its arguments replaced by the
copy's number; prints each copy's exit status and exits 1 unless all are 0.

  run_concurrently.py N -- COMMAND ARGS...
"""
import subprocess
import sys

count = int(sys.argv[1])
command = sys.argv[sys.argv.index("--") + 1:]
procs = [subprocess.Popen([a.replace("{i}", str(i)) for a in command])
         for i in range(count)]
codes = [p.wait() for p in procs]
for i, code in enumerate(codes):
    print(f"copy {i}: exit {code}")
sys.exit(0 if all(c == 0 for c in codes) else 1)
