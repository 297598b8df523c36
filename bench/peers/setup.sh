#!/usr/bin/env bash
# Installs what bench/peers needs, idempotently:
#   - Debian packages: PyTorch, torchvision, ONNX, NumPy (for the export and
#     the torch contender, all under /usr/bin/python3) and Node.js (+ npm
#     where Node.js does not bring it);
#   - onnxruntime-node, at the exact version package.json pins, into
#     bench/peers/node_modules (skipped when that version is there).
#
#   bench/peers/setup.sh
#
# npm runs with --ignore-scripts: the package ships its CPU binaries for
# linux/x64 (bin/napi-v6/linux/x64), and its install script would only try to
# download GPU providers. The script ends by loading the binding once.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

PACKAGES=(python3 python3-torch python3-torchvision python3-onnx python3-numpy
          nodejs)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=()
for pkg in "${PACKAGES[@]}"; do
  installed "$pkg" || missing+=("$pkg")
done
# Debian's nodejs comes without npm (NodeSource's includes it).
if ! command -v npm >/dev/null 2>&1 && ! installed npm; then
  missing+=(npm)
fi
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

want="$(node -p "require('$HERE/package.json').dependencies['onnxruntime-node']")"
have="$(node -p "try { require('$HERE/node_modules/onnxruntime-node/package.json').version } catch (e) { '' }")"
if [ "$have" = "$want" ]; then
  echo "== onnxruntime-node $have already in bench/peers/node_modules"
else
  echo "== installing onnxruntime-node $want into bench/peers/node_modules"
  (cd "$HERE" && npm install --ignore-scripts --no-audit --no-fund \
     --no-save --no-package-lock)
fi

# The CPU binary must be in the package and load without the install script.
(cd "$HERE" && node -e "
const ort = require('onnxruntime-node');
console.log('== onnxruntime-node ' + ort.env.versions.node + ' loads (' +
            ort.listSupportedBackends().map((b) => b.name).join(', ') + ')');")
