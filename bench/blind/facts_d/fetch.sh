#!/bin/sh
# Rebuild docs/ (docs/small, docs/large) from nothing and check it against docs.sha256.
#
#   source : Debian package jargon-text 4.4.7-4.1 (bookworm/main), the Jargon File 4.4.7
#            plain text, /usr/share/doc/jargon-text/jargon.txt.gz
#   split  : split_jargon.py  (one file per lexicon entry, 2307 entries)
#   fill   : build_docs.py    (seeded random fill, seed and sizes in spec.py)
#
# Needs: apt-get (download only, nothing is installed), dpkg-deb, python3, sha256sum.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"

PKG=jargon-text
VER=4.4.7-4.1
DEB=${PKG}_${VER}_all.deb
DEB_SHA256=17d05997e30eb3d5d6713929b8e2f81b63a5f50073858ad2a06701c71f54dcdb

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cd "$TMP"
if ! apt-get download "$PKG=$VER" >/dev/null 2>&1; then
    echo "apt-get download failed; running apt-get update once and retrying" >&2
    apt-get update >/dev/null
    apt-get download "$PKG=$VER"
fi
echo "$DEB_SHA256  $DEB" | sha256sum -c --quiet -
dpkg-deb -x "$DEB" pkg
gzip -dc pkg/usr/share/doc/jargon-text/jargon.txt.gz > jargon.txt
python3 "$HERE/split_jargon.py" jargon.txt "$TMP/all"

cd "$HERE"
rm -rf docs
python3 "$HERE/build_docs.py" "$TMP/all" docs

# every listed file has the right hash, and docs/ holds no other file
sha256sum -c --quiet docs.sha256
find docs -type f | LC_ALL=C sort > "$TMP/have"
awk '{print $2}' docs.sha256 | LC_ALL=C sort > "$TMP/want"
if ! cmp -s "$TMP/have" "$TMP/want"; then
    echo "docs/ file list differs from docs.sha256" >&2
    diff "$TMP/want" "$TMP/have" | head >&2
    exit 1
fi
echo "docs/ rebuilt: $(find docs/small -type f | wc -l) small, $(find docs/large -type f | wc -l) large files; docs.sha256 OK"
