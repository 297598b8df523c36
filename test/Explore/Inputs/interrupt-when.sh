#!/usr/bin/env bash
# Runs COMMAND in the background, its stderr into ERRFILE, and sends it
# SIGINT (Ctrl-C) once ERRFILE shows PATTERN (at most 120 s later), so a
# test interrupts at a chosen step however loaded the machine is; exits
# with COMMAND's status.
#   interrupt-when.sh PATTERN ERRFILE COMMAND...
pattern=$1 err=$2
shift 2
"$@" 2> "$err" &
pid=$!
for ((i = 0; i < 1200; i++)); do
  grep -q "$pattern" "$err" 2> /dev/null && break
  kill -0 "$pid" 2> /dev/null || break
  sleep 0.1
done
kill -INT "$pid" 2> /dev/null
wait "$pid"
