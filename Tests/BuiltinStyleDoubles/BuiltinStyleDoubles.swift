import ModalKit

// The two built-in styles as plain Swift types, adopted in process by the unit tests: the numbers
// are docs/design.md's (built-in styles), written here from that text, so a unit test never depends
// on a plugin `.so` having been built (EndToEndTests load and check the built plugins themselves).

/// The built-in styles by name, with their options as on the command line (`--style-option`).
public enum BuiltinStyle: String, CaseIterable, Sendable {
    case insetCentered = "inset-centered"
    case bottomSheet = "bottom-sheet"

    /// A style with the design's defaults overridden by `options`.
    /// - Throws: `StyleOptionError` for an unknown key or a bad value, as the plugins do.
    public func make(options: [String: String] = [:]) throws -> any PresentationStyle {
        switch self {
        case .insetCentered: return try InsetCenteredDouble(options: StyleOptions(options, declared: InsetCenteredDouble.options))
        case .bottomSheet: return try BottomSheetDouble(options: StyleOptions(options, declared: BottomSheetDouble.options))
        }
    }
}

/// inset-centered (docs/design.md): a card inset 20 pt left/right and 110 pt top/bottom, corner
/// radius 10 on all corners, rising from below the bottom edge (the protocol's default transform),
/// over a black dim 0 → 0.5; 0.35 s ease-in-out; every tap on the dim dismisses.
public final class InsetCenteredDouble: LoadablePresentationStyle {
    public static let name = "inset-centered"
    public static let summary = "test double of the built-in inset-centered style"
    public static let options: [StyleOption] = [
        StyleOption(key: "margin-x", summary: "left and right inset, points", defaultValue: "20"),
        StyleOption(key: "margin-y", summary: "top and bottom inset, points", defaultValue: "110"),
        StyleOption(key: "corner-radius", summary: "corner radius, points", defaultValue: "10"),
        StyleOption(key: "dim-alpha", summary: "dim alpha when presented", defaultValue: "0.5"),
        .duration(),
        .curve(),
        .dismissible(),
    ]

    public let marginX: Double, marginY: Double, cornerRadius: Double, dimAlpha: Double
    public let transitionDuration: Double
    public let timingCurve: TimingCurve

    public init(options: StyleOptions) throws {
        marginX = try options.double("margin-x", in: 0...10000)
        marginY = try options.double("margin-y", in: 0...10000)
        cornerRadius = try options.double("corner-radius", in: 0...10000)
        dimAlpha = try options.double("dim-alpha", in: 0...1)
        transitionDuration = try options.duration()
        timingCurve = try options.curve()
        interaction = try options.interaction(dragging: .down)
    }

    public let interaction: InteractionDeclaration

    public func frameOfPresentedView(in b: Rect) -> Rect {
        Rect(x: b.minX + marginX, y: b.minY + marginY,
             width: max(0, b.width - 2 * marginX), height: max(0, b.height - 2 * marginY))
    }

    public func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle {
        CornerStyle(radius: cornerRadius, corners: .all)
    }

    public func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(color: .black, alpha: dimAlpha * progress)
    }
}

/// bottom-sheet (docs/design.md): a full-width sheet anchored to the bottom edge, half the
/// container tall (`height` ≤ 1 is a fraction, else points), top corners radius 10, sliding up from
/// the bottom edge while a black dim fades 0 → 0.4 in place; 0.35 s ease-in-out; a tap on the dim
/// above the sheet dismisses.
public final class BottomSheetDouble: LoadablePresentationStyle {
    public static let name = "bottom-sheet"
    public static let summary = "test double of the built-in bottom-sheet style"
    public static let options: [StyleOption] = [
        StyleOption(key: "height", summary: "fraction of the container if ≤ 1, else points", defaultValue: "0.5"),
        StyleOption(key: "corner-radius", summary: "radius of the top corners, points", defaultValue: "10"),
        StyleOption(key: "dim-alpha", summary: "dim alpha when presented", defaultValue: "0.4"),
        .duration(),
        .curve(),
        .detents(),
        .undimmedDetent(),
        .dismissible(),
    ]

    public let height: Double, cornerRadius: Double, dimAlpha: Double
    public let transitionDuration: Double
    public let timingCurve: TimingCurve

    public init(options: StyleOptions) throws {
        height = try options.double("height", in: 0...100000)
        cornerRadius = try options.double("corner-radius", in: 0...10000)
        dimAlpha = try options.double("dim-alpha", in: 0...1)
        transitionDuration = try options.duration()
        timingCurve = try options.curve()
        interaction = try options.interaction(dragging: .down)
    }

    public let interaction: InteractionDeclaration

    public func frameOfPresentedView(in b: Rect) -> Rect {
        let h = interaction.detents.isEmpty ? min(b.height, height <= 1 ? height * b.height : height)
            : interaction.detents.map { $0.resolved(containerLength: b.height) }.max() ?? 0
        return Rect(x: b.minX, y: b.maxY - h, width: b.width, height: h)
    }

    public func cornerStyle(forPresentedViewIn containerBounds: Rect) -> CornerStyle {
        CornerStyle(radius: cornerRadius, corners: .top)
    }

    public func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(color: .black, alpha: dimAlpha * progress)
    }
}

/// adaptive (libadwaita's AdwDialog rule, written from the README's numbers): a bottom sheet, full
/// width, half the container tall, top corners radius 12, when the container is at most 450 pt wide
/// or at most 360 pt tall; otherwise a centred card min(560, W − 48) wide and min(0.6·H, H − 48)
/// tall, all corners radius 12; black dim 0 → 0.4; the sheet drags down, the card has no drag.
/// (Not in ``BuiltinStyle``: the tests that run over every case check the first two styles' numbers.)
public final class AdaptiveDouble: LoadablePresentationStyle {
    public static let name = "adaptive"
    public static let summary = "test double of the built-in adaptive style"
    public static let options: [StyleOption] = [.duration(), .curve()]
    public let transitionDuration: Double
    public let timingCurve: TimingCurve
    public private(set) var isSheet = true

    public init(options: StyleOptions) throws {
        transitionDuration = try options.duration()
        timingCurve = try options.curve()
    }
    public static func make(_ options: [String: String] = [:]) throws -> AdaptiveDouble {
        try AdaptiveDouble(options: StyleOptions(options, declared: AdaptiveDouble.options))
    }

    static func sheet(_ b: Rect) -> Bool { b.width <= 450 || b.height <= 360 }

    public func frameOfPresentedView(in b: Rect) -> Rect {
        if AdaptiveDouble.sheet(b) { return Rect(x: b.minX, y: b.maxY - b.height / 2, width: b.width, height: b.height / 2) }
        let w = min(560, b.width - 48), h = min(0.6 * b.height, b.height - 48)
        return Rect(x: b.minX + (b.width - w) / 2, y: b.minY + (b.height - h) / 2, width: w, height: h)
    }
    public func cornerStyle(forPresentedViewIn b: Rect) -> CornerStyle {
        CornerStyle(radius: 12, corners: AdaptiveDouble.sheet(b) ? .top : .all)
    }
    public func dimmingAppearance(at progress: Double) -> DimmingAppearance {
        DimmingAppearance(color: .black, alpha: 0.4 * progress)
    }
    public func containerViewWillLayoutSubviews(containerBounds: Rect) { isSheet = AdaptiveDouble.sheet(containerBounds) }
    public var interaction: InteractionDeclaration {
        InteractionDeclaration(dismissGesture: isSheet ? .drag(.down) : .none)
    }
}
