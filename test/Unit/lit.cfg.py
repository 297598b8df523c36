# -*- Python -*-
# Runs the GoogleTest binaries through lit, so one check-gopt counts all tests.
import os

import lit.formats

config.name = "GOPT-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.gopt_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

# A sanitizer build: the same settings as the lit suite's (test/lit.cfg.py).
if config.gopt_sanitize.upper() in ("ON", "1", "TRUE", "YES"):
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
