#!/bin/sh
# The packaging test: installs this build into a temporary DESTDIR, never the real prefix, and uses the installed tree
# as a consumer would: the aplan tool runs and its man page and the license are there, pkg-config finds `aplan` at
# the header's version, and a CMake project finds the package with find_package(aplan MAJOR.MINOR REQUIRED), links
# aplan::aplan (shared, then static with aplan_USE_STATIC_LIBS) and gets aplan_version() equal to the header's
# APLAN_VERSION_STRING. Since the DESTDIR is not the prefix the package was configured for, finding it there also
# proves that the CMake files are relocatable, and the staged tool running without LD_LIBRARY_PATH proves its RPATH
# is relative. The version file's rule (a request from APLAN_COMPATIBLE_SINCE up to this version) is checked with
# requests on either side of both ends. Exits 77 (skip) when cmake or pkg-config is missing or cannot run.
#
# Environment (tests/meson.build sets it): MESON (the meson command), BUILD_ROOT (the build to install), SOURCE_ROOT,
# APLAN_VERSION (MAJOR.MINOR.PATCH, read from include/aplan/aplan.h by meson.build), APLAN_COMPATIBLE_SINCE (the
# oldest version a CMake request may name, MAJOR.MINOR.0, from the same header), PREFIX and LIBDIR,
# BINDIR, MANDIR, DOCDIR (absolute install paths), WITH_CLI (1 when the aplan tool and its man page are installed).
set -eu

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
skip() {
    echo "SKIP: $*"
    exit 77
}

for tool in cmake pkg-config; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed"
    "$tool" --version >/dev/null 2>&1 || skip "$tool does not run"
done
# The CMake projects below are generated for Ninja, which meson needs anyway; make may not be installed.
command -v ninja >/dev/null 2>&1 || skip "ninja is not installed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aplan-packaging.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
dest=$tmp/dest
case $dest in
/?*) ;;
*) fail "the DESTDIR $dest is not an absolute path" ;;
esac

# --no-rebuild: the test must not run a build of its own inside `meson test`; the targets are already built.
"$MESON" install -C "$BUILD_ROOT" --no-rebuild --quiet --destdir "$dest" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; fail "meson install --destdir failed"; }

# DESTDIR is prepended to every absolute install path (meson's rule, as make's).
root=$dest$PREFIX
staged_libdir=$dest$LIBDIR
cmake_dir=$staged_libdir/cmake/aplan
major=${APLAN_VERSION%%.*}
rest=${APLAN_VERSION#*.}
minor=${rest%%.*}
patch=${rest#*.}
series=$major.$minor

# The license travels with every install, identical to the source tree's.
[ -f "$SOURCE_ROOT/LICENSE" ] || fail "LICENSE is missing from the source tree"
license=$SOURCE_ROOT/LICENSE
if ! grep -q 'Apache License' "$license" || ! grep -q 'Version 2.0, January 2004' "$license"; then
    fail "LICENSE is not the Apache License 2.0"
fi
cmp -s "$license" "$dest$DOCDIR/LICENSE" || fail "LICENSE is not installed as $DOCDIR/LICENSE"

# The tool and its man page (when the CLI is built). The installed tool finds the installed library through its RPATH,
# relative to itself ($ORIGIN/../LIBDIR): so the staged copy, run without LD_LIBRARY_PATH (meson test sets one to the
# build), must load the staged library, not the build's or one installed on this machine.
if [ "$WITH_CLI" = 1 ]; then
    cmp -s "$SOURCE_ROOT/docs/aplan.1" "$dest$MANDIR/man1/aplan.1" ||
        fail "the man page is not installed as $MANDIR/man1/aplan.1"
    out=$(env -u LD_LIBRARY_PATH "$dest$BINDIR/aplan" --version) ||
        fail "the installed aplan does not run without LD_LIBRARY_PATH (no RPATH to its library?)"
    [ "$out" = "aplan $APLAN_VERSION" ] || fail "installed aplan --version printed '$out', not 'aplan $APLAN_VERSION'"
    case $LIBDIR in
    "$PREFIX"/*)
        loaded=$(env -u LD_LIBRARY_PATH LD_TRACE_LOADED_OBJECTS=1 "$dest$BINDIR/aplan" |
            sed -n 's/.*libaplan[^ ]* => \([^ ]*\).*/\1/p')
        case $loaded in
        "$dest"/*) ;;
        *) fail "the staged aplan loads '$loaded', not the staged library under $dest" ;;
        esac
        ;;
    esac
    echo "installed aplan (RPATH relative to itself) and its man page: ok"
fi

# pkg-config: only the temporary tree is searched, so a copy of aplan installed on this machine cannot answer.
out=$(PKG_CONFIG_LIBDIR=$staged_libdir/pkgconfig PKG_CONFIG_PATH='' pkg-config --modversion aplan) ||
    fail "pkg-config does not find aplan in $staged_libdir/pkgconfig"
[ "$out" = "$APLAN_VERSION" ] || fail "pkg-config says aplan $out, the header says $APLAN_VERSION"
out=$(PKG_CONFIG_LIBDIR=$staged_libdir/pkgconfig PKG_CONFIG_PATH='' pkg-config --libs aplan)
case " $out " in
*" -laplan "*) ;;
*) fail "pkg-config --libs aplan gives '$out', without -laplan" ;;
esac
echo "pkg-config: aplan $APLAN_VERSION, $out"

# The CMake files may name no file of the build or source tree.
for f in aplanConfig.cmake aplanConfigVersion.cmake; do
    [ -f "$cmake_dir/$f" ] || fail "$f is not installed in $LIBDIR/cmake/aplan"
    ! grep -q -F -e "$BUILD_ROOT" -e "$SOURCE_ROOT" "$cmake_dir/$f" || fail "$f names the build or source tree"
done

# A consumer: links aplan::aplan and checks the linked library's version against the header it compiled with.
mkdir "$tmp/consumer"
cat >"$tmp/consumer/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(aplan_consumer LANGUAGES C)
find_package(aplan $series REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE aplan::aplan)
get_target_property(location aplan::aplan IMPORTED_LOCATION)
get_target_property(includes aplan::aplan INTERFACE_INCLUDE_DIRECTORIES)
message(STATUS "aplan-version: \${aplan_VERSION}")
message(STATUS "aplan-location: \${location}")
message(STATUS "aplan-includes: \${includes}")
EOF
cat >"$tmp/consumer/main.c" <<'EOF'
#include <aplan/aplan.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    printf("%s\n", aplan_version());
    return strcmp(aplan_version(), APLAN_VERSION_STRING) == 0 ? 0 : 1;
}
EOF
# CMake looks for the package in <prefix>/<libdir>/cmake/aplan; a libdir set outside the prefix is searched through its
# parent folder, as a user of such an install would have to.
case $LIBDIR in
"$PREFIX"/*) search=$root ;;
*) search="$root;$dest${LIBDIR%/*}" ;;
esac
consume() { # build folder, extra cmake arguments: configures, builds and runs the consumer
    dir=$tmp/$1
    shift
    cmake -G Ninja -S "$tmp/consumer" -B "$dir" -DCMAKE_PREFIX_PATH="$search" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        "$@" >"$dir.log" 2>&1 || { cat "$dir.log" >&2; fail "cmake cannot configure the consumer ($*)"; }
    grep -q "aplan-version: $APLAN_VERSION\$" "$dir.log" || fail "find_package(aplan) did not report $APLAN_VERSION"
    for what in location includes; do
        path=$(sed -n "s/^-- aplan-$what: //p" "$dir.log")
        case $path in
        "$dest"/*) ;;
        *) fail "aplan::aplan's $what is '$path', not under the temporary install $dest" ;;
        esac
    done
    cmake --build "$dir" >>"$dir.log" 2>&1 || { cat "$dir.log" >&2; fail "the consumer does not build ($*)"; }
    out=$("$dir/consumer") || fail "the consumer's aplan_version() is '$out', its header's APLAN_VERSION_STRING differs"
    [ "$out" = "$APLAN_VERSION" ] || fail "the consumer's aplan_version() is '$out', not $APLAN_VERSION"
}
consume shared
grep -q 'libaplan\.so' "$tmp/shared/consumer" || fail "the consumer of aplan::aplan does not load libaplan.so"
echo "cmake: find_package(aplan $series) -> aplan::aplan (shared) gives aplan_version() $APLAN_VERSION"
consume static -Daplan_USE_STATIC_LIBS=ON
! grep -q 'libaplan\.so' "$tmp/static/consumer" ||
    fail "with aplan_USE_STATIC_LIBS the consumer still loads libaplan.so"
echo "cmake: aplan_USE_STATIC_LIBS links the static library"

# The version rule, through the version file alone (a project without languages, the installed config folder only).
mkdir "$tmp/versions"
cat >"$tmp/versions/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.19)
project(aplan_versions NONE)
find_package(aplan \${REQUEST} QUIET NO_DEFAULT_PATH PATHS "$cmake_dir")
if(aplan_FOUND)
  message(STATUS "aplan-found: TRUE")
else()
  message(STATUS "aplan-found: FALSE")
endif()
EOF
expect() { # request, TRUE or FALSE
    rm -rf "$tmp/versions-build"
    cmake -G Ninja -S "$tmp/versions" -B "$tmp/versions-build" -DREQUEST="$1" >"$tmp/versions.log" 2>&1 ||
        { cat "$tmp/versions.log" >&2; fail "cmake cannot configure the version check for '$1'"; }
    grep -q "aplan-found: $2\$" "$tmp/versions.log" ||
        fail "find_package(aplan $1) against $APLAN_VERSION: expected $2, got $(grep aplan-found "$tmp/versions.log")"
}
since=$APLAN_COMPATIBLE_SINCE
since_minor=${since#*.}
since_minor=${since_minor%%.*}
expect "$series" TRUE
expect "$APLAN_VERSION" TRUE
expect "$since" TRUE
expect "${since%.*}" TRUE
expect "$series.$((patch + 1))" FALSE
expect "$major.$((minor + 1))" FALSE
expect "$((major + 1))" FALSE
expect "$series...$((major + 1))" TRUE
expect "$since...$((major + 1))" TRUE
if [ "$since_minor" -gt 0 ]; then
    expect "$major.$((since_minor - 1))" FALSE
    expect "$major.$((since_minor - 1))...$((major + 1))" FALSE
fi
echo "cmake: the version file accepts $since to $APLAN_VERSION and refuses the versions outside"
echo "packaging: ok"
