# shellcheck shell=bash
# `scripts/test --sanitize KIND [SWIFT-TEST-ARGS…]` (sourced by scripts/test after its set-up):
# the unit tests and one live present/scroll/dismiss cycle under a sanitizer.
#
#   address  AddressSanitizer on everything, UndefinedBehaviorSanitizer on the C targets (the
#            Swift toolchain has no `-sanitize=undefined` for Swift on Linux: Swift traps on
#            overflow and out-of-range access itself); LeakSanitizer on modal-demo's exit, with
#            what it cannot judge suppressed (scripts/sanitizers/lsan.supp, reasons given).
#   thread   ThreadSanitizer (the font load's thread, the accessibility bridge, the loop).
#
# The debug build with its tests is made in <scratch>/sanitize-KIND with `--sanitize KIND`. The
# live test runs that build's modal-demo, not the release install: MODALKIT_TEST_PREFIX names a
# prefix made of links into the sanitized build directory (bin/modal-demo; the executable finds
# its style plugins and accessibility library next to itself through /proc/self/exe).
# Every report goes to a file (log_path) in a reports directory, whichever process wrote it —
# the test bundle, or a modal-demo a test started — and any report fails the run, whether the
# tests passed or not. Without SWIFT-TEST-ARGS: the unit tests (every test module but CommandTests
# and the Live ones), then LiveSwayTests.ScrollSwayTests (present, wheel and drag scrolling,
# keys, dismiss).
mk_sanitized_tests() {
  local kind=$1; shift
  local scratch=$MK_SCRATCH/sanitize-$kind
  local flags=(--sanitize "$kind")
  case $kind in
    address) flags+=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined) ;;
    # The executables export ThreadSanitizer's entry points: the style plugins modal-demo opens
    # with dlopen call them (__tsan_ignore_thread_begin, …), and the static runtime in the
    # executable exports only what the libraries linked at build time use.
    thread) flags+=(-Xlinker "--dynamic-list=$MK_ROOT/scripts/sanitizers/tsan-exports.list") ;;
    *) mk_die "--sanitize expects address or thread, got '$kind'" ;;
  esac
  local start=$SECONDS
  mk_step "swift build --build-tests --sanitize $kind (debug, whole modules) in $scratch"
  rm -rf "$scratch/debug-build-tmp"
  mk_debug_build_env "$scratch"
  # The build runs its own programs (the style-note generator of the build-tool plugin), which
  # are sanitized too: their leaks at exit are not the build's concern.
  local build_env=("${MK_BUILD_ENV[@]}" ASAN_OPTIONS=detect_leaks=0)
  local build_flags=(--package-path "$MK_ROOT" --scratch-path "$scratch" --build-tests "${flags[@]}"
                     -Xswiftc -warnings-as-errors -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc 2)
  (cd / && "${build_env[@]}" swift build "${build_flags[@]}" 2>&1) \
    | { grep -v -e "^warning: ignoring '-enable-batch-mode' because '-whole-module-optimization' was also specified$" \
               -e "^remark: Incremental compilation has been disabled: it is not compatible with whole module optimization$" \
               -e "^/usr/bin/ld.gold: warning: Cannot export local symbol '__asan_" || true; } \
    || mk_die "the sanitized build failed"
  local bin
  bin=$(cd / && "${build_env[@]}" swift build "${build_flags[@]}" --show-bin-path)
  local built=$((SECONDS - start))

  # The prefix the live tests run (InstalledProducts): links into the sanitized build.
  local prefix=$scratch/prefix
  rm -rf "$prefix"
  mkdir -p "$prefix/bin" "$prefix/lib/modalkit/styles"
  # modal-demo checks for leaks at its exit (LeakSanitizer); the test process does not: XCTest holds
  # its test cases, and Swift its weak-reference side tables, through pointers LeakSanitizer cannot
  # see, so every test would report leaks that are none. A wrapper turns it on (exec: the PID the
  # tests wait for is the demo's, and /proc/self/exe the build's, where its plugins are).
  printf '#!/bin/sh\nASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=1" exec %q "$@"\n' "$bin/modal-demo" >"$prefix/bin/modal-demo"
  chmod 755 "$prefix/bin/modal-demo"
  ln -s "$bin/modalkit-session" "$prefix/bin/modalkit-session"
  ln -s "$bin/libModalKitATKBridge.so" "$prefix/lib/modalkit/libModalKitATKBridge.so"
  local style
  for style in "$bin"/libModalKitStyle*.so; do ln -s "$style" "$prefix/lib/modalkit/styles/"; done
  export MODALKIT_TEST_PREFIX=$prefix

  local reports=$scratch/reports
  rm -rf "$reports"
  mkdir -p "$reports"
  # World-writable: a test may start its clients as the compositor's user.
  chmod 1777 "$reports"
  local supp=$MK_ROOT/scripts/sanitizers
  export ASAN_OPTIONS="log_path=$reports/$kind:detect_leaks=0:check_initialization_order=1"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="log_path=$reports/$kind:print_stacktrace=1:halt_on_error=1"
  export TSAN_OPTIONS="log_path=$reports/$kind:suppressions=$supp/tsan.supp:second_deadlock_stack=1:print_suppressions=0"

  cd "$MK_ROOT"
  local xctest=$bin/ModalKitPackageTests.xctest status=0
  if [ $# -gt 0 ]; then
    mk_step "swift test $* under the $kind sanitizer"
    swift test --skip-build --scratch-path "$scratch" --sanitize "$kind" "$@" || status=$?
  else
    local unit
    unit=$("$xctest" --list-tests | sed -n 's#^\([A-Za-z0-9_]*\)\.\([A-Za-z0-9_]*\)/.*#\1.\2#p' | sort -u \
             | grep -Ev '^(Live[A-Za-z]*Tests|CommandTests)\.' | paste -sd, -)
    mk_step "the unit tests under the $kind sanitizer"
    "$xctest" "$unit" || status=$?
    local tested=$((SECONDS - start))
    mk_step "LiveSwayTests.ScrollSwayTests (present, scroll, dismiss) on the $kind-sanitized modal-demo"
    local live_status=0
    "$xctest" LiveSwayTests.ScrollSwayTests || live_status=$?
    [ $status -eq 0 ] && status=$live_status
    mk_note "times: build $built s, unit tests $((tested - built)) s, live cycle $((SECONDS - tested)) s"
  fi

  local found=("$reports"/*)
  if [ -e "${found[0]}" ]; then
    mk_step "the $kind sanitizer reported ${#found[@]} problem(s)"
    local report
    for report in "${found[@]}"; do printf '\n--- %s\n' "${report##*/}" >&2; head -120 "$report" >&2; done
    [ $status -eq 0 ] && status=1
  fi
  mk_step "scripts/test --sanitize $kind: $([ $status -eq 0 ] && echo passed || echo "FAILED (status $status)") in $((SECONDS - start)) s"
  return $status
}
