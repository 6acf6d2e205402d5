import CModalKitPixman
import Glibc
import ModalKit
import ModalKitContent
import ModalKitSystemSupport
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
        font.draw(text, into: dst, x: x, baseline: baseline, color: color)
    }

    /// Draws `text` centred horizontally on `centerX` and vertically on `centerY` (the middle of the
    /// ascent–descent box), buffer pixels.
    func drawCentered(_ text: String, into dst: OpaquePointer, centerX: Double, centerY: Double, color: Color) {
        font.drawCentered(text, into: dst, centerX: centerX, centerY: centerY, color: color)
    }
}

/// The fonts of one scene, by role, at one scale. Re-created when the scale changes.
final class FontSet {
    let scale: Double
    let title: Font
    let body: Font
    let button: Font
    let caption: Font
    /// The card's title font. A set from ``SceneFontLoad`` gets it after the first frame's four
    /// fonts, from the load, which makes it while the first frame is drawn: the first use waits for it
    /// (and ends the program through the load's failure handler when it could not be made).
    var label: Font {
        if let made = labelFont { return made }
        let made = pendingLabel!()
        labelFont = made
        pendingLabel = nil
        FontSet.share(made, .label)
        return made
    }
    private var labelFont: Font?
    private var pendingLabel: (() -> Font)?

    /// Point sizes (Apple HIG text styles: title = large title 34, body = subheadline 15, button =
    /// headline 17, caption = footnote 13, label = title 3 20).
    static let titlePoints = 34, bodyPoints = 15, buttonPoints = 17, captionPoints = 13, labelPoints = 20
    static let regular = "sans-serif", bold = "sans-serif:weight=bold"

    /// The fonts by role: their patterns and point sizes.
    enum Role: Int, CaseIterable {
        case title, body, button, caption, label
        var pattern: String { self == .title || self == .button ? FontSet.bold : FontSet.regular }
        var points: Int {
            switch self {
            case .title: return FontSet.titlePoints
            case .body: return FontSet.bodyPoints
            case .button: return FontSet.buttonPoints
            case .caption: return FontSet.captionPoints
            case .label: return FontSet.labelPoints
            }
        }
        /// The role's font at `scale` (the pixel size rule of ``FontSet/init(scale:)``).
        func font(scale: Double) throws -> Font {
            try Font(pattern: pattern, pixelSize: pixelLength(Double(points), scale: scale))
        }
    }

    /// - Throws: `SceneError.fontUnavailable` for the first font that cannot be loaded.
    /// Each font's pixel size is its point size × `scale` rounded to the nearest whole pixel
    /// (halves up; fcft sizes fonts in whole pixels): exact at a whole scale, e.g. 17 pt at 1.5 → 26 px.
    init(scale: Double) throws {
        self.scale = scale
        title = try Role.title.font(scale: scale)
        body = try Role.body.font(scale: scale)
        button = try Role.button.font(scale: scale)
        caption = try Role.caption.font(scale: scale)
        let label = try Role.label.font(scale: scale)
        labelFont = label
        shareFonts()
        FontSet.share(label, .label)
    }

    /// A set of fonts made elsewhere (``SceneFontLoad``), its label font given when first used.
    fileprivate init(scale: Double, title: Font, body: Font, button: Font, caption: Font, label: @escaping () -> Font) {
        self.scale = scale
        self.title = title; self.body = body; self.button = button; self.caption = caption
        pendingLabel = label
        shareFonts()
    }

    /// Hands the fonts made to ModalKitContent's text styles (`TextStyle.provide`): the card's
    /// labels and buttons (`DemoLook.CardText`) draw with these very fonts, none loaded again.
    private func shareFonts() {
        for (font, role) in [(title, Role.title), (body, .body), (button, .button), (caption, .caption)] {
            FontSet.share(font, role)
        }
    }

    private static func share(_ font: Font, _ role: Role) { TextStyle.provide(font.font, pattern: role.pattern) }

    /// The pixel size of `points` at this set's scale (the rule above).
    func pixelSize(points: Int) -> Int { pixelLength(Double(points), scale: scale) }
}

/// The scene's fonts at scale 1, loaded while a window connects and makes its first frame, on two
/// threads as foot loads its four fonts (one `fcft_from_name` per thread): fontconfig reading its
/// configuration and cache (`fcft_init`) and fcft opening the faces take several milliseconds of
/// CPU that a window spends otherwise waiting for the compositor's first answers, so `modal-demo`
/// starts this, then connects, then hands it to
/// ``DemoScene/init(styleForLevel:fonts:onFontFailure:levelEvents:)``, which waits for it at its
/// first text (docs/design.md, start-up and footprint).
///
/// The load's thread starts fcft, then makes the fonts one after the other; the waiting thread
/// (``wait(onLabelFailure:)``, the window's, at its first text) makes those the first frame needs
/// that no thread has started, so that once fcft is ready the two make them at once. Each font shapes the words
/// the first frame draws with it right after it is made (the demo's title, subtitle, button and
/// hint, ``DemoLook``): the face's first shaping (HarfBuzz's plan, FreeType's hinting set-up) is
/// done by the thread that made it, in parallel, and the frame finds the lines shaped. The card's
/// title font (`label`) is made last by the load's thread once the window's first frame is on screen
/// (``firstFrameShown()``; at most ``defaultLabelDelay`` after the first frame's fonts), so that it
/// takes no CPU from that frame while the window or the compositor work on it, and is waited for at
/// its first use. fcft is initialised once per process; its font creation is
/// thread-safe (foot makes its fonts on four threads at once). A font is used by one thread at a
/// time: the thread that made it until it is handed over under the load's lock.
public final class SceneFontLoad: @unchecked Sendable {
    private var thread = pthread_t()
    private var started = false
    private var joined = false
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Under `mutex`:
    /// fcft started (nil while the load's thread starts it).
    private var library: Result<Void, Error>?
    /// The roles no thread has taken yet, in the order they are taken.
    private var untaken = FontSet.Role.allCases
    private var made: [FontSet.Role: Result<Font, Error>] = [:]
    private var cancelled = false
    /// The first frame is on screen (or the label font is asked for): the thread may make `label`.
    private var labelAllowed = false

    /// How long the load's thread waits, after the first frame's fonts, for
    /// ``firstFrameShown()`` before it makes the card's title font anyway (seconds): a load
    /// whose owner never draws still ends.
    public static let defaultLabelDelay = 1.0
    private let labelDelay: Double

    /// The roles a first frame draws with (all but the card's `label`).
    private static let firstFrameRoles: [FontSet.Role] = [.title, .body, .button, .caption]

    /// Starts loading. When no thread can be made, the fonts are loaded in ``wait(onLabelFailure:)`` instead.
    /// - Parameter labelDelay: seconds the thread waits for ``firstFrameShown()`` before it makes
    ///   the card's title font anyway.
    public init(labelDelay: Double = SceneFontLoad.defaultLabelDelay) {
        self.labelDelay = labelDelay
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
        let context = Unmanaged.passRetained(self).toOpaque()
        started = pthread_create(&thread, nil, { context in
            let load = Unmanaged<SceneFontLoad>.fromOpaque(context!).takeRetainedValue()
            load.run()
            return nil
        }, context) == 0
        if !started { Unmanaged<SceneFontLoad>.fromOpaque(context).release() }
    }

    deinit {
        if started && !joined && pthread_equal(pthread_self(), thread) != 0 {
            // The load's own thread let go of it last (its fonts were all handed over): nothing to wait for.
            pthread_detach(thread)
        } else {
            finish()
        }
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// The load's thread: fcft, then every role no one has taken, until none is left or the load
    /// is cancelled.
    private func run() {
        // fontconfig, FreeType and HarfBuzz read the environment as fcft starts and makes fonts:
        // under the environment's lock, against the accessibility bridge's start on the loop's
        // thread, which sets AT_SPI_BUS_ADDRESS for its duration (ProcessEnvironment.reading).
        let started = Result { try ProcessEnvironment.reading { try startLibrary() } }
        locked {
            library = started
            pthread_cond_broadcast(changed)
        }
        guard case .success = started else { return }
        while let role = take(among: SceneFontLoad.firstFrameRoles) { ProcessEnvironment.reading { make(role) } }
        waitForLabelAllowed()
        while let role = take(among: FontSet.Role.allCases) { ProcessEnvironment.reading { make(role) } }
    }

    /// Waits (at most `labelDelay`) until the label font may be made or the load is cancelled.
    private func waitForLabelAllowed() {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int(labelDelay * 1e9)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        locked {
            while !labelAllowed && !cancelled {
                if pthread_cond_timedwait(changed, mutex, &deadline) == ETIMEDOUT { break }
            }
        }
    }

    /// The window's first frame is on screen (`PresentationWindow.onAppear`): the load's thread makes
    /// the card's title font now (until then it waits, so that the font takes no CPU from the first
    /// frame). Any thread; later calls do nothing.
    public func firstFrameShown() {
        locked {
            guard !labelAllowed else { return }
            labelAllowed = true
            pthread_cond_broadcast(changed)
        }
    }

    private func startLibrary() throws {
        do {
            try PixmanFont.loadTextLibrary()
        } catch {
            throw SceneError.textLibraryUnavailable(String(describing: error))
        }
    }

    /// The first untaken role of `roles`, now taken (nil: none left, or cancelled).
    private func take(among roles: [FontSet.Role]) -> FontSet.Role? {
        locked {
            guard !cancelled, let i = untaken.firstIndex(where: roles.contains) else { return nil }
            return untaken.remove(at: i)
        }
    }

    /// Makes `role`'s font at scale 1 and shapes the words the first frame draws with it, then
    /// hands it over.
    private func make(_ role: FontSet.Role) {
        let result = Result { () throws -> Font in
            let font = try role.font(scale: 1)
            if let words = SceneFontLoad.firstWords(role) { _ = font.width(of: words) }
            return font
        }
        locked {
            made[role] = result
            pthread_cond_broadcast(changed)
        }
    }

    /// The words a first frame (and, for `label`, the first card) draws with a role's font.
    private static func firstWords(_ role: FontSet.Role) -> String? {
        let texts = DemoLook.Texts.standard
        switch role {
        case .title: return texts.title
        case .body: return texts.subtitle
        case .button: return texts.buttonTitle
        case .caption: return DemoLook.hint
        case .label: return texts.cardTitle
        }
    }

    /// Whether the card's title font has been made (by either thread).
    var labelMade: Bool { locked { made[.label] != nil } }

    /// Waits for the thread (once); later calls return at once.
    private func finish() {
        guard started, !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    /// The fonts, once loaded: the first frame's four made by both threads, the card's title font
    /// when first used (``FontSet/label``; a failure then goes to `onLabelFailure`).
    /// - Throws: `SceneError.fontUnavailable` (the first role, in ``FontSet/Role`` order, that could
    ///   not be made) or `.textLibraryUnavailable`, as `DemoScene` does.
    func wait(onLabelFailure: @escaping (Error) -> Never) throws -> FontSet {
        if started && !joined {
            // fcft first (the load's thread starts it), then help with the roles left.
            let library = locked { () -> Result<Void, Error> in
                while self.library == nil { pthread_cond_wait(changed, mutex) }
                return self.library!
            }
            if case let .failure(error) = library { finish(); throw error }
        } else {
            try startLibrary()
        }
        while let role = take(among: SceneFontLoad.firstFrameRoles) { make(role) }
        let fonts = locked { () -> [FontSet.Role: Result<Font, Error>] in
            while !SceneFontLoad.firstFrameRoles.allSatisfy({ made[$0] != nil }) { pthread_cond_wait(changed, mutex) }
            return made
        }
        do {
            return FontSet(scale: 1, title: try fonts[.title]!.get(), body: try fonts[.body]!.get(),
                           button: try fonts[.button]!.get(), caption: try fonts[.caption]!.get()) { [self] in
                firstFrameShown()   // the label is wanted now: the thread need not wait any longer
                finish()
                if take(among: [.label]) != nil { make(.label) }
                do {
                    return try locked { made[.label]! }.get()
                } catch {
                    onLabelFailure(error)
                }
            }
        } catch {
            cancel()
            throw error
        }
    }

    /// Waits for the thread and drops the fonts (a program about to exit for another reason); the
    /// thread takes no other font after the one it is making.
    public func cancel() {
        locked {
            cancelled = true
            pthread_cond_broadcast(changed)
        }
        finish()
        locked { cancelled = false }
    }
}
