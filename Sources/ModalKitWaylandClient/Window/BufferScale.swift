/// Which integer buffer scale a window draws at, without any live Wayland object (unit-tested).
///
/// Rules:
/// - On an output (after `wl_surface.enter`): the largest `wl_output.scale` of the outputs the
///   surface is on, so it is sharp on the densest one (wayland.xml, `wl_surface.set_buffer_scale`:
///   "the compositor will … scale down" a buffer of a higher scale).
/// - Before the surface has entered any output: the largest scale of all outputs the compositor
///   advertises. The compositor sends `enter` only once the surface is mapped, i.e. after the
///   first buffer; a first buffer at scale 1 on a scale-2 output would be shown upscaled (blurry)
///   for a frame. `wl_surface.preferred_buffer_scale` (wl_compositor v6) says this up front, but
///   libwayland 1.21 (Debian 12) does not have it; GTK and foot guess from the outputs the same way.
/// - After leaving every output: the last scale is kept (moving between outputs sends `leave`
///   before `enter`; a hidden surface keeps what it had).
public enum BufferScale {
    /// - Parameters:
    ///   - entered: the scales of the outputs the surface is on now.
    ///   - hasEntered: whether the surface has ever entered an output.
    ///   - advertised: the scales of every output the compositor advertises.
    ///   - current: the scale in use.
    /// - Returns: the buffer scale to use (≥ 1).
    public static func resolve(entered: [Int], hasEntered: Bool, advertised: [Int], current: Int) -> Int {
        if let largest = entered.max() { return max(1, largest) }
        if !hasEntered { return max(1, advertised.max() ?? 1) }
        return max(1, current)
    }
}
