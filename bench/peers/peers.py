#!/usr/bin/python3
"""GOpt side by side with ONNX Runtime and PyTorch on real models.

    peers.py [--models-dir DIR | --export [DIR]] [--models a,b] [--threads N]
             [--rounds R] [--runs-per-round K] [--warmup W]
             [--gopt-bin build/bin] [--gopt-pipeline NAME=PIPELINE ...]
             [--compile-samples N] [--markdown out.md] [--json out.json]

For each model (NAME.onnx, NAME.input.npy, NAME.torch.npy, written by
export_models.py) the contenders are:

  GOpt     one `gopt-run --serve` worker per configuration (no graph
           pass, --pipeline=gopt-optimize and every --gopt-pipeline
           NAME=PIPELINE), each importing the .onnx itself (builds before
           gopt-run read ONNX: gopt-import-onnx once, first); each
           worker fills a fresh compile cache (--cache-dir) that one more
           gopt-run then loads from: the compile of a model run before
  ORT      one node process (ort_worker.js, onnxruntime-node) holding one
           InferenceSession per graph optimization level
  torch    torch_worker.py: the exported torch.nn.Module, eager
  ORT's graph on GOpt's backend
           ort_optimize.js saves the graph ORT runs at each
           --ort-graph-levels level (default basic), GOpt imports it and
           runs it without graph passes: what ORT's graph rewrites buy on
           GOpt's code, beside what GOpt's passes buy (its S)

All start one after another (so compile and session times are measured on an
otherwise idle process set), their first outputs are compared with torch's
(NAME.torch.npy), the compile times of GOpt gopt-optimize (a fresh process's
first compile and a warm process's, and from its cache) and of ORT's `all`
session (a fresh process's first and a warm process's) are sampled
--compile-samples times (fresh processes, in turn), each warms up W runs, then R rounds follow in which every
contender runs K times, the order rotated by one each round. Every worker
times its own runs and answers over a line protocol (docs/Benchmarks.md).
The report is a Markdown table on stdout (and in --markdown), then summary
lines and geometric means; --json writes every sample.
"""

import argparse
import collections
import datetime
import functools
import json
import math
import os
import platform
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

SYSTEM_PYTHON = "/usr/bin/python3"

try:
    import numpy as np
except ImportError:  # e.g. a pyenv python3 first on PATH: use Debian's
    if os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON) \
            and os.path.exists(SYSTEM_PYTHON):
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    raise

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MODELS_DIR = os.path.join(ROOT, "build", "peers-models")
ORT_LEVELS = ("disabled", "basic", "extended", "all")
WIDTH = 100


class WorkerError(Exception):
    """A worker failed to start, crashed or answered with an error."""


# Every live worker, so that exit paths (Ctrl-C included) can end them.
WORKERS = set()


class Worker:
    """A child process speaking a line protocol on stdin/stdout.

    It prints one JSON line {"ready": true, ...} when it is ready, then
    answers every command line with one JSON line. Lines on stdout that are
    not JSON objects are ignored; stderr is kept (its last lines) to explain
    a failure.
    """

    def __init__(self, label, argv, env=None):
        self.label = label
        self.argv = argv
        self.stderr_tail = collections.deque(maxlen=40)
        self._lines = queue.Queue()
        # A session of its own: Ctrl-C reaches the driver only, which then
        # ends the worker itself (close()).
        self.started = time.perf_counter()
        self.ready_ms = None
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1, env=env,
            start_new_session=True)
        WORKERS.add(self)
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    def _pump_stdout(self):
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _pump_stderr(self):
        for line in self.proc.stderr:
            if line.strip():
                self.stderr_tail.append(line.rstrip())

    def reason(self):
        """Why the worker stopped: its error line, else its exit status."""
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        time.sleep(0.05)  # let the stderr pump catch up
        tail = list(self.stderr_tail)
        for line in reversed(tail):
            if "error" in line.lower():
                return line.strip()
        if tail:
            return tail[-1].strip()
        rc = self.proc.returncode
        if rc is None:
            return "no answer"
        if rc < 0:
            try:
                return f"killed by {signal.Signals(-rc).name}"
            except ValueError:
                return f"killed by signal {-rc}"
        return f"exited with status {rc}"

    def read_json(self, timeout):
        """The next JSON object the worker prints; WorkerError on EOF."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise WorkerError(f"no answer within {timeout:.0f} s")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise WorkerError(self.reason())
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue

    def wait_ready(self, timeout):
        """Waits for the ready line and returns it."""
        msg = self.read_json(timeout)
        if not msg.get("ready"):
            raise WorkerError(f"unexpected first line {json.dumps(msg)}")
        self.ready_ms = (time.perf_counter() - self.started) * 1e3
        return msg

    def request(self, command, timeout):
        """Sends one command line and returns the JSON answer."""
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise WorkerError(self.reason()) from None
        msg = self.read_json(timeout)
        if "error" in msg:
            raise WorkerError(str(msg["error"]))
        return msg

    def close(self):
        """Asks the worker to quit, then kills it if it does not."""
        WORKERS.discard(self)
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
            except (BrokenPipeError, OSError, ValueError):
                pass
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def close_all_workers():
    """Ends every worker still running."""
    for worker in list(WORKERS):
        try:
            worker.close()
        except Exception:  # noqa: BLE001 - best effort at exit
            try:
                worker.proc.kill()
            except OSError:
                pass


class Contender:
    """One timed configuration of one model: a worker and a run command."""

    def __init__(self, side, config, label):
        self.side = side          # "gopt", "ort" or "torch"
        self.config = config      # pipeline name, ORT level or "eager"
        self.label = label
        self.worker = None
        self.run_prefix = "run"   # the command is f"{run_prefix} {K}"
        self.output = None        # the .npy its first run wrote
        self.prepare_ms = None    # compile / session creation / module build
        self.detail = {}
        self.failed = None
        self.samples = []         # one list of K times per round
        self.check = None         # {"max_abs_err": e, "ok": bool}

    def fail(self, reason):
        """Marks the contender failed (the first reason is kept)."""
        if self.failed is None:
            self.failed = " ".join(str(reason).split()) or "failed"

    def times(self):
        """Every sample of every round, flat."""
        return [t for rnd in self.samples for t in rnd]

    def median(self):
        """Median over all samples, None without any."""
        t = self.times()
        return float(np.median(t)) if t and not self.failed else None

    def iqr(self):
        """(first quartile, third quartile) over all samples."""
        t = self.times()
        return (float(np.percentile(t, 25)), float(np.percentile(t, 75))) \
            if t else (None, None)


def log(message, end="\n"):
    """Progress on stderr."""
    sys.stderr.write(message + end)
    sys.stderr.flush()


def resolve_models(models, batches, python):
    """Full model names for --models/--batch, by asking export_models.py."""
    cmd = [python, os.path.join(HERE, "export_models.py"), "--list"]
    if models:
        cmd += ["--models", models]
    if batches:
        cmd += ["--batch", batches]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        sys.exit("peers.py: " + (lines[-1].split("error: ", 1)[-1] if lines
                                 else "export_models.py --list failed"))
    return [n for n in proc.stdout.split() if n]


def machine_info():
    """CPU model, core count, load average and kernel."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    return {"cpu": cpu, "cores": os.cpu_count(), "load_avg_1min": load,
            "kernel": platform.release()}


def openblas_core():
    """The kernel set OpenBLAS picks on this machine (GOpt's and torch's
    BLAS), or None."""
    try:
        import ctypes
        lib = ctypes.CDLL("libopenblas.so.0")
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return lib.openblas_get_corename().decode()
    except (OSError, AttributeError):
        return None


def command_output(argv):
    """stdout of a short command, stripped, or None."""
    try:
        return subprocess.run(argv, capture_output=True, text=True,
                              timeout=20).stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        return None


def last_error_line(text):
    """The most telling line of a tool's stderr."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if "error" in line.lower():
            return line
    return lines[-1] if lines else ""


# --- starting the contenders -------------------------------------------


def start_worker(c, argv, env, timeout):
    """Starts contender c's worker and waits for its ready line.

    Returns the ready line, or None after marking c failed (the worker, if
    it started, is closed)."""
    try:
        c.worker = Worker(c.label, argv, env)
        return c.worker.wait_ready(timeout)
    except (WorkerError, OSError) as e:
        c.fail(e)
        if c.worker:
            c.worker.close()
            c.worker = None
        return None


@functools.lru_cache(maxsize=None)
def tool_help(tool):
    """The --help text of a GOpt tool ('' when it cannot be run): what an
    older build (--gopt-bin) lacks shows there."""
    try:
        proc = subprocess.run([tool, "--help"], capture_output=True,
                              text=True, timeout=60)
    except (subprocess.TimeoutExpired, OSError):
        return ""
    return proc.stdout


def importer_writes_bytecode(importer):
    """Whether this gopt-import-onnx has --emit-bytecode (weights as raw
    bytes: half the file, no parse when gopt-run reads it); builds before
    it write text."""
    return "--emit-bytecode" in tool_help(importer)


def runner_reads_onnx(runner):
    """Whether this gopt-run takes an .onnx model itself (imported in the
    process and timed as part of its compile); builds before it take the
    importer's output."""
    return "model.onnx" in tool_help(runner)


def runner_caches(runner):
    """Whether this gopt-run has --cache-dir (a compile cache it loads
    programs from); builds before it compile every time."""
    return "--cache-dir" in tool_help(runner)


def gopt_model(args, onnx, mlir):
    """What gopt-run is given for onnx: the model itself when it reads
    ONNX, else the importer's output written to mlir. (path, import
    milliseconds outside gopt-run, None) or (None, None, why)."""
    if runner_reads_onnx(os.path.join(args.gopt_bin, "gopt-run")):
        return onnx, 0.0, None
    import_ms, why = import_onnx(args, onnx, mlir)
    return (None, None, why) if why else (mlir, import_ms, None)


def import_onnx(args, onnx, mlir):
    """gopt-import-onnx onnx -o mlir (MLIR bytecode when the importer writes
    it): (milliseconds, None) or (None, why)."""
    importer = os.path.join(args.gopt_bin, "gopt-import-onnx")
    argv = [importer, onnx, "-o", mlir]
    if importer_writes_bytecode(importer):
        argv.append("--emit-bytecode")
    start = time.perf_counter()
    try:
        proc = subprocess.run(argv,
                              capture_output=True, text=True,
                              timeout=args.compile_timeout)
    except subprocess.TimeoutExpired:
        return None, f"import took over {args.compile_timeout} s"
    if proc.returncode != 0:
        return None, "import: " + (last_error_line(proc.stderr)
                                   or f"exit status {proc.returncode}")
    return (time.perf_counter() - start) * 1e3, None


def start_gopt_worker(args, c, mlir, pipeline, paths, env, import_ms,
                      cache_dir=None):
    """One gopt-run --serve of mlir (after the graph pipeline, if any).
    With cache_dir (a fresh folder), the worker's compile fills it and one
    more gopt-run loads the program from it: what the compile costs the
    second time a model is run (c.detail["cached_ms"])."""
    runner = os.path.join(args.gopt_bin, "gopt-run")
    argv = [runner, mlir]
    if pipeline:
        argv.append(f"--pipeline={pipeline}")
    argv += [f"--threads={args.threads}", "--kernel-timers=false",
             f"--inputs={paths['input']}"]
    cache = [f"--cache-dir={cache_dir}"] if cache_dir else []
    worker_argv = argv + cache + [f"--outputs={c.output}", "--serve"]
    log(f"  {c.label}: compiling")
    ready = start_worker(c, worker_argv, env, args.compile_timeout)
    if ready is None:
        return
    compile_ms = ready.get("compile_ms") or {}
    total = compile_ms.get("total")
    c.prepare_ms = import_ms + total if total is not None else None
    # A gopt-run that imports the .onnx itself counts the import in total.
    c.detail = {"import_ms": import_ms + compile_ms.get("import", 0),
                "compile_ms": compile_ms,
                "kernels": ready.get("kernels"),
                "peak_bytes": ready.get("peak_bytes"),
                "pipeline": pipeline, "argv": worker_argv,
                "ready_wall_ms": c.worker.ready_ms}
    if cache_dir and not compile_ms.get("from_cache"):
        c.detail["cached_ms"] = cached_compile_ms(args, argv + cache, env,
                                                  import_ms)


def gopt_run_json(args, argv, env):
    """gopt-run argv run once (--reps=1 --warmup=0 --format=json): (the
    process, None if it could not be started or timed out; its JSON
    report, None unless it succeeded)."""
    try:
        proc = subprocess.run(argv + ["--reps=1", "--warmup=0",
                                      "--format=json"],
                              capture_output=True, text=True, env=env,
                              timeout=args.compile_timeout)
    except (subprocess.TimeoutExpired, OSError):
        return None, None
    try:
        return proc, (json.loads(proc.stdout) if proc.returncode == 0
                      else None)
    except ValueError:
        return proc, None


def cached_compile_ms(args, argv, env, outside_ms):
    """The compile of argv's program once its cache holds it (import, graph
    passes, loading: compile_ms.wall, plus an import done outside gopt-run),
    or None when the run fails or does not load from the cache."""
    _, out = gopt_run_json(args, argv, env)
    compile_ms = (out or {}).get("compile_ms") or {}
    if not compile_ms.get("from_cache"):
        return None
    return outside_ms + compile_ms["wall"]


def gopt_tools_missing(args):
    """The first GOpt tool that is not built, or None."""
    for tool in ("gopt-import-onnx", "gopt-run"):
        path = os.path.join(args.gopt_bin, tool)
        if not os.access(path, os.X_OK):
            return f"{path} not found (build GOpt first)"
    return None


def start_gopt(args, name, paths, work, env, configs):
    """Imports the model and starts one gopt-run --serve per configuration."""
    contenders = [Contender("gopt", cfg, f"GOpt {cfg}") for cfg, _ in configs]
    missing = gopt_tools_missing(args)
    if missing:
        for c in contenders:
            c.fail(missing)
        return contenders
    log(f"  GOpt: importing {name}.onnx")
    model, import_ms, why = gopt_model(args, paths["onnx"],
                                       os.path.join(work, name + ".mlir"))
    if why:
        for c in contenders:
            c.fail(why)
        return contenders
    caches = runner_caches(os.path.join(args.gopt_bin, "gopt-run"))
    for c, (cfg, pipeline) in zip(contenders, configs):
        c.output = os.path.join(work, f"{name}.gopt.{cfg}.npy")
        cache_dir = os.path.join(work, f"{name}.gopt-cache.{cfg}") \
            if caches else None
        start_gopt_worker(args, c, model, pipeline, paths, env, import_ms,
                          cache_dir)
    return contenders


def start_ort_graphs(args, name, paths, work, env):
    """ORT's optimized graph at each --ort-graph-levels level, saved by
    ort_optimize.js, imported into GOpt and served without graph passes.
    Compile ms: GOpt's import and compile (ORT's optimization not
    included)."""
    contenders = [Contender("ort-graph", lvl, f"GOpt on ORT-{lvl} graph")
                  for lvl in args.ort_graph_levels]
    missing = gopt_tools_missing(args)
    for c in contenders:
        if missing:
            c.fail(missing)
            continue
        onnx = os.path.join(work, f"{name}.ort-{c.config}.onnx")
        log(f"  ORT: saving its {c.config}-level graph")
        try:
            proc = subprocess.run(
                [args.node, os.path.join(HERE, "ort_optimize.js"),
                 paths["onnx"], c.config, onnx],
                capture_output=True, text=True, timeout=args.compile_timeout)
        except (subprocess.TimeoutExpired, OSError) as e:
            c.fail(f"ort_optimize.js: {e}")
            continue
        if proc.returncode != 0:
            c.fail(last_error_line(proc.stderr)
                   or f"ort_optimize.js: exit status {proc.returncode}")
            continue
        model, import_ms, why = gopt_model(
            args, onnx, os.path.join(work, f"{name}.ort-{c.config}.mlir"))
        if why:
            c.fail(why)
            continue
        c.output = os.path.join(work, f"{name}.ort-graph.{c.config}.npy")
        start_gopt_worker(args, c, model, None, paths, env, import_ms)
    return contenders


def start_ort(args, name, paths, work, levels, versions):
    """Starts the ORT worker: one session per level."""
    contenders = [Contender("ort", lvl, f"ORT {lvl}") for lvl in levels]
    prefix = os.path.join(work, f"{name}.ort")
    argv = [args.node, os.path.join(HERE, "ort_worker.js"), paths["onnx"],
            paths["input"], prefix, f"--threads={args.threads}",
            f"--levels={','.join(levels)}"]
    if args.threads > 1 and args.wait_policy == "passive":
        argv.append("--no-spin")
    log(f"  ORT: creating sessions ({', '.join(levels)})")
    worker = None
    try:
        worker = Worker("ORT", argv)
        ready = worker.wait_ready(args.compile_timeout)
    except (WorkerError, OSError) as e:
        for c in contenders:
            c.fail(e)
        if worker:
            worker.close()
        return contenders, None
    versions["onnxruntime"] = ready.get("version")
    failed = ready.get("failed") or {}
    for c in contenders:
        if c.config in failed:
            c.fail(failed[c.config])
            continue
        c.worker = worker
        c.run_prefix = f"run {c.config}"
        c.output = f"{prefix}.{c.config}.npy"
        c.prepare_ms = (ready.get("session_ms") or {}).get(c.config)
        c.detail = {"ready_wall_ms": worker.ready_ms}
    return contenders, worker


def start_torch(args, name, paths, work, env, versions):
    """Starts the torch eager worker."""
    c = Contender("torch", "eager", "torch eager")
    c.output = os.path.join(work, f"{name}.torch-eager.npy")
    argv = [args.python, os.path.join(HERE, "torch_worker.py"), name,
            paths["input"], c.output, "--threads", str(args.threads)]
    log("  torch: building the module")
    ready = start_worker(c, argv, env, args.compile_timeout)
    if ready is None:
        return c
    versions["torch"] = ready.get("version")
    c.detail = {"build_ms": ready.get("build_ms"),
                "ready_wall_ms": c.worker.ready_ms}
    return c


def check_outputs(contenders, want, rtol, atol):
    """Compares each contender's first output with torch's."""
    for c in contenders:
        if c.failed or not c.output:
            continue
        try:
            got = np.load(c.output)
        except (OSError, ValueError) as e:
            c.check = {"ok": False, "max_abs_err": None,
                       "note": f"cannot read output: {e}"}
            continue
        if got.shape != want.shape:
            c.check = {"ok": False, "max_abs_err": None,
                       "note": f"shape {got.shape} vs torch {want.shape}"}
            continue
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        err = float(np.max(diff)) if diff.size else 0.0
        ok = bool(np.allclose(got, want, rtol=rtol, atol=atol))
        c.check = {"ok": ok, "max_abs_err": err}


def run_commands(c, n, timeout):
    """Asks c's worker for n runs; returns the times or marks c failed."""
    try:
        msg = c.worker.request(f"{c.run_prefix} {n}", timeout)
        times = [float(t) for t in msg.get("times_ms", [])]
        if len(times) != n:
            raise WorkerError(f"asked for {n} runs, got {len(times)} times")
        return times
    except WorkerError as e:
        c.fail(e)
        return None


def bench_model(args, index, total, name, configs, levels, versions):
    """Starts, checks, warms up and times every contender of one model."""
    log(f"[{index}/{total}] {name}")
    paths = {k: os.path.join(args.models_dir, name + ext) for k, ext in
             (("onnx", ".onnx"), ("input", ".input.npy"),
              ("torch", ".torch.npy"))}
    missing = [p for p in paths.values() if not os.path.exists(p)]
    if missing:
        log(f"  skipped: {missing[0]} is missing (export with --export)")
        return {"name": name, "skipped": f"{missing[0]} is missing",
                "contenders": []}
    work = tempfile.mkdtemp(prefix=name + ".", dir=args.work_dir)
    contenders, workers = [], []
    interrupted = False
    scale = None
    try:
        if "gopt" not in args.skip:
            contenders += start_gopt(args, name, paths, work, args.gopt_env,
                                     configs)
        if "ort" not in args.skip:
            ort, ort_worker = start_ort(args, name, paths, work, levels,
                                        versions)
            contenders += ort
            if ort_worker:
                workers.append(ort_worker)
        if not {"gopt", "ort"} & args.skip and args.ort_graph_levels:
            contenders += start_ort_graphs(args, name, paths, work,
                                           args.gopt_env)
        if "torch" not in args.skip:
            contenders.append(start_torch(args, name, paths, work,
                                          args.torch_env, versions))
        workers += [c.worker for c in contenders
                    if c.worker and c.worker not in workers]
        want = np.load(paths["torch"])
        scale = float(np.max(np.abs(want))) if want.size else 0.0
        check_outputs(contenders, want, args.rtol, args.atol)
        sample_compile_times(args, contenders, paths, work, args.gopt_env)

        live = [c for c in contenders if not c.failed]
        if args.warmup:
            log(f"  warm-up: {args.warmup} runs each")
            for c in live:
                run_commands(c, args.warmup, args.run_timeout)
        tty = sys.stderr.isatty()
        for r in range(args.rounds):
            live = [c for c in contenders if not c.failed]
            if not live:
                break
            shift = r % len(live)
            for c in live[shift:] + live[:shift]:
                if args.threads > 1 and args.settle_ms > 0:
                    # The previous contender's idle threads stop spinning
                    # before this one is timed.
                    time.sleep(args.settle_ms / 1000)
                times = run_commands(c, args.runs_per_round, args.run_timeout)
                if times is not None:
                    c.samples.append(times)
            log(f"  round {r + 1}/{args.rounds}", end="\r" if tty else "\n")
        if tty:
            log("")
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for w in workers:
            w.close()
        if args.own_work_dir and not args.keep_work:
            shutil.rmtree(work, ignore_errors=True)
    return {"name": name, "contenders": contenders,
            "interrupted": interrupted, "torch_max_abs": scale}


# --- figures and report -----------------------------------------------


def best(contenders, side):
    """The fastest successful contender of a side, preferring those whose
    outputs match torch; None if none ran."""
    ran = [c for c in contenders if c.side == side and c.median() is not None]
    good = [c for c in ran if c.check and c.check["ok"]]
    pool = good or ran
    return min(pool, key=lambda c: c.median()) if pool else None


def ratio(a, b):
    """a.median / b.median or None."""
    if a is None or b is None or a.median() is None or b.median() is None:
        return None
    return a.median() / b.median()


def find(contenders, side, config):
    """The contender of side/config, or None."""
    for c in contenders:
        if c.side == side and c.config == config:
            return c
    return None


def model_figures(contenders):
    """Per-model ratios: GOpt best / ORT best, S of gopt-optimize, ORT S,
    S of ORT basic's graph on GOpt's backend, torch / ORT best."""
    ort_best = best(contenders, "ort")
    gopt_best = best(contenders, "gopt")
    return {
        "ort_best": ort_best.config if ort_best else None,
        "gopt_best": gopt_best.config if gopt_best else None,
        "gopt_best_vs_ort_best": ratio(gopt_best, ort_best),
        "gopt_optimize_speedup": ratio(find(contenders, "gopt", "no-passes"),
                                       find(contenders, "gopt",
                                            "gopt-optimize")),
        "ort_speedup": ratio(find(contenders, "ort", "disabled"),
                             find(contenders, "ort", "all")),
        "ort_basic_graph_on_gopt_speedup": ratio(
            find(contenders, "gopt", "no-passes"),
            find(contenders, "ort-graph", "basic")),
        "torch_vs_ort_best": ratio(find(contenders, "torch", "eager"),
                                   ort_best),
        **{pairing[0]: compile_ratio(contenders, pairing[0])
           for pairing in COMPILE_PAIRINGS},
        **{pairing[0] + "_range": compile_spread(contenders, pairing[0])
           for pairing in COMPILE_PAIRINGS},
    }


def gopt_cold_and_warm_ms(args, argv, env, outside_ms):
    """One gopt-run of argv with --warm-compiles=1: (its first compile, the
    process's cold one, dropped; its second, a warm process's), each
    import + compile plus an import done outside gopt-run; None for what
    failed. A gopt-run without --warm-compiles (an older build,
    --gopt-bin) gives the cold compile only."""
    proc, out = gopt_run_json(args, argv + ["--warm-compiles=1"], env)
    if out is None and proc is not None and "warm-compiles" in proc.stderr:
        _, out = gopt_run_json(args, argv, env)
        total = ((out or {}).get("compile_ms") or {}).get("total")
        return (outside_ms + total if total is not None else None), None
    if out is None:
        return None, None
    warm = (out.get("compile_ms") or {}).get("total")
    first = out.get("warm_up_compile_ms") or [{}]
    cold = first[0].get("total")
    return (outside_ms + cold if cold is not None else None,
            outside_ms + warm if warm is not None else None)


def ort_cold_and_warm_ms(args, ort_argv):
    """One ort_worker.js --levels=all --cold --twice: (the process's first
    all session, with ORT's environment set up; its second, the first
    released), ms, None for what failed."""
    try:
        proc = subprocess.run(ort_argv, input="", capture_output=True,
                              text=True, timeout=args.compile_timeout)
        ready = json.loads(proc.stdout.splitlines()[0]) if proc.stdout \
            else {}
    except (subprocess.TimeoutExpired, OSError, ValueError):
        return None, None
    return ((ready.get("first_session_ms") or {}).get("all") or None,
            (ready.get("session_ms") or {}).get("all") or None)


# The compile figures: (key, GOpt's samples, ORT's samples, words in the
# summary), each GOpt gopt-optimize's sample k over ORT all's sample k
# (sample_compile_times).
COMPILE_PAIRINGS = (
    ("gopt_cold_compile_vs_ort_cold_session", "cold", "cold",
     "fresh processes"),
    ("gopt_warm_compile_vs_ort_warm_session", "warm", "warm",
     "warm processes"),
    ("gopt_cached_load_vs_ort_cold_session", "cached", "cold",
     "GOpt from its compile cache"),
)


def sample_compile_times(args, contenders, paths, work, env):
    """--compile-samples N: the samples of the compile figures, one of each
    kind in turn (so that sample k of each was taken at about the same
    time: a VM's memory and load drift), each in fresh processes:
    gopt-run --warm-compiles=1 gives GOpt gopt-optimize's cold compile (a
    fresh process's first) and its warm one (the second, the first
    dropped); a gopt-run loads the program from the cache its worker
    filled (cached); ort_worker.js --levels=all --cold --twice gives ORT
    all's cold session (the process's first, ORT's environment set up in
    it) and its warm one (the second, the first released). A sample that
    failed is None."""
    gopt = find(contenders, "gopt", "gopt-optimize")
    ort = find(contenders, "ort", "all")
    if args.compile_samples < 1 or not gopt or gopt.failed or not ort \
            or ort.failed or gopt.prepare_ms is None:
        return
    worker_argv = gopt.detail["argv"]
    plain_argv = [a for a in worker_argv if a != "--serve" and not
                  a.startswith(("--outputs=", "--cache-dir="))]
    cache = [a for a in worker_argv if a.startswith("--cache-dir=")]
    outside_import_ms = gopt.detail.get("import_ms", 0) - \
        gopt.detail["compile_ms"].get("import", 0)
    mine = {"cold": [], "warm": [], "cached": []}
    theirs = {"cold": [], "warm": []}
    ort_argv = [args.node, os.path.join(HERE, "ort_worker.js"), paths["onnx"],
                paths["input"], os.path.join(work, "ort-sample"),
                f"--threads={args.threads}", "--levels=all", "--cold",
                "--twice"]
    if args.threads > 1 and args.wait_policy == "passive":
        ort_argv.append("--no-spin")
    for k in range(1, args.compile_samples + 1):
        log(f"  compile times: sample {k}/{args.compile_samples}")
        cold, warm = gopt_cold_and_warm_ms(args, plain_argv, env,
                                           outside_import_ms)
        mine["cold"].append(cold)
        mine["warm"].append(warm)
        mine["cached"].append(
            cached_compile_ms(args, plain_argv + cache, env,
                              outside_import_ms) if cache else None)
        cold, warm = ort_cold_and_warm_ms(args, ort_argv)
        theirs["cold"].append(cold)
        theirs["warm"].append(warm)
    gopt.detail["compile_samples_ms"] = mine
    ort.detail["session_samples_ms"] = theirs


def paired_compile_ratios(contenders, key):
    """The paired ratios of the compile figure `key` (COMPILE_PAIRINGS):
    GOpt gopt-optimize's sample k / ORT all's sample k, for every k both
    have; empty when the times were not sampled."""
    gopt = find(contenders, "gopt", "gopt-optimize")
    ort = find(contenders, "ort", "all")
    if not gopt or not ort:
        return []
    _, my_kind, their_kind, _ = next(p for p in COMPILE_PAIRINGS
                                     if p[0] == key)
    mine = ((gopt.detail or {}).get("compile_samples_ms") or {}).get(
        my_kind) or []
    theirs = ((ort.detail or {}).get("session_samples_ms") or {}).get(
        their_kind) or []
    return [a / b for a, b in zip(mine, theirs) if a and b]


def compile_ratio(contenders, key):
    """The median of the paired ratios of the compile figure `key`, or
    None when there is none."""
    paired = paired_compile_ratios(contenders, key)
    return float(np.median(paired)) if paired else None


def compile_spread(contenders, key):
    """[lowest, highest] paired ratio of the compile figure `key`, or None
    with fewer than two."""
    paired = paired_compile_ratios(contenders, key)
    return [min(paired), max(paired)] if len(paired) > 1 else None


def geomean(values):
    """Geometric mean of the positive values, None if there are none."""
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values)), \
        len(values)


def fmt_ms(x):
    """Milliseconds with three significant decimals where it matters."""
    if x is None:
        return "–"
    if x >= 100:
        return f"{x:.1f}"
    if x >= 10:
        return f"{x:.2f}"
    if x >= 1:
        return f"{x:.3f}"
    return f"{x:.4f}"


def fmt_ratio(x):
    """A ratio with two decimals, or a dash."""
    return "–" if x is None else f"{x:.2f}"


def cell(text):
    """Escapes a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def wrap(text, indent=""):
    """Wraps prose to WIDTH columns."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent,
                         break_on_hyphens=False, break_long_words=False)


def contender_row(name, c, ort_best, gopt_best):
    """One Markdown table row."""
    if c.failed:
        reason = c.failed if len(c.failed) <= 90 else c.failed[:87] + "..."
        timing = f"failed: {reason}"
        vs = "–"
    else:
        q1, q3 = c.iqr()
        timing = f"{fmt_ms(c.median())} [{fmt_ms(q1)}–{fmt_ms(q3)}]"
        vs = fmt_ratio(ratio(c, ort_best))
        if c is ort_best:
            vs += " (ORT best)"
        elif c is gopt_best:
            vs += " (GOpt best)"
    if c.side == "torch":
        build = c.detail.get("build_ms")
        prep = "eager" + (f" (build {build:.0f})" if build is not None else "")
    else:
        prep = fmt_ms(c.prepare_ms) if c.prepare_ms is not None else "–"
    if c.check is None:
        match = "–"
    elif c.check.get("max_abs_err") is None:
        match = "**NO** (" + c.check.get("note", "") + ")"
    else:
        match = ("yes" if c.check["ok"] else "**NO**") + \
            f" ({c.check['max_abs_err']:.1e})"
    return "| " + " | ".join(cell(x) for x in (
        name, c.label, timing, vs, prep, match)) + " |"


def gopt_detail_line(c):
    """'none 1234 ms = import 50 + passes 0 + ...; 47 kernels, peak 12 MiB'."""
    d = c.detail
    cm = d.get("compile_ms") or {}
    parts = [f"{label} {cm[key]:.0f}" for key, label in (
        ("graph_passes", "passes"), ("lowering", "lowering"),
        ("codegen", "codegen")) if cm.get(key) is not None]
    name = c.config if c.side == "gopt" else c.label
    # gopt-run's total includes an import it did itself.
    compile_total = cm.get("total")
    if compile_total is not None:
        compile_total -= cm.get("import", 0)
    text = (f"{name} {fmt_ms(c.prepare_ms)} ms: import "
            f"{d.get('import_ms', 0):.0f}, compile {fmt_ms(compile_total)} "
            f"({', '.join(parts)})")
    if d.get("cached_ms") is not None:
        text += f"; {fmt_ms(d['cached_ms'])} ms from the compile cache"
    if d.get("kernels") is not None:
        text += f"; {d['kernels']} kernels"
    if d.get("peak_bytes") is not None:
        text += f", peak {d['peak_bytes'] / 2**20:.1f} MiB"
    return text


def compile_summary(contenders, fig):
    """The compile figures in words, or None when they were not sampled."""
    gopt = find(contenders, "gopt", "gopt-optimize")
    ort = find(contenders, "ort", "all")
    if not gopt or not ort:
        return None
    mine = (gopt.detail or {}).get("compile_samples_ms") or {}
    theirs = (ort.detail or {}).get("session_samples_ms") or {}
    def median_ms(values):
        values = [x for x in values or [] if x is not None]
        return fmt_ms(float(np.median(values))) if values else "–"
    pieces, samples = [], 0
    for key, my_kind, their_kind, label in COMPILE_PAIRINGS:
        if fig.get(key) is None:
            continue
        samples = max(samples, len(paired_compile_ratios(contenders, key)))
        spread = fig.get(key + "_range")
        pieces.append(
            f"{label} {fmt_ratio(fig[key])}" +
            (f" [{fmt_ratio(spread[0])}, {fmt_ratio(spread[1])}]"
             if spread else "") +
            f" ({median_ms(mine.get(my_kind))} ms / "
            f"{median_ms(theirs.get(their_kind))} ms)")
    if not pieces:
        return None
    return ("GOpt gopt-optimize import + compile / ORT all session, median "
            f"[lowest, highest] of {samples} paired samples: " +
            ", ".join(pieces))


def summary_lines(name, contenders, fig):
    """The per-model summary, wrapped prose."""
    if not contenders:
        return []
    ort_best = find(contenders, "ort", fig["ort_best"]) \
        if fig["ort_best"] else None
    gopt_best = find(contenders, "gopt", fig["gopt_best"]) \
        if fig["gopt_best"] else None
    parts = []
    if gopt_best and ort_best:
        parts.append(f"GOpt best ({gopt_best.config}, "
                     f"{fmt_ms(gopt_best.median())} ms) takes "
                     f"{fmt_ratio(fig['gopt_best_vs_ort_best'])}× ORT best's "
                     f"time ({ort_best.config}, {fmt_ms(ort_best.median())} "
                     "ms)")
    elif ort_best:
        parts.append(f"ORT best {ort_best.config} "
                     f"{fmt_ms(ort_best.median())} ms; GOpt did not run")
    elif gopt_best:
        parts.append(f"GOpt best {gopt_best.config} "
                     f"{fmt_ms(gopt_best.median())} ms; ORT did not run")
    if fig["gopt_optimize_speedup"] is not None:
        parts.append(f"GOpt S (no-passes/gopt-optimize) = "
                     f"{fmt_ratio(fig['gopt_optimize_speedup'])}")
    if fig["ort_speedup"] is not None:
        parts.append(f"ORT S (disabled/all) = {fmt_ratio(fig['ort_speedup'])}")
    if fig["ort_basic_graph_on_gopt_speedup"] is not None:
        parts.append("ORT basic's graph on GOpt's backend: S (no-passes/"
                     "ORT-basic graph) = "
                     f"{fmt_ratio(fig['ort_basic_graph_on_gopt_speedup'])}")
    if fig["torch_vs_ort_best"] is not None:
        parts.append(f"torch/ORT best = "
                     f"{fmt_ratio(fig['torch_vs_ort_best'])}")
    compile_text = compile_summary(contenders, fig)
    if compile_text:
        parts.append(compile_text)
    for side, who in (("gopt", "GOpt"), ("ort", "ORT")):
        ran = [c for c in contenders if c.side == side and c.median()]
        if ran and not any(c.check and c.check["ok"] for c in ran):
            parts.append(f"no {who} configuration matches torch")
    lines = [wrap(f"- {name}: " + "; ".join(parts) + ".", "  ")]
    gopt = [c for c in contenders
            if c.side in ("gopt", "ort-graph") and c.detail]
    if gopt:
        lines.append(wrap("  GOpt compile: " + "; ".join(
            gopt_detail_line(c) for c in gopt) + ".", "    "))
    return lines


def header_lines(args, info, versions):
    """The run's header: machine, threads, versions, rounds."""
    load = info["load_avg_1min"]
    lines = [
        "# GOpt vs ONNX Runtime vs PyTorch (bench/peers)",
        "",
        wrap(f"Machine: {info['cpu']}, {info['cores']} cores, Linux "
             f"{info['kernel']}; load average {load:.2f} at the start."
             if load is not None else
             f"Machine: {info['cpu']}, {info['cores']} cores."),
        wrap(f"Threads: {args.threads} on every side — ORT "
             f"intraOpNumThreads={args.threads}, interOpNumThreads=1, "
             f"sequential; torch "
             f"set_num_threads({args.threads}); GOpt gopt-run "
             f"--threads={args.threads} (its library calls' and its "
             f"generated parallel loops' threads, one OpenMP pool)."),
    ]
    if args.threads > 1 and args.wait_policy == "passive":
        lines.append(wrap("Idle threads sleep on every side (OpenMP "
                          "OMP_WAIT_POLICY=PASSIVE for GOpt and torch, ORT "
                          "allow_spinning=0), so a waiting engine does not "
                          "take the cores from the one being timed."))
    elif args.threads > 1:
        lines.append(wrap(f"Idle threads wait as each engine's defaults say "
                          f"(they spin a little before they sleep, as in "
                          f"production); {args.settle_ms:g} ms pass between "
                          f"one contender's runs and the next one's, so "
                          f"spinning threads do not take the cores from the "
                          f"one being timed (--wait-policy=passive makes "
                          f"every pool sleep at once instead)."))
    vparts = [f"ONNX Runtime {versions.get('onnxruntime') or '?'} "
              f"(onnxruntime-node, Node {versions.get('node') or '?'})",
              f"torch {versions.get('torch') or '?'} (eager)",
              f"GOpt {versions.get('gopt') or '?'}"]
    if versions.get("openblas_core"):
        vparts.append(f"OpenBLAS kernels {versions['openblas_core']}")
    lines.append(wrap("Versions: " + ", ".join(vparts) + "."))
    lines.append(wrap(
        f"Timing: {args.warmup} warm-up runs, then {args.rounds} rounds × "
        f"{args.runs_per_round} runs per contender, order rotated each round; "
        f"each worker times its own runs. Median [IQR] over all "
        f"{args.rounds * args.runs_per_round} runs. \"vs ORT best\" is this "
        f"median / the fastest ORT level's (< 1: faster than ORT). Compile/"
        f"session ms, as each worker took it: GOpt import + compile (passes, "
        f"lowering, codegen) in a fresh process, ORT session creation after "
        f"an untimed session of the model; the compile figures below pair "
        f"samples taken alike (fresh processes, warm processes). Outputs "
        f"are checked against torch's "
        f"(rtol {args.rtol:g}, atol {args.atol:g}; max abs error in "
        f"parentheses)."))
    if args.ort_graph_levels and not {"gopt", "ort"} & args.skip:
        lines.append(wrap(
            "\"GOpt on ORT-LEVEL graph\": the graph ORT's optimizers leave "
            "at that level (saved with optimizedModelFilePath), imported "
            "into GOpt and run without GOpt's passes — ORT's graph rewrites "
            "on GOpt's backend, so both engines' passes are compared on one "
            "backend; its compile ms leave ORT's optimization out."))
    return lines


def report(args, info, versions, results):
    """The whole Markdown report as a string, and the figures dict."""
    lines = header_lines(args, info, versions)
    lines += ["", "| model | contender | median ms [IQR] | vs ORT best | "
              "compile/session ms | matches torch |",
              "|---|---|---|---|---|---|"]
    figures = {}
    for res in results:
        cs = res["contenders"]
        if res.get("skipped"):
            lines.append(f"| {cell(res['name'])} | – | skipped: "
                         f"{cell(res['skipped'])} | – | – | – |")
            continue
        fig = model_figures(cs)
        figures[res["name"]] = fig
        ob, gb = best(cs, "ort"), best(cs, "gopt")
        for c in cs:
            lines.append(contender_row(res["name"], c, ob, gb))
    lines += ["", "Per model:", ""]
    for res in results:
        if res["name"] in figures:
            lines += summary_lines(res["name"], res["contenders"],
                                   figures[res["name"]])
        if res.get("interrupted"):
            lines.append(f"  ({res['name']} was interrupted: partial data)")
        scale = res.get("torch_max_abs")
        if scale is not None and scale < 100 * args.atol:
            lines.append(wrap(f"  Note: torch's outputs are at most "
                              f"{scale:.1e} in magnitude, so the check at "
                              f"atol {args.atol:g} says little.", "    "))
    geo = {}
    lines += ["", "Geometric means over models:", ""]
    for key, label in (
            ("gopt_best_vs_ort_best", "GOpt best config / ORT best level "
                                      "(time)"),
            ("gopt_optimize_speedup", "GOpt S = no passes / gopt-optimize"),
            ("ort_speedup", "ORT S = disabled / all"),
            ("ort_basic_graph_on_gopt_speedup",
             "ORT basic's graph rewrites on GOpt's backend: S = GOpt "
             "no-passes / GOpt on ORT-basic graph"),
            ("torch_vs_ort_best", "torch eager / ORT best level (time)"),
            ("gopt_cold_compile_vs_ort_cold_session",
             "GOpt gopt-optimize import + compile / ORT all session "
             "creation, each a fresh process's first"),
            ("gopt_warm_compile_vs_ort_warm_session",
             "the same, each a warm process's (its second, the first "
             "dropped)"),
            ("gopt_cached_load_vs_ort_cold_session",
             "GOpt's program loaded from its compile cache (a model run "
             "before) / ORT all's session, fresh processes")):
        g = geomean(f[key] for f in figures.values())
        geo[key] = {"value": g[0], "models": g[1]} if g else None
        value = f"{g[0]:.3f} (n = {g[1]})" if g else "–"
        lines.append(f"- {label}: {value}")
    return "\n".join(lines) + "\n", figures, geo


def json_record(args, info, versions, results, figures, geo, elapsed):
    """Everything measured, as a JSON-serializable dict."""
    models = []
    for res in results:
        entry = {"name": res["name"]}
        if res.get("skipped"):
            entry["skipped"] = res["skipped"]
        entry["interrupted"] = bool(res.get("interrupted"))
        entry["torch_max_abs"] = res.get("torch_max_abs")
        entry["figures"] = figures.get(res["name"])
        entry["contenders"] = []
        for c in res["contenders"]:
            q1, q3 = c.iqr()
            entry["contenders"].append({
                "side": c.side, "config": c.config, "label": c.label,
                "failed": c.failed, "prepare_ms": c.prepare_ms,
                "detail": c.detail, "check": c.check,
                "median_ms": c.median(),
                "iqr_ms": [q1, q3] if c.median() is not None else None,
                "samples_ms": c.samples})
        models.append(entry)
    return {
        "schema": "gopt-peers/1",
        "date": datetime.datetime.now().astimezone().isoformat(
            timespec="seconds"),
        "machine": info, "versions": versions, "threads": args.threads,
        "wait_policy": args.wait_policy, "settle_ms": args.settle_ms,
        "rounds": args.rounds, "runs_per_round": args.runs_per_round,
        "warmup": args.warmup, "rtol": args.rtol, "atol": args.atol,
        "elapsed_s": elapsed, "models": models, "geomeans": geo}


# --- main -------------------------------------------------------------


def parse_args(argv):
    """Command line."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--models-dir", default=None,
                       help="exported models (default build/peers-models)")
    where.add_argument("--export", nargs="?", const=DEFAULT_MODELS_DIR,
                       metavar="DIR",
                       help="run export_models.py into DIR first (default "
                            "build/peers-models) and use DIR")
    parser.add_argument("--models", default="",
                        help="families or model names, comma-separated "
                             "(export_models.py --list shows them)")
    parser.add_argument("--batch", default="",
                        help="batch sizes overriding the families' defaults")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--wait-policy", choices=["spin", "passive"],
                        default="spin",
                        help="with --threads > 1: idle threads as each "
                             "engine's defaults say, with --settle-ms "
                             "between contenders (spin), or sleeping at "
                             "once on every side (passive: OpenMP's "
                             "OMP_WAIT_POLICY=PASSIVE, ORT allow_spinning=0)")
    parser.add_argument("--settle-ms", type=float, default=50,
                        help="with --threads > 1: pause before each "
                             "contender's runs, so the previous one's "
                             "spinning threads have gone to sleep")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs-per-round", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--gopt-bin", default=os.path.join(ROOT, "build",
                                                           "bin"))
    parser.add_argument("--gopt-pipeline", action="append", default=[],
                        metavar="NAME=PIPELINE",
                        help="another GOpt configuration (repeatable), "
                             "passed as gopt-run --pipeline=PIPELINE")
    parser.add_argument("--ort-levels", default=",".join(ORT_LEVELS),
                        help="ORT graph optimization levels to time")
    parser.add_argument("--ort-graph-levels", default="basic",
                        help="ORT levels whose optimized graph GOpt also "
                             "runs without its passes (comma-separated; "
                             "empty: none). Above basic ORT writes its own "
                             "ops, which GOpt does not import")
    parser.add_argument("--skip", default="",
                        help="sides to leave out: gopt,ort,torch")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--markdown", help="also write the report here")
    parser.add_argument("--json", help="write every sample and figure here")
    parser.add_argument("--node", default=shutil.which("node") or "node")
    parser.add_argument("--python", default=SYSTEM_PYTHON,
                        help="python with torch for the torch worker and "
                             "the export (default /usr/bin/python3)")
    parser.add_argument("--compile-samples", type=int, default=3,
                        help="compile times sampled per model, in fresh "
                        "processes, alternated: GOpt gopt-optimize's compile "
                        "(a process's first and second) and its load from "
                        "its cache, ORT all's session (a process's first "
                        "and second); the figures are medians of paired "
                        "ratios (default 3; 0: none)")
    parser.add_argument("--compile-timeout", type=float, default=900,
                        help="seconds a contender may take to get ready")
    parser.add_argument("--run-timeout", type=float, default=600,
                        help="seconds one `run K` may take")
    parser.add_argument("--work-dir", default=None,
                        help="where imported .mlir and outputs go, kept "
                             "(default: a temporary folder, removed at the "
                             "end)")
    parser.add_argument("--keep-work", action="store_true",
                        help="keep the work folder")
    args = parser.parse_args(argv)
    for flag in ("rounds", "runs_per_round"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag.replace('_', '-')} must be >= 1")
    if args.warmup < 0:
        parser.error("--warmup must be >= 0")
    if args.threads < 1:
        parser.error("--threads must be >= 1")
    cores = os.cpu_count() or 1
    if args.threads > cores:
        log(f"warning: --threads={args.threads} is more than the {cores} "
            f"cores here; using {cores}")
        args.threads = cores
    args.skip = {s for s in args.skip.split(",") if s}
    if args.skip - {"gopt", "ort", "torch"}:
        parser.error("--skip takes gopt, ort, torch")
    args.configs = [("no-passes", None),
                    ("gopt-optimize", "gopt-optimize")]
    for spec in args.gopt_pipeline:
        name, sep, pipeline = spec.partition("=")
        if not sep or not name or not pipeline:
            parser.error(f"--gopt-pipeline wants NAME=PIPELINE, got {spec!r}")
        if name in (c for c, _ in args.configs):
            parser.error(f"GOpt configuration {name!r} given twice")
        args.configs.append((name, pipeline))
    args.levels = [lvl for lvl in args.ort_levels.split(",") if lvl]
    args.ort_graph_levels = [lvl for lvl in args.ort_graph_levels.split(",")
                             if lvl]
    unknown = set(args.levels + args.ort_graph_levels) - set(ORT_LEVELS)
    if unknown:
        parser.error(f"unknown ORT level {sorted(unknown)[0]!r} (one of "
                     f"{', '.join(ORT_LEVELS)})")
    if not args.levels and "ort" not in args.skip:
        parser.error("--ort-levels is empty")
    args.gopt_bin = os.path.abspath(args.gopt_bin)
    return args


def main(argv=None):
    args = parse_args(argv)
    started = time.monotonic()
    if "ort" not in args.skip and not os.path.exists(
            os.path.join(HERE, "node_modules", "onnxruntime-node",
                         "package.json")):
        log("ONNX Runtime (onnxruntime-node) is not installed: run "
            "bench/peers/setup.sh")
        return 2
    if "ort" not in args.skip and not shutil.which(args.node):
        log(f"{args.node} not found: run bench/peers/setup.sh")
        return 2

    # Workers run in sessions of their own; end them on every way out.
    def on_term(signum, _frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)

    names = resolve_models(args.models, args.batch, args.python)
    if args.export:
        args.models_dir = args.export
        log(f"exporting {len(names)} models into {args.models_dir}")
        proc = subprocess.run([args.python,
                               os.path.join(HERE, "export_models.py"),
                               args.models_dir, "--models", ",".join(names)])
        if proc.returncode != 0:
            log("some exports failed; going on with the others")
    args.models_dir = os.path.abspath(args.models_dir or DEFAULT_MODELS_DIR)
    args.own_work_dir = not args.work_dir
    if args.work_dir:
        os.makedirs(args.work_dir, exist_ok=True)
    else:
        args.work_dir = tempfile.mkdtemp(prefix="gopt-peers-")

    threads = str(args.threads)
    args.gopt_env = dict(os.environ, OPENBLAS_NUM_THREADS=threads,
                         OMP_NUM_THREADS=threads)
    args.torch_env = dict(os.environ, OPENBLAS_NUM_THREADS=threads,
                          OMP_NUM_THREADS=threads, MKL_NUM_THREADS=threads)
    if args.threads > 1 and args.wait_policy == "passive":
        # Every engine's idle threads sleep instead of spinning (OpenMP's
        # passive wait; ORT's allow_spinning=0): the workers share the
        # cores, and an idle pool spinning in one process would steal them
        # from the contender being timed.
        for env in (args.gopt_env, args.torch_env):
            env["OMP_WAIT_POLICY"] = "PASSIVE"

    info = machine_info()
    versions = {
        "node": command_output([args.node, "--version"]),
        "gopt": command_output(["git", "-C", ROOT, "rev-parse", "--short",
                                "HEAD"]),
        "openblas_core": openblas_core(),
    }
    results = []
    try:
        for i, name in enumerate(names, 1):
            results.append(bench_model(args, i, len(names), name,
                                       args.configs, args.levels, versions))
            if results[-1].get("interrupted"):
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        log("\ninterrupted: reporting what was measured")
    finally:
        close_all_workers()
        if args.own_work_dir and not args.keep_work:
            shutil.rmtree(args.work_dir, ignore_errors=True)
        elif results:
            log(f"work files kept in {args.work_dir}")

    text, figures, geo = report(args, info, versions, results)
    sys.stdout.write(text)
    sys.stdout.flush()
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    elapsed = time.monotonic() - started
    if args.json:
        with open(args.json, "w") as f:
            json.dump(json_record(args, info, versions, results, figures, geo,
                                  elapsed), f, indent=1)
    log(f"done in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        close_all_workers()
