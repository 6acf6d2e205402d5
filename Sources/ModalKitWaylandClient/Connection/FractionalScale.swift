import CModalKitWaylandClient
import CModalKitWaylandProtocols

/// `wp_fractional_scale_manager_v1` (optional, fractional-scale-v1): bound when offered. A window
/// uses it only together with `wp_viewporter` (the protocol's buffers are sized through
/// `wp_viewport.set_destination`). Owns its proxy.
final class FractionalScaleManager {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
    }

    deinit { wp_fractional_scale_manager_v1_destroy(proxy) }

    /// The fractional-scale object of `surface` (at most one per surface, else
    /// `fractional_scale_exists`).
    func fractionalScale(for surface: Surface) -> FractionalScale {
        FractionalScale(proxy: wp_fractional_scale_manager_v1_get_fractional_scale(proxy, surface.proxy),
                        display: display)
    }
}

/// `wp_fractional_scale_v1`: the compositor's preferred scale for one surface. Owns its proxy;
/// destroy it before its surface.
final class FractionalScale {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// `preferred_scale(scale)`: the numerator of a fraction with denominator 120.
    var onPreferredScale: ((UInt32) -> Void)?

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
        wp_fractional_scale_v1_add_listener(proxy, FractionalScale.listener, userData(self))
    }

    deinit { wp_fractional_scale_v1_destroy(proxy) }

    private static let listener = listenerTable(wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, scale in
            owner(data, as: FractionalScale.self).onPreferredScale?(scale)
        }))
}

/// A length in points × a scale, in buffer pixels: rounded halfway away from zero, as
/// fractional-scale-v1 rules for a toplevel's buffer size ("For toplevel surfaces, the size is
/// rounded halfway away from zero"; its example: 100 × 50 points at 1.5 → 150 × 75 pixels). A
/// product within 1e-9 of a half counts as a half, so that a scale of n/120 held as a `Double`
/// rounds exactly like the fraction itself (w × n / 120 is never closer than 1/120 to a half
/// unless it is one). Never below 1 for a positive length.
///
/// - Parameters:
///   - points: a length in surface-local points (≥ 0).
///   - scale: buffer pixels per point (> 0).
public func scaledLength(_ points: Int, scale: Double) -> Int {
    let exact = Double(points) * scale
    let whole = exact.rounded(.down)
    let rounded = abs(exact - whole - 0.5) < 1e-9 ? whole + 1 : exact.rounded()
    return points > 0 ? max(1, Int(rounded)) : Int(rounded)
}

extension PixelRect {
    /// A rectangle of whole points in buffer pixels at `scale`: each edge at
    /// `scaledLength(_:scale:)` of its coordinate, so that rectangles adjacent in points stay
    /// adjacent in pixels and one ending where a surface ends ends where its buffer does; at a
    /// whole `scale`, every coordinate × `scale`.
    ///
    /// - Parameters:
    ///   - rect: whole points (a fraction is truncated toward zero).
    ///   - scale: buffer pixels per point (> 0).
    public init(wholePoints rect: Rect, scale: Double) {
        let x0 = scaledLength(Int(rect.minX), scale: scale), y0 = scaledLength(Int(rect.minY), scale: scale)
        self.init(x: x0, y: y0, width: scaledLength(Int(rect.minX) + Int(rect.width), scale: scale) - x0,
                  height: scaledLength(Int(rect.minY) + Int(rect.height), scale: scale) - y0)
    }
}
