import CModalKitWaylandClient
import CModalKitWaylandCursor
import Glibc

/// A libwayland-cursor theme loaded at one pixel size (`XCURSOR_THEME`, `XCURSOR_SIZE` × scale;
/// default size 24; both range-checked by ``EnvironmentValues``, the size clamped to 256 points and
/// 1024 pixels). libwayland-cursor falls back to its built-in cursors when the theme is missing.
/// Owns the `wl_cursor_theme` (and so the cursor buffers): destroyed in `deinit`.
final class CursorTheme {
    private let theme: OpaquePointer
    /// Keeps the `wl_display` connected while the theme's buffers and pool live (``Display``).
    private let display: Display
    /// The buffer scale this theme was loaded for.
    let scale: Int

    /// The cursor size in logical points: `XCURSOR_SIZE` (``EnvironmentValues/cursorSize(_:)``), else 24.
    static var logicalSize: Int { EnvironmentValues.cursorSize(EnvironmentValues.raw("XCURSOR_SIZE")) }

    init?(shm: Shm, scale: Int) {
        // nil = libwayland-cursor's default theme
        let name = EnvironmentValues.cursorTheme(EnvironmentValues.raw("XCURSOR_THEME"))
        let size = EnvironmentValues.cursorPixelSize(logicalSize: CursorTheme.logicalSize, scale: scale)
        guard let theme = wl_cursor_theme_load(name, size, shm.proxy) else {
            return nil
        }
        self.theme = theme
        display = shm.display
        self.scale = scale
    }

    deinit { wl_cursor_theme_destroy(theme) }

    /// The first image of the first cursor found among `names` (the theme owns it and its buffer).
    func image(named names: [String]) -> UnsafeMutablePointer<wl_cursor_image>? {
        for name in names {
            if let cursor = wl_cursor_theme_get_cursor(theme, name), cursor.pointee.image_count > 0,
               let image = cursor.pointee.images[0] {
                return image
            }
        }
        return nil
    }
}
