# shellcheck shell=bash
# Shared set-up for scripts/test and scripts/demo (sourced, not run): the Debian packages the
# build and the end-to-end tests need, vncdotool from PyPI, and the SwiftPM build.
#
# Environment:
#   MODALKIT_SCRATCH_PATH  SwiftPM scratch directory (default: <repo>/.build). scripts/test and
#                          scripts/demo pass it as --scratch-path to every swift command.
#   MODALKIT_NO_INSTALL=1  never install anything; only report what is missing.
#   MODALKIT_BIN=DIR       use the modal-demo and style plugins built in DIR instead of building.
#   MODALKIT_VNCDO=PATH    the vncdo to use (otherwise <scratch>/vncdotool, then PATH).

MK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MK_SCRATCH=${MODALKIT_SCRATCH_PATH:-$MK_ROOT/.build}
case $MK_SCRATCH in /*) ;; *) MK_SCRATCH=$PWD/$MK_SCRATCH ;; esac

# Debian 12 packages: build (pkg-config system libraries, fonts for fcft), compositors and tools
# for the end-to-end tests (sway, wayvnc, grim, weston, foot, wev), setpriv/useradd to run sway
# as an unprivileged user, python3-venv for vncdotool.
MK_DEBIAN_PACKAGES=(
  pkg-config libwayland-dev libwayland-bin wayland-protocols libxkbcommon-dev libpixman-1-dev
  libfcft-dev libpng-dev fontconfig fonts-dejavu-core
  # Shaped text: the tests compare ModalKitText's glyphs with HarfBuzz's hb-shape and draw colour emoji.
  libharfbuzz-bin fonts-noto-color-emoji
  # CJK rows in lists (ModalKitContent's tests, Examples/CityPicker): DejaVu has Arabic and Hebrew
  # but no Han or kana; WenQuanYi Micro Hei is the smallest font with them (5 MB installed).
  fonts-wqy-microhei
  sway grim wayvnc weston foot wev
  util-linux passwd coreutils python3 python3-venv ca-certificates
  # Build: modal-demo reads the desktop's reduced-motion setting (XDG Settings portal) through libdbus.
  libdbus-1-dev
  # A private session bus (dbus-daemon) for the mutter and KWin sessions and the fake portal, which
  # is python3-dbus on GLib's main loop (python3-gi, which mutter's RemoteDesktop driver uses too).
  dbus dbus-daemon python3-dbus python3-gi
  # KWin 5.27 end-to-end tests: headless kwin_wayland, its Breeze title bar, fake-input.xml for the
  # input driver, and Mesa's software OpenGL (KWin's screenshot interface exists only when it
  # composites with OpenGL).
  kwin-wayland kwin-style-breeze plasma-wayland-protocols libgl1-mesa-dri
  # GNOME's compositor headless (WindowMutterTests): mutter, PipeWire for its screen cast (read with
  # gst-launch pipewiresrc + videoconvert).
  mutter pipewire wireplumber gstreamer1.0-pipewire gstreamer1.0-tools gstreamer1.0-plugins-base
  # Build: `modal-demo preview` writes animated WebP through libwebp (libwebpmux; tests decode with libwebpdemux).
  libwebp-dev
  # Screen readers: libModalKitATKBridge.so is built on ATK and the at-spi2-atk bridge; the
  # accessibility tests activate at-spi2-core's accessibility bus on a private session bus, read the
  # demo through libatspi (python3-gi + gir1.2-atspi-2.0, Debian's /usr/bin/python3), and run Orca
  # headless on Xvfb (xkbcomp from x11-xkb-utils; python3-pyatspi is what Orca itself imports).
  libatk1.0-dev libatk-bridge2.0-dev at-spi2-core gir1.2-atspi-2.0 python3-pyatspi orca xvfb x11-xkb-utils
  # What is installed beside modal-demo, checked as users' tools read it: the manual pages
  # (man -l), the shell completions (bash -n, zsh -n, fish --no-execute), the desktop entry
  # (desktop-file-validate); git for the test that depends on a tagged copy of ModalKit.
  man-db groff-base zsh fish desktop-file-utils git
  # The session library's clipboard (wl-copy, wl-paste over wlr-data-control) and input method
  # (fcitx5 with its pinyin engine, talking input-method-v2 to headless sway).
  wl-clipboard fcitx5 fcitx5-pinyin
)

# The environment of the debug build scripts/test makes in scratch directory $1, as the array
# MK_BUILD_ENV (a command prefix): only HOME, PATH and LANG of the caller's, and a TMPDIR at a fixed
# place in the scratch directory. SwiftPM recompiles a package's build-tool plugin (the style
# note) and redoes every step after it whenever the environment differs, so scripts/docs asks for
# its symbol graphs in this same environment and rebuilds none of what the tests run.
mk_debug_build_env() {
  MK_BUILD_ENV=(env -i "HOME=${HOME:-/}" "PATH=$PATH" "TMPDIR=$1/debug-build-tmp")
  if [ -n "${LANG:-}" ]; then MK_BUILD_ENV+=("LANG=$LANG"); fi
  mkdir -p "$1/debug-build-tmp"
}

mk_step() { printf '\n==> %s\n' "$*" >&2; }
mk_note() { printf '    %s\n' "$*" >&2; }
mk_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Runs a command as root: directly when we are root, else through sudo.
mk_as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    mk_die "need root to run: $* (not root and no sudo)"
  fi
}

# Installs the Debian packages that are missing (apt-get update only if something is missing).
mk_ensure_packages() {
  mk_step "Debian packages"
  local missing=() p
  for p in "${MK_DEBIAN_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    mk_note "all ${#MK_DEBIAN_PACKAGES[@]} present"
    return
  fi
  [ "${MODALKIT_NO_INSTALL:-0}" = 1 ] && mk_die "missing Debian packages: ${missing[*]} (MODALKIT_NO_INSTALL=1)"
  command -v apt-get >/dev/null 2>&1 || mk_die "missing packages ${missing[*]} and no apt-get (Debian 12 expected)"
  mk_note "installing: ${missing[*]}"
  mk_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  mk_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Makes `vncdo` (vncdotool, PyPI) available and exports MODALKIT_VNCDO with its path.
# Debian 12's python is "externally managed" (PEP 668), so vncdotool goes into a virtualenv in the
# scratch directory (<scratch>/vncdotool), where the test harness also looks for it. A vncdo
# already on PATH is used as it is.
mk_ensure_vncdo() {
  mk_step "vncdotool"
  local venv=$MK_SCRATCH/vncdotool
  if [ -n "${MODALKIT_VNCDO:-}" ] && [ -x "$MODALKIT_VNCDO" ]; then
    :   # given (the test suite passes the one scripts/test installed)
  elif [ -x "$venv/bin/vncdo" ]; then
    export MODALKIT_VNCDO=$venv/bin/vncdo
  elif command -v vncdo >/dev/null 2>&1; then
    MODALKIT_VNCDO=$(command -v vncdo)
    export MODALKIT_VNCDO
  else
    [ "${MODALKIT_NO_INSTALL:-0}" = 1 ] && mk_die "vncdo missing (MODALKIT_NO_INSTALL=1)"
    mk_note "installing vncdotool into $venv"
    mkdir -p "$MK_SCRATCH"
    rm -rf "$venv"
    python3 -m venv "$venv" || mk_die "python3 -m venv failed (is python3-venv installed?)"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check vncdotool \
      || mk_die "pip install vncdotool failed"
    export MODALKIT_VNCDO=$venv/bin/vncdo
  fi
  "$MODALKIT_VNCDO" --version >/dev/null 2>&1 || mk_die "$MODALKIT_VNCDO does not run"
  mk_note "$MODALKIT_VNCDO ($("$MODALKIT_VNCDO" --version 2>&1 | head -1))"
}

mk_ensure_swift() {
  command -v swift >/dev/null 2>&1 || mk_die "swift not found in PATH (install the Swift toolchain, e.g. to /opt/swift, and add its usr/bin to PATH)"
}

# Builds every product. A plain `swift build` is needed: `--product modal-demo` or `swift run`
# would not build the style plugins (libModalKitStyle*.so), which modal-demo loads at run time.
mk_build() {
  if [ -n "${MODALKIT_BIN:-}" ]; then
    # Products built already (the test suite runs scripts/demo against the build it tests; a
    # nested `swift build` would wait for the lock `swift test` holds).
    MK_BIN=$MODALKIT_BIN
    export MK_BIN
    [ -x "$MK_BIN/modal-demo" ] || mk_die "MODALKIT_BIN=$MK_BIN has no modal-demo"
    mk_note "products in $MK_BIN (MODALKIT_BIN)"
    return
  fi
  mk_ensure_swift
  mk_step "swift build (all products) in $MK_SCRATCH"
  # Build output goes to stderr: scripts/demo keeps stdout for the screenshot folder.
  # SwiftPM leaves TemporaryDirectory.* folders and lock files in TMPDIR on every run: give it a
  # directory of its own, removed afterwards, so nothing piles up in /tmp.
  mkdir -p "$MK_SCRATCH"
  local build_tmp
  build_tmp=$(mktemp -d "$MK_SCRATCH/.tmp-build.XXXXXX")
  (cd "$MK_ROOT" && TMPDIR=$build_tmp swift build --scratch-path "$MK_SCRATCH") >&2 || { rm -rf "$build_tmp"; exit 1; }
  MK_BIN=$(cd "$MK_ROOT" && TMPDIR=$build_tmp swift build --scratch-path "$MK_SCRATCH" --show-bin-path)
  rm -rf "$build_tmp"
  export MK_BIN
  [ -x "$MK_BIN/modal-demo" ] || mk_die "$MK_BIN/modal-demo was not built"
  mk_note "products in $MK_BIN"
}

# Fails (status 1, with a note) when the tests left anything in their TMPDIR $1 but SwiftPM's own
# leftovers (see scripts/test).
mk_check_leftovers() {
  local left=() entry name
  for entry in "$1"/* "$1"/.[!.]*; do
    [ -e "$entry" ] || continue
    name=${entry##*/}
    case $name in
      *.lock) [ -f "$entry" ] && continue ;;
      TemporaryDirectory.*)
        if [ -d "$entry" ] && [ -z "$(find "$entry" -mindepth 1 ! -name .keep-directory -print -quit)" ]; then continue; fi ;;
    esac
    left+=("$name")
  done
  if [ ${#left[@]} -gt 0 ]; then
    mk_note "the tests left ${#left[@]} entries in their TMPDIR (each test must remove what it creates): ${left[*]}"
    return 1
  fi
}
