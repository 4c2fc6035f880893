#!/bin/sh
# Fetch Debian's chromium (and any shared library it lacks) into a private cache, without a system
# install or root: `apt-get download` + `dpkg-deb -x`. Idempotent; prints the binary's path last.
# Used by the end-to-end web tests. Never `playwright install`.
set -eu
DEST="${LONGREAD_CHROMIUM_DIR:-${LONGREAD_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/longread}/chromium}"
BIN="$DEST/root/usr/lib/chromium/chromium"
LIBS="$DEST/root/usr/lib/x86_64-linux-gnu:$DEST/root/usr/lib/x86_64-linux-gnu/pulseaudio"

missing() { LD_LIBRARY_PATH="$LIBS" ldd "$BIN" 2>/dev/null | awk '/not found/ {print $1}'; }

extract() {  # extract() PACKAGE...: download the .debs into $DEST/debs and unpack them
    mkdir -p "$DEST/debs" "$DEST/root"
    (cd "$DEST/debs" && apt-get download "$@" >/dev/null 2>&1) || {
        apt-get update >/dev/null 2>&1 || true
        (cd "$DEST/debs" && apt-get download "$@" >/dev/null)
    }
    for deb in "$DEST"/debs/*.deb; do dpkg-deb -x "$deb" "$DEST/root"; done
}

if [ ! -x "$BIN" ]; then
    extract chromium chromium-common
fi
# Libraries chromium needs that this system lacks (and theirs): unpack their packages beside it.
fetched() { ls "$DEST/debs" | sed 's/_.*//'; }
for round in 1 2 3; do
    [ -z "$(missing)" ] && break
    pkgs=$(apt-cache depends $(fetched) | awk '/ Depends: lib/ {print $2}' | sort -u | while read -r p; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || fetched | grep -qx "$p" || echo "$p"
    done)
    [ -z "$pkgs" ] && break
    # shellcheck disable=SC2086
    extract $pkgs
done
if [ -n "$(missing)" ]; then
    echo "fetch-chromium: still missing: $(missing | tr '\n' ' ')" >&2
    exit 1
fi
# A launcher that finds the unpacked libraries: this is what Playwright's executable_path points at.
cat > "$DEST/chromium" <<LAUNCHER
#!/bin/sh
LD_LIBRARY_PATH="$LIBS\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$BIN" "\$@"
LAUNCHER
chmod +x "$DEST/chromium"
echo "$DEST/chromium"
