// Geometry in points (logical coordinates, the units of UIKit and of Wayland's surface-local
// coordinates). Buffer pixels are points × a scale — an integer (`wl_output.scale`) or a fraction
// (a compositor's fractional scale, e.g. 1.5); conversion is explicit through `scaled(by:)` and
// `pixelLength(_:scale:)` so no value is ever ambiguous about its unit.

/// A length in points × `scale`, in whole buffer pixels: rounded half away from zero — the rule
/// Wayland's fractional-scale protocol gives for a window's buffer size (100 × 50 points at 1.5 →
/// 150 × 75 pixels; 101 points → 151.5 → 152). A product within 1e-6 of a half counts as a half,
/// so a scale of n/120 held as a `Double` rounds exactly as the fraction does. At least 1 for a
/// positive length; exact (points × scale) for whole numbers.
///
/// - Parameters:
///   - points: a length in points (≥ 0).
///   - scale: buffer pixels per point (> 0).
public func pixelLength(_ points: Double, scale: Double) -> Int {
    let rounded = roundedHalfAwayFromZero(points * scale)
    return points > 0 ? max(1, Int(rounded)) : Int(rounded)
}

/// `value` rounded to a whole number, halves away from zero, a value within 1e-6 of a half
/// counting as a half (so the result does not depend on the last bits of a computation). The
/// margin is the precision of a live frame's position: it comes from `CLOCK_MONOTONIC` seconds
/// since boot held as a `Double`, whose last bit after hours of uptime is a few 1e-12 s — over a
/// 0.3 s transition and a 200-point travel, 1e-8 points; after weeks, over a 4K window, 1e-6.
/// (A scale of n/120 puts a whole number of points at least 1/240 from a half: untouched.)
package func roundedHalfAwayFromZero(_ value: Double) -> Double {
    let a = abs(value), whole = a.rounded(.down)
    let r = abs(a - whole - 0.5) < 1e-6 ? whole + 1 : a.rounded()
    return value < 0 ? -r : r
}
