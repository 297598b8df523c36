# Compares the numbers printed by two runs: same count, and each pair equal
# within a relative tolerance of 1e-4 (absolute 1e-6 near zero), so fused and
# unfused kernels may sum in different orders; NaNs must match NaNs.
import math
import re
import sys

NUMBER = re.compile(r"-?nan|-?inf|-?[0-9]+(?:\.[0-9]*)?(?:e[-+]?[0-9]+)?")


def numbers(path):
    with open(path) as f:
        return [float(t) for t in NUMBER.findall(f.read())]


a, b = numbers(sys.argv[1]), numbers(sys.argv[2])
if len(a) != len(b):
    sys.exit(f"{len(a)} numbers in {sys.argv[1]}, {len(b)} in {sys.argv[2]}")
for i, (x, y) in enumerate(zip(a, b)):
    if math.isnan(x) or math.isnan(y):
        ok = math.isnan(x) and math.isnan(y)
    else:
        ok = math.isclose(x, y, rel_tol=1e-4, abs_tol=1e-6)
    if not ok:
        sys.exit(f"value {i} differs: {x} vs {y}")
print(f"{len(a)} values agree")
