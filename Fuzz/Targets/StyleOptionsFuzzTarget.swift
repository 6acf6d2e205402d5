import ModalKit
import ModalKitHostFuzzSupport

/// `--style-option` values for the built-in styles (the style types the plugins ship, created in
/// process as `modal-demo` creates them): the first byte picks the style and the window's size,
/// the rest is lines of `KEY=VALUE`. A key the style does not declare names one it does (the
/// key's bytes pick it), so that every input reaches the values' parsers. A style the options
/// make is presented in a window of that size, drawn at every step of its transition and
/// dismissed: whatever the values, geometry and pixels stay within the buffer.
enum StyleOptionsFuzzTarget {
    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let pick = Int(input.byte())
        let name = BuiltinStyles.names[pick % BuiltinStyles.names.count]
        guard let declared = try? BuiltinStyles.declaredKeys(name), !declared.isEmpty else { return }
        var options: [String: String] = [:]
        for line in String(decoding: input.rest, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            var key = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : ""
            if !declared.contains(key) { key = declared[key.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % declared.count] }
            options[key] = value
            _ = TimingCurve(parsing: value)?.value(at: 0.5)
            _ = StyleOptions.parseColor(value)
        }
        let style: PresentationStyle
        do {
            style = try BuiltinStyles.make(name, options: options)
        } catch {
            _ = "\(error)"
            return
        }
        present(style, width: 40 + (pick >> 3) * 24, height: 40 + (pick & 7) * 60)
    }

    /// Presents and dismisses one level of `style` in a window of `width`×`height` points at
    /// scale 1.5, drawing each step.
    private static func present(_ style: PresentationStyle, width: Int, height: Int) {
        let host = PresentationHost(style: style, presenting: BlankContent())
        host.layout(containerSize: Size(width: Double(width), height: Double(height)), scale: 1.5)
        let pixelWidth = (width * 3 + 1) / 2, pixelHeight = (height * 3 + 1) / 2
        let data = UnsafeMutableRawPointer.allocate(byteCount: pixelWidth * pixelHeight * 4, alignment: 16)
        defer { data.deallocate() }
        let buffer = PixelBuffer(data: data, width: pixelWidth, height: pixelHeight, stride: pixelWidth * 4)
        var now = 1.0
        func frames(_ count: Int) {
            for _ in 0..<count {
                now += 0.05
                host.update(now: now)
                _ = host.presentedViewRect(at: now)
                _ = host.render(into: buffer, bufferAge: 0)
            }
        }
        _ = host.render(into: buffer, bufferAge: 0)
        host.present(BlankContent(), now: now)
        frames(12)
        _ = host.dismiss(now: now)
        frames(12)
    }
}

/// A presented or presenting content that draws nothing and takes no input.
private final class BlankContent: PresentationContent {
    var invalidation: ContentInvalidation { .none }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {}
    func handle(_ input: ContentInput, now: Double) -> Bool { false }
}
