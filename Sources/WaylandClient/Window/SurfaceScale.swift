/// How a window's buffers relate to its logical size: which scale it draws at and how that is
/// told to the compositor. A value without any live Wayland object (unit-tested).
///
/// Two paths:
/// - integer (no `wp_fractional_scale_manager_v1`, or no `wp_viewporter`): the scale is the largest
///   integer `wl_output.scale` of the outputs the surface is on; buffer = size × scale, sent with
///   `wl_surface.set_buffer_scale(scale)`.
/// - fractional (fractional-scale-v1, with wp_viewporter): the scale is the last
///   `wp_fractional_scale_v1.preferred_scale` n, as n/120; buffer = ``scaledLength(_:scale:)`` of
///   each side; `wp_viewport.set_destination` = the logical size; the buffer scale stays 1 (the
///   protocol: "The wl_surface buffer scale should remain set to 1"). Until the first
///   `preferred_scale` arrives, the integer output scale stands in for it (through the viewport
///   all the same, so the path never changes).
public struct SurfaceScale: Equatable, Sendable {
    /// The fractional path is in use (decided once, when the window is made).
    public let isFractional: Bool
    /// The largest integer `wl_output.scale` of the outputs the surface is on (≥ 1; kept when it
    /// leaves them all).
    public private(set) var outputScale = 1
    /// The last usable `preferred_scale` (numerator over 120, > 0); nil before the first one.
    public private(set) var preferredScale: UInt32?

    public init(isFractional: Bool) { self.isFractional = isFractional }

    /// Buffer pixels per logical point: n/120 (fractional path, after a `preferred_scale`), else
    /// the integer output scale.
    public var scale: Double {
        if isFractional, let n = preferredScale { return Double(n) / 120 }
        return Double(outputScale)
    }

    /// What `wl_surface.set_buffer_scale` must say: the output scale on the integer path, 1 on the
    /// fractional one (where it is never sent: 1 is the default).
    public var bufferScale: Int { isFractional ? 1 : outputScale }

    /// The buffer size in pixels for a logical size in points (each ≥ 1): size × scale on the
    /// integer path, ``scaledLength(_:scale:)`` of each side on the fractional one.
    public func bufferSize(width: Int, height: Int) -> (width: Int, height: Int) {
        (scaledLength(width, scale: scale), scaledLength(height, scale: scale))
    }

    /// `wl_output.scale` of the surface's outputs changed to `scale` (their maximum).
    /// - Returns: true when ``scale`` changed (the window must redraw at the new scale).
    public mutating func outputScaleChanged(to scale: Int) -> Bool {
        let before = self.scale
        outputScale = max(1, scale)
        return self.scale != before
    }

    /// `wp_fractional_scale_v1.preferred_scale(n)`. A 0 (no scale at all) is ignored; so is the
    /// event on the integer path.
    /// - Returns: true when ``scale`` changed (the window must redraw at the new scale).
    public mutating func preferredScaleChanged(to numerator: UInt32) -> Bool {
        guard isFractional, numerator > 0 else { return false }
        let before = scale
        preferredScale = numerator
        return scale != before
    }
}
