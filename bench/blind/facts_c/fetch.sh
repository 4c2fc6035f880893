#!/bin/sh
# Rebuild docs/ from nothing: Debian bookworm main, English package descriptions.
# Needs: curl, python3 (stdlib only). Then verifies docs against docs.sha256.
set -eu
cd "$(dirname "$0")"
mkdir -p raw
BASE=http://deb.debian.org/debian/dists/bookworm/main
get() {  # dir sha256 file : try the immutable by-hash URL first, then the plain one
    curl -fsS -o "raw/$3" "$BASE/$1/by-hash/SHA256/$2" || curl -fsS -o "raw/$3" "$BASE/$1/$3"
    echo "$2  raw/$3" | sha256sum -c - || echo "WARNING: raw/$3 differs from the snapshot used (archive updated?); docs may differ" >&2
}
get i18n a3d4a0bfd8e9242810b0885eda7c1a6e05dac15b333ddbaab03ba56f2dfa4bf0 Translation-en.xz
get binary-amd64 9e0b5aabb2465b3d2e7a7fe27f9913846277833f7a2826e7767acccff5b588c5 Packages.xz
python3 parse.py      # -> raw/records.json
python3 build.py      # -> docs/small (200), docs/large (2000)
sha256sum --quiet -c docs.sha256 && echo "docs match docs.sha256"
