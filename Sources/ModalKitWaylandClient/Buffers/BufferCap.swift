/// The largest `wl_shm` buffer this client makes: at most ``maxSide`` pixels a side and
/// ``maxPixels`` pixels in all (256 MiB of ARGB8888). Every buffer — a window's content, its
/// title bar and resize borders, each ``SurfaceLayer`` image — is checked against it
/// (`ShmBuffer`); a ``Window`` whose size × scale would exceed it draws at the largest scale that
/// fits instead (``SurfaceScale/fit(width:height:)``,
/// ``WindowDelegate/window(_:didLimitScaleTo:wanted:)``).
///
/// Why these numbers:
/// - 16384 a side: the `GL_MAX_TEXTURE_SIZE` of current desktop GPUs and of Mesa's llvmpipe. A
///   compositor that composes with GL (wlroots' GLES2 renderer, weston's gl-renderer, mutter,
///   KWin) uploads a `wl_shm` buffer as one texture and shows nothing of a larger one.
/// - 64 Mi pixels (8192 × 8192, twice an 8K UHD screen): a window keeps up to four content
///   buffers, so its buffers stay within 1 GiB; and stride × height stays far below the 2 GiB
///   that `wl_shm.create_pool` (an `int32` size) and pixman (`int` stride × height) accept.
///   The same caps as `modal-demo render`'s output.
public enum BufferCap {
    /// Most pixels on either side of a buffer.
    public static let maxSide = 16384
    /// Most pixels in a buffer (64 Mi = 2²⁶).
    public static let maxPixels = 1 << 26

    /// Whether a buffer of `width` × `height` pixels (each ≥ 0) is within the cap.
    public static func fits(width: Int, height: Int) -> Bool {
        guard width <= maxSide, height <= maxSide else { return false }
        return width * height <= maxPixels   // ≤ 16384² = 2²⁸: no overflow
    }

    /// - Throws: ``WaylandError/bufferTooLarge(width:height:)`` when `width` × `height` is over the cap.
    static func check(width: Int, height: Int) throws {
        guard fits(width: width, height: height) else { throw WaylandError.bufferTooLarge(width: width, height: height) }
    }
}
