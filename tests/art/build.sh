#!/usr/bin/env bash
# A real ART 10 (Android 10's runtime, Debian's host build) for the tests, from Debian's archive
# only: libart and its libraries as Debian packaged them, the boot class path and the two native
# libraries of libcore built from libcore's own sources, and libopenjdkjvm (the JVM_* functions
# libcore's natives call) built from ART's own openjdkjvm/OpenjdkJvm.cc against ART's headers.
#
#   tests/art/build.sh DEST
#
# DEST gets lib/ (every library, each finding the others there), boot/core-libcore10.jar (the
# boot class path, dex), boot/classes.jar (the same classes for javac), dx.jar (Android's dexer),
# bin/art-app (the launcher: an app process), and env (what the tests read). It is made once: a
# DEST whose .built names this recipe is left as it is. Made as root, DEST and every folder above
# it are writable by root alone, so that the phone double's other uids can run the runtime and
# nobody else can change it.
#
# Downloads: the machine's own Debian mirror (its apt sources) through a private apt
# configuration (DEST/../downloads/apt; /etc/apt is never touched), every file pinned by version
# and SHA-256 in tests/art/pins and kept in DEST/../downloads; when the mirror no longer has a
# pinned file (bullseye moves to archive.debian.org), archive.debian.org is asked. What cannot be
# done is said in one line, and the script exits 1.
#
# Needs: apt-get, dpkg-deb, javac and java 17, clang++-14 (or clang++), gcc, patchelf, python3,
# and the headers of libicu, expat, zlib and libcap (run-tests installs them).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=${1:?usage: build.sh DEST}
die() { echo "tests/art/build.sh: $*" >&2; exit 1; }

# The recipe's identity: any change to what goes in makes a new runtime.
recipe=$(cat "$HERE/build.sh" "$HERE/pins" "$HERE/launcher.c" "$HERE/Remap.java" "$HERE"/icu/*.h | sha256sum | cut -c1-16)
if [ -f "$DEST/.built" ] && [ "$(cat "$DEST/.built")" = "$recipe" ]; then
  exit 0
fi

[ "$(id -u)" = 0 ] || die "run as root: the runtime is installed root-owned so that other uids can run it and not change it"
CXX=$(command -v clang++-14 || command -v clang++ || true)
for tool in apt-get dpkg-deb javac java gcc patchelf python3 sha256sum; do
  command -v "$tool" >/dev/null || die "needs $tool (run-tests installs it)"
done
[ -n "$CXX" ] || die "needs clang++ (Debian: apt install clang-14)"
for h in /usr/include/unicode/uenum.h /usr/include/expat.h /usr/include/zlib.h /usr/include/sys/capability.h; do
  [ -f "$h" ] || die "needs $h (Debian: apt install libicu-dev libexpat1-dev zlib1g-dev libcap-dev)"
done

# DEST's parents exist, root-owned and writable by root alone (never under /tmp or a home).
parent=$(dirname "$DEST")
mkdir -p "$parent"
chmod 755 "$parent"
d=$(realpath "$parent")
while :; do
  perm=$(stat -c '%u %a' "$d")
  owner=${perm%% *}
  mode=${perm##* }
  [ "$owner" = 0 ] || die "$d is not owned by root: the runtime must not sit where another user can change it"
  (( (8#$mode & 022) == 0 )) || die "$d is writable by others (mode $mode): the runtime must not sit under it"
  [ "$d" = / ] && break
  d=$(dirname "$d")
done

downloads="$parent/downloads"
mkdir -p "$downloads"
chmod 755 "$downloads"

# --- 1. Every pinned file, from the cache or through a private apt configuration.
apt_dir="$downloads/apt"
mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\// && $i !~ /security/) { print $i; exit } }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
apt_setup() {
  # $1: the mirror for bullseye (the machine's, or the archive once bullseye has left it).
  mkdir -p "$apt_dir"/lists/partial "$apt_dir"/cache/archives/partial "$apt_dir"/etc/sources.list.d "$apt_dir"/etc/preferences.d
  {
    for suite in bullseye bookworm; do
      uri=$mirror
      [ "$suite" = bullseye ] && uri=$1
      echo "deb [signed-by=$keyring] $uri $suite main"
      echo "deb-src [signed-by=$keyring] $uri $suite main"
    done
  } >"$apt_dir/etc/sources.list"
  cat >"$apt_dir/apt.conf" <<CONF
Dir::Etc::sourcelist "$apt_dir/etc/sources.list";
Dir::Etc::sourceparts "$apt_dir/etc/sources.list.d";
Dir::Etc::preferencesparts "$apt_dir/etc/preferences.d";
Dir::State::Lists "$apt_dir/lists";
Dir::Cache "$apt_dir/cache";
APT::Sandbox::User "root";
CONF
  APT_CONFIG="$apt_dir/apt.conf" apt-get update -qq >/dev/null 2>&1 || true
}
have() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }
# The cached file of a pin (kind package version sha256), when it is there and whole.
pinned() {
  local f
  if [ "$1" = deb ]; then
    for f in "$downloads/${2}_"*.deb; do have "$f" "$4" && { echo "$f"; return; }; done
  else
    local upstream=${3#*:}
    f="$downloads/${2}_${upstream%-*}.orig.tar.gz"
    have "$f" "$4" && echo "$f"
  fi
  return 0
}
fetch_all() {
  # Downloads what is missing; returns 1 when something could not be had.
  local kind pkg version suite sha missing=0
  while read -r kind pkg version suite sha; do
    case $kind in deb | src) ;; *) continue ;; esac
    [ -n "$(pinned "$kind" "$pkg" "$version" "$sha")" ] && continue
    if [ "$kind" = deb ]; then
      (cd "$downloads" && APT_CONFIG="$apt_dir/apt.conf" apt-get download -qq "$pkg=$version" >/dev/null 2>&1) || true
    else
      (cd "$downloads" && APT_CONFIG="$apt_dir/apt.conf" apt-get source -qq --download-only "$pkg=$version" >/dev/null 2>&1) || true
    fi
    if [ -z "$(pinned "$kind" "$pkg" "$version" "$sha")" ]; then
      echo "tests/art/build.sh: $pkg $version ($suite) with SHA-256 $sha is not to be had" >&2
      missing=1
    fi
  done <"$HERE/pins"
  return $missing
}
if ! fetch_all 2>/dev/null; then
  apt_setup "$mirror"
  if ! fetch_all 2>/dev/null; then
    apt_setup http://archive.debian.org/debian
    fetch_all || die "the files above could not be downloaded from $mirror nor archive.debian.org; put them in $downloads"
  fi
fi

# --- 2. Unpacked in a work folder beside DEST, moved into place when whole.
work=$(mktemp -d "$parent/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/log"
step() { echo "tests/art/build.sh: $*" >&2; }
run() { "$@" >>"$log" 2>&1 || { tail -30 "$log" >&2; die "failed: $*"; }; }
root="$work/root"
mkdir -p "$root"
while read -r kind pkg version suite sha; do
  [ "$kind" = deb ] && dpkg-deb -x "$(pinned deb "$pkg" "$version" "$sha")" "$root"
done <"$HERE/pins"
android="$root/usr/lib/x86_64-linux-gnu/android"
mkdir -p "$work/libcore" "$work/art"
tar xzf "$(pinned src android-platform-libcore 10.0.0+r36-1 75ff87e1ab93f4cc812a7f308d6c73d3853a60fd4beda16e5552c7b2e508cccc)" -C "$work/libcore"
tar xzf "$(pinned src android-platform-art 10.0.0+r36-3 e6f497cf0927591e922ca6945ebf7725dfde65538224b76ad8b388ba8e41ffeb)" -C "$work/art"
libcore="$work/libcore"

# --- 3. The boot class path: libcore's core-oj and core-libart, compiled by javac 17 and dexed
# by Android 10's dx. ICU4J stands in for android.icu at compile time only.
step "compiling libcore 10 (about a minute)"
asm="$root/usr/share/java/asm-9.4.jar:$root/usr/share/java/asm-commons-9.4.jar"
mkdir -p "$work/tools"
run javac -d "$work/tools" -cp "$asm" "$HERE/Remap.java"
run java -cp "$asm:$work/tools" Remap "$root/usr/share/java/icu4j-60.2.jar" "$work/android-icu4j.jar"
# Two call sites of ICU API that ICU4J does not make public, made to throw; one class ICU4J
# lacks; the lambda stubs javac needs to compile libcore's lambdas.
mkdir -p "$work/overlay/java/time/format" "$work/overlay/sun/util/locale/provider" "$work/stubs/android/icu/text" "$work/lambda"
python3 - "$libcore" "$work/overlay" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
edits = {
    "java/time/format/DateTimeFormatterBuilder.java": (
        """String pattern = Calendar.getDateTimeFormatString(
                ULocale.forLocale(locale), chrono.getCalendarType(),
                convertStyle(dateStyle), convertStyle(timeStyle));""",
        """String pattern = null; if (true) throw new UnsupportedOperationException("no ICU here");""",
    ),
    "sun/util/locale/provider/CalendarDataUtility.java": (
        "return new DateFormatSymbols(ULocale.forLocale(locale), calendarType);",
        'throw new UnsupportedOperationException("no ICU here");',
    ),
}
for path, (old, new) in edits.items():
    text = open(f"{src}/ojluni/src/main/java/{path}").read()
    assert old in text, path
    open(f"{out}/{path}", "w").write(text.replace(old, new))
PY
cat >"$work/stubs/android/icu/text/DecimalFormat_ICU58_Android.java" <<'JAVA'
package android.icu.text;

/** Android's own ICU class, which ICU4J has not: the plain DecimalFormat for javac. */
public class DecimalFormat_ICU58_Android extends DecimalFormat {
    public DecimalFormat_ICU58_Android(String pattern, DecimalFormatSymbols symbols) {
        super(pattern, symbols);
    }
}
JAVA
run javac -nowarn -source 8 -target 8 -d "$work/lambda" -sourcepath "$libcore/ojluni/src/lambda/java" \
  "$libcore"/ojluni/src/lambda/java/java/lang/invoke/{LambdaMetafactory,SerializedLambda}.java
# The sources: libcore's own file groups (Android.bp's core-oj and core-libart), without the
# lambda stubs, and the two patched files from the overlay.
python3 - "$libcore" "$work/overlay" >"$work/files" <<'PY'
import os, re, sys
src, overlay = sys.argv[1], sys.argv[2]
files = set()
def groups(bp, skip):
    text = open(f"{src}/{bp}").read()
    for name, body in re.findall(r'filegroup\s*\{\s*name:\s*"([^"]+)",\s*srcs:\s*\[(.*?)\]', text, re.S):
        if not any(name.startswith(s) for s in skip):
            files.update(f"{src}/{f}" for f in re.findall(r'"([a-z]+/src/main/java/[^"]*\.java)"', body))
groups("openjdk_java_files.bp", ["openjdk_lambda_"])
groups("non_openjdk_java_files.bp", ["timezone_host_files"])
for top in ["libart/src/main/java", "dalvik/src/main/java", "ojluni/src/main/java/java/lang", "luni/src/main/java/android/system"]:
    for d, _, fs in os.walk(f"{src}/{top}"):
        files.update(f"{d}/{f}" for f in fs if f.endswith(".java"))
files.add(f"{src}/ojluni/src/main/java/sun/misc/Unsafe.java")
patched = ["java/time/format/DateTimeFormatterBuilder.java", "sun/util/locale/provider/CalendarDataUtility.java"]
files = {f for f in files if not any(f.endswith(p) for p in patched) and "Java9LanguageFeatures" not in f}
files.update(f"{overlay}/{p}" for p in patched)
print("\n".join(sorted(files)))
PY
sourcepath="$work/overlay:$libcore/ojluni/src/main/java:$libcore/luni/src/main/java:$libcore/libart/src/main/java"
sourcepath+=":$libcore/dalvik/src/main/java:$libcore/json/src/main/java:$libcore/xml/src/main/java:$work/stubs"
mkdir -p "$work/classes" "$work/empty"
run javac -J-Xmx3g -source 8 -target 8 -bootclasspath "$work/empty" -classpath "$work/android-icu4j.jar:$work/lambda" \
  -sourcepath "$sourcepath" -XDstringConcat=inline -encoding UTF-8 -nowarn -Xmaxerrs 1000 -d "$work/classes" @"$work/files"
rm -rf "$work/classes/android/icu"
dx="$root/usr/share/java/com.android.dx-10.0.0.jar"
step "dexing it"
run java -Xmx3g -jar "$dx" --dex --core-library --multi-dex --min-sdk-version=26 --output="$work/core-libcore10.jar" "$work/classes"
(cd "$work/classes" && run jar cf "$work/classes.jar" .)

# --- 4. libcore's natives (libjavacore, libopenjdk) against Debian's ICU, expat and zlib, and
# ART's own libopenjdkjvm against ART's headers, with the flags Debian built libart with.
step "building the native libraries"
natives="$work/nat"
mkdir -p "$natives/jc" "$natives/oj"
cp "$HERE"/icu/*.h "$natives/"
inc="-I$libcore/luni/src/main/native -I$natives -I$root/usr/include -I$root/usr/include/android -I$root/usr/include/android/nativehelper"
cp "$libcore/luni/src/main/native/libcore_icu_ICU.cpp" "$natives/icu_patched.cpp"
python3 - "$natives/icu_patched.cpp" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
# Android maps its ICU data file; Debian's libicudata has the data built in.
a = s.index("    // Check the timezone /data override file exists")
b = s.index("    // Failures to find the ICU data tend")
open(p, "w").write(s[:a] + "    // Debian's libicudata has its data built in: nothing to map.\n" + s[b:])
PY
for f in "$libcore"/luni/src/main/native/*.cpp "$natives/icu_patched.cpp" "$libcore"/dalvik/src/main/native/*.cpp; do
  b=$(basename "$f" .cpp)
  case $b in libcore_icu_ICU | java_math_NativeBN) continue ;; esac
  run g++ -std=gnu++17 -fPIC -O1 -w -include string.h -DFALSE=0 -DTRUE=1 -c "$f" -o "$natives/jc/$b.o" $inc
done
# BigInteger's natives need BoringSSL (not packaged for a host): registered as none.
printf '#include <jni.h>\nvoid register_java_math_NativeBN(JNIEnv*) {}\n' >"$natives/nativebn.cpp"
run g++ -fPIC -c "$natives/nativebn.cpp" -o "$natives/jc/nativebn.o" $inc
L="-L$android -l:libnativehelper.so.0 -l:liblog.so.0 -l:libbase.so.0"
run g++ -shared -o "$natives/libjavacore.so" "$natives"/jc/*.o $L -licuuc -licui18n -lexpat -lz -Wl,--no-undefined
art="$work/art"
art_flags=(
  -std=gnu++17 -fPIC -O1 -w -fno-rtti -fvisibility=protected -include math.h
  -D__STDC_FORMAT_MACROS -D__STDC_CONSTANT_MACROS -DNDEBUG -UDEBUG -DBUILDING_LIBART=1
  -DART_BASE_ADDRESS=0x60000000 -DART_BASE_ADDRESS_MIN_DELTA=-0x1000000 -DART_BASE_ADDRESS_MAX_DELTA=0x1000000
  -DART_DEFAULT_COMPACT_DEX_LEVEL=fast -DART_DEFAULT_GC_TYPE_IS_CMS -DART_ENABLE_CODEGEN_x86_64
  -DART_FRAME_SIZE_LIMIT=1736 -DART_READ_BARRIER_TYPE_IS_BAKER=1 -DART_USE_READ_BARRIER=1 -DIMT_SIZE=43
  -DART_STACK_OVERFLOW_GAP_arm=8192 -DART_STACK_OVERFLOW_GAP_arm64=8192 -DART_STACK_OVERFLOW_GAP_mips=16384
  -DART_STACK_OVERFLOW_GAP_mips64=16384 -DART_STACK_OVERFLOW_GAP_x86=8192 -DART_STACK_OVERFLOW_GAP_x86_64=8192
  -DUSE_D8_DESUGAR=1
  -I"$art" -I"$root/usr/include/android" -I"$root/usr/include/android/nativehelper"
  -I"$art/cmdline" -I"$art/runtime" -I"$art/libartbase" -I"$art/libartbase/arch" -I"$art/libartpalette/include"
  -I"$art/libdexfile" -I"$art/libdexfile/external/include" -I"$art/libelffile" -I"$art/libprofile"
  -I"$art/sigchainlib" -I"$art/tools/cpp-define-generator" -I"$libcore/ojluni/src/main/native"
)
sed 's|"../../libcore/ojluni/src/main/native/jvm.h"|"jvm.h"|' "$art/openjdkjvm/OpenjdkJvm.cc" >"$natives/OpenjdkJvm.cc"
run "$CXX" "${art_flags[@]}" -shared -o "$natives/libopenjdkjvm.so" "$natives/OpenjdkJvm.cc" \
  -L"$android" -l:libart.so.0 -l:libbase.so.0 -l:liblog.so.0 -l:libnativehelper.so.0 -Wl,--no-undefined
oj="$libcore/ojluni/src/main/native"
oj_srcs=$(python3 -c '
import re, sys
text = open(sys.argv[1]).read()
body = re.search(r"name:\s*\"libopenjdk_native_srcs\",\s*srcs:\s*\[(.*?)\]", text, re.S).group(1)
print(" ".join(re.findall(r"\"([^\"]+\.(?:c|cpp))\"", body)))' "$oj/Android.bp")
for s in $oj_srcs; do
  b=${s%.*}
  # StrictMath needs fdlibm, UNIXProcess fork/exec helpers: neither is used by the tests' apps.
  case $b in StrictMath | UNIXProcess_md) continue ;; esac
  if [[ $s == *.c ]]; then
    run gcc -fPIC -O1 -w -fcommon -D_LARGEFILE64_SOURCE -D_GNU_SOURCE -DLINUX -c "$oj/$s" -o "$natives/oj/$b.o" $inc -I"$oj"
  else
    run g++ -std=gnu++17 -fPIC -O1 -w -D_LARGEFILE64_SOURCE -D_GNU_SOURCE -DLINUX -c "$oj/$s" -o "$natives/oj/$b.o" $inc -I"$oj"
  fi
done
printf '#include <jni.h>\nextern "C" void register_java_lang_StrictMath(JNIEnv*) {}\nextern "C" void register_java_lang_UNIXProcess(JNIEnv*) {}\n' >"$natives/ojstub.cpp"
run g++ -fPIC -c "$natives/ojstub.cpp" -o "$natives/oj/ojstub.o" $inc
run g++ -shared -o "$natives/libopenjdk.so" "$natives"/oj/*.o $L -L"$natives" -ljavacore -lopenjdkjvm -licuuc -lz -Wl,--no-undefined

# --- 5. Assembled: one lib/ where every library finds the others (their RUNPATH, Debian's
# /usr/lib/x86_64-linux-gnu/android, would find Android 11's libraries there), and the launcher.
out="$work/out"
mkdir -p "$out/lib" "$out/boot" "$out/bin"
cp -a "$android"/*.so.0 "$out/lib/"
for f in "$out"/lib/*.so.0; do ln -s "$(basename "$f")" "${f%.0}"; done
cp "$root/usr/lib/p7zip/7z.so" "$out/lib/lib7z.so"
cp "$natives"/libjavacore.so "$natives"/libopenjdk.so "$natives"/libopenjdkjvm.so "$out/lib/"
# ART 10 checks that a library whose path ends in libnativehelper.so is loaded (the launcher
# loads this name first).
for f in "$out"/lib/*.so*; do
  [ -L "$f" ] || run patchelf --set-rpath "$DEST/lib" "$f"
done
cp "$work/core-libcore10.jar" "$work/classes.jar" "$out/boot/"
cp "$dx" "$out/dx.jar"
run gcc -O1 -Wall -Werror -Wno-format-truncation -Wl,--export-dynamic-symbol=getpwuid_r -o "$out/bin/art-app" "$HERE/launcher.c" -I"$root/usr/include/android/nativehelper" \
  -L"$out/lib" -Wl,--no-as-needed -l:libsigchain.so.0 -l:libart.so.0 -Wl,--as-needed -ldl -lpthread -Wl,-rpath,"$DEST/lib" -Wl,-rpath-link,"$out/lib"
cat >"$out/env" <<ENV
# What the tests read (test_support::art): the runtime's parts, by absolute path.
ART_ROOT=$DEST
ART_LAUNCHER=$DEST/bin/art-app
ART_BOOT_DEX=$DEST/boot/core-libcore10.jar
ART_BOOT_CLASSES=$DEST/boot/classes.jar
ART_DX=$DEST/dx.jar
ART_LIB=$DEST/lib
ART_VERSION=android-libart 10.0.0+r36-3 (Debian bullseye), libcore and art 10.0.0+r36
ENV
echo "$recipe" >"$out/.built"
chmod -R u=rwX,go=rX "$out"
rm -rf "$DEST.old"
[ -e "$DEST" ] && mv "$DEST" "$DEST.old"
mv "$out" "$DEST"
rm -rf "$DEST.old"
step "built $DEST"
