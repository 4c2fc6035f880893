#!/usr/bin/env bash
# Build llama-cpp-python once with CPU flags that run on any x86-64 CPU, keep the wheel
# in a cache keyed by version + flags + Python, and install it into the current Python.
# (The default native build segfaults on CPUs that advertise AVX-512/AMX; see DESIGN.md.)
set -euo pipefail
PY=${PYTHON:-python}
VERSION=${LLAMA_CPP_VERSION:-0.3.36}
FLAGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DLLAVA_BUILD=OFF"
PYVER=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')
KEY=$(printf '%s|%s|%s|%s' "$VERSION" "$FLAGS" "$PYVER" "$(uname -m)" | sha1sum | cut -c1-12)
DIR=${LONGREAD_WHEEL_CACHE:-$HOME/.cache/longread/wheels}/$KEY

if "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('llama_cpp_python') != '$VERSION')" 2>/dev/null \
   && [ -f "$DIR/.installed-from-here" ]; then
  exit 0
fi
if ! ls "$DIR"/llama_cpp_python-*.whl >/dev/null 2>&1; then
  echo "Building llama-cpp-python $VERSION (one time, ~15 minutes on 2 cores)..." >&2
  rm -rf "$DIR.partial" && mkdir -p "$DIR.partial"
  CMAKE_ARGS="$FLAGS" "$PY" -m pip wheel --no-cache-dir --no-deps \
      "llama-cpp-python==$VERSION" -w "$DIR.partial"
  rm -rf "$DIR" && mv "$DIR.partial" "$DIR"
fi
"$PY" -m pip install --force-reinstall --no-deps "$DIR"/llama_cpp_python-*.whl
touch "$DIR/.installed-from-here"
