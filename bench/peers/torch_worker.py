#!/usr/bin/python3
"""PyTorch eager worker for GOpt's side-by-side benchmark (bench/peers).

    torch_worker.py MODEL_NAME INPUT.npy OUT.npy [--threads N]

Rebuilds the module export_models.py exported for MODEL_NAME (same factory,
same seed, eval mode), runs it once on INPUT.npy under torch.inference_mode()
and writes the output to OUT.npy, then prints ONE JSON line on stdout:

    {"ready": true, "version": "1.13.0", "build_ms": x}

and reads commands from stdin, one per line:
    run N    runs the module N times, prints {"times_ms": [...]}
    quit     (or EOF) exits 0

torch runs with set_num_threads(N) and set_num_interop_threads(1). Errors
before "ready" go to stderr as "torch_worker: error: ..." with exit status 1.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import numpy as np
        import torch
        torch.set_num_threads(args.threads)
        torch.set_num_interop_threads(1)
        import export_models
        start = time.perf_counter()
        model, _ = export_models.model_for_name(args.model)
        build_ms = (time.perf_counter() - start) * 1e3
        x = torch.from_numpy(np.load(args.input))
        with torch.inference_mode():
            y = model(x)
        np.save(args.output, y.numpy())
    except Exception as e:  # noqa: BLE001 - reported to the driver
        print(f"torch_worker: error: {type(e).__name__}: {e}",
              file=sys.stderr)
        return 1
    print(json.dumps({"ready": True, "version": torch.__version__,
                      "build_ms": build_ms}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        if words[0] != "run" or len(words) != 2 or not words[1].isdigit():
            print(json.dumps({"error": f"unknown command: {line.strip()}"}),
                  flush=True)
            continue
        times = []
        with torch.inference_mode():
            for _ in range(int(words[1])):
                t0 = time.perf_counter_ns()
                model(x)
                times.append((time.perf_counter_ns() - t0) / 1e6)
        print(json.dumps({"times_ms": times}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
