import CModalKitPixman
import Glibc

/// A caller-owned block of pixels to render into: `height` rows of `width` 32-bit premultiplied ARGB
/// pixels (`PIXMAN_a8r8g8b8` == `WL_SHM_FORMAT_ARGB8888`), rows `stride` bytes apart.
///
/// The memory is borrowed, never freed by ModalKit; it must stay valid while a render call runs.
/// `stride` must be a multiple of 4 and at least `4 × width` (pixman's requirement).
public struct PixelBuffer {
    /// The first byte of the top row.
    public var data: UnsafeMutableRawPointer
    /// Width in buffer pixels.
    public var width: Int
    /// Height in buffer pixels.
    public var height: Int
    /// Bytes from one row to the next.
    public var stride: Int

    /// A buffer over `data`: `height` rows of `width` pixels, `stride` bytes apart.
    public init(data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        self.data = data; self.width = width; self.height = height; self.stride = stride
    }

    /// The whole buffer as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The premultiplied ARGB value at (x, y); (0, 0) is the top-left pixel.
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }
}
