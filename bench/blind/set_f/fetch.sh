#!/usr/bin/env bash
# Rebuild docs/ from nothing.
#  - pinned Debian (bookworm / bookworm-updates / bookworm-security) packages:
#    apt-get download + dpkg-deb -x (nothing is installed)
#  - pinned PyPI distributions: pip download (no install)
# Every produced file is checked against SHA256SUMS at the end; a mismatch exits non-zero.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$PWD
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
rm -rf docs && mkdir -p docs

# --- Debian packages ---------------------------------------------------------
DEBS=(
  "libxcb1=1.15-1"
  "ieee-data=20220827.1"
  "unicode-data=15.0.0-1"
  "xkb-data=2.35.1-1"
  "php8.2-common=8.2.36-1~deb12u1"
  "ansible-core=2.14.18-0+deb12u2"
)
cd "$WORK"
if ! apt-get download "${DEBS[@]}" >/dev/null 2>&1; then
  apt-get update >/dev/null
  apt-get download "${DEBS[@]}"
fi
for f in *.deb; do
  d="x_${f%%_*}"; mkdir -p "$d"; dpkg-deb -x "$f" "$d"
done
# libxcb's upstream ChangeLog is the output of `git log`; Debian ships it gzipped.
gzip -dc x_libxcb1/usr/share/doc/libxcb1/changelog.gz                    > "$HERE/docs/libxcb.ChangeLog"
cp x_ieee-data/usr/share/ieee-data/mam.txt                                 "$HERE/docs/mam.txt"
cp x_unicode-data/usr/share/unicode/emoji/emoji-test.txt                   "$HERE/docs/emoji-test.txt"
cp x_xkb-data/usr/share/X11/xkb/rules/base.lst                             "$HERE/docs/base.lst"
cp x_php8.2-common/usr/lib/php/8.2/php.ini-production                      "$HERE/docs/php.ini-production"
cp x_ansible-core/usr/lib/python3/dist-packages/ansible/config/base.yml    "$HERE/docs/ansible-base.yml"

# --- PyPI distributions ------------------------------------------------------
mkdir -p pypi && cd pypi
# Werkzeug's sdist carries CHANGES.rst (the wheel does not); its metadata build needs flit_core.
pip download --quiet --no-deps --no-binary :all: werkzeug==3.0.1 -d .
pip download --quiet --no-deps --only-binary :all: certifi==2023.11.17 -d .
python3 - "$HERE/docs" <<'EOF'
import sys, zipfile, tarfile, shutil, os
out = sys.argv[1]
with tarfile.open("werkzeug-3.0.1.tar.gz") as t:
    with t.extractfile("werkzeug-3.0.1/CHANGES.rst") as src, open(os.path.join(out, "werkzeug-CHANGES.rst"), "wb") as dst:
        shutil.copyfileobj(src, dst)
with zipfile.ZipFile("certifi-2023.11.17-py3-none-any.whl") as z:
    with z.open("certifi/cacert.pem") as src, open(os.path.join(out, "cacert.pem"), "wb") as dst:
        shutil.copyfileobj(src, dst)
EOF

cd "$HERE"
sha256sum -c SHA256SUMS
echo "docs/ rebuilt: $(ls docs | wc -l) files"
