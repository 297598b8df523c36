# -*- Python -*-
import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "GOPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gopt_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "lib", "Inputs"]

config.substitutions.append(("%examples", os.path.join(config.gopt_src_root, "examples")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# FileCheck, not and count come from Debian's LLVM 22 (there is no llvm-lit).
tool_dirs = [config.gopt_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["gopt-opt", "gopt-run", "gopt-import-onnx", "gopt-gen-graph", "gopt-difftest", "gopt-bisect", "gopt-explore", "gopt-probe-target", "gopt-capi-test", "gopt-exec", "gopt-fuzz-npy", "gopt-fuzz-gopt-ir", "gopt-fuzz-onnx", "gopt-fuzz-manifests"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.gopt_tools_dir, append_path=True)
# gopt-explore's default compile cache lives under XDG_CACHE_HOME: keep the
# tests' entries in the build tree, not in the user's home.
llvm_config.with_environment(
    "XDG_CACHE_HOME", os.path.join(config.gopt_obj_root, "test", "cache"))

# The stock mlir-opt of the LLVM GOpt builds with, and GOpt as its plugin
# (test/Plugin).
config.substitutions.append(
    ("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(
    ("%gopt_plugin", os.path.join(config.gopt_obj_root, "lib", "GOptPlugin.so")))

# JIT integration tests (test/Integration/CPU): mlir-runner with the upstream
# runner utilities (printMemref*) and GOpt's test allocation hooks.
config.substitutions.append(
    ("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")))
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
runner_libs = [
    os.path.join(llvm_lib_dir, "libmlir_runner_utils.so"),
    os.path.join(llvm_lib_dir, "libmlir_c_runner_utils.so"),
    os.path.join(config.gopt_obj_root, "lib", "libgopt_test_alloc.so"),
]
config.substitutions.append(("%runner_libs", ",".join(runner_libs)))
config.substitutions.append(
    ("%allclose", sys.executable + " " + os.path.join(
        config.test_source_root, "Integration", "CPU", "Inputs", "allclose.py")))


# The ONNX import tests generate their models with python3-onnx (and the
# real-model tests with python3-torch); Debian installs them for
# /usr/bin/python3, which may not be the python running lit. Tests that need
# them say `REQUIRES: onnx` / `REQUIRES: torch` and are skipped without them.
# GOPT_TEST_PYTHON names the one interpreter to probe (to test the skips).
def find_python(modules):
    candidates = [sys.executable, "/usr/bin/python3"]
    if os.environ.get("GOPT_TEST_PYTHON"):
        candidates = [os.environ["GOPT_TEST_PYTHON"]]
    for exe in dict.fromkeys(candidates):
        probe = subprocess.run([exe, "-c", "import " + ", ".join(modules)],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        if probe.returncode == 0:
            return exe
    return None


onnx_python = find_python(["onnx", "numpy"])
if onnx_python:
    config.available_features.add("onnx")
    torch_python = find_python(["onnx", "numpy", "torch", "torchvision"])
    if torch_python == onnx_python:
        config.available_features.add("torch")
config.substitutions.append(("%python", onnx_python or "false"))
config.substitutions.append(("%gopt_bin", config.gopt_tools_dir))

# test/Install builds a downstream project against the installed package.
for tool in ("cmake", "ninja"):
    if shutil.which(tool):
        config.available_features.add(tool)
config.substitutions.append(("%gopt_obj_root", config.gopt_obj_root))
# The CUDA driver's stand-in (unittests/Runtime/FakeCUDADriver.cpp): GPU
# host code runs over it on machines with no GPU (its kernels run nothing).
config.substitutions.append(
    ("%fake_cuda_driver",
     os.path.join(config.gopt_obj_root, "lib", "libgopt-fake-cuda-driver.so")))

# A sanitizer build (scripts/test.sh --sanitize): tests that load GOpt's
# instrumented code into an uninstrumented process (the stock mlir-opt with
# the plugin, a downstream project built without the sanitizers) say
# `UNSUPPORTED: sanitize`. Leaks are not checked: MLIR and LLVM keep
# process-lifetime allocations on purpose.
if config.gopt_sanitize.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitize")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

# The docs' reference check (test/Docs) needs only the python running lit.
config.substitutions.append(("%sys_python", sys.executable))
config.substitutions.append(("%gopt_src_root", config.gopt_src_root))

# GPU lowering tests assemble cubins with the CUDA toolkit's ptxas when one
# is there, found as gopt-lower-to-nvvm finds it (findCUDAToolkit): the first
# of $CUDA_HOME, $CUDA_ROOT, $CUDA_PATH, the folder above the real path of the
# ptxas on PATH, and /usr/local/cuda that has both bin/ptxas and libdevice.
# `%if ptxas` runs them then.
def is_complete_cuda_toolkit(root):
    return bool(root) and os.access(
        os.path.join(root, "bin", "ptxas"), os.X_OK
    ) and os.path.isfile(os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc"))


def find_cuda_toolkit():
    candidates = [os.environ.get(n) for n in ("CUDA_HOME", "CUDA_ROOT", "CUDA_PATH")]
    ptxas = shutil.which("ptxas")
    if ptxas:
        candidates.append(os.path.dirname(os.path.dirname(os.path.realpath(ptxas))))
    candidates.append("/usr/local/cuda")
    return next((c for c in candidates if is_complete_cuda_toolkit(c)), None)


if find_cuda_toolkit():
    config.available_features.add("ptxas")

# scripts/test.sh passes `--param gopt_require_features=onnx,torch,...`:
# the features whose packages scripts/setup.sh installs. A machine where one
# is missing after set-up is broken, and its tests must not pass as merely
# skipped.
required = [f for f in lit_config.params.get("gopt_require_features", "").split(",") if f]
missing = [f for f in required if f not in config.available_features]
if missing:
    lit_config.fatal(
        "test dependencies missing after scripts/setup.sh: %s (present: %s; "
        "onnx/torch: python3-onnx, python3-numpy, python3-torch, "
        "python3-torchvision for %s; cmake/ninja: cmake, ninja-build)"
        % (", ".join(missing), ", ".join(sorted(config.available_features & set(required)) or ["none"]),
           os.environ.get("GOPT_TEST_PYTHON", "/usr/bin/python3")))

# Tests that run GPU code need a usable device: gopt-exec --probe says.
gopt_exec = os.path.join(config.gopt_tools_dir, "gopt-exec")
if os.path.exists(gopt_exec) and subprocess.run(
        [gopt_exec, "--probe"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("cuda-device")
