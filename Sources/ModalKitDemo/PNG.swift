import CModalKitPixman
import CModalKitPng
import Glibc
import ModalKit

/// Why a PNG could not be written or read. Descriptions are one line and name the path.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// libpng failed to encode the image for `path`; `message` is libpng's.
    case writeFailed(path: String, message: String)
    /// libpng failed to read `path`.
    case readFailed(path: String, message: String)

    public var description: String {
        switch self {
        case let .writeFailed(path, message): return "cannot write PNG '\(path)': \(message)"
        case let .readFailed(path, message): return "cannot read PNG '\(path)': \(message)"
        }
    }
}

/// PNG files for `Image` (libpng's simplified API): what `modal-demo render` writes and tests read.
extension Image {
    /// Writes the image as an 8-bit RGBA PNG (straight alpha: each colour is un-premultiplied,
    /// `c × 255 / a` rounded), encoded by libpng's simplified API and written through
    /// ``OutputFile`` (only a regular file or a new path; atomically).
    /// - Throws: `PNGError.writeFailed` when libpng cannot encode; ``OutputFileError`` when the
    ///   path is not a regular file or a new path, or writing fails (the previous file is kept).
    public func writePNG(to path: String) throws {
        try OutputFile.write(try pngData(path: path), to: path)
    }

    /// The image encoded as an 8-bit RGBA PNG file (see ``writePNG(to:)``); `path` only names it in errors.
    /// - Throws: `PNGError.writeFailed` with libpng's message.
    public func pngData(path: String) throws -> [UInt8] {
        var rgba: [UInt8] = []
        straightRGBA(into: &rgba)
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = Image.pngFormatRGBA
        // A first guess at the size; libpng says how much it needs when that is too small.
        var capacity = rgba.count / 4 + 65536
        var data: [UInt8] = []
        for _ in 0..<2 {
            data = [UInt8](repeating: 0, count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = data.withUnsafeMutableBytes { out in
                rgba.withUnsafeBytes { bytes in
                    modalkit_png_image_write_to_memory(&image, out.baseAddress, &size, 0, bytes.baseAddress, png_int_32(width * 4), nil)
                }
            }
            if ok != 0 {
                modalkit_png_image_free(&image)
                data.removeSubrange(Int(size)...)
                return data
            }
            guard Int(size) > capacity else { break }   // an error, not a buffer too small
            capacity = Int(size)
            image.warning_or_error = 0
            modalkit_png_image_free(&image)
            image.opaque = nil
        }
        let message = Image.message(of: &image)
        modalkit_png_image_free(&image)
        throw PNGError.writeFailed(path: path, message: message)
    }

    /// Reads a PNG file (any colour type libpng understands) into a new premultiplied image.
    /// Useful for comparing a screenshot with `render`'s output.
    /// - Throws: `PNGError.readFailed` with libpng's message, `.invalidSize`.
    public convenience init(pngFile path: String) throws {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard modalkit_png_image_begin_read_from_file(&image, path) != 0 else {
            let message = Image.message(of: &image)
            modalkit_png_image_free(&image)
            throw PNGError.readFailed(path: path, message: message)
        }
        image.format = Image.pngFormatRGBA
        let w = Int(image.width), h = Int(image.height)
        var rgba = [UInt8](repeating: 0, count: max(1, w * h * 4))
        let ok = rgba.withUnsafeMutableBytes { bytes in
            modalkit_png_image_finish_read(&image, nil, bytes.baseAddress, png_int_32(w * 4), nil)
        }
        let message = Image.message(of: &image)
        modalkit_png_image_free(&image)
        guard ok != 0 else { throw PNGError.readFailed(path: path, message: message) }
        try self.init(width: w, height: h)
        let buffer = pixelBuffer
        for y in 0..<h {
            let row = buffer.data.advanced(by: y * buffer.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                let o = (y * w + x) * 4
                let a = UInt32(rgba[o + 3])
                func pm(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                row[x] = a << 24 | pm(rgba[o]) << 16 | pm(rgba[o + 1]) << 8 | pm(rgba[o + 2])
            }
        }
    }

    /// `PNG_FORMAT_RGBA` (= `PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA`; the macro is an
    /// expression Swift does not import): 8-bit R, G, B, A in that byte order, straight alpha.
    static let pngFormatRGBA = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }
}
