#!/usr/bin/env python3
"""Re-saves an ONNX model with its weights in one external data file.

    to_external_data.py IN.onnx OUT.onnx WEIGHTS_FILE_NAME
"""

import sys

import onnx


def main(src, dst, location):
    model = onnx.load(src)
    onnx.save_model(model, dst, save_as_external_data=True,
                    all_tensors_to_one_file=True, location=location,
                    size_threshold=1024)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
