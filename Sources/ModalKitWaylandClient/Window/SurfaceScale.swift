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
///
/// The buffer cap (``BufferCap``): once the window's size is known (``fit(width:height:)``), the
/// scale is the largest one, at most the wanted one (``wantedScale``), at which a buffer of that
/// size fits the cap — on the integer path a whole scale down to 1, on the fractional path a
/// scale in 120ths down to 1 (120/120). When none fits (or the wanted scale is at most 1 and does
/// not fit) ``isTooLarge`` is true and the scale is the smallest tried.
public struct SurfaceScale: Equatable, Sendable {
    /// The fractional path is in use (decided once, when the window is made).
    public let isFractional: Bool
    /// The largest integer `wl_output.scale` of the outputs the surface is on (≥ 1; kept when it
    /// leaves them all).
    public private(set) var outputScale = 1
    /// The last usable `preferred_scale` (numerator over 120, > 0); nil before the first one.
    public private(set) var preferredScale: UInt32?

    /// The logical size (points) the buffers must hold, from ``fit(width:height:)``; nil before.
    public var fittedSize: (width: Int, height: Int)? { fitted.map { ($0.width, $0.height) } }
    private struct FittedSize: Equatable, Sendable { var width: Int, height: Int }
    private var fitted: FittedSize?
    /// The scale the cap allows when it is below ``wantedScale``; nil when the wanted one fits.
    private var limitedScale: Double?
    /// True when the fitted size is over ``BufferCap`` even at the smallest scale tried.
    public private(set) var isTooLarge = false

    /// The scale state of a window; `isFractional` where the compositor offers fractional-scale-v1
    /// (the scale is then n/120, else the integer buffer scale).
    public init(isFractional: Bool) { self.isFractional = isFractional }

    /// Buffer pixels per point the outputs ask for: n/120 (fractional path, after a
    /// `preferred_scale`), else the integer output scale.
    public var wantedScale: Double {
        if isFractional, let n = preferredScale { return Double(n) / 120 }
        return Double(outputScale)
    }

    /// Buffer pixels per logical point, as drawn: ``wantedScale``, or less where a buffer of the
    /// fitted size would be over ``BufferCap``.
    public var scale: Double { limitedScale ?? wantedScale }

    /// True while the scale is below the wanted one because of ``BufferCap``.
    public var isLimited: Bool { limitedScale != nil }

    /// What `wl_surface.set_buffer_scale` must say: the (integer) scale on the integer path, 1 on
    /// the fractional one (where it is never sent: 1 is the default).
    public var bufferScale: Int { isFractional ? 1 : Int(scale) }

    /// Sets the logical size (points; each ≥ 1) every buffer of the surface must hold at the
    /// scale, and chooses the largest scale within ``BufferCap`` (see the type's rules).
    /// - Returns: true when ``scale`` changed.
    @discardableResult
    public mutating func fit(width: Int, height: Int) -> Bool {
        let before = scale
        fitted = FittedSize(width: width, height: height)
        refit()
        return scale != before
    }

    /// Chooses the scale for the fitted size (nothing to do before there is one).
    private mutating func refit() {
        limitedScale = nil
        isTooLarge = false
        guard let size = fitted else { return }
        func fits(_ s: Double) -> Bool {
            BufferCap.fits(width: scaledLength(size.width, scale: s), height: scaledLength(size.height, scale: s))
        }
        let wanted = wantedScale
        if fits(wanted) { return }
        var candidates: [Double] = []
        if isFractional, let n = preferredScale {
            if n > 120 { candidates = (120..<Int(n)).reversed().map { Double($0) / 120 } }
        } else if outputScale > 1 {
            candidates = (1..<outputScale).reversed().map(Double.init)
        }
        if let s = candidates.first(where: fits) {
            limitedScale = s
        } else {
            limitedScale = candidates.last
            isTooLarge = true
        }
    }

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
        refit()
        return self.scale != before
    }

    /// `wp_fractional_scale_v1.preferred_scale(n)`. A 0 (no scale at all) is ignored; so is the
    /// event on the integer path.
    /// - Returns: true when ``scale`` changed (the window must redraw at the new scale).
    public mutating func preferredScaleChanged(to numerator: UInt32) -> Bool {
        guard isFractional, numerator > 0 else { return false }
        let before = scale
        preferredScale = numerator
        refit()
        return scale != before
    }
}
