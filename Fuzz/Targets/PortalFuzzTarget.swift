import CModalKitDBus
import Glibc
@testable import ModalKitDesktopSettings

/// A message off the session bus as the portal settings monitor reads it. The input is the
/// message's wire bytes; libdbus' `dbus_message_demarshal` checks them as it checks what a bus
/// sends (a message it refuses never reaches ModalKit). Its values are then read as the monitor
/// reads them: as the answer to each of its three `ReadOne` calls, and as a signal
/// (`SettingChanged`, and the accessibility bus follower's `NameOwnerChanged` shape).
enum PortalFuzzTarget {
    private typealias Demarshal = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> OpaquePointer?

    /// libdbus' demarshaller (not in ModalKit's table: only the fuzz target needs it).
    private static let demarshal: Demarshal = {
        precondition(modalkit_dbus_load() != 0, "modalkit-fuzz: libdbus-1.so.3 does not load")
        guard let library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL),
              let symbol = dlsym(library, "dbus_message_demarshal") else { fatalError("modalkit-fuzz: no dbus_message_demarshal") }
        return unsafeBitCast(symbol, to: Demarshal.self)
    }()

    static let keys = [(PortalSettings.gnomeNamespace, PortalSettings.gnomeKey),
                       (PortalSettings.kdeNamespace, PortalSettings.kdeKey),
                       (PortalSettings.appearanceNamespace, PortalSettings.appearanceKey)]

    static func run(_ data: [UInt8]) {
        guard data.count < Int(Int32.max) else { return }
        let message = data.withUnsafeBytes { demarshal($0.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(data.count), nil) }
        guard let message else { return }
        defer { dbus_message_unref(message) }
        let values = BusValue.arguments(of: message)
        var settings = DesktopMotionSettings()
        if let first = values.first {
            for (namespace, key) in keys {
                settings = PortalSettings.settings(settings, applying: first, namespace: namespace, key: key)
            }
        }
        if let signal = BusConnection.signal(message), let change = PortalSettings.settingChanged(signal) {
            settings = PortalSettings.settings(settings, applying: change.value, namespace: change.namespace, key: change.key)
        }
        _ = settings.reducesMotion
        for value in values {
            _ = value?.number
            _ = value?.string
            _ = value?.bool
        }
    }
}
