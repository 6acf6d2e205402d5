import CModalKitPixman
import Glibc

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
    /// Height in buffer pixels.
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
