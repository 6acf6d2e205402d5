#!/usr/bin/python3
"""A fake XDG Desktop Portal for the end-to-end tests (dbus-python + GLib main loop).

Owns org.freedesktop.portal.Desktop on the bus in $DBUS_SESSION_BUS_ADDRESS and serves
org.freedesktop.portal.Settings at /org/freedesktop/portal/desktop as the XDG Desktop Portal
specifies it: ReadOne(s namespace, s key) -> v (interface version 2), the deprecated
Read(s, s) -> v whose value is wrapped in one more variant, ReadAll(as) -> a{sa{sv}}, and the
signal SettingChanged(s namespace, s key, v value). A key it does not have gives
org.freedesktop.portal.Error.NotFound.

Options:
  --gnome-enable-animations true|false   org.gnome.desktop.interface enable-animations (boolean)
  --kde-animation-factor X                org.kde.kdeglobals.KDE AnimationDurationFactor (double)
  --appearance-reduced-motion N           org.freedesktop.appearance reduced-motion (uint32)
  --kde-as-string                         send AnimationDurationFactor as a string (kdeglobals text)
  --version 1|2                           1: no ReadOne (UnknownMethod), like portals before 1.15
  --delay SECONDS                         answer ReadOne and Read only after this long (a slow portal)

Test control, on the same object: org.modalkit.test.FakePortal.Set(s namespace, s key, v value)
stores the value and emits SettingChanged. Every call is logged on stdout as
"call METHOD NAMESPACE KEY"; "ready" is printed once the name is owned. Ends on SIGTERM.
"""
import argparse
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

SETTINGS = "org.freedesktop.portal.Settings"
CONTROL = "org.modalkit.test.FakePortal"


class UnknownMethod(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.DBus.Error.UnknownMethod"


class NotFound(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.portal.Error.NotFound"


def log(line):
    print(line, flush=True)


class Portal(dbus.service.Object):
    def __init__(self, bus, values, version, delay):
        super().__init__(bus, "/org/freedesktop/portal/desktop")
        self.values = values
        self.version = version
        self.delay_ms = int(delay * 1000)

    def answer(self, produce, ok, err):
        def reply():
            try:
                ok(produce())
            except dbus.DBusException as e:
                err(e)
            return False
        if self.delay_ms > 0:
            GLib.timeout_add(self.delay_ms, reply)
        else:
            reply()

    def lookup(self, namespace, key, level):
        if (namespace, key) not in self.values:
            raise NotFound("Requested setting not found")
        value = self.values[(namespace, key)]
        return value.__class__(value, variant_level=level)

    @dbus.service.method(SETTINGS, in_signature="ss", out_signature="v", async_callbacks=("ok", "err"))
    def ReadOne(self, namespace, key, ok, err):
        log(f"call ReadOne {namespace} {key}")
        if self.version < 2:
            raise UnknownMethod("No such method 'ReadOne'")
        self.answer(lambda: self.lookup(namespace, key, 1), ok, err)

    @dbus.service.method(SETTINGS, in_signature="ss", out_signature="v", async_callbacks=("ok", "err"))
    def Read(self, namespace, key, ok, err):
        log(f"call Read {namespace} {key}")
        self.answer(lambda: self.lookup(namespace, key, 2), ok, err)

    @dbus.service.method(SETTINGS, in_signature="as", out_signature="a{sa{sv}}")
    def ReadAll(self, namespaces):
        log("call ReadAll")
        result = {}
        for (namespace, key), value in self.values.items():
            result.setdefault(namespace, {})[key] = value
        return result

    @dbus.service.signal(SETTINGS, signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass

    @dbus.service.method(CONTROL, in_signature="ssv", out_signature="")
    def Set(self, namespace, key, value):
        log(f"call Set {namespace} {key} {value}")
        self.values[(namespace, key)] = value
        self.SettingChanged(namespace, key, value.__class__(value, variant_level=1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gnome-enable-animations", choices=["true", "false"])
    parser.add_argument("--kde-animation-factor", type=float)
    parser.add_argument("--kde-as-string", action="store_true")
    parser.add_argument("--appearance-reduced-motion", type=int)
    parser.add_argument("--version", type=int, default=2, choices=[1, 2])
    parser.add_argument("--delay", type=float, default=0)
    args = parser.parse_args()

    values = {}
    if args.gnome_enable_animations is not None:
        values[("org.gnome.desktop.interface", "enable-animations")] = dbus.Boolean(args.gnome_enable_animations == "true")
    if args.kde_animation_factor is not None:
        factor = args.kde_animation_factor
        values[("org.kde.kdeglobals.KDE", "AnimationDurationFactor")] = (
            dbus.String("%g" % factor) if args.kde_as_string else dbus.Double(factor))

    if args.appearance_reduced_motion is not None:
        values[("org.freedesktop.appearance", "reduced-motion")] = dbus.UInt32(args.appearance_reduced_motion)

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    portal = Portal(bus, values, args.version, args.delay)
    name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus, do_not_queue=True)
    log("ready")
    GLib.MainLoop().run()
    del name, portal


if __name__ == "__main__":
    sys.exit(main())
