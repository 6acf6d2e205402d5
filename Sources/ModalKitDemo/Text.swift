import CModalKitPixman
import Glibc
import ModalKit
import ModalKitText

/// Why the demo scene could not be set up.
public enum SceneError: Error, Equatable, CustomStringConvertible {
    /// fcft/fontconfig found no font for the pattern (e.g. no fonts installed, or no fontconfig
    /// configuration). `pattern` is the fontconfig pattern that was asked for.
    case fontUnavailable(pattern: String)
    /// fcft could not be loaded or started (`FontError.textLibraryUnavailable`'s text).
    case textLibraryUnavailable(String)

    public var description: String {
        switch self {
        case let .fontUnavailable(pattern):
            return "cannot load font '\(pattern)' through fontconfig (is a font such as fonts-dejavu-core installed?)"
        case let .textLibraryUnavailable(message):
            return message
        }
    }
}

/// One font of the scene at one pixel size (pixel size = points × scale, rounded to a whole
/// pixel), kerned; drawn through ModalKitText, the glyph path the window's title bar uses too.
final class Font {
    let font: PixmanFont

    /// - Parameters:
    ///   - pattern: a fontconfig pattern, e.g. `sans-serif` or `sans-serif:weight=bold`.
    ///   - pixelSize: the em size in buffer pixels.
    /// - Throws: `SceneError.fontUnavailable` when fontconfig/fcft cannot provide it.
    init(pattern: String, pixelSize: Int) throws {
        do {
            font = try PixmanFont(pattern: pattern, pixelSize: pixelSize)
        } catch let error as FontError {
            guard case .textLibraryUnavailable = error else { throw SceneError.fontUnavailable(pattern: pattern) }
            throw SceneError.textLibraryUnavailable(error.description)
        } catch {
            throw SceneError.fontUnavailable(pattern: pattern)
        }
    }

    var ascent: Int { font.ascent }
    var descent: Int { font.descent }

    /// The advance width of `text` as `draw` lays it out, buffer pixels.
    func width(of text: String) -> Int { font.width(of: text) }

    /// `text` fitted to `maxWidth` pixels on one line: itself, or whole grapheme clusters + "…"
    /// (``PixmanFont/truncated(_:toWidth:ellipsis:)``).
    func truncated(_ text: String, toWidth maxWidth: Int) -> String { font.truncated(text, toWidth: maxWidth) }

    /// `text` broken into lines of at most `maxWidth` pixels (at spaces; a longer word at grapheme
    /// clusters), at most `maximumLines` (0: any) with "…" ending a cut
    /// (``PixmanFont/wrapped(_:toWidth:maximumLines:)``).
    func wrapped(_ text: String, toWidth maxWidth: Int, maximumLines: Int = 0) -> [String] {
        font.wrapped(text, toWidth: maxWidth, maximumLines: maximumLines)
    }

    /// Draws `text` with its baseline at `baseline` and its origin at `x` (buffer pixels), OVER `dst`.
    func draw(_ text: String, into dst: OpaquePointer, x: Int, baseline: Int, color: Color) {
        font.draw(text, into: dst, x: x, baseline: baseline, color: color.pixmanColor)
    }

    /// Draws `text` centred horizontally on `centerX` and vertically on `centerY` (the middle of the
    /// ascent–descent box), buffer pixels.
    func drawCentered(_ text: String, into dst: OpaquePointer, centerX: Double, centerY: Double, color: Color) {
        font.drawCentered(text, into: dst, centerX: centerX, centerY: centerY, color: color.pixmanColor)
    }
}

/// The fonts of one scene, by role, at one scale. Re-created when the scale changes.
final class FontSet {
    let scale: Double
    let title: Font
    let body: Font
    let button: Font
    let caption: Font
    let label: Font

    /// Point sizes (Apple HIG text styles: title = large title 34, body = subheadline 15, button =
    /// headline 17, caption = footnote 13, label = title 3 20).
    static let titlePoints = 34, bodyPoints = 15, buttonPoints = 17, captionPoints = 13, labelPoints = 20
    static let regular = "sans-serif", bold = "sans-serif:weight=bold"

    /// - Throws: `SceneError.fontUnavailable` for the first font that cannot be loaded.
    /// Each font's pixel size is its point size × `scale` rounded to the nearest whole pixel
    /// (halves up; fcft sizes fonts in whole pixels): exact at a whole scale, e.g. 17 pt at 1.5 → 26 px.
    init(scale: Double) throws {
        self.scale = scale
        func px(_ points: Int) -> Int { pixelLength(Double(points), scale: scale) }
        title = try Font(pattern: FontSet.bold, pixelSize: px(FontSet.titlePoints))
        body = try Font(pattern: FontSet.regular, pixelSize: px(FontSet.bodyPoints))
        button = try Font(pattern: FontSet.bold, pixelSize: px(FontSet.buttonPoints))
        caption = try Font(pattern: FontSet.regular, pixelSize: px(FontSet.captionPoints))
        label = try Font(pattern: FontSet.regular, pixelSize: px(FontSet.labelPoints))
    }

    /// The pixel size of `points` at this set's scale (the rule above).
    func pixelSize(points: Int) -> Int { pixelLength(Double(points), scale: scale) }
}

/// The scene's fonts at scale 1, loaded on a thread of their own: fontconfig reading its
/// configuration and cache and fcft opening the faces take a few milliseconds of CPU that a window
/// spends otherwise waiting for the compositor's first answers, so `modal-demo` starts this, then
/// connects, then hands it to ``DemoScene/init(styleForLevel:fonts:onFontFailure:levelEvents:)``,
/// which waits for it at its first text (docs/design.md, start-up and footprint). fcft is initialised once per process and its
/// font creation is thread-safe (fcft.h); the fonts are used by one thread at a time, the caller's
/// after ``wait()``.
public final class SceneFontLoad: @unchecked Sendable {
    private var thread = pthread_t()
    private var started = false
    private var joined = false
    private var result: Result<FontSet, Error>?

    /// Starts loading. When no thread can be made, the fonts are loaded in ``wait()`` instead.
    public init() {
        let context = Unmanaged.passRetained(self).toOpaque()
        started = pthread_create(&thread, nil, { context in
            let load = Unmanaged<SceneFontLoad>.fromOpaque(context!).takeRetainedValue()
            load.result = Result { try FontSet(scale: 1) }
            return nil
        }, context) == 0
        if !started { Unmanaged<SceneFontLoad>.fromOpaque(context).release() }
    }

    deinit { finish() }

    /// Waits for the thread (once); later calls return at once.
    private func finish() {
        guard started, !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    /// The fonts, once loaded; the thread has ended when this returns (so an `exit` after it races
    /// with nothing).
    /// - Throws: `SceneError.fontUnavailable` or `.textLibraryUnavailable`, as `DemoScene` does.
    func wait() throws -> FontSet {
        finish()
        if result == nil { result = Result { try FontSet(scale: 1) } }
        return try result!.get()
    }

    /// Waits for the thread and drops the fonts (a program about to exit for another reason).
    public func cancel() { finish() }
}
