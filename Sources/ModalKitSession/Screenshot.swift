// Screenshots as plain RGB pixels: grim writes binary PPM (P6) for sway, weston-screenshooter
// writes PNG (read with libpng's simplified API).
import Foundation
import CModalKitPng

/// One opaque pixel, 8 bits per channel.
public struct RGB: Equatable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }

    /// The largest per-channel difference to `other` (0…255).
    public func distance(to other: RGB) -> Int {
        max(abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)))
    }

    /// This colour seen through an opaque black layer of alpha `alpha` (SRC OVER): each channel × (1 − alpha).
    public func dimmed(byBlackAlpha alpha: Double) -> RGB {
        func ch(_ v: UInt8) -> UInt8 { UInt8((Double(v) * (1 - alpha)).rounded()) }
        return RGB(ch(r), ch(g), ch(b))
    }

    public var description: String { String(format: "#%02x%02x%02x", r, g, b) }
}

/// A rectangle in pixels (screen or window coordinates, as the caller says).
/// Takes screenshots with `take` until two taken `interval` seconds apart are identical (the
/// picture has settled), for at most `timeout` seconds: what every session's `stableScreenshot` does.
/// - Throws: `HarnessError` if it never settles; what `take` throws.
public func settledScreenshot(timeout: Double, interval: Double, _ take: () throws -> RGBImage) throws -> RGBImage {
    var previous = try take()
    let deadline = monotonicNow() + timeout
    while monotonicNow() < deadline {
        usleep(useconds_t(interval * 1e6))
        let next = try take()
        if next == previous { return next }
        previous = next
    }
    throw HarnessError("the screen kept changing for \(timeout) s")
}

public struct PixelBox: Equatable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    public var midX: Double { Double(x) + Double(width) / 2 }
    public var midY: Double { Double(y) + Double(height) / 2 }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// An RGB image, row-major, top-left origin.
public struct RGBImage: Equatable {
    public let width: Int
    public let height: Int
    /// width × height × 3 bytes.
    public var bytes: [UInt8]

    public init(width: Int, height: Int, bytes: [UInt8]) { self.width = width; self.height = height; self.bytes = bytes }

    public subscript(x: Int, y: Int) -> RGB {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let i = (y * width + x) * 3
        return RGB(bytes[i], bytes[i + 1], bytes[i + 2])
    }

    /// The part of the image inside `box` (which must lie inside the image).
    public func cropped(to box: PixelBox) -> RGBImage {
        precondition(box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height,
                     "crop \(box) outside \(width)x\(height)")
        var out = [UInt8]()
        out.reserveCapacity(box.width * box.height * 3)
        for y in box.y..<(box.y + box.height) {
            let start = (y * width + box.x) * 3
            out.append(contentsOf: bytes[start..<(start + box.width * 3)])
        }
        return RGBImage(width: box.width, height: box.height, bytes: out)
    }

    /// The smallest box holding every pixel farther than `tolerance` from `background`, or nil.
    public func boundingBox(ofPixelsDifferentFrom background: RGB, tolerance: Int = 0) -> PixelBox? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where self[x, y].distance(to: background) > tolerance {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// Parses a binary PPM (P6, maxval 255) as grim writes it with `-t ppm`. Comments allowed.
    /// - Throws: `HarnessError` for anything else.
    public static func parsePPM(_ data: Data) throws -> RGBImage {
        let bytes = [UInt8](data)
        var i = 0
        func skipSpaceAndComments() {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
                } else if [9, 10, 13, 32].contains(bytes[i]) {
                    i += 1
                } else {
                    return
                }
            }
        }
        func token() -> String {
            skipSpaceAndComments()
            let start = i
            while i < bytes.count && ![9, 10, 13, 32].contains(bytes[i]) { i += 1 }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }
        guard token() == "P6", let w = Int(token()), let h = Int(token()), let maxval = Int(token()),
              w > 0, h > 0, maxval == 255, i < bytes.count else {
            throw HarnessError("not a P6 PPM with maxval 255 (\(bytes.count) bytes)")
        }
        i += 1   // the single whitespace after maxval
        let needed = w * h * 3
        guard bytes.count - i >= needed else {
            throw HarnessError("PPM \(w)x\(h) truncated: \(bytes.count - i) of \(needed) pixel bytes")
        }
        return RGBImage(width: w, height: h, bytes: Array(bytes[i..<(i + needed)]))
    }

    /// Reads a PNG file with libpng's simplified API, converted to 8-bit RGB.
    public static func loadPNG(path: String) throws -> RGBImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard modalkit_png_image_begin_read_from_file(&image, path) != 0 else {
            throw HarnessError("cannot read PNG \(path): \(pngMessage(&image))")
        }
        image.format = UInt32(PNG_FORMAT_RGB)
        let width = Int(image.width), height = Int(image.height)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let ok = bytes.withUnsafeMutableBytes {
            modalkit_png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 3), nil)
        }
        guard ok != 0 else {
            modalkit_png_image_free(&image)
            throw HarnessError("cannot decode PNG \(path): \(pngMessage(&image))")
        }
        return RGBImage(width: width, height: height, bytes: bytes)
    }

    private static func pngMessage(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    /// Writes the image as an 8-bit RGB PNG (for keeping the screenshots of a failed test).
    public func writePNG(to path: String) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_RGB)
        let ok = bytes.withUnsafeBytes {
            modalkit_png_image_write_to_file(&image, path, 0, $0.baseAddress, Int32(width * 3), nil)
        }
        guard ok != 0 else { throw HarnessError("cannot write PNG \(path): \(RGBImage.pngMessage(&image))") }
    }
}
