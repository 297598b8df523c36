# -*- Python -*-
# Runs the GoogleTest binaries through lit, so one check-gopt counts all tests.
import os

import lit.formats

config.name = "GOPT-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.gopt_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
