# shellcheck shell=bash
# A private headless sway session with real input (wayvnc + vncdo), for scripts/demo. The same
# recipe as the Swift test harness (Tests/ModalKitTestHarness): sway as an unprivileged user
# when root, its own XDG_RUNTIME_DIR, pixman renderer, one 800x600 output, no bar, no borders.
# Every process is started in the background, remembered by PID and stopped by PID
# (mk_headless_cleanup, meant for an EXIT trap). Needs setup.sh sourced first.

MK_HL_PIDS=()          # started processes, in start order
MK_HL_RUNTIME=""       # XDG_RUNTIME_DIR of the session
MK_HL_DISPLAY=""       # WAYLAND_DISPLAY (socket name in MK_HL_RUNTIME)
MK_HL_SWAYSOCK=""
MK_HL_VNC_PORT=""
MK_HL_AS_USER=()       # command prefix that runs a program as the session user

# True while PID runs (a zombie, i.e. exited but not yet reaped, does not count).
mk_pid_running() {
  local state
  state=$(sed -e 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# Stops PID: SIGTERM, up to 3 s, then SIGKILL; reaps it if it is our child.
mk_stop_pid() {
  local pid=$1 i
  if mk_pid_running "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 30); do mk_pid_running "$pid" || break; sleep 0.1; done
    mk_pid_running "$pid" && kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null || true
}

mk_headless_cleanup() {
  local i
  for ((i = ${#MK_HL_PIDS[@]} - 1; i >= 0; i--)); do mk_stop_pid "${MK_HL_PIDS[i]}"; done
  MK_HL_PIDS=()
  [ -n "$MK_HL_RUNTIME" ] && rm -rf "$MK_HL_RUNTIME"
  MK_HL_RUNTIME=""
}

# Waits up to $1 seconds for the command "${@:2}" to succeed.
mk_wait_for() {
  local timeout=$1 deadline
  shift
  deadline=$((SECONDS + timeout))
  until "$@"; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.1
  done
}

# The environment for clients of the session.
mk_hl_env() {
  env -u WAYLAND_SOCKET -u DISPLAY WAYLAND_DISPLAY="$MK_HL_DISPLAY" XDG_RUNTIME_DIR="$MK_HL_RUNTIME" \
    SWAYSOCK="$MK_HL_SWAYSOCK" "$@"
}

mk_hl_swaymsg() { mk_hl_env swaymsg --socket "$MK_HL_SWAYSOCK" "$@"; }

mk_hl_find_display() {
  local f
  for f in "$MK_HL_RUNTIME"/wayland-*; do
    case $f in *.lock) continue ;; esac
    [ -S "$f" ] && { MK_HL_DISPLAY=${f##*/}; return 0; }
  done
  return 1
}

mk_hl_sockets_up() {
  mk_pid_running "${MK_HL_PIDS[0]}" || return 0   # ended: stop waiting, checked below
  mk_hl_find_display && [ -S "$MK_HL_SWAYSOCK" ]
}

mk_hl_output_ready() { mk_hl_swaymsg -t get_outputs 2>/dev/null | grep -q '"active": true'; }

# Starts sway; sets MK_HL_RUNTIME, MK_HL_DISPLAY, MK_HL_SWAYSOCK.
mk_headless_start_sway() {
  local width=${1:-800} height=${2:-600} uid gid
  if [ "$(id -u)" -eq 0 ]; then
    # sway refuses to run as root: an unprivileged user (the harness uses the same one).
    if ! id modalkit-test >/dev/null 2>&1; then
      useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin modalkit-test \
        || id modalkit-test >/dev/null 2>&1 || mk_die "cannot create user modalkit-test"
    fi
    uid=$(id -u modalkit-test); gid=$(id -g modalkit-test)
    MK_HL_AS_USER=(setpriv "--reuid=$uid" "--regid=$gid" --clear-groups --)
  else
    uid=$(id -u); gid=$(id -g)
    MK_HL_AS_USER=()
  fi
  MK_HL_RUNTIME=$(mktemp -d /tmp/modalkit-demo.XXXXXX)
  chown "$uid:$gid" "$MK_HL_RUNTIME"
  chmod 700 "$MK_HL_RUNTIME"
  cat >"$MK_HL_RUNTIME/sway.config" <<CONFIG
output HEADLESS-1 resolution ${width}x${height} position 0 0 scale 1
default_border none
default_floating_border none
gaps inner 0
gaps outer 0
xwayland disable
focus_follows_mouse no
mouse_warping none
CONFIG
  chmod 644 "$MK_HL_RUNTIME/sway.config"
  # env execs setpriv, which execs sway: $! is sway's PID.
  env -i PATH="$PATH" HOME="$MK_HL_RUNTIME" XDG_RUNTIME_DIR="$MK_HL_RUNTIME" LANG=C.UTF-8 \
    WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman WLR_HEADLESS_OUTPUTS=1 \
    "${MK_HL_AS_USER[@]}" sway --config "$MK_HL_RUNTIME/sway.config" >"$MK_HL_RUNTIME/sway.log" 2>&1 &
  MK_HL_PIDS+=($!)
  MK_HL_SWAYSOCK=$MK_HL_RUNTIME/sway-ipc.$uid.$!.sock
  mk_wait_for 15 mk_hl_sockets_up && mk_pid_running "${MK_HL_PIDS[0]}" \
    || { tail -20 "$MK_HL_RUNTIME/sway.log" >&2; mk_die "headless sway did not start"; }
  mk_wait_for 15 mk_hl_output_ready || mk_die "headless sway has no active output"
  mk_note "sway pid ${MK_HL_PIDS[0]}, WAYLAND_DISPLAY=$MK_HL_DISPLAY XDG_RUNTIME_DIR=$MK_HL_RUNTIME"
}

mk_hl_seat_ready() {
  mk_hl_swaymsg -r -t get_seats 2>/dev/null \
    | python3 -c 'import json,sys; sys.exit(0 if any(s.get("capabilities",0)&3==3 for s in json.load(sys.stdin)) else 1)'
}

# Starts wayvnc on a free 127.0.0.1 port inside the session (as the session user).
mk_headless_start_vnc() {
  MK_HL_VNC_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  # A plain command, not a function, in the background: $! is wayvnc's own PID.
  env -u WAYLAND_SOCKET -u DISPLAY HOME="$MK_HL_RUNTIME" WAYLAND_DISPLAY="$MK_HL_DISPLAY" \
    XDG_RUNTIME_DIR="$MK_HL_RUNTIME" "${MK_HL_AS_USER[@]}" wayvnc 127.0.0.1 "$MK_HL_VNC_PORT" \
    >"$MK_HL_RUNTIME/wayvnc.log" 2>&1 &
  MK_HL_PIDS+=($!)
  mk_wait_for 15 mk_hl_seat_ready || { cat "$MK_HL_RUNTIME/wayvnc.log" >&2; mk_die "wayvnc did not come up"; }
  mk_note "wayvnc pid $!, 127.0.0.1:$MK_HL_VNC_PORT"
}

# vncdo against the session's wayvnc: mk_vncdo move 400 300 click 1
mk_vncdo() { timeout 30 "$MODALKIT_VNCDO" --server "127.0.0.1::$MK_HL_VNC_PORT" "$@"; }

# Prints "X Y W H" of the window of PID (content rect, output pixels), or fails.
mk_hl_window_rect() {
  mk_hl_swaymsg -r -t get_tree | python3 -c '
import json, sys
pid = int(sys.argv[1])
def walk(n):
    if n.get("pid") == pid and n.get("visible"):
        r, w = n["rect"], n["window_rect"]
        print(r["x"] + w["x"], r["y"] + w["y"], w["width"], w["height"]); sys.exit(0)
    for c in n.get("nodes", []) + n.get("floating_nodes", []): walk(c)
walk(json.load(sys.stdin)); sys.exit(1)' "$1"
}

mk_hl_screenshot() { mk_hl_env grim "$1"; }
