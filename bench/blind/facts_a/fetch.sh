#!/usr/bin/env bash
# Rebuild docs/ (three corpora) from Debian bookworm packages, from nothing.
#   docs/manpages/     299 man pages rendered to plain text (one file per page)
#   docs/specs/        Debian Policy 4.6.2.0 + companion specs + FHS 3.0 + Developer's Reference 12.18, split by section
#   docs/encyclopedia/ 640 Debian package long descriptions (one paragraph-style file per software project)
# Needs: Debian/Ubuntu host with apt, dpkg-deb, python3, man-db (man), groff, bsdextrautils (col).
# Tested with man-db 2.11.2 and groff 1.22.4 (Debian 12). Run as root or as a user that can run apt-get (no install is done).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/docs"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export LC_ALL=C.UTF-8

# ---- private apt state (does not touch the system lists) -------------------
mkdir -p "$TMP/lists/partial" "$TMP/cache/archives/partial" "$TMP/debs"
APTOPT=(-o Dir::State::Lists="$TMP/lists" -o Dir::Cache="$TMP/cache" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
        -o Acquire::Languages=en -o APT::Sandbox::User=root -o Debug::NoLocking=1)
apt-get "${APTOPT[@]}" update >/dev/null

# ---- pinned packages ---------------------------------------------------------
PKGS=(
  coreutils=9.1-1 findutils=4.9.0-4 grep=3.8-5 sed=4.9-1+deb12u1 tar=1.34+dfsg-1.2+deb12u1 gzip=1.12-1
  bzip2=1.0.8-5+b1 xz-utils=5.4.1-1+deb12u2 diffutils=1:3.8-4 less=590-2.1~deb12u2 file=1:5.44-3
  procps=2:4.0.2-3 psmisc=23.6-1 util-linux=2.38.1-5+deb12u3 bc=1.07.1-3+b1 dc=1.07.1-3+b1 make=4.3-4.1
  patch=2.7.6-7 time=1.9-0.2 gawk=1:5.2.1-2 ed=1.19-1 zstd=1.5.4+dfsg2-5 lz4=1.9.4-1 cpio=2.13+dfsg-7.1
  sharutils=1:4.15.2-9 bsdextrautils=2.38.1-5+deb12u3 bsdutils=1:2.38.1-5+deb12u3 cron=3.0pl1-162
  at=3.2.5-1+b1 moreutils=0.67-1 rsync=3.5.0+ds1-0+deb12u1 wget=1.21.3-1+deb12u1
  debian-policy=4.6.2.0 developers-reference=12.18
)
cd "$TMP/debs"
for spec in "${PKGS[@]}"; do
  if ! apt-get "${APTOPT[@]}" download "$spec" >/dev/null 2>"$TMP/err"; then
    # point releases can drop a superseded version from the mirror: fall back to the current one, loudly
    echo "WARNING: $spec not downloadable ($(tail -1 "$TMP/err")); using current ${spec%%=*}" >&2
    apt-get "${APTOPT[@]}" download "${spec%%=*}" >/dev/null
  fi
done
mkdir -p "$TMP/x"
for f in "$TMP"/debs/*.deb; do dpkg-deb -x "$f" "$TMP/x"; done

rm -rf "$OUT"; mkdir -p "$OUT/manpages" "$OUT/specs" "$OUT/encyclopedia"

# ---- corpus 1: man pages (sections 1, 5, 8; English only; symlinks skipped) --
# pages whose rendering is byte-identical to another page (.so aliases) are skipped
SKIP=" unzstd.1 zstdcat.1 zstdmt.1 lz4c.1 lz4cat.1 unlz4.1 "
find "$TMP/x/usr/share/man" -path '*/man/man[158]/*' -type f -name '*.gz' | sort | while read -r f; do
  b="$(basename "$f" .gz)"
  case "$SKIP" in *" $b "*) continue;; esac
  # the rendering command: no hyphenation, no justification, 80 columns, overstrikes removed
  MANWIDTH=80 man --nh --nj -l "$f" 2>/dev/null | col -bx > "$OUT/manpages/$b.txt"
done

# ---- corpus 2: specifications ------------------------------------------------
cat > "$TMP/split_specs.py" <<'PYEOF'
#!/usr/bin/env python3
"""Split Debian Policy / Developer's Reference / FHS / related specs into text files.
usage: split_specs.py EXTRACT_ROOT OUT_DIR"""
import gzip, os, re, sys
root, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
ADORN = re.compile(r'^([=\-~^*#"+`:.\'])\1{2,}\s*$')

def slug(s):
    s = re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')
    return s[:60].rstrip('-') or 'section'

def write(name, text):
    with open(os.path.join(out, name), 'w', encoding='utf-8') as f:
        f.write(text.rstrip() + '\n')

def rst_split(path, prefix, header, split_level=2):
    lines = open(path, encoding='utf-8').read().split('\n')
    # find headings: a non-empty text line followed by adornment line (optionally overline)
    order = []          # adornment chars in order of first appearance
    heads = []          # (start_index, level, title)
    i = 0
    while i < len(lines) - 1:
        t, u = lines[i], lines[i + 1]
        if t.strip() and not ADORN.match(t) and ADORN.match(u) and len(u.strip()) >= len(t.strip()) - 1 and not t.startswith(' '):
            c = u.strip()[0]
            if c not in order:
                order.append(c)
            lvl = order.index(c) + 1
            start = i - 1 if i > 0 and ADORN.match(lines[i - 1]) else i
            heads.append((start, lvl, t.strip()))
            i += 2
            continue
        i += 1
    title = heads[0][2] if heads else prefix
    cuts = [h for h in heads if h[1] == split_level]
    if not cuts:
        write(f'{prefix}.txt', f'{header}: {title}\n\n' + '\n'.join(lines))
        return 1
    n = 0
    first = cuts[0][0]
    intro = '\n'.join(lines[:first]).strip()
    if len(intro.split('\n')) > 3:
        write(f'{prefix}-00-introduction.txt', f'{header}: {title}\n\n{intro}')
        n += 1
    for k, (s, lvl, t) in enumerate(cuts):
        e = cuts[k + 1][0] if k + 1 < len(cuts) else len(lines)
        body = '\n'.join(lines[s:e]).strip()
        write(f'{prefix}-{k + 1:02d}-{slug(t)}.txt', f'{header}: {title}\n\n{body}')
        n += 1
    return n

pol = os.path.join(root, 'usr/share/doc/debian-policy')
src = os.path.join(pol, 'policy.html/_sources')
total = 0
for fn in sorted(os.listdir(src)):
    if not fn.endswith('.rst.txt') or fn == 'index.rst.txt':
        continue
    base = fn[:-len('.rst.txt')]
    total += rst_split(os.path.join(src, fn), 'policy-' + base, 'Debian Policy Manual 4.6.2.0')
# whole-file companion documents shipped as text
for fn, name in [('copyright-format-1.0.txt.gz', 'copyright-format-1.0'), ('menu-policy.txt.gz', 'menu-policy'),
                 ('perl-policy.txt.gz', 'perl-policy'), ('debconf_specification.txt.gz', 'debconf-specification'),
                 ('autopkgtest.txt.gz', 'autopkgtest')]:
    write(name + '.txt', gzip.open(os.path.join(pol, fn), 'rt', encoding='utf-8').read())
    total += 1
# FHS 3.0: split into chapters; chapter 3 and 4 at second level
fhs = gzip.open(os.path.join(pol, 'fhs/fhs-3.0.txt.gz'), 'rt', encoding='utf-8').read().split('\n')
heads = []
body_start = next(i for i, l in enumerate(fhs) if re.match(r'^1\.1\. Purpose', l))
body_start = max(i for i in range(body_start) if re.match(r'^(Chapter 1|1\. )', fhs[i])) if any(re.match(r'^(Chapter 1|1\. )', fhs[i]) for i in range(body_start)) else body_start
for i in range(body_start, len(fhs)):
    l = fhs[i]
    if re.match(r'^Chapter \d+\. \S', l) or re.match(r'^\d+\.\d+\. \S', l):
        heads.append((i, l.strip()))
write('fhs-3.0-00-front-matter.txt', 'Filesystem Hierarchy Standard 3.0\n\n' + '\n'.join(fhs[:body_start]))
total += 1
for k, (s, t) in enumerate(heads):
    e = heads[k + 1][0] if k + 1 < len(heads) else len(fhs)
    write(f'fhs-3.0-{k + 1:02d}-{slug(t)}.txt', 'Filesystem Hierarchy Standard 3.0\n\n' + '\n'.join(fhs[s:e]))
    total += 1
# Developer's Reference
dr = os.path.join(root, 'usr/share/developers-reference/_sources')
for fn in sorted(os.listdir(dr)):
    if not fn.endswith('.rst.txt') or fn == 'index.rst.txt':
        continue
    base = fn[:-len('.rst.txt')]
    total += rst_split(os.path.join(dr, fn), 'devref-' + base, "Debian Developer's Reference 12.18")
print(total, 'spec files')
PYEOF
python3 "$TMP/split_specs.py" "$TMP/x" "$OUT/specs"

# ---- corpus 3: encyclopedic paragraphs (Debian bookworm package descriptions) --
TR="$(ls "$TMP"/lists/*_dists_bookworm_main_i18n_Translation-en* | head -1)"
/usr/lib/apt/apt-helper cat-file "$TR" > "$TMP/Translation-en"
cat > "$TMP/build_enc.py" <<'PYEOF'
#!/usr/bin/env python3
"""Write one text file per pinned Debian package description.
usage: build_enc.py TRANSLATION_EN_FILE(uncompressed) PINS_FILE OUT_DIR
PINS_FILE lines: "package description-md5"."""
import hashlib, os, sys
tr, pins, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
want = {}
for line in open(pins):
    line = line.strip()
    if line and not line.startswith('#'):
        p, m = line.split()
        want[(p, m)] = True
found = 0
for block in open(tr, encoding='utf-8').read().split('\n\n'):
    d = {}; key = None
    for line in block.split('\n'):
        if not line:
            continue
        if line[0] in ' \t' and key:
            d[key] += '\n' + line
        else:
            k, _, v = line.partition(':'); key = k; d[k] = v.strip()
    k = (d.get('Package'), d.get('Description-md5'))
    if k not in want:
        continue
    desc = d['Description-en']
    # Description-md5 is the md5 of the description text (short + long) plus a newline
    if hashlib.md5((desc + '\n').encode('utf-8')).hexdigest() != k[1]:
        print('md5 mismatch for', k[0], file=sys.stderr)
    short, _, long_ = desc.partition('\n')
    lines = []
    for l in long_.split('\n'):
        l = l[1:] if l.startswith(' ') else l
        lines.append('' if l.strip() == '.' else l.rstrip())
    text = f'{k[0]}: {short.strip()}\n\n' + '\n'.join(lines).strip() + '\n'
    with open(os.path.join(out, k[0] + '.txt'), 'w', encoding='utf-8') as f:
        f.write(text)
    del want[k]; found += 1
for p, m in sorted(want):
    print('MISSING pinned description:', p, m, file=sys.stderr)
print(found, 'encyclopedia files')
sys.exit(1 if want else 0)
PYEOF
cat > "$TMP/pins.txt" <<'PINEOF'
# package  Description-md5 (pins the exact description text; checked by build_enc.py)
0install-core 42858e1bbd2e448dcccd6c029ba3b0af
7kaa 37b0a07b664e6e2e6b3370a23d7a49cb
a56 e2a5c0e79ee0be60f379e6e2377bc1b4
abiword-plugin-grammar 1501ee0849f0b04532649cc33398cac2
acm 05c960428aa02e0a54b52db56dd52fa7
adr-tools a4123fe239affe141938e1ae2f84c819
aewan f35d5e6a27e200b26631a11dd8be37e5
afterstep d34d45817d3b122e341c7841a63b70c5
agda-bin f8e26d204d9ccc3a3cfdad460ae35595
aghermann 3f60235fc79bc4910bb594312f855a10
aladin 0689e65ca0f8335c5d83e3aaec3cc9fb
amap-align 8bbc20fa02f0317c9b1cc6f3abf3506c
amdgcn-tools 6772d97a613191b1bf7c8b99061efe8f
ancient f3d0e341d7719136d3c04d44f91ab80c
and 5b6bdf6ae5748dade0475d36c058ab07
android-boringssl 46f0072c32f613832ff449806c546e49
android-libetc1 5f9419938c4b10c1c48f183ab55ae72b
anthy-el 66ca5add46b3548ac2d3848be485a129
antlr3-maven-plugin cd0bc2f69d05bac981be882ad48e298c
antlr4-maven-plugin 3feb00e2c59d6fe7ea633645ff1a9618
anyremote 014f7ca16e8c56501d0cb96b3cc4882a
ap51-flash 82e23857d9d57c1835e3e8b5bb0608d4
apg d919baea3108b57df48112b188dca442
apitrace-gui 5765a430c4337e6e467b8704fbb9b4d4
apng2gif 6822f873e4f9ce2936f34c1d1d777d4e
apper 304716341a90e89257031372b96cb4fa
apt 9fb97a88cb7383934ef963352b53b4a7
apt-build 53f603818fd993e68be0ac08386d29c1
apt-offline-gui c320d4ba3db03ee58760227c3cc84884
arc e2e4c669239897fce748637bff146d1c
archivemount d6302be9f06a91afa32326ab175e2086
argyll 787f052d9ed7e05055ba42d95c368d2f
artha 2305d9a361d5f6a7f9a56af1854bca96
aspell 21dcab5448cba7f61ba8df4ace46f1af
audacious 2448b9b8910f8d08dd29bbbac89d54cd
audtty 0b769a01c8b16c333d01d52d0ef1bcaa
augeas-tools 3910bb8edac0a7a2eb4c78437f67490b
automysqlbackup 9c8e4fa606e583f71f74faee893365ac
autopostgresqlbackup dcd99edb882742617b6d27f2116096aa
autopsy 37d2fa98885c3d41edc06647219ede8a
axiom 7906ab62142f695a10ec89a3a68d6405
badger cb4604b047b6451ff06fb2435dc7aa1e
baitfisher 4f8112acea1615fb8dd7625fdf2f7898
ballerburg 22e6223aacd4cd867a0eb1a824beb105
baresip-gtk 447d942f133143086a936b90aeacd293
bart-view 12c17c75dd71741d471dd93dcdef0561
bazel-skylib 13131c5ca1671ff50911bb32bc4bdfc1
berusky fdeb85b4a0e70546b7d989c048755fba
berusky2 17c8ef5eab01804db5f02522c8171826
bgpq3 e5ffc7b8ed959a76c492c7a107f2acc8
bgpq4 8df4bf08bcf10ade468b56b0bae81059
biglybt fbbc804e606e1490aaa2e7cf7ef18b28
bilibop-rules cfe08d416c4c1b4f05f9b5152a6086c2
biosyntax-gedit dd9a901b93e3581d57614faff46e5a39
bison++ dcda05c3e5d5048fbd022da8962d1961
bitlbee fd5ccc252b6f38fb85639e46ece6b2b2
bitlbee-plugin-mastodon 29674775d314bdeeff9c45525c918ad1
blackbird-gtk-theme 7a968f10d6a45ddf9a0895fe90d2eee4
blinken 15b854d36619b85d1beb335cd5aaf853
bluebird-gtk-theme 6f19c81bbeb9b0585d80050b4845f495
bluez ef25d6a9f4a57e78f32faa7b58ef4e59
bochs-sdl c1de9e8924d4d41e5077c82fed4d22e9
bplay 139914051f25006f4768b8b76dffc6ce
brasero-cdrkit f665c5ddfb353765cb64ff49e7f6bc98
brutalchess afa805d0b41e660bf6a3b350d15f0d3a
bsdiff 39b21a114b327c2bc9c45b4762ee8f50
bsdowl 53603f607644c66ae8f35b4d6f53b911
btscanner cd17388937434d12c6c95cf8a83d33a2
btyacc fcc3ed2575c386a07f14f33847976d1d
bubblewrap 93fea4e8ee77b240289ff794fd4777ea
bucklespring 06b4bde282664a556e659636d7abd594
budgie-control-center 9b34d090eed32419c0d4f0f2813582b5
bumblebee 603c350e38f498eb44849c8eb81822e8
burgerspace 0d3983db8ee492cdb119420cb5861185
burner-cdrkit 0297a080d923bf9a5d78276e1ef9d132
byacc 6435c70cdb397ac756f9ed5ca0cc1bc8
bzflag-server 029282d17f4701a2726858e1ad73784a
bzip2 1e71313ce794d3de1e3bc63ac58885b5
bzip3 534c1eb2c73c4cad2d2a389ba4da60d4
cacti c149f2c54502ee335699276ff204fd5d
cairo-dock-dbus-plug-in 806ab0a79a2ffa3a819bb273f028595f
caja-nextcloud c1987c87a19ca3f5c8e3572a905ba186
canadian-ham-exam 938176aa9e808b42f55e37c81a9caf9e
cantor-backend-qalculate 31c54ecdd183e63b8b691b850c067238
carburetor 301d54681acc39bf6de6e7500f6eb786
casacore-data-jpl-de200 9b998786ba675657eb53cff2b2494aa1
cbindgen-web bf5e9ab6d22f73ffe6c064b48141f318
cegui-mk2-0.8.7 b2275c0855da956d16c186603ae60780
celery 44cd3c8b1cd209fca968d7d2d734bf7a
celluloid 36039aaa9324deae871f44000a6a65b0
cen64 86c6b219bfa41852ac3f2c50f28b33bc
cen64-qt 5e1c350169eaa1e62098a82a4116a1c0
ceph-mgr-dashboard c5eb3c42fa1ecd862891daab20a65250
ceres-solver-doc 13ffcc3a5ba1e6ead64b17f76afbd824
certmonger 738d6b1394e6e31874aba5badb793710
cervisia 24aa55ccfc4c9ef6342e9d331b63080e
cgit 5e74acb15d1188f3db80ed71f4b7567d
check a51fdfa929f98fb924854b88bd42548c
chocolate-doom c8bc3c8e2da5b1221ee5bc0624a97d0c
choosewm 5d4a8a3c642e6f0000954d0e0dd4bed2
chromono 13ff4000da803e49b73446dddbe85790
circuslinux 6d85068fda29b7c2eb0c5658db917f44
cl-pg ec914fb1743c2a6baf5943d55e70b2c4
cl-plus-ssl 9d705195ad7c3e4e5143152f074598d9
cl-sql-postgresql-socket 8f6a6feea0fc7315fcfd9948df0a36c1
clamav fb7be82d5591a0f3facf827f0a60c5d6
clamav-cvdupdate e570a5354478e2017690e8b661b8e5a5
clamtk 8942c2da6c02354b285054fb8219c530
clang-13 c364160e44345420df0f2e97b3082b69
clblast-utils 714836499f6dcbb3bd04e69155ddb206
clc-intercal 8377fcaece3b12bf7911a8ee0bcb2da8
clonezilla f9c2e3ff6ca4a7aff674192c45254b5b
clzip f4f9082ace3754e4570abdb054e5ccc8
cmake-curses-gui ad28c67dee764cb32d73040783a280db
cmst a922054eff00f41c44c72746a175ca0c
cmus-plugin-ffmpeg 4bb1386678fe15219a1b1422700d43a7
cntlm a09ce14efcc2b3cdd95e19cd49ef5d70
code-saturne 324f545519ac0b2322d5099db3ca9a52
codeblocks 085a469fb5f38916d82842e097c6fda4
coinst 39d7f01cd5e5727513a9d1d8b4e8fc52
collectd-utils 9e642f2a954c69592f11d4db8ecd29e0
compton 718127d37e1133c4d7fedd1583072e81
connman d8355ea4ac1b5f83324dbab30d92c282
connman-gtk 3641a5394bd5a0ea2b018e41391ad40b
context 41de4864f3fecb24d3907901e2a652a7
coq 2c4259e8b83c839ff539d48b854ee31a
coq-dpdgraph-tools a4c4863a12a026bf8f65552276ec79d6
courier-ldap 59e644146a903a5cf765b1a1794c77bc
cplay-ng 486a87897714136d9d2907a93d02d8b6
cppcheck-gui a5b195958a0dbd8a7eca7f99f946e638
crossbuild-essential-ppc64el 9b2629bcd07961cfcb27934f1371078a
crystal-facet-uml abfa291630d5726b711c86cc6cfe0f3f
csladspa aeb5e34cf897c1b19253673a9a83be20
csound 182da96d0b0fc26ba05910a1f53aecbd
cssc 8fafd7279ef2491fe5e9d0eccda8a40a
cups-bsd 8ca999eda442e2096dafa2745e4db8de
cvs 62e6daa6a4968f3b8a09c5e8724afc0c
d-shlibs 2b2a6d753f6c1dd5355d8e45ca41a451
dascrubber 1cf5e69497508e24b281ab1411482109
dbeacon 715c2427af3745b4f6fca2f21ae05b30
dbus 7c48e5e44b120f1b0ed0784fa95d28b4
ddcui 59d06ab30d3ad51e518ff5813b6aa34b
ddcutil 4edd4b04df8fc05f6e606ecac2414dec
ddrutility d94e35637821f14aae35a7ccd68c3382
debhelper c3d35229c1ce392f77324206e097b92e
debomatic 79f67124cc6327d4a58ffd311de9cc7f
deluge-console f29faf70c4de4cae8ed6f4b36e13fccd
designate-tempest-plugin bf6ab1ee68398d0cd496b51bf4778e2f
dh-acc 67bf5743ba48724fc6a78e5293422eed
dh-cruft 42ee11eb7fef9e2a87cfa664ac705c60
dh-fortran-mod f335ff14f9816884de1d80c04e27c4ac
dh-linktree 7ef44f371b55fb620fe2ec953830eab4
dh-octave d7a3f4307607a5035aed4036a728e25b
dicomscope 36e87fe3b90ce3dcd455f7663a90c3c8
discover a5dea31ea54f4b79eeb359717cce264b
displaycal 96c7f50f45d9af9a2e15c1be1d86bfe8
dnscache 30ba9f7ccf3fdc71e9c68bf2cb1c93fe
dnsmap 8da238b788e263a0deb14cbebae67043
dnsproxy 6da369a1a9ebbedee375a89b1253ceb5
dos2unix de26f1b3d43636b1499a335199109277
doxygen-doxyparse 66bd003da4dbf24298eaa0744dd1572f
dqcache c1afa7dace16fe17324cbfc06ea838cc
drbl 4c7ea2c04a4826fc2240c239793f3bdf
dropbear-initramfs 5dd10490aa9e4ec06e1152daf8823742
drraw 7761454feb339fca4fb18b1cc8900fd0
dsdcc 6fe3fde5b1a402f399c07efd1b7af70d
dsdp f23b1ccc0454351abde108cef0799570
duplicity 4d1078d59b01217b0f9070c1c5c93a05
duply d2443380a9b348cf418e3f88d3f5bd28
ebook2cw ab07c6b1bc202fe0833bda2387070f2c
ebook2cwgui 6071ce85f8c4c4bc2a8ef713af3d954a
ecflow-server 7e89b304c0e7747b0f79b63729eb8133
edict 5ff629d66bbe71a6690890bdd67a8cd1
edict-el e3092706d17ebbc7a075dd311f90f92d
eekboek-gui fec67544aeaa61ac5e8e7ea720bd2928
efte 35d816f7c62701edb651fd7fd514a924
el-ixir f1bb217bf4ba1bc426015ef6d0c194f8
electrum 7ab2211995f7af9a7ec7c6fc71baf9c9
emacs f991b22b712b84422dc583d29a7b2171
emacspeak 1e098459f1d5faed9ec8b4ef129266ea
embassy-domalign 4149429333c4c57628815096efc54167
enca 2f9c7fe9acb67b4a62500c271d337572
environment-modules e68d2dab565934a6f22604cc65023018
epic4 deab0227c20efd2b4b1bd5a140b463f3
epic5 6d8a541e08d80d4b65dba9febd82c8d2
erlang-p1-tls 0164ba8863deb83be3bb1a86c3742f94
espeak e4d7ea42a09ed7423403adc9c62ce2f5
esys-particle 04ba0c118e19e7a213b0c75adebeded0
evolution-plugin-pstimport 235e34cceea2b696a02434f108471df1
ewipe c2b1d4c8d372cb906f21e7d0bdf591b2
exabgp 29fcdd53aa064940ec1e2f06a3cd3dac
excellent-bifurcation e8ee47816563594d5de51773ef9cc352
exim4-doc-html 73ca59c47a017d63ed6c9d76704b5a85
f3 cf32b7f354885dba4a32127ec3a59bdb
fairy-stockfish a923f3cfccab68767057097e8a0425aa
fastq-pair 7663b589d787372f8eee9e240536c22c
fatrace 93aea8860e9021f1c584bfdfe25751c2
fbterm e70d5cd58a75b890572e92dbed274675
fcitx eb148ca7ce16b2d84d02264d801fd140
fcitx-frontend-fbterm 12277ca691e98d9f53e8b96510dd40d8
fcitx-frontend-qt5 91c0b0047102974e18f3e144ae30b137
fcitx5 59968c4b78e126723a4c757d401dfb7a
fcitx5-frontend-fbterm 742a1fd75a46e748f6fcac39303d6c3f
fcode-utils dfcb8c3a232680ba841e3fd1869f5bfa
feedgnuplot f0873994e773a6073cfe1c79ac24b72e
ferm 72483f2f5f9153295b67c751fece6d34
festival 1426e113a68d1ed6c7f4e04b2a40e020
fetchmail 05cb6c758ac9e6de53b36438f8f52a45
fgetty adf6e49eb3c5ed7997a337ce11afd924
firebird3.0-server 2134827313e90e2003de2a24bcb319ef
firetools 2af62c01868a12849d75e5a7c705c3c9
fis-gtm 956ff6bcba2fec68313008d6621dd310
fitgcp 6d250046a14f2fb020b753ee88032582
fizsh 778ef70241d4fa1d25f992bf7e3ab7c2
flam3-utils dba66d6d4c551cf4541e6cfd073ef55a
flashrom c30d67cc67b62e9308ada234b1d11f09
flatpak-xdg-utils f267f49a85c386a7c0188895e8b44f29
flightgear-data-base 55d5c53bd4538f092d72fa0c23925eb9
fonts-b612 254392e9bc8083ff24c09a1f4f0b1acc
fonts-eurofurence b373c9de7763727f0b65b8c95ba29f54
fonts-yanone-kaffeesatz cce4fa8fad4ac8ff386afbfb2b018662
fortunes 0968b0a1488030ccf0daaabf21c179ab
fortunes-bg d6f2089fa76e5524a171b9bfcbb2ed83
fosfat f485568ff529dc4b40f588a516354d5b
fpc-source-3.2.2 2ca7ad1302a80136317c534a3c10119d
freedroidrpg cb18c3bd823ad4ba82833c874a0d3d91
freeipmi 691cff5182f8f0538ed75a6712f46bcd
freetts a346fe6dcc2c0164ec6b7c3891945e56
ftools-fv b5f8936256bd9de9797fd78367eac736
funnelweb 57a89d87ac07b0d3b60e5bccc693edae
fuse 7c02c670c9296dcdf481f6c060b0083d
fuse-zip 0f83ee6670b38295835acf55689c89f4
fvwm 50cb43691819694c8a5a0f6835f2bc86
fvwm-crystal 6b179adbdecad5549518078cba102ce8
fvwm3 5bfae36b498c66382b04923a7bc011d5
gaiksaurus cd7a9422f7b395eced20807348b25418
ganyremote cb7bb8b68527d536d19659cede32b9c6
gap-polymaking 23b1ed087c67c55957af4a7ffc66da72
gatb-core-testdata 7e23156c0c905f1e67407bbf95e7d7e7
gdb 4f2b8eb95df2ba7a5b11e0301c48b8e4
geany c0d5bdfd9932e3c9874301db29cfafa1
geany-plugin-autoclose b493756d62cf77d299b875cc4e5a8ee2
gedit 6f23bb18bd5efec9c9262b1291b92a8e
gedit-source-code-browser-plugin 69dda685ddfe8dddeb2e557a6e6fc2d0
generator-scripting-language 5a179059900204995bfc9ec6467ff829
genisoimage f771a046498c00cf831887fc4da45a69
getmail6 09c4168831bf7d57c2fbdb2c58e309d4
gfio 9bb718a074c8f77e491c6cd74410d4cf
ghdl 898aa78eff5e5684d36c1b7162717375
ghostscript edd5fd86eebe72742e607f32760610a4
giggle a8823bf69389c46ab82d63486fd41ce7
gimagereader 48d985281da7da5e501aa4c82fccbf2c
gimp 0c13253910a0a1bd77c64d38c07351a0
gimp-gutenprint 86cd87bea6547c9da804d9b56bb0344f
git c1f968556452a190fe359bffd151c012
git-crecord b848f1c72f7d0570cc9cd16a929b6fcb
git-revise 4853d9135358657442b5a2e767b8924b
gkrellm-bfm 533975de70ebeba8dff14f31a86ffc00
gkrellm-cpufreq 2ff4eb4894ae08c62101aa6d72cabd46
gkrellm-reminder 13ce17e5bdfe69cfe206fc53b88587e7
gkrellm-xkb 4e605d76fd2cb22b28856861a295602a
gkrelltop 9e4d9bf232e5eeb91171c37be9e9d138
gkrelluim f95bc6680fc04e7c07e1fe726de3bac3
gkrellweather 5b63b846dbf6e0aa1f0b634255ed22bc
globus-gfork-progs 61b46950a26c299f1b4b262331eb5f3a
glowing-bear 971b4273d9b109eceda9d91996d2e6eb
glurp 06d404959e879569bfa20ad154f31099
gmemusage 779bfc68dc326f28699bba0f98f73e59
gmpc bbbec091f0b170dc293858b6c780781c
gmt 8ac67adc3c58bce0682536c089d9c7ce
gmtkbabel a83786a83af06eff9ab2c4fb9f300318
gnokii-smsd-pgsql bf5b18f06e0393a8e54b6c35174064ea
gnome-activity-journal 84a0a7729820bb29b3794dc08bda032f
gnome-control-center 841ec7130e7cda8d105ccf44ab60b8fa
gnome-genius 42076cb53eb35b8fa7afae234875a4c3
gnujump 6c30e85428f9c2825fa514e63012e2bb
gnuplot 0d4836958a95d3c2e95ef10c1010d671
go-bluetooth 7dfd1fd2e23fca4c8bf3b4c82f14ece6
gocr d8466b1bc9d106554f49d616fc0a5a1f
goldendict-webengine 48a98e06d0e9411a8e9194e63e2ef1b9
gphotofs bb204691d38bcab14b35067c2f13c857
gpr 74c5c819743f1939ceafd5caec23bbad
gpsbabel-gui 0e1f802005fa4c96bfd58de5cc5403d2
gpsmanshp d6b468976323ebf10fd40353989073b4
graphicsmagick 49dce754c724afc2a734936e7250be4b
grdesktop 11fe1404ccd7f3abd972c97948f49006
greybird-gtk-theme c43b7907c5115df43a9907ba3295a728
groonga-plugin-suggest d70d7df6990d310e89642c664e18a4b9
grsync 0ac8f84c8fd587a0895d4e8eb0faba34
grub-xen 2eceba62a74d5d7f9e98f3a6f5d2a1d1
gstreamer1.0-espeak ffadb66a9d7e3c13cf929c1a08fa7c29
gstreamer1.0-pulseaudio 504e4012c06b50368aaaaef3d4829462
gufw 6ba71ac631b02c0d683f78355db5e633
guilt 849c974e0891c5ff51c79d0e2569c04c
gxneur fa6cbe2326652ac83e9f526c0c2ceed5
hatari 0d4554dc3f1466ddaa3e899620f71348
hdate 3a748b7e3d5e0c3e7492c6f9096040d5
hershey-font-gnuplot 08f3e746333434ee3a6ef3afc4d9cad9
hesiod a961e1508b081366d98b77b58c16e59d
hexedit 2d8273d511784f0f3c8cbdada3dc68e5
hledger 6b8a5eb2f99f3234c9f443348a3622a9
hledger-ui eda458f9743446a0c681d8a595df1adb
hledger-web d5107a553f8485e6c6e7c7a81cae87be
hp-ppd 1eb9301dd41595de93bbd5b5c2678d05
hping3 38162e85685024dfa6dee678aff60576
hsmwiz d62ea95183fb56a7a857154a03f47069
htp 018fbe68e7854f044b4477c7285ca20c
hunspell-el 0293eadd80b386b7b851b62c02171834
hxtools f3ff8d83192e56475e60295b15d86d4c
hydra-gtk 25364077eb1285c95bf71e904e139347
hydrapaper 0b258e60a63e8ac720678817515f5a52
ibus 489faf3b419b10c90a2fd62eb552cc93
ibus-anthy 505c94c7454cb60018e66638b33fc6c0
ibus-keyman 9d22871b32086b0d2af069bf1111064d
ibus-kmfl 3fc2c43eb78c90a8a8b444b89369020c
ibus-typing-booster 8df8727a23407ff87c1e854faf927e9d
icc-profiles-free 6584abf9fda2e191cfa8f85a81a04059
ifplugd 1e81b24efbffc26be8c4c06a4960c8e7
iio-sensor-proxy c51156da1a0cdeb9cf68b6b02bcdc255
ikiwiki 0cf5166fc2f9cf80c74ea6c0497b7353
ikiwiki-hosting-common a9dbb4ce8cf09b5888a36e71afaa2735
imagemagick 454d44b3e8d4177be027105c6c73b6f9
imapproxy 76b744a409a9f67cd0257cbcf23a787c
impass 5eba872bf0a9dfbfda420046fe5f2c0a
influxdb-client 6a069ec63536b234ccfd6c6cb9c622be
ingerman a4df59d0382bc764acbb1113950bfab0
ink 0f3afbb9a7893c7aaa55688c30a26da3
iodine 90270d5a178f538a10192a5f9d79098d
iog b4bcabd79a034cc127f07ae7a778db13
ionit 74cba944882a4f2ecf988f667fc73bce
ipadic eff1ec5477c7b450aa8e1a4494f38faf
ippl 345418c3204362d33f2651ff8c24de98
ippsample 05d52956afe38a8b243f3a2ec451472e
iptables dc4b91f4ed9a9f9fb4896c64ab1f7992
ircii 3a15243ee0084faa77ccd3844c653b4c
iredis 9a9d3256e852bd810eaa6ac13aef13fc
ironseed 1d0fca09583de0a05f6614493219a60d
irssi-plugin-otr ccdc9bf1f4518f74c48965de9b687e8b
irssi-plugin-xmpp 9f5f35daf3f2cffed19808e2dced9b43
isoquery c153a6ff7aeb974b58393d41bc120cda
ispell 577e95b1fdc6375f1bcda985b53bef21
jam 5a03130b3858cafbf6e0b7cbd0ebe7ed
jemboss 4a8fbae4884c8d88f110332b42c9fc21
jmagick6-docs fc6321b529f5789a661cfcd30b71b433
jsdoc-toolkit ae4176730402fb956c93bd7980876741
jzip 1fd33c5751e02ad525634c02d1c4954a
k2pdfopt 458ca57c840bf20d9adb4077e5e99e32
kaffeine 6d48b7714395644c82ea63fa5e6d8ba3
kakasi f0f66559397980340862f598b74db91a
kamailio-memcached-modules 8a1b5b6a49b64c3f266fd53f56497b9b
kanyremote 045cfff03f8c04739a66d5ab5681b8ab
kdenlive 4e8f8c02918f6de02fc8e354d08ec99c
kdevelop-php d91180b50795db82f54deddad643d239
kdevelop510-libs 1721eaaf84e3496ee21aa4d1fedebbc3
keepassx aada8c7754adda89a1f4854093c47f5f
khronos-api 4a41e23eab96fdfd75f06a983cbef89c
kid3-cli d807d3b11a6370bc3c231a54da912f98
knot-dnsutils f64aa9c9eb0ae3edc9a66df67c1b3ba0
kodi 8cbb7a58aa8f70442021b6474bb4487a
koules 5e74c137074cd9026f35ac59d34010b9
kpcli c3328856a477499a2993f7a5ed9976b9
krb5-otp 2f5dd566c16f346d882c733b4d7b1206
kylin-scanner 0272fe49d15841240ba9c5f3090ecd52
lcl-units fdd6c1796157b68ff72aa661f317c613
lcov 570ed45e66b332fb729dfa76f03dff58
ldb-tools 27e8c15a8859e3368f9f6a0853f05226
ledgersmb 0fe512e16e4ea9494fa9bbd5935e9aeb
lemonbar 40ca452a73e428fe5e2e019fb68238a8
less a2c2d2eff1fb9762b71faf7540cf8dce
libace-perl 0beecf4bcce569f15c4ea5e6cd5c8d79
libchatbot-eliza-perl 373ca099aca7e65509e910ee3b76dac9
libcrypt-rc4-perl 0b15e247814ec390b9cc3724f41bf758
libinklevel5 777026578bc10b8a35e20be747d513d8
libmpcdec-dev 25ad82b8c07d97a152de2e7bbb249382
libopenfoam 03c5770cc760693bbb21400c29d6894b
libtablelayout-java 9826495a46778cc88026b2c0908a8309
lightdm ae12e7dfa730e4fc1223ec3527168706
lightdm-autologin-greeter 686f325f20032cff6f6c652c3af10ab0
linkchecker d2cf41ab6ad5ebdae5e2e76582637f0c
linphone-desktop b9aaaa8aa96f5ad727be6db80341bfde
linuxptp 3678f13807c05861be8c708a652e8e9d
litmus c1a019ac3a1ebcd4bfe20542e4f943f1
llvm ffb2ad1faa8b9702532e67eba7253b5f
localslackirc a75df354c835719ba27929b1a76367bc
logtop 2379dcce3976070637baa3a01ab7c323
lomiri 89314b23acb88f5e486e3d3b4f041663
lomiri-indicator-transfer-download-manager a91a58f6f464ade815debc08ebce69d8
lomiri-sounds 8f5bbbf244540b17315c118bab40ffe6
lomiri-ui-toolkit-tools 18379841c6e5944f8bddb42f8c2e86b0
lomiri-wallpapers-20.04 0b388da55ae60266d647ae6a64dffd06
lpr dda80fd521c8858f31b8d27c8900a20d
lrslib bc62dafa0a5a501c68508823e5d8f398
lua-cgi 562089ac57f1c001358d3459f66314ea
lua-hamlib 40fba0740af5fb55f64a82ca18f8dccb
lua-luaossl 204ac4dfc0575bc9c61c4bc4268bb8b2
lua-nginx-redis b26ae873b440303f49b0278351b8d2f7
lunzip dad1d8486f5fc429767e104dba9c5f90
lure-of-the-temptress e24bdc7ea53bf81676f91ec11b58f930
lx-gdb 0646190789168933feda7186f5d8476d
lxc 4ece0dffd153c29e95ffdb89f8238dfc
lynx eb50e2d67d641779289fe401260cf921
lz4 559a59fa22d506a3fde0f4eef6db1a8d
lzma 2d94f8c37f21a8d03b49ea85653fef54
m17n-lib-mimx 966ec39a8710e82343da3ccae50c5f66
m2r d2d7ecf2d21c184d973322f2eafd5028
madplay bd7e690248fee90240396eafd52390fd
magic 3a4ecd010eeb986a2e9e0316c1bdbfae
make 3ef13fe0be8e85cb535b13ff062ae8eb
mandelbrot-solver 1f34cfea753700216b4b23a4fb77893e
mapnik-utils 27e63d7a1e67e83793688f05c93c0cdc
mate-desktop 6d7d3150b8e89c4689a4a7170fbe0634
mdns-scan 724eeaa2ae2b9134573a86be37ee5532
mecab-ipadic c5f8b7f5209a0aeecb12e0797bb2a3e1
mecab-naist-jdic 1b71c3e4fbd42d5da705798b6278835f
mediawiki2latex 4f685e1544b6dd8a6820e930e2bc0d46
mediawiki2latexguipyqt 22c868d68dc958e7456bc1d1ee6bbd93
mednafen 05d49b3a8a674ee93272f94476d74a30
mednaffe a7ac3990815e37fd9c8c7e036bdbe1cc
megahit ca1a5f54b468287b534b0f28a3e5a51a
memcached bce5393edad27bfe3ded536243320594
mercurial 01f62ef3bd1477c40a17577e8dcc5e14
mercurial-git 590884d5e652e281148b56b21e2854b0
merecat 14482c68340cce4881a0bf2e5be08b5c
mew-beta-bin 2a8e0c6e55ff34bd8c6ba7e95c3c2c07
mfcuk 8ee7baed1de25ef87738efb7434e95bd
minetest-mod-mobs-redo 2297f2119b30dc3ec68625c193a3cf99
mingetty 0ab16e61804b3e3dd3d05fa683c9ef0b
minisat 638e185d46cca4091c1f6ba3a13b4c28
minisat+ 5abc23f5b2ba8e7a876d2a8e3bf6dfdb
minizinc 2e28409cc66f9a9140d34ec21324d233
mkdocs-autorefs fcfc9605ce9b1094dafeecdea7e2831b
mkvtoolnix 0a49dc700e61a811ff94909c13977f82
mlmmj-php-web 3488f99919352151e2a2c8c7d5c8be0f
mlterm-im-canna 7b1d3197b482903c544d42f94577ea50
mmh 6648b3380bdaf69b4d20d0c94a81191f
modem-manager-gui 314225dccd2e8b945d86b7f542fc2542
modemmanager d48a5f95afd9e38267ce722df96fa4a2
molds e4dd2cae798824b2fe9bbef772b35774
moreutils fe92b00292d03dc58e79fc3733a6db2b
morris 9e47064f58054632e549d0c425631bde
mosquitto-clients 985d19effedae01383cfa3eaa155e7ec
mpd f318c4a927bba8215d5caa973656c5e7
mpg123 5ebabad0916ebd65863379ea1316b415
mpg321 cf61479ef1985640113a399b6eef8973
mpv 42d61bf874a5fe751d6c1a8601d1276d
mpv-mpris bc59570cb6a94332659a3d21cb442902
mrtg bd763d8383ad61dbef13a046b0bd734b
msort-gui 1a0a41410a5d6985782a3358f7a62a3b
mtkbabel a10d5e475719632e939da2b774ee0bfc
multiboot ae273904c0661984177ea9a25cb22051
multimon ffeaaf9dab968c34e026c9d3ccf7503d
multimon-ng 456698c7160026c5abc2f3f3602a4b24
multistrap 00da7af986f3f1e607d2550468b78068
munipack-cli 5915e72f3644afb7187e78cd946df0bb
muon-meson 0304a15479d9a6c9e28200cdc083d719
musescore-general-soundfont dc11af2901acb0a8778de9a541753040
mutt 14c29b7cb02b614c08865f8fb8a0ac39
nagios-images 80ce9c4ac2a60b71709fec29eadc38ea
nagios-plugin-check-multi b020415bb054699cd451220a49b98d67
naist-jdic 16629e874fd91390546f29e1d321d73c
nala b5d4a9749a15cec7aa34f09342af5c0a
ncmpc 9537c06b8dcf9b5389fdd75d1aa0934b
ncmpcpp 9898d1942d8668ddedb0e51e6d64c40b
ndisc6 f99e054f0174d000209b735d28e912a9
neomutt 6458d4b7466ba2e6036b972b3f1d358a
neovim cc27d693d853e57070e8edb4f6132d4c
netrek-client-cow 180b31ec4f3602c945ffa2b5f46c1f3a
netris 39b039b1f95be4cc4a4b7ce3c7558aba
netsed 58f6db78c586242cc0ac4b338ebccdd2
netwag d0d05f8c1d12f0140e82649c3502e1b0
network-manager-iodine 6ae890d206a4e62ca2a3af16dbd0068a
network-manager-openconnect 6883a34247d7b5391f9b22c61d4a30d1
network-manager-strongswan d5f9a35e1e6495ea14e01b891e4dc2eb
ngmlr 123cfd4d1fd08d8ff1fa4fa20510d1b6
ngraph-gtk-plugin-ruby 2a93b6b2b95b27d2ae20ce1da443b112
ngrep 8a3f8312388527a9d518e8ed9294e2ba
nickle e74e3f8e1a10529c636a806fe87cb981
nmap bc417f4c1fdba7d8d9b0ca8a2a90b7a8
nmapsi4 0b53779fa69d66d48a285fa2f5aa08b8
nmh 0fe4ac62551f8d845ccba50fec7f0625
nmon efcc2b048980a647f20e53943a1b622e
node-nodemailer 2d3bb055a52f498e97077b6897ae301e
nomarch d7c400234138a0d9eadfcb6a9ecc6922
nordugrid-arc-plugins-arcrest 1a26913479dfdc5c263fd7c4dde2b362
notmuch-addrlookup f92f1da5260522c5521b61e09a9cd64b
ns2 0ddfce2763a7238c29114e99a3b0b557
nsf 3e3d95eda40cf35b06257033748535a5
nsxiv 860c4a405c01d96bd0a327bcf4cca01c
numberstation b3cddcdda571af9bdab04251b61458c3
o-saft 57c10442e54042c80fbbf7f21b49968b
octave 0b698a784c8abd598a990058068ce427
octave-lssa f4c27be4e993dea3ed85c6ab7df596de
octave-netcdf 2dca8df0b3d6d0e1f6fdb3c597587f5b
octave-tsa 564508159dc8968577bbd78123dbfc48
octave-vibes 84932829318338d5caff56992e890f4b
offlineimap3 26959832ee88bdeeff8e41015f731081
ogamesim-www 68576e9e32bd2062f078e6c7aad1f4ca
okular 85b8505bf18481fba446ca13d4571473
opari 69096c9c1641fd3c0f61bb0e5b7ea2b6
opari2 3d575c8d0872d3c9b6e81ad1313fbec9
openarena-oacmp1 d3091e58d0453a6780ae1153e94333f7
opencfu 6c95ab1114f0755cb8c686ff172d3673
openconnect 562198c516b1de1a9de75dba8b962f53
openiked 1b4f0a2a7ca5489e8832fa3474e974e1
openmcdf 626f053aaf700aac0c4c5df070e8e585
opensc dd2ad5a60d89b751725f27f8b92414df
openssl 9b6de2bb6e1d9016aeb0f00bcf6617bd
openstack-cloud-identity 1225d102e6463e16c3dcf2ae6bfca18e
otp 98841fa857f52c2ad64211d92f12e915
oxref 5680beed26bda09d6f78efc6f8f48aaa
packagekit 2a370c6f43c72ec3adb4412d3b3bdca0
passwd 5bbd70e421ed3367a8299e53bd7afed4
passwordsafe 667b7ed2f64a89cc321b334ce881c873
pbdagcon 95465f5fc6fbaa2db477a48c78b7cd82
pd-mapping 06f4ef80e5dd768d22442caa9e742f53
pd-markex 2f645654f7dd05889d9e17f7c7c292fb
pd-wiimote f49d005af7eb2b5cdaa3daa9400340f3
pdb2pqr c860a092fe2d8d53f9e1d87375d1389f
pdns-backend-mysql 2408f9d9ae1d9b880b7db925e7e4e956
phat-utils 47f9b215609fa455ca26a01695277461
pilon 3138e4f6f782aef88c113d1dd450fba2
pipemeter 4c8ecdba3f90c0ec54ba81b6a2ab6a6c
plymouth-themes a82ebfe71db843f20f9eb0546c2b1832
pngcrush 3fa9f9dda281f8e8843940a73b1d1ed7
polymake 1faec0a266251431c0136db85985a6f3
postfix-sqlite 78969de91802d7f52e4f5b456e3732f9
postgresql bdff2d6e5b2a1dd00e72b3ed8729d9ac
postgresql-15-plr 6a964e0a721d2cb6428a8f9c8c0e52ae
printemf d982da18bf467ee2eea5b16cdea85fee
probcons ec79ca582ac1aa23325a39ec48cbbf02
procmeter3 480118c1ca2b05aaca4d18837792f8ef
proftpd-mod-clamav 72774919d023d288dff6bf6231d1eee0
psgml b2c9b27f4900c636147820686129e7b3
pulseaudio 15c158aa11824c8a768e4d670919d02d
puppet-master-passenger 454b4d24a131952f66c16c7ca7175e1a
puppet-module-congress 772d9d53b08a6f5519b8c7b2e554e622
pushover 741335129198f28d927739f0cadb692f
pvrg-jpeg f767012c5e7858317c635900e09309b9
pygac-bin 8e354ecca3d7d2727140c8b81cafa07c
python3-anndata 9846d1a2d0cd52a553b124fa581a832a
python3-changelog e7f32501b217ce65c5453ceaf8250e6d
python3-httpbin 0794f60858b9409fcee467723bbbfd7c
python3-pcbasic db3047db26070d09a6662ff2169ee76b
pyzor acb4f5cb134d3f8673a3181266afc38d
qfitsview 4cc64d31da3d8f40331fc44e30003656
qmlscene a67138f4ecf886d0813d21f0a39bad26
quassel 20198322cad41656de05fbc2bebd4524
r-cran-r.oo cbfa3fe9ef3d0d68f9ab5399ebd99b59
rdate 673697444ab8760cb58945c4651927a1
rdesktop 8c862de1aa0e735c7fe6d7de229c8248
redis 78a6a1a27b35b2a9388a817f91f05f71
rhash 1b9baaeabf77319f9a71a4784a419af4
rime-data-bopomofo c160f77672cfe54fc68e32cb2afc5454
rolo e9f1159f9dec94d6d710ead9af5bd2e7
rrdtool 2f208d113d46aef6f7eebb6f8537a07e
rsync 3bf40f318d2abfed74fa472aaff46d5f
rt5-db-mysql 9f03358a474f091bb6f231b5b132aee5
sane 2f448d14f906e21875602c8f002bcd5d
sbuild 9e15ceda32607c62e78e4f4d946f038e
scheme-chez-srfi 29ad262b6ed4dc79ed58ddd31ac07a9c
scim-clutter-immodule 8851b6c89f6a4e2c3ff4c85f61fc234b
scowl 8271a64616c7dedad8c4b1602a326d8b
secnet ce1982ea441edf7c3452e3982beddb85
sendmail bbd5bcb657e377a34338360f5cd6def0
shapelib 5f083296a799739148faca7ef3b89dc6
shutdown-at-night 56d637309b39caca8e8f93fdaf54da0a
simrisc 128b74ee0b7a95717009d04d20b18de5
skyview 5006622a5557aba7c536abae7455ff1b
slack b9e6ba56c6e0feee160733514fb8a752
slang-pvm 60d2e50d7fdfcea177b281e9ff538293
sleuthkit aca4cf399f20d5cd832f48c7e7f247bd
smrtanalysis 07f41ceb2de8cc7b1a670a30f40ef08a
snibbetracker 984da6ea0684c969bf1e931361ecb76f
snowdrop e0d069e0840ed41b2b8b7575351d1620
sofia-sip-bin 204c7b657e4a61ffc86836b00cdb7014
sopwith 82a9c9287a030d38092881bea2ab6223
speech-tools 23bbb81e2e55bcc1d07ccd37a4f11944
spin 6f4b806803aec0404f0de2b0f81b16b3
sprai 31aa7bc49f29e00fa2d3e5c2c24629a1
sse4.1-support 248c203e37b6c59808dcaa600f2a9acc
stardict-plugin 40347a8c5cec11989e8049e75f8a1f46
stda f965787e3a9b0389d9e9895e1addb6e8
stgit d6e7c4f9aa71542e1a733da8f87ae3b7
stockfish 1c88e787fea0cbec572e73232f9d09df
strongswan 60d8ad9f14179591b0cca394e94e3d4b
swift-account 3036744e8c7a33630c66000de276bc4d
sxiv 6425a84658b6fb9af317f4894acd94a6
sympa f7b0e7f08562536810997073c968428b
syslog-ng-mod-riemann d660ca26b43c6887b08eed42518964cc
tar 48033bf96442788d1f697785773ad9bb
tcl dc49b54190858f10215816ea3b0a62d5
tcl-expect b1756b2ba47afc10b021d4bcbb58a6ac
tcl-xmlrpc fa35d3c154a3d413e1b32781a96e983a
tcpflow-nox 76da8a6b3535d01842b7329ec8415640
tcpick 6f94b49296593c10212a6c887288c03c
tcputils d31e27c0f12ffd39100da8edc49453a8
tesseract-ocr acb8df45c462787396725e59a64b0636
tetradraw 05695ee945ed82caadeaed9c43fec20f
tigervnc-scraping-server 8809dd32d0beea637ee02f0299b5818a
tractor 5681d7a901fdf5c5bf55489934043dbb
transcriber 197da0c094251df4fb2b291a01af13c9
trend 525300546db97b6a1d3da6f08982f942
tutka a030555aeddac862e6cfbffc6f0a360e
tuxpaint-stamps-default f5e169abc43cf6bffd80485010cbe5b7
u2f-server f743efc486b0e360e50efc75267a0988
udav 41de96def3fd7f213494f10cd0198de7
udisks2 80ddc8936dbb5d3128956adfa5317119
ufw 90e09f8ba6c08a5698b47f5da441b4a7
uim 7d5fc5c62a66ae896a4bce984f82125e
varnish-redis 5c3d4f4de9d2199b0073b6bf4d0ec917
vdr-plugin-satip 3e881a5e28601ce35cf7abf721bf9fc5
vim 59e8b8f7757db8b53566d5d119872de8
vim-migemo 30855a24c63eef8afbd10e5e143d125c
vim-voom 83ee74f822b9b954a1f1e013215b0c7f
vlc d96da6b991aa50928533b16fb11b3136
vm 164af13ec3672187475aa63d0d910f3f
w3cam 69245ae954036a02f69947aa3afe7171
wcd 35ee373395c5d7cfdbaee0562a36fa5b
webcamoid f572b386468b9a3ce3ad23b4c33caedf
weechat 49034d6f5708e15267581e194a3b3aa1
wesnoth 2a71a7a2a2874f7f0bf25835fd6bebf3
whitakers-words be0d71627b12908eb818e2a91e46b10f
wmf 7bd931bd825209e2ff162139aeb83a0a
wordnet 791162978c67c87be997340ea3bad976
x2vnc 18d0504a7dbfc1cf93743b234a7886a4
xcb 0911a7c704aa796e9cbd009fd80cb021
xcompmgr 440e89397bbfb8d694f7eb100b8100e1
xe c4c4b287e1e5d625420e261ee33294cf
xemacs21-mulesupport-el a5536dd3af13ea6750a2443b4130dc58
xfonts-thai-vor df698bf4ec1420b06ca7d1364f8315e8
xhtml2ps 74f5ad0e14a77a0c2ac42d20b05253f3
xjed decddfcf84e7558cb63bdec96e12749e
xjump af037c22dec141dc1b36fb8b9df3b12f
xmlformat-perl 87f0f8b322f51a7a3c1ef95747a3f7eb
xneur cddb199e88dad2b045b1dfa320cc79b8
yaha 93435da37e2ea580b6a7d1c2a5ccbafa
zeitgeist c350bb2f17f4b77eba9515145823d076
zeroc-icegridgui 6348b814b4c9693ea79392af1e3b598b
zip 581928d34d669e63c353cd694bd040b0
zsh a129d6b2d23d2d5d3a6b822d3f8f856d
PINEOF
python3 "$TMP/build_enc.py" "$TMP/Translation-en" "$TMP/pins.txt" "$OUT/encyclopedia"

# ---- report ------------------------------------------------------------------
for c in manpages specs encyclopedia; do
  printf '%-13s %4d files %6s\n' "$c" "$(ls "$OUT/$c" | wc -l)" "$(du -sh "$OUT/$c" | cut -f1)"
done
if [ -f "$HERE/docs.sha256" ]; then
  (cd "$HERE" && sha256sum --quiet -c docs.sha256) && echo "docs/ matches docs.sha256" || echo "WARNING: some files differ from docs.sha256 (see above)" >&2
fi
