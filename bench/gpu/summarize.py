#!/usr/bin/python3
"""Prints the GPU check's Markdown summary from gopt-exec's JSON reports and
torch_peer.py's (scripts/gpu-check.sh writes both into one folder):
correctness of every check bundle (with streams and as one CUDA graph),
then per model GOpt unfused and fused against PyTorch eager and
torch.compile, the models as CUDA graphs (gopt-exec --cuda-graph) against
torch.compile's "reduce-overhead" mode, the lowering options not yet on
by default against the default (cuBLASLt epilogues, convolutions as im2col
and cuBLAS, elements per thread), and the targets of bench/gpu/README.md.

  python3 bench/gpu/summarize.py REPORT_DIR
"""
import glob
import json
import os
import sys


MODELS = ["ew_chain", "ew_light", "softmax", "layer_norm", "matmul", "linear_bias",
          "encoder", "conv_block"]


# The elementwise chains, and what bounds them: ew_chain's kernel issues
# about 80 PTX instructions per element (gelu's erf, a sigmoid, tanh), as
# many as the device issues in the time the copy bandwidth moves its bytes;
# ew_light's about 20 (make_models.py).
CHAINS = {"ew_chain": "gelu, sigmoid, tanh: ~80 instructions per element",
          "ew_light": "mul, add, relu, mul: memory-bound"}


def fmt(lat):
    """A latency record as "median [q1-q3]" in ms."""
    return f"{lat['median']:.4f} [{lat['q1']:.4f}-{lat['q3']:.4f}]"


def load(path):
    with open(path) as f:
        return json.load(f)


def kernels(report):
    manifest = os.path.join(report["bundle"], "manifest.txt")
    try:
        with open(manifest) as f:
            return sum(1 for line in f if line.startswith("kernel "))
    except OSError:
        return None


def graph_section(folder, peer):
    """The models as one CUDA graph each against their stream launches: the
    latency, S of the graph over the streams, the time per launch beyond
    the kernels' (latency minus the kernels' event-timed sum, per launch)
    with streams and in the graph, the device memory the graph holds
    against the streams' peak, and torch.compile(mode="reduce-overhead")."""
    rows = []
    for name in MODELS:
        for config in ("unfused", "fused"):
            path = os.path.join(folder, f"perf.{name}.{config}.json")
            if not os.path.exists(path):
                continue
            r = load(path)
            g = r.get("cuda_graph")
            if not g:
                continue
            lat, glat = r["latency_ms"], g["latency_ms"]
            us = lambda ms: f"{1e3 * ms:.2f}"
            graphs = peer["models"].get(name, {}).get("graphs_compiled_ms")
            vs = (f"{fmt(graphs)} | {graphs['median'] / glat['median']:.3f}"
                  if graphs and config == "fused" else "- | -")
            rows.append(
                f"| {name} {config} | {fmt(lat)} | {fmt(glat)} | "
                f"{lat['median'] / glat['median']:.2f} | "
                f"{r.get('launches_per_run', 0):.0f} → 1 ({g['kernel_nodes']} "
                f"kernel nodes) | {us(r.get('overhead_per_launch_ms', 0))} → "
                f"{us(g.get('overhead_per_launch_ms', 0))} | "
                f"{r['peak_bytes'] / 2**20:.1f} / {g['memory_bytes'] / 2**20:.1f} | "
                f"{vs} |")
    if not rows:
        return []
    return ["\n## CUDA graphs: one launch per call (median ms of single calls, "
            "[IQR])\n",
            "| model | streams | CUDA graph | S graph | launches per call | "
            "µs per launch beyond the kernels (streams → graph) | "
            "MiB peak (streams) / held (graph) | torch.compile "
            "reduce-overhead | torch / GOpt graph |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"] + rows


def variant_section(folder, title, suffix, rows_of, columns,
                    default_first=True):
    """One lowering option against the default on the same model and graph
    configuration: perf.NAME.CONFIG.json against perf.NAME.SUFFIX.CONFIG.json
    for each (name, config) of rows_of (the other way round when not
    default_first: the variant is then the baseline); columns names the two,
    S is the first's latency over the second's."""
    rows = []
    for name, config in rows_of:
        base = os.path.join(folder, f"perf.{name}.{config}.json")
        variant = os.path.join(folder, f"perf.{name}.{suffix}.{config}.json")
        if not default_first:
            base, variant = variant, base
        if not (os.path.exists(base) and os.path.exists(variant)):
            continue
        b, v = load(base), load(variant)
        rows.append(f"| {name} {config} | {fmt(b['latency_ms'])} | "
                    f"{fmt(v['latency_ms'])} | "
                    f"{b['latency_ms']['median'] / v['latency_ms']['median']:.3f}"
                    f" | {kernels(b)} → {kernels(v)} |")
    if not rows:
        return []
    return [f"\n## {title} (median ms of single calls, [IQR])\n",
            f"| model | {columns[0]} | {columns[1]} | S | kernels |",
            "|---|---:|---:|---:|---:|"] + rows


def cublaslt_section(folder):
    """Fused models with cuBLASLt epilogues (a bias, or a bias and a ReLU,
    in the GEMM's call) against the default (cuBLAS, then a launch)."""
    return variant_section(folder, "cuBLASLt epilogues", "lt",
                           [("linear_bias", "fused"), ("encoder", "fused")],
                           ("cuBLAS + launch", "cuBLASLt epilogue"))


def stream_section(folder):
    """Fused models with a host wait before and after each GEMM
    (stream-library-calls=false) against the default, the GEMMs on the
    launches' stream and one wait per call."""
    return variant_section(folder, "GEMMs on the launches' stream", "sync",
                           [("matmul", "fused"), ("linear_bias", "fused"),
                            ("encoder", "fused")],
                           ("waits around each GEMM", "one stream"),
                           default_first=False)


def conv_gemm_section(folder):
    """The conv block with its convolutions as an im2col launch and a cuBLAS
    GEMM (conv-gemm) against the direct loops, NCHW (unfused) and channels
    last (fused)."""
    return variant_section(folder, "Convolutions as im2col and cuBLAS "
                           "(conv-gemm)", "gemm",
                           [("conv_block", "unfused"), ("conv_block", "fused")],
                           ("direct loops", "im2col + cuBLAS"))


def math_section(folder):
    """The GEMM arithmetic (GOPT_CUBLAS_MATH): each bundle with TF32 and
    bf16 tensor cores against f32, its latency and its errors against the
    f32 CPU reference (where it has one)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "math.tf32.*.json"))):
        key = os.path.basename(path)[len("math.tf32."):-len(".json")]
        set_, name = key.split(".", 1)
        base = os.path.join(folder, f"{set_}.{name}.json")
        if not os.path.exists(base):
            continue
        b = load(base)
        cells = [f"{set_}/{name}", f"{b['latency_ms']['median']:.4f}"]
        for math in ("tf32", "bf16"):
            mpath = os.path.join(folder, f"math.{math}.{key}.json")
            if not os.path.exists(mpath):
                cells += ["-", "-"]
                continue
            m = load(mpath)
            lat = m["latency_ms"]["median"]
            cells.append(f"{lat:.4f} ({b['latency_ms']['median'] / lat:.2f}x)")
            res = m["results"]
            if all(r.get("has_reference") for r in res):
                err = max(r["max_abs_error"] for r in res)
                rel = max(r["max_rel_error"] for r in res)
                bad = sum(r["mismatches"] for r in res)
                cells.append(f"{err:.2g} abs, {rel:.2g} rel, {bad} beyond "
                             "f32 tolerance")
            else:
                cells.append("no reference")
        rows.append("| " + " | ".join(cells) + " |")
    if not rows:
        return []
    return ["\n## GEMM arithmetic (GOPT_CUBLAS_MATH; median ms, S over f32; "
            "errors against the f32 CPU reference, atol 1e-4 + rtol 1e-3)\n",
            "| bundle | f32 | tf32 | tf32 errors | bf16 | bf16 errors |",
            "|---|---:|---:|---|---:|---|"] + rows


def main():
    folder = sys.argv[1]
    out = []
    checks = sorted(glob.glob(os.path.join(folder, "check.*.json")))
    out.append("## Correctness: GPU results against the CPU reference\n")
    out.append("| bundle | kernels | results match | max abs error | max rel error "
               "| as a CUDA graph |")
    out.append("|---|---:|---|---:|---:|---|")
    for path in checks:
        r = load(path)
        name = os.path.basename(path)[len("check."):-len(".json")]
        err = max((c["max_abs_error"] for c in r["results"]), default=0)
        rel = max((c["max_rel_error"] for c in r["results"]), default=0)
        graph_path = os.path.join(folder, f"graph.{name}.json")
        graph = "not run"
        if os.path.exists(graph_path):
            g = load(graph_path)
            graph = "matches" if g["all_match"] and g.get("cuda_graph") else "NO"
        out.append(f"| {name} | {kernels(r)} | {'yes' if r['all_match'] else 'NO'} "
                   f"| {err:.3g} | {rel:.3g} | {graph} |")
    torch_path = os.path.join(folder, "torch.json")
    peer = load(torch_path) if os.path.exists(torch_path) else {"models": {}}
    out.append("\n## Speed (median ms of single calls, [IQR])\n")
    out.append("| model | GOpt unfused | GOpt fused | S fused | kernels | "
               "launch/host share (unfused → fused) | "
               "torch eager | torch.compile | eager / GOpt fused | "
               "GOpt fused GB/s (% of copy) |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    targets = []
    for name in MODELS:
        paths = {c: os.path.join(folder, f"perf.{name}.{c}.json")
                 for c in ("unfused", "fused")}
        if not all(os.path.exists(p) for p in paths.values()):
            continue
        u, f = load(paths["unfused"]), load(paths["fused"])
        s = u["latency_ms"]["median"] / f["latency_ms"]["median"]
        p = peer["models"].get(name, {})
        eager = p.get("eager_ms")
        comp = p.get("compiled_ms")
        ratio = eager["median"] / f["latency_ms"]["median"] if eager else None
        pct = 100 * f["effective_gb_per_s"] / f["copy_gb_per_s"] \
            if f["copy_gb_per_s"] > 0 else 0
        share = lambda r: (f"{100 * r['overhead_share']:.0f}%"
                           if r.get("profiled_runs") else "-")
        overhead = f"{share(u)} → {share(f)}"
        out.append(
            f"| {name} | {fmt(u['latency_ms'])} | {fmt(f['latency_ms'])} | "
            f"{s:.2f} | {kernels(u)} → {kernels(f)} | {overhead} | "
            f"{fmt(eager) if eager else '-'} | {fmt(comp) if comp else '-'} | "
            f"{ratio:.3f} | {f['effective_gb_per_s']:.0f} ({pct:.1f}%) |"
            if ratio is not None else
            f"| {name} | {fmt(u['latency_ms'])} | {fmt(f['latency_ms'])} | "
            f"{s:.2f} | {kernels(u)} → {kernels(f)} | {overhead} | - | - | - | "
            f"{f['effective_gb_per_s']:.0f} ({pct:.1f}%) |")
        if name in CHAINS:
            targets.append((f"fused elementwise chain ({CHAINS[name]}) >= 70% "
                            "of copy bandwidth", pct, 70))
        if name in ("softmax", "layer_norm"):
            targets.append((f"{name} >= 60% of copy bandwidth", pct, 60))
        if name == "matmul" and eager:
            targets.append(("matmul >= 90% of cuBLAS (torch.matmul, f32, no "
                            "TF32)", 100 * ratio, 90))
    out.extend(graph_section(folder, peer))
    out.extend(cublaslt_section(folder))
    out.extend(stream_section(folder))
    out.extend(conv_gemm_section(folder))
    out.extend(math_section(folder))
    for chain, what in CHAINS.items():
        sweep = [(e, os.path.join(folder, f"perf.{chain}.e{e}.fused.json"))
                 for e in (2, 4, 8)]
        sweep = [(e, path) for e, path in sweep if os.path.exists(path)]
        base = os.path.join(folder, f"perf.{chain}.fused.json")
        if not sweep or not os.path.exists(base):
            continue
        out.append(f"\n## Elementwise chain {chain} ({what}), fused: "
                   "elements per thread\n")
        out.append("| elements per thread | median ms [IQR] | GB/s (% of copy) |")
        out.append("|---:|---:|---:|")
        for e, path in [(1, base)] + sweep:
            r = load(path)
            lat = r["latency_ms"]
            pct = 100 * r["effective_gb_per_s"] / r["copy_gb_per_s"] \
                if r["copy_gb_per_s"] > 0 else 0
            out.append(f"| {e} | {fmt(lat)} | {r['effective_gb_per_s']:.0f} "
                       f"({pct:.1f}%) |")
            if e > 1:
                targets.append((f"fused elementwise chain ({what}), {e} "
                                f"elements per thread, >= 70% of copy "
                                f"bandwidth", pct, 70))
    out.append("\n## Targets\n")
    for what, value, goal in targets:
        out.append(f"- {what}: {value:.1f}% — {'met' if value >= goal else 'NOT met'}")
    if "copy_gb_per_s" in peer:
        out.append(f"\nDevice copy bandwidth: torch {peer['copy_gb_per_s']:.0f} GB/s; "
                   f"gopt-exec's figure is in each report. Device: "
                   f"{peer.get('device')}, torch {peer.get('torch')}.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
