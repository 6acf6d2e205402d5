#!/usr/bin/python3
"""Input and screen capture for a headless GNOME mutter, for ModalKit's end-to-end tests.

Holds ONE org.gnome.Mutter.RemoteDesktop session, linked to an org.gnome.Mutter.ScreenCast
session that records one monitor, open for as long as it runs: mutter ends a remote-desktop
session (and removes its virtual input devices) when the D-Bus connection that created it goes
away, so one-shot D-Bus calls cannot inject input. Uses GLib's Gio (python3-gi).

Usage: mutter_remote_desktop.py CONNECTOR TIMEOUT_SECONDS [SCALE]
  e.g. mutter_remote_desktop.py Meta-0 10   (Meta-0 is mutter's first --virtual-monitor)
With SCALE, the monitor is first given that scale (org.gnome.Mutter.DisplayConfig
ApplyMonitorsConfig, temporary: nothing is saved); mutter offers 2 only for monitors of at least
twice its minimum logical size (800x480 or so), e.g. 1600x1200.

stdout: `ready NODE` once the screen-cast stream exists (NODE: its PipeWire node id, for
`pipewiresrc path=NODE`), then one line per command: `ok` or `error MESSAGE`.
stdin, one command per line (coordinates in the stream's pixels, which are the monitor's
physical pixels at any scale; floats allowed):
  motion X Y              NotifyPointerMotionAbsolute
  button CODE 0|1         NotifyPointerButton, CODE an evdev code (BTN_LEFT = 272)
  keysym SYM 0|1          NotifyKeyboardKeysym, SYM an X keysym (Return = 0xff0d)
  touch-down SLOT X Y     NotifyTouchDown
  touch-motion SLOT X Y   NotifyTouchMotion
  touch-up SLOT           NotifyTouchUp
Exits 0 at the end of stdin (closing the sessions), 1 with one stderr line when the sessions
cannot be set up within TIMEOUT_SECONDS.
"""
import sys

from gi.repository import Gio, GLib

RD = "org.gnome.Mutter.RemoteDesktop"
SC = "org.gnome.Mutter.ScreenCast"
DC = "org.gnome.Mutter.DisplayConfig"


def fail(message):
    print("mutter_remote_desktop: " + message, file=sys.stderr, flush=True)
    sys.exit(1)


def apply_scale(call, connector, scale):
    """Puts `connector` alone at (0, 0) in its current mode at `scale` (a temporary config)."""
    path = "/org/gnome/Mutter/DisplayConfig"
    serial, monitors, _logical, _props = call(DC, path, DC, "GetCurrentState",
                                              reply="(ua((ssss)a(siiddada{sv})a{sv})a(iiduba(ssss)a{sv})a{sv})")
    for (spec, modes, _monitor_props) in monitors:
        if spec[0] != connector:
            continue
        current = [m for m in modes if m[6].get("is-current")]
        if not current:
            fail("monitor %s has no current mode" % connector)
        if scale not in current[0][5]:
            fail("mutter offers scales %s for %s in mode %s, not %g" % (current[0][5], connector, current[0][0], scale))
        call(DC, path, DC, "ApplyMonitorsConfig", "(uua(iiduba(ssa{sv}))a{sv})",
             (serial, 1, [(0, 0, scale, 0, True, [(connector, current[0][0], {})])], {}))
        return
    fail("no monitor %s" % connector)


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: mutter_remote_desktop.py CONNECTOR TIMEOUT_SECONDS [SCALE]")
    connector, timeout = sys.argv[1], float(sys.argv[2])
    scale = float(sys.argv[3]) if len(sys.argv) == 4 else None
    deadline = GLib.get_monotonic_time() + int(timeout * 1e6)
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def call(dest, path, iface, method, signature=None, args=(), reply=None):
        params = GLib.Variant(signature, args) if signature else None
        result = bus.call_sync(dest, path, iface, method, params,
                               GLib.VariantType(reply) if reply else None,
                               Gio.DBusCallFlags.NONE, int(timeout * 1000), None)
        return result.unpack() if reply else None

    # mutter owns its names shortly after its Wayland socket appears.
    loop = GLib.MainLoop()
    while not all(call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                       "NameHasOwner", "(s)", (name,), "(b)")[0] for name in (RD, SC, DC)):
        if GLib.get_monotonic_time() > deadline:
            fail("mutter's %s, %s and %s did not appear on the session bus within %g s" % (RD, SC, DC, timeout))
        GLib.usleep(50000)
    if scale is not None:
        apply_scale(call, connector, scale)

    session = call(RD, "/org/gnome/Mutter/RemoteDesktop", RD, "CreateSession", reply="(o)")[0]
    session_id = call(RD, session, "org.freedesktop.DBus.Properties", "Get", "(ss)",
                      (RD + ".Session", "SessionId"), "(v)")[0]
    cast = call(SC, "/org/gnome/Mutter/ScreenCast", SC, "CreateSession", "(a{sv})",
                ({"remote-desktop-session-id": GLib.Variant("s", session_id)},), "(o)")[0]
    # cursor-mode 0: the cursor is not drawn into the stream.
    stream = call(SC, cast, SC + ".Session", "RecordMonitor", "(sa{sv})",
                  (connector, {"cursor-mode": GLib.Variant("u", 0)}), "(o)")[0]

    node = []

    def stream_added(_conn, _sender, _path, _iface, _name, params):
        node.append(params.unpack()[0])
        loop.quit()

    bus.signal_subscribe(None, SC + ".Stream", "PipeWireStreamAdded", stream, None,
                         Gio.DBusSignalFlags.NONE, stream_added)
    call(RD, session, RD + ".Session", "Start")
    remaining_ms = max(1, (deadline - GLib.get_monotonic_time()) // 1000)
    GLib.timeout_add(remaining_ms, loop.quit)
    loop.run()
    if not node:
        fail("no PipeWireStreamAdded for %s within %g s (is pipewire running?)" % (connector, timeout))

    iface = RD + ".Session"
    commands = {
        "motion": ("NotifyPointerMotionAbsolute", "(sdd)", lambda a: (stream, float(a[0]), float(a[1]))),
        "button": ("NotifyPointerButton", "(ib)", lambda a: (int(a[0], 0), a[1] == "1")),
        "keysym": ("NotifyKeyboardKeysym", "(ub)", lambda a: (int(a[0], 0), a[1] == "1")),
        "touch-down": ("NotifyTouchDown", "(sudd)", lambda a: (stream, int(a[0]), float(a[1]), float(a[2]))),
        "touch-motion": ("NotifyTouchMotion", "(sudd)", lambda a: (stream, int(a[0]), float(a[1]), float(a[2]))),
        "touch-up": ("NotifyTouchUp", "(u)", lambda a: (int(a[0]),)),
    }
    # Virtual devices are created on the first event of each kind; the harness sends those
    # (warm-up) before any window exists.
    print("ready %d" % node[0], flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            method, signature, arguments = commands[words[0]]
            call(RD, session, iface, method, signature, arguments(words[1:]))
            print("ok", flush=True)
        except KeyError:
            print("error unknown command %r" % words[0], flush=True)
        except (IndexError, ValueError) as e:
            print("error bad arguments for %s: %s" % (words[0], e), flush=True)
        except GLib.Error as e:
            print("error %s" % e.message.replace("\n", " "), flush=True)


if __name__ == "__main__":
    try:
        main()
    except GLib.Error as e:
        fail(e.message.replace("\n", " "))
