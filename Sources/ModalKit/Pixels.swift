import CPixman
import Foundation

// Buffer pixels: the renderer's unit. A buffer is `points × scale` pixels in each direction, 32-bit
// premultiplied ARGB (`PIXMAN_a8r8g8b8`, which is `WL_SHM_FORMAT_ARGB8888` in memory: one native-endian
// UInt32 per pixel, alpha in the top byte, each colour component already multiplied by alpha).

/// A rectangle in buffer pixels (integers), origin top-left. Used for damage and pixel tests.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// Number of pixels covered (0 when empty).
    public var area: Int { isEmpty ? 0 : width * height }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The overlap of two rectangles, `.zero` when they do not overlap.
    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = Swift.max(x, o.x), y0 = Swift.max(y, o.y)
        let x1 = Swift.min(maxX, o.maxX), y1 = Swift.min(maxY, o.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both (an empty operand is ignored).
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = Swift.min(x, o.x), y0 = Swift.min(y, o.y)
        return PixelRect(x: x0, y: y0, width: Swift.max(maxX, o.maxX) - x0, height: Swift.max(maxY, o.maxY) - y0)
    }

    public var description: String { "\(x),\(y) \(width)x\(height)" }
}

/// A caller-owned block of pixels to render into: `height` rows of `width` 32-bit premultiplied ARGB
/// pixels (`PIXMAN_a8r8g8b8` == `WL_SHM_FORMAT_ARGB8888`), rows `stride` bytes apart.
///
/// The memory is borrowed, never freed by ModalKit; it must stay valid while a render call runs.
/// `stride` must be a multiple of 4 and at least `4 × width` (pixman's requirement).
public struct PixelBuffer {
    public var data: UnsafeMutableRawPointer
    /// Width in buffer pixels.
    public var width: Int
    /// Height in buffer pixels.
    public var height: Int
    /// Bytes from one row to the next.
    public var stride: Int

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

/// Why an `Image` could not be created. Descriptions are one line and name the path.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    /// Width or height not in 1...32767 (pixman's limit is far larger; this is a sanity bound).
    case invalidSize(width: Int, height: Int)
    /// pixman could not allocate the pixels.
    case allocationFailed(width: Int, height: Int)

    public var description: String {
        switch self {
        case let .invalidSize(w, h): return "invalid image size \(w)x\(h) (each side must be 1...32767 pixels)"
        case let .allocationFailed(w, h): return "cannot allocate a \(w)x\(h) image"
        }
    }
}

/// An offscreen image that owns its pixels: a pixman `a8r8g8b8` image (premultiplied ARGB, buffer
/// pixels), zero-filled (transparent) on creation. Used for layer caches, offscreen renders, tests and benchmarks.
public final class Image {
    /// Size in buffer pixels.
    public let width: Int
    public let height: Int
    /// The pixman image (`pixman_image_t *`, `PIXMAN_a8r8g8b8`, premultiplied ARGB) over the pixels,
    /// owned by this object (unreferenced in `deinit`): draw into it with pixman, or hand it to
    /// ``Renderer/render(_:presenting:presented:presentingDamage:into:bufferAge:record:)`` as a layer.
    /// Valid as long as this image lives; do not unreference it.
    public let pixmanImage: OpaquePointer

    /// Creates a transparent image of `width × height` buffer pixels.
    /// - Throws: `ImageError.invalidSize` unless both sides are 1...32767, `.allocationFailed`.
    public init(width: Int, height: Int) throws {
        guard (1...32767).contains(width), (1...32767).contains(height) else {
            throw ImageError.invalidSize(width: width, height: height)
        }
        // NULL bits: pixman allocates zeroed memory with a stride of 4 × width.
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0) else {
            throw ImageError.allocationFailed(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.pixmanImage = image
    }

    deinit { pixman_image_unref(pixmanImage) }

    /// Bytes per row.
    public var stride: Int { Int(pixman_image_get_stride(pixmanImage)) }

    /// The pixels, to pass to a render call (e.g. ``Renderer``'s). Valid as long as this image lives.
    public var pixelBuffer: PixelBuffer {
        PixelBuffer(data: UnsafeMutableRawPointer(pixman_image_get_data(pixmanImage)!),
                    width: width, height: height, stride: stride)
    }

    /// The premultiplied ARGB value (`0xAARRGGBB`) at (x, y), buffer pixels from the top-left.
    public func pixel(x: Int, y: Int) -> UInt32 { pixelBuffer.pixel(x: x, y: y) }
}

extension UInt32 {
    /// The premultiplied ARGB components of a pixel value, 0...255 each.
    @inlinable public var argbComponents: (a: Int, r: Int, g: Int, b: Int) {
        (Int(self >> 24), Int((self >> 16) & 0xff), Int((self >> 8) & 0xff), Int(self & 0xff))
    }
}
