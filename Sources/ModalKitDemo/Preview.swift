import CModalKitPixman
import CModalKitWebP
import Glibc
import ModalKit
import ModalKitSystemSupport

/// The frames of `modal-demo preview`: a whole present → presented → dismiss → dismissed cycle,
/// sampled at `fps` frames per second of the style's transition time.
///
/// Each transition of `duration` seconds is drawn as `n = max(1, round(duration × fps)) + 1`
/// frames, frame `k` (0 ≤ k < n) at linear time fraction `k / (n − 1)` — exactly what
/// `modal-demo render --progress k/(n−1)` draws for that phase. The presentation's frames come
/// first (frames 0…n−1), its last one (presented) is held `hold` seconds longer, then the
/// dismissal's (frames n…2n−1), whose last one (dismissed) is held as long before the animation
/// loops. Frame `i` is shown from `start(of: i)` for `duration(of: i)`, in milliseconds.
public struct PreviewTimeline: Equatable, Sendable {
    /// Frames per transition (n), at least 2.
    public let framesPerTransition: Int
    /// Frames per second of transition time.
    public let fps: Double
    /// Extra time the presented and the dismissed frame stay, seconds.
    public let hold: Double

    /// - Parameters: duration: the style's transition duration, seconds (≥ 0); fps: 1…120; hold: ≥ 0 s.
    public init(duration: Double, fps: Double, hold: Double) {
        self.fps = fps
        self.hold = hold
        framesPerTransition = max(1, Int((max(0, duration) * fps).rounded())) + 1
    }

    /// 2n frames: the presentation's n, then the dismissal's n.
    public var frameCount: Int { 2 * framesPerTransition }

    /// What frame `i` draws: the phase and the linear time fraction within it.
    public func frame(_ i: Int) -> (phase: TransitionPhase, fraction: Double) {
        let n = framesPerTransition
        let k = i % n
        return (i < n ? .present : .dismiss, Double(k) / Double(n - 1))
    }

    /// Milliseconds frame `i` is shown: 1000 / fps, rounded on the running total so that the
    /// frames keep to the clock; the last frame of each transition adds `hold`.
    public func durationMilliseconds(of i: Int) -> Int { start(of: i + 1) - start(of: i) }

    /// When frame `i` starts, milliseconds from the start of the animation (i = frameCount: its end).
    public func start(of i: Int) -> Int {
        let n = framesPerTransition
        let holds = i >= 2 * n ? 2 : i >= n ? 1 : 0
        return Int((Double(i) * 1000 / fps + Double(holds) * hold * 1000).rounded())
    }

    /// For `--strip N`: the frame index nearest to each of `count` instants evenly spaced over
    /// the 2n frames (first and last included).
    public func stripFrames(count: Int) -> [Int] {
        guard count > 1 else { return [0] }
        let last = frameCount - 1
        return (0..<count).map { Int((Double($0) * Double(last) / Double(count - 1)).rounded()) }
    }
}

/// Why a preview could not be encoded. One line naming the path. (Writing the file fails with an
/// ``OutputFileError``.)
public enum PreviewError: Error, Equatable, CustomStringConvertible {
    /// libwebp refused a size, a frame or the assembly; `message` is its own.
    case encodeFailed(path: String, message: String)

    public var description: String {
        switch self {
        case let .encodeFailed(path, message): return "cannot encode WebP '\(path)': \(message)"
        }
    }
}

/// An animated WebP built frame by frame with libwebp's `WebPAnimEncoder`, lossless: every
/// frame's 8-bit RGB is stored exactly (no palette, no dithering), so a frame decodes to the
/// pixels `render` writes to a PNG.
public final class AnimatedWebPWriter {
    private let encoder: OpaquePointer
    private let width: Int, height: Int
    private var config = WebPConfig()
    private var picture = WebPPicture()
    private var rgba: [UInt8]

    /// - Throws: `PreviewError.encodeFailed` when libwebp cannot be loaded (it is opened here, at the
    ///   first preview, not linked) or refuses the size (at most 16383 per side).
    public init(width: Int, height: Int, path: String) throws {
        self.width = width; self.height = height
        guard modalkit_webp_load() != 0 else {
            throw PreviewError.encodeFailed(path: path, message: "cannot load libwebp: "
                                            + (modalkit_webp_load_error().map { String(cString: $0) } ?? "unknown error"))
        }
        rgba = [UInt8](repeating: 0, count: width * height * 4)
        var options = WebPAnimEncoderOptions()
        guard modalkit_webp_anim_encoder_options_init(&options) != 0, modalkit_webp_config_init(&config) != 0,
              modalkit_webp_picture_init(&picture) != 0 else {
            throw PreviewError.encodeFailed(path: path, message: "libwebp version mismatch")
        }
        options.anim_params.loop_count = 0   // loop forever
        options.anim_params.bgcolor = 0xFFFFFFFF
        options.allow_mixed = 0              // lossless only
        config.lossless = 1
        config.quality = 25                  // for lossless: effort, not fidelity (fast)
        config.method = 1
        config.exact = 1                     // keep RGB under alpha 0 too
        guard let e = modalkit_webp_anim_encoder_new(Int32(width), Int32(height), &options) else {
            throw PreviewError.encodeFailed(path: path, message: "WebPAnimEncoderNew refused \(width)x\(height)")
        }
        encoder = e
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
    }

    /// libwebpmux's message for the encoder's last failure.
    private var encoderError: String {
        modalkit_webp.AnimEncoderGetError(encoder).map { String(cString: $0) } ?? "libwebpmux gave no reason"
    }

    deinit {
        modalkit_webp.PictureFree(&picture)
        modalkit_webp.AnimEncoderDelete(encoder)
    }

    /// Adds `image` (premultiplied ARGB, this writer's size) shown from `timestamp` milliseconds.
    public func add(_ image: Image, timestamp: Int, path: String) throws {
        image.straightRGBA(into: &rgba)
        let imported = rgba.withUnsafeBufferPointer { modalkit_webp.PictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
        guard imported != 0 else { throw PreviewError.encodeFailed(path: path, message: "WebPPictureImportRGBA failed") }
        guard modalkit_webp.AnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
            throw PreviewError.encodeFailed(path: path, message: encoderError)
        }
    }

    /// Ends the animation at `end` milliseconds (the last frame's end) and writes the file through
    /// ``OutputFile`` (only a regular file or a new path; atomically: a failed write keeps the
    /// previous file).
    /// - Throws: ``PreviewError/encodeFailed(path:message:)``, ``OutputFileError``.
    public func finish(end: Int, path: String) throws {
        guard modalkit_webp.AnimEncoderAdd(encoder, nil, Int32(end), nil) != 0 else {
            throw PreviewError.encodeFailed(path: path, message: encoderError)
        }
        var data = WebPData()
        defer { modalkit_webp_data_clear(&data) }
        guard modalkit_webp.AnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw PreviewError.encodeFailed(path: path, message: encoderError)
        }
        try OutputFile.write(UnsafeRawBufferPointer(start: bytes, count: data.size), to: path)
    }
}

/// An animated WebP read back with libwebp's `WebPAnimDecoder`: every frame as a full canvas.
public struct DecodedAnimation {
    public var width = 0, height = 0
    /// Each frame's straight RGBA bytes (width × height × 4) and the time it ends, ms.
    public var frames: [(rgba: [UInt8], end: Int)] = []

    /// Decodes the file; nil when it is not an animated (or still) WebP libwebp can read, or when
    /// libwebp cannot be loaded.
    public init?(path: String) {
        guard modalkit_webp_load() != 0, let contents = try? FileSystem.contents(of: path) else { return nil }
        let ok: Bool = contents.withUnsafeBytes { raw -> Bool in
            var data = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard modalkit_webp_anim_decoder_options_init(&options) != 0 else { return false }
            options.color_mode = MODE_RGBA
            guard let decoder = modalkit_webp_anim_decoder_new(&data, &options) else { return false }
            defer { modalkit_webp.AnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard modalkit_webp.AnimDecoderGetInfo(decoder, &info) != 0 else { return false }
            width = Int(info.canvas_width); height = Int(info.canvas_height)
            while modalkit_webp.AnimDecoderHasMoreFrames(decoder) != 0 {
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard modalkit_webp.AnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else { return false }
                frames.append((Array(UnsafeBufferPointer(start: buffer, count: width * height * 4)), Int(timestamp)))
            }
            return true
        }
        if !ok { return nil }
    }

    /// The frame shown at `milliseconds` from the start (the first whose end is later).
    public func frame(at milliseconds: Int) -> [UInt8]? {
        frames.first { $0.end > milliseconds }?.rgba
    }
}

extension Image {
    /// The pixels as straight (un-premultiplied) 8-bit RGBA, row after row, as `writePNG` stores them.
    public func straightRGBA(into rgba: inout [UInt8]) {
        let buffer = pixelBuffer
        if rgba.count != width * height * 4 { rgba = [UInt8](repeating: 0, count: width * height * 4) }
        for y in 0..<height {
            for x in 0..<width {
                let p = buffer.pixel(x: x, y: y)
                let a = p >> 24
                var r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff
                if a != 0 && a != 255 {
                    r = min(255, (r * 255 + a / 2) / a)
                    g = min(255, (g * 255 + a / 2) / a)
                    b = min(255, (b * 255 + a / 2) / a)
                }
                let o = (y * width + x) * 4
                rgba[o] = UInt8(r); rgba[o + 1] = UInt8(g); rgba[o + 2] = UInt8(b); rgba[o + 3] = UInt8(a)
            }
        }
    }
}

extension Image {
    /// Copies `source` (SRC, pixel for pixel) into this image with its top-left at (`x`, 0).
    public func copy(_ source: Image, toX x: Int) {
        pixman_image_composite32(PIXMAN_OP_SRC, source.pixmanImage, nil, pixmanImage, 0, 0, 0, 0,
                                 Int32(x), 0, Int32(source.width), Int32(source.height))
    }
}
