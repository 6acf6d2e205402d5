import Glibc

/// Every value this library reads from the environment, parsed and range-checked in one place.
///
/// The environment is input like any other: a value that is not a number, or a number out of
/// range, is ignored (the default applies) or clamped, and never reaches a conversion that could
/// trap (`Int32(x)` of a value above `Int32.max` is a fatal error in Swift). Each parser takes the
/// raw value (nil when unset) so that tests need not change the process environment.
enum EnvironmentValues {
    /// The raw value of `name`, nil when unset.
    static func raw(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    // MARK: Cursor (libXcursor's variables, which libwayland-cursor users honour)

    /// The cursor size when `XCURSOR_SIZE` is unset or unusable (libXcursor's and GTK's default).
    static let defaultCursorSize = 24
    /// The largest logical cursor size taken from `XCURSOR_SIZE`; larger values are clamped to it.
    /// Cursor themes ship nominal sizes well below it (Adwaita: 24 to 96).
    static let maximumCursorSize = 256
    /// The largest cursor size in buffer pixels asked from libwayland-cursor (size × buffer scale,
    /// clamped): its shm pool starts at size² × 4 bytes, 4 MiB here.
    static let maximumCursorPixelSize = 1024

    /// `XCURSOR_SIZE` in logical points: a decimal integer (surrounding blanks allowed) from 1 to
    /// ``maximumCursorSize``; larger values are clamped to it. Unset, empty, zero, negative or not a
    /// decimal integer: ``defaultCursorSize`` (libXcursor ignores a size ≤ 0 too).
    static func cursorSize(_ raw: String?) -> Int {
        guard let raw else { return defaultCursorSize }
        var digits = Substring(raw.trimmingBlanks)
        if digits.first == "+" { digits.removeFirst() }
        // A sign other than "+" (a negative size) or anything but digits: ignored.
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return defaultCursorSize
        }
        // Digits only: nil from Int() can only mean "too large for Int", which is out of range too.
        guard let value = Int(digits) else { return maximumCursorSize }
        if value < 1 { return defaultCursorSize }
        return min(value, maximumCursorSize)
    }

    /// The cursor size in buffer pixels for `logicalSize` points at buffer `scale`, clamped to
    /// 1...``maximumCursorPixelSize`` (a scale below 1 counts as 1); never overflows.
    static func cursorPixelSize(logicalSize: Int, scale: Int) -> Int32 {
        let (product, overflow) = max(1, logicalSize).multipliedReportingOverflow(by: max(1, scale))
        return Int32(overflow ? maximumCursorPixelSize : min(product, maximumCursorPixelSize))
    }

    /// `XCURSOR_THEME`: a theme is a directory name under the icon path, so a usable value is
    /// non-empty, at most `NAME_MAX` (255) bytes, without `/` or control characters. Anything
    /// else: nil, libwayland-cursor's default theme.
    static func cursorTheme(_ raw: String?) -> String? {
        guard let raw, !raw.isEmpty, raw.utf8.count <= 255,
              !raw.unicodeScalars.contains(where: { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        return raw
    }

    // MARK: Wayland socket (libwayland-client's variables, read here only for error messages)

    /// `WAYLAND_SOCKET` as libwayland parses it (`strtol`, base 10, the whole string): a file
    /// descriptor number from 0 to `Int32.max`; nil for anything else.
    static func socketFD(_ raw: String?) -> Int32? {
        guard let raw, !raw.isEmpty, raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int32(raw) else { return nil }
        return value
    }

    /// The longest socket path `connect` takes: `sun_path` is 108 bytes with the terminating NUL.
    static let maximumSocketPathLength = 107
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingBlanks: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
