/* ATK (pkg-config atk; Debian libatk1.0-dev), and the at-spi2-atk bridge linked by name
 * (libatk-bridge2.0-dev): its pkg-config file, atk-bridge-2.0, adds -pthread through GLib's
 * gmodule, a flag SwiftPM refuses with a warning on every build, so CModalKitATK declares the
 * bridge's functions itself. Only the C target CModalKitATK — libModalKitATKBridge.so, loaded at run
 * time — depends on this module: nothing a program links at start-up maps libatk, libatk-bridge or
 * GObject. */
#include <atk/atk.h>
