import Foundation

/// One option a style accepts on the command line (`--style-option KEY=VALUE`), declared once:
/// its key, meaning, unit, default and the values it accepts. The declaration is what
/// `modal-demo --describe-style` prints, what error messages list, and what the typed readers of
/// `StyleOptions` (`number(_:)`, `choice(_:)`, `color(_:)`) check values against.
///
/// ```swift
/// static let dim = StyleOption.number("dim-alpha", "alpha of the black dim when presented", default: 0.3, in: 0...1)
/// ```
public struct StyleOption: Hashable, Sendable {
    /// The values an option accepts.
    public enum Accepted: Hashable, Sendable {
        /// Any text; the string says what is meant (empty: not declared, e.g. a style of ABI 1.0).
        case text(String)
        /// A finite decimal number within the range (inclusive), in the option's `unit`.
        case number(ClosedRange<Double>)
        /// One of these words, exactly.
        case choice([String])
        /// A colour: `#RRGGBB` or `#RRGGBBAA` (straight alpha), as in CSS.
        case color
        /// A timing curve, as `TimingCurve(parsing:)` reads it.
        case curve
    }

    /// The key, lower-case with dashes, e.g. `margin-x`.
    public var key: String
    /// One line saying what the value means (and, for options declared with the plain
    /// initialiser, its unit), e.g. "left and right inset of the card".
    public var summary: String
    /// The value used when the option is not given, as it would be written on the command line.
    public var defaultValue: String
    /// The unit of a number, e.g. "points", "seconds"; empty for none (a fraction, a word).
    public var unit: String
    /// What values are accepted.
    public var accepted: Accepted

    /// An option declared with text alone (ABI 1.0's three fields): any value is passed to the
    /// style, which checks it itself.
    public init(key: String, summary: String, defaultValue: String) {
        self.init(key: key, summary: summary, defaultValue: defaultValue, unit: "", accepted: .text(""))
    }

    /// An option with its unit and accepted values.
    public init(key: String, summary: String, defaultValue: String, unit: String, accepted: Accepted) {
        self.key = key; self.summary = summary; self.defaultValue = defaultValue
        self.unit = unit; self.accepted = accepted
    }

    /// A number in `range` (inclusive), in `unit` (empty for none); read with `StyleOptions.number(_:)`.
    public static func number(_ key: String, _ summary: String, unit: String = "", default value: Double,
                              in range: ClosedRange<Double>) -> StyleOption {
        StyleOption(key: key, summary: summary, defaultValue: formatNumber(value), unit: unit, accepted: .number(range))
    }

    /// One of `values`; read with `StyleOptions.choice(_:)`.
    public static func choice(_ key: String, _ summary: String, default value: String, among values: [String]) -> StyleOption {
        StyleOption(key: key, summary: summary, defaultValue: value, unit: "", accepted: .choice(values))
    }

    /// A colour, `#RRGGBB` or `#RRGGBBAA`; read with `StyleOptions.color(_:)`.
    public static func color(_ key: String, _ summary: String, default value: String) -> StyleOption {
        StyleOption(key: key, summary: summary, defaultValue: value, unit: "", accepted: .color)
    }

    /// `duration`: the transition's duration in seconds, 0 to 10 (built-in styles: 0.35).
    public static func duration(default value: String = "0.35") -> StyleOption {
        StyleOption(key: "duration", summary: "transition duration", defaultValue: value, unit: "seconds",
                    accepted: .number(0...10))
    }

    /// `curve`: the timing curve (`TimingCurve(parsing:)`; built-in styles: ease-in-out).
    public static func curve(default value: String = "ease-in-out") -> StyleOption {
        StyleOption(key: "curve", summary: "timing curve", defaultValue: value, unit: "", accepted: .curve)
    }

    /// The meaning with its unit, e.g. "left and right inset of the card, points".
    public var meaning: String {
        unit.isEmpty ? summary : summary.isEmpty ? unit : "\(summary), \(unit)"
    }

    /// What is accepted, in words, e.g. "0 to 1", "left, right", "#RRGGBB or #RRGGBBAA"; empty
    /// when the option does not say (a 1.0 plugin's option, or plain text without a description).
    public var acceptedDescription: String {
        switch accepted {
        case let .text(s): return s
        case let .number(r): return "\(StyleOption.formatNumber(r.lowerBound)) to \(StyleOption.formatNumber(r.upperBound))"
        case let .choice(values): return values.joined(separator: ", ")
        case .color: return "#RRGGBB or #RRGGBBAA"
        case .curve: return TimingCurve.acceptedSyntax
        }
    }

    /// A number as it is written on the command line: no trailing ".0" (0.5, 20, 1e-06).
    public static func formatNumber(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}

extension TimingCurve {
    /// The curve syntax `init?(parsing:)` accepts, in words.
    public static let acceptedSyntax =
        "linear, ease-in-out, ease-out, cubic-bezier(x1,y1,x2,y2) with x in 0...1 and y in -10...10, or spring(stiffness,damping) with each above 0 and at most 1e6"
}

/// Why a style could not be created from its options. The message is one line, meant for stderr.
public enum StyleOptionError: Error, Equatable, CustomStringConvertible {
    /// A key the style does not declare; `known` lists the keys it does.
    case unknownKey(String, known: [String])
    /// A value that does not parse or is out of range; `expected` says what is accepted.
    case badValue(key: String, value: String, expected: String)

    public var description: String {
        switch self {
        case let .unknownKey(key, known):
            return "unknown style option '\(key)' (known: \(known.joined(separator: ", ")))"
        case let .badValue(key, value, expected):
            return "bad value '\(value)' for style option '\(key)' (expected \(expected))"
        }
    }
}

/// The options a style was created with: the declared defaults overlaid with what the user gave.
/// Creating one rejects keys the style does not declare.
public struct StyleOptions: Sendable {
    public let values: [String: String]
    /// The declarations, by key.
    public let declarations: [String: StyleOption]

    /// - Throws: `StyleOptionError.unknownKey` for a key not in `declared`.
    public init(_ given: [String: String], declared: [StyleOption]) throws {
        var values: [String: String] = [:]
        var declarations: [String: StyleOption] = [:]
        for option in declared { values[option.key] = option.defaultValue; declarations[option.key] = option }
        for key in given.keys.sorted() {
            guard values[key] != nil else {
                throw StyleOptionError.unknownKey(key, known: declared.map(\.key))
            }
            values[key] = given[key]
        }
        self.values = values
        self.declarations = declarations
    }

    public func string(_ key: String) -> String { values[key] ?? "" }

    /// A finite number within `range`.
    /// - Throws: `StyleOptionError.badValue` otherwise.
    public func double(_ key: String, in range: ClosedRange<Double> = -1e9...1e9) throws -> Double {
        let text = string(key)
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite, range.contains(v) else {
            throw StyleOptionError.badValue(key: key, value: text,
                                            expected: "a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return v
    }

    /// The value of a `.number` option, checked against its declared range.
    /// - Throws: `StyleOptionError.badValue` naming the declared range (and unit).
    public func number(_ option: StyleOption) throws -> Double {
        let text = string(option.key)
        let range: ClosedRange<Double>
        if case let .number(r) = option.accepted { range = r } else { range = -1e9...1e9 }
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite, range.contains(v) else {
            let unit = option.unit.isEmpty ? "" : " \(option.unit)"
            throw StyleOptionError.badValue(key: option.key, value: text, expected: "a number from "
                + "\(StyleOption.formatNumber(range.lowerBound)) to \(StyleOption.formatNumber(range.upperBound))\(unit)")
        }
        return v
    }

    /// The value of a `.choice` option: one of its declared words.
    /// - Throws: `StyleOptionError.badValue` listing them.
    public func choice(_ option: StyleOption) throws -> String {
        let text = string(option.key)
        guard case let .choice(values) = option.accepted else { return text }
        guard values.contains(text) else {
            throw StyleOptionError.badValue(key: option.key, value: text, expected: "one of \(values.joined(separator: ", "))")
        }
        return text
    }

    /// The value of a `.color` option (`#RRGGBB`, or `#RRGGBBAA` with straight alpha), premultiplied.
    /// - Throws: `StyleOptionError.badValue` for any other text.
    public func color(_ option: StyleOption) throws -> Color {
        let text = string(option.key)
        guard let c = StyleOptions.parseColor(text) else {
            throw StyleOptionError.badValue(key: option.key, value: text, expected: "#RRGGBB or #RRGGBBAA")
        }
        return c
    }

    /// `#RRGGBB` or `#RRGGBBAA` (hex digits, either case; straight alpha) as a premultiplied colour.
    public static func parseColor(_ text: String) -> Color? {
        let hex = Array(text.utf8)
        guard hex.count == 7 || hex.count == 9, hex[0] == UInt8(ascii: "#") else { return nil }
        var v: UInt64 = 0
        for c in hex.dropFirst() {
            guard let d = Int(String(UnicodeScalar(c)), radix: 16) else { return nil }
            v = v << 4 | UInt64(d)
        }
        if hex.count == 7 { v = v << 8 | 0xFF }
        func byte(_ shift: UInt64) -> Double { Double((v >> shift) & 0xFF) / 255 }
        return Color(red: byte(24), green: byte(16), blue: byte(8), alpha: byte(0))
    }

    /// The `duration` option in seconds, 0 (no animation) to 10.
    public func duration() throws -> Double { try double("duration", in: 0...10) }

    /// The `curve` option.
    /// - Throws: `StyleOptionError.badValue` when `TimingCurve(parsing:)` does not accept it.
    public func curve() throws -> TimingCurve {
        let text = string("curve")
        guard let c = TimingCurve(parsing: text) else {
            throw StyleOptionError.badValue(key: "curve", value: text, expected: TimingCurve.acceptedSyntax)
        }
        return c
    }
}

/// The dimming view's look at one moment: a fill (one colour, or a linear gradient) and the
/// view's alpha. The rendered dim covers the whole container bounds and is the fill × `alpha`:
/// `color.multipliedAlpha(by: alpha)` for a solid fill; for a gradient every stop's colour × `alpha`.
public struct DimmingAppearance: Hashable, Sendable {
    /// The dimming view's background colour, premultiplied (black for both built-in styles).
    /// Ignored when `gradient` is set.
    public var color: Color
    /// The dimming view's `alpha`, 0...1 (UIKit's `UIView.alpha`).
    public var alpha: Double
    /// A linear gradient fill instead of `color` (CAGradientLayer as the dimming view), or nil.
    public var gradient: LinearGradient?
    public init(color: Color, alpha: Double) { self.color = color; self.alpha = alpha; self.gradient = nil }
    /// A gradient dim: `gradient` × `alpha`.
    public init(gradient: LinearGradient, alpha: Double) {
        self.color = .clear; self.alpha = alpha; self.gradient = gradient
    }
    public static let none = DimmingAppearance(color: .clear, alpha: 0)
}

/// Which corners of the presented view are rounded (UIKit's `CACornerMask`).
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let topLeft = CornerMask(rawValue: 1)
    public static let topRight = CornerMask(rawValue: 2)
    public static let bottomLeft = CornerMask(rawValue: 4)
    public static let bottomRight = CornerMask(rawValue: 8)
    public static let all: CornerMask = [.topLeft, .topRight, .bottomLeft, .bottomRight]
    public static let top: CornerMask = [.topLeft, .topRight]
}

/// The presented view's shape: corner radius in points, and which corners it applies to.
/// Content is clipped to it (UIKit's `layer.cornerRadius` + `masksToBounds`).
public struct CornerStyle: Hashable, Sendable {
    /// Corner radius in points; clamped to half the shorter side when drawn (Core Animation's rule).
    public var radius: Double
    /// The corners the radius applies to; the others stay square.
    public var corners: CornerMask
    public init(radius: Double, corners: CornerMask = .all) { self.radius = radius; self.corners = corners }
    public static let square = CornerStyle(radius: 0, corners: [])
    /// The radius of the top corners (0 when neither is rounded), points.
    public var topRadius: Double { corners.isDisjoint(with: .top) ? 0 : radius }
    /// The radius of the bottom corners (0 when neither is rounded), points.
    public var bottomRadius: Double { corners.isDisjoint(with: [.bottomLeft, .bottomRight]) ? 0 : radius }
}

/// Where a view is drawn at one moment, relative to its frame: a translation in points, then a
/// scale per axis about an anchor point, and an opacity (0...1). Core Animation's `anchorPoint`
/// rule: the anchor is given in unit coordinates of the view (0,0 top-left, 1,1 bottom-right,
/// default 0.5,0.5 = the centre) and stays fixed while the view scales.
public struct ViewTransform: Hashable, Sendable {
    /// Offset from the frame's origin, points (applied first).
    public var translation: Point
    /// Horizontal and vertical scale about `anchor` of the translated frame; 1 = unscaled, ≤ 0
    /// on either axis hides the view.
    public var scaleX: Double
    public var scaleY: Double
    /// The point that stays fixed while scaling, unit coordinates of the view (0...1 each;
    /// values outside are allowed and lie outside the view). Default: the centre (0.5, 0.5).
    public var anchor: Point
    /// Opacity 0...1 (UIKit's `UIView.alpha`); values outside are clamped when drawn.
    public var alpha: Double

    /// A uniform scale about the centre.
    public init(translation: Point = .zero, scale: Double = 1, alpha: Double = 1) {
        self.init(translation: translation, scaleX: scale, scaleY: scale, anchor: Point(x: 0.5, y: 0.5), alpha: alpha)
    }

    /// A scale per axis about `anchor` (unit coordinates of the view).
    public init(translation: Point = .zero, scaleX: Double, scaleY: Double,
                anchor: Point = Point(x: 0.5, y: 0.5), alpha: Double = 1) {
        self.translation = translation; self.scaleX = scaleX; self.scaleY = scaleY
        self.anchor = anchor; self.alpha = alpha
    }

    /// The uniform scale: reading gives `scaleX` (equal to `scaleY` for a uniform transform);
    /// setting sets both axes.
    public var scale: Double {
        get { scaleX }
        set { scaleX = newValue; scaleY = newValue }
    }

    /// Whether both axes are unscaled.
    public var isUnscaled: Bool { scaleX == 1 && scaleY == 1 }

    public static let identity = ViewTransform()
}

/// A custom presentation: the analogue of a `UIPresentationController` subclass together with
/// its animator. It decides where the presented view sits in the container view, what chrome
/// (the dimming view) is animated alongside the transition, how the presented view moves, and
/// whether a tap dismisses.
///
/// All geometry is in points in the container's coordinate space (origin top-left). `progress`
/// is the eased transition progress, 0 = fully dismissed, 1 = fully presented; the engine
/// computes it from the monotonic clock with `timingCurve` over `transitionDuration`. During a
/// dismissal progress runs from 1 back to 0, so a style describes one path for both directions.
///
/// This protocol is what the engine drives. A style that users select with `--style` also
/// conforms to `LoadablePresentationStyle` (name, options, initialiser) and is built as its own
/// shared library; the host sees it through the C ABI as another `PresentationStyle`.
public protocol PresentationStyle: AnyObject {
    /// Transition duration in seconds (UIKit's `transitionDuration(using:)`).
    var transitionDuration: Double { get }
    /// The curve from linear time fraction to progress.
    var timingCurve: TimingCurve { get }

    /// The presented view's frame when fully presented, for a container of the given bounds
    /// (UIKit's `frameOfPresentedViewInContainerView`). Re-asked on every container layout.
    func frameOfPresentedView(in containerBounds: Rect) -> Rect
    /// The presented view's corner radius and rounded corners; content is clipped to it.
    func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle
    /// The dimming view at `progress` (animated alongside the transition). It always covers the
    /// whole container bounds and never moves. `progress` is clamped to 0...1 here, even when a
    /// spring curve overshoots (the overshoot reaches `presentedViewTransform` only).
    func dimmingAppearance(at progress: Double) -> DimmingAppearance
    /// The presented view's transform at `progress`, relative to `frame` (its final frame).
    /// With a spring curve `progress` can exceed 1 briefly (overshoot).
    func presentedViewTransform(at progress: Double, frame: Rect, in containerBounds: Rect) -> ViewTransform
    /// Whether a tap at `point` outside the presented view (on the dimming view) dismisses.
    func shouldDismiss(onTapAt point: Point, in containerBounds: Rect) -> Bool

    /// UIKit: `presentationTransitionWillBegin()`.
    func presentationTransitionWillBegin()
    /// UIKit: `presentationTransitionDidEnd(_ completed:)`; `completed == false` when the
    /// presentation was reversed into a dismissal before it finished.
    func presentationTransitionDidEnd(completed: Bool)
    /// UIKit: `dismissalTransitionWillBegin()`.
    func dismissalTransitionWillBegin()
    /// UIKit: `dismissalTransitionDidEnd(_ completed:)`; `completed == false` when the dismissal
    /// was reversed into a presentation (the chrome then stays).
    func dismissalTransitionDidEnd(completed: Bool)
    /// UIKit: `containerViewWillLayoutSubviews()`, with the new container bounds.
    func containerViewWillLayoutSubviews(containerBounds: Rect)
    /// UIKit: `containerViewDidLayoutSubviews()`, with the new container bounds.
    func containerViewDidLayoutSubviews(containerBounds: Rect)

    // MARK: Style ABI 1.1 — each has a default that gives exactly the 1.0 behaviour.

    /// The duration of the transition described by `context`, seconds (a dismissal may differ from
    /// the presentation; UIKit's `transitionDuration(using:)` gets the context too).
    /// Default: `transitionDuration`.
    func transitionDuration(for context: TransitionContext) -> Double
    /// The timing curve of the transition described by `context`. Default: `timingCurve`.
    func timingCurve(for context: TransitionContext) -> TimingCurve
    /// The dimming view at `progress` (clamped to 0...1) in `context`.
    /// Default: `dimmingAppearance(at:)`.
    func dimmingAppearance(at progress: Double, context: TransitionContext) -> DimmingAppearance
    /// The presented view's transform at `progress` in `context`, relative to `frame`.
    /// Default: `presentedViewTransform(at:frame:in:)` with the context's container bounds.
    func presentedViewTransform(at progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform
    /// The presented view's chrome (background, border, shadow, grabber) in a container of these
    /// bounds. Default: ``PresentedViewChrome/none`` (the content paints every pixel of the view).
    func chrome(forPresentedViewIn containerBounds: Rect) -> PresentedViewChrome
    /// How the presenting view (or the level below, in a stack) looks while this presentation
    /// covers it, at `progress` (clamped to 0...1) — UIKit's page sheet makes it recede.
    /// Default: ``PresentingViewAppearance/identity``.
    func presentingViewAppearance(at progress: Double, context: TransitionContext) -> PresentingViewAppearance
    /// The interactions the style allows (dismiss gesture, detents, whether it may be dismissed).
    /// Default: ``InteractionDeclaration/standard`` (no drag, one detent, dismissible).
    var interaction: InteractionDeclaration { get }
}

/// A style that can be selected by name and built as a plugin (`exportStyle(_:)`): its name,
/// its one-line summary, its options, and how it is created from them.
public protocol LoadablePresentationStyle: PresentationStyle {
    /// The name users pass to `--style`, lower-case with dashes, e.g. `inset-centered`.
    static var name: String { get }
    /// One line for `--list-styles`.
    static var summary: String { get }
    /// The options the style accepts, with defaults. Keys outside this list are rejected before
    /// `init(options:)` is called.
    static var options: [StyleOption] { get }

    /// Creates the style from its options (defaults already filled in).
    /// - Throws: `StyleOptionError.badValue` for a value out of range or that does not parse.
    init(options: StyleOptions) throws
}

extension PresentationStyle {
    /// Default: ease-in-out `cubic-bezier(0.42, 0, 0.58, 1)` (docs/design.md, built-in styles).
    public var timingCurve: TimingCurve { .easeInOut }
    /// Default: 0.35 seconds (docs/design.md, built-in styles).
    public var transitionDuration: Double { 0.35 }
    /// Default: square corners, no clip (a plain `UIView`).
    public func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle { .square }
    /// Default: UIKit's cover-vertical — the presented view rises from below the container's
    /// bottom edge to its frame.
    public func presentedViewTransform(at progress: Double, frame: Rect, in containerBounds: Rect) -> ViewTransform {
        ViewTransform(translation: Point(x: 0, y: (1 - progress) * (containerBounds.maxY - frame.minY)))
    }
    /// Default: every tap on the dimming view dismisses (as in both references of docs/design.md).
    public func shouldDismiss(onTapAt point: Point, in containerBounds: Rect) -> Bool { true }
    // The transition and layout hooks do nothing by default, like `UIPresentationController`'s.
    public func presentationTransitionWillBegin() {}
    public func presentationTransitionDidEnd(completed: Bool) {}
    public func dismissalTransitionWillBegin() {}
    public func dismissalTransitionDidEnd(completed: Bool) {}
    public func containerViewWillLayoutSubviews(containerBounds: Rect) {}
    public func containerViewDidLayoutSubviews(containerBounds: Rect) {}

    public func transitionDuration(for context: TransitionContext) -> Double { transitionDuration }
    public func timingCurve(for context: TransitionContext) -> TimingCurve { timingCurve }
    public func dimmingAppearance(at progress: Double, context: TransitionContext) -> DimmingAppearance {
        dimmingAppearance(at: progress)
    }
    public func presentedViewTransform(at progress: Double, frame: Rect, context: TransitionContext) -> ViewTransform {
        presentedViewTransform(at: progress, frame: frame, in: context.containerBounds)
    }
    public func chrome(forPresentedViewIn containerBounds: Rect) -> PresentedViewChrome { .none }
    public func presentingViewAppearance(at progress: Double, context: TransitionContext) -> PresentingViewAppearance {
        .identity
    }
    public var interaction: InteractionDeclaration { .standard }
}
