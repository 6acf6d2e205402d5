import ModalKit

/// Where a pointer or touch step lands, resolved when the step runs (so a shrunk sequence keeps
/// aiming at the same thing): container points come from the state at that moment.
public enum FuzzPoint: Hashable, CustomStringConvertible {
    /// Fractions of the container (slightly outside 0...1 reaches past its edges).
    case container(Double, Double)
    /// Fractions of the top level's presented view where it shows now (the container when nothing
    /// is presented).
    case presented(Double, Double)
    /// Fractions of the harness's control `index` (``HostFuzzDriver/controlRect(_:)``: a button).
    case control(Int, Double, Double)
    /// Points from where this pointer (or touch point) last was.
    case delta(Double, Double)

    public var description: String {
        func f(_ v: Double) -> String { fmt(v, 3) }
        switch self {
        case let .container(x, y): return "container(\(f(x)), \(f(y)))"
        case let .presented(x, y): return "presented(\(f(x)), \(f(y)))"
        case let .control(i, x, y): return "control \(i) (\(f(x)), \(f(y)))"
        case let .delta(x, y): return "delta(\(f(x)), \(f(y)))"
        }
    }
}

/// One step of a random sequence: an input event, a layout, a clock change, an app call or a frame.
public enum FuzzStep: Hashable, CustomStringConvertible {
    case pointerMotion(FuzzPoint)
    case pointerButton(pressed: Bool)
    case pointerLeave
    case touchDown(id: Int32, FuzzPoint)
    case touchMotion(id: Int32, FuzzPoint)
    case touchUp(id: Int32)
    case touchCancel
    case key(PresentationKey, pressed: Bool)
    /// A container size, points (tiny, huge, fractional; also ≤ 0 and not finite: the host clamps).
    case resize(width: Double, height: Double)
    /// A scale, buffer pixels per point (whole, fractional; also ≤ 0 and not finite: means 1).
    case scale(Double)
    /// Moves the clock by this many seconds: 0 (the same time again), small and large jumps, and
    /// small steps back (see ``FuzzGenerator`` on why).
    case advance(Double)
    /// The app presents: `content` (1...4) picks the content (the host harness; the demo harness
    /// presents its next card), `style` the style slot of a new upper level (nil: the host's style).
    case present(content: Int, style: Int?)
    case dismiss
    case reducedMotion(Bool)
    /// A frame with the pixman renderer into window buffer `buffer` (0...2) at its age (0 with
    /// `fresh`: a new buffer).
    case render(buffer: Int, fresh: Bool)
    /// A frame for a backend that composes the layers (``PresentationHost/layerFrame()``).
    case layerFrame
    /// A layer-backend frame: ``PresentationHost/layerFrame()`` and then the presenting view
    /// alone into window buffer `buffer`, as the sub-surface backend draws it.
    case renderPresentingLayer(buffer: Int, fresh: Bool)

    public var description: String {
        switch self {
        case let .pointerMotion(p): return "pointerMotion \(p)"
        case let .pointerButton(pressed): return pressed ? "pointerButton down" : "pointerButton up"
        case .pointerLeave: return "pointerLeave"
        case let .touchDown(id, p): return "touchDown #\(id) \(p)"
        case let .touchMotion(id, p): return "touchMotion #\(id) \(p)"
        case let .touchUp(id): return "touchUp #\(id)"
        case .touchCancel: return "touchCancel"
        case let .key(k, pressed): return "key \(k) \(pressed ? "down" : "up")"
        case let .resize(w, h): return "resize \(fmt(w, 3)) x \(fmt(h, 3))"
        case let .scale(s): return "scale \(fmt(s, 4))"
        case let .advance(dt): return "advance \(fmt(dt, 4)) s"
        case let .present(c, s): return "present content \(c) style \(s.map(String.init) ?? "host's")"
        case .dismiss: return "dismiss"
        case let .reducedMotion(on): return "reducedMotion \(on)"
        case let .render(b, fresh): return "render buffer \(b)\(fresh ? " (new)" : "")"
        case .layerFrame: return "layerFrame"
        case let .renderPresentingLayer(b, fresh): return "renderPresentingLayer buffer \(b)\(fresh ? " (new)" : "")"
        }
    }
}

/// A built-in style with options, as `--style NAME --style-option KEY=VALUE` gives it.
public struct FuzzStyleSpec: Hashable, CustomStringConvertible {
    public var name: String
    public var options: [String: String]
    public init(_ name: String, _ options: [String: String] = [:]) { self.name = name; self.options = options }

    /// The dim's alpha when presented: the `dim-alpha` option, else the style's declared default
    /// (read from the loaded plugin's option table).
    public var dimAlpha: Double {
        if let v = options["dim-alpha"], let d = Double(v) { return d }
        return BuiltinStyles.declaredDefault(name, "dim-alpha").flatMap(Double.init) ?? 1
    }
    /// Whether user dismissal (Escape, dim tap, drag) is allowed (`dismissible`).
    public var isDismissible: Bool { options["dismissible"] != "false" }
    /// Whether a detent leaves the presenting view undimmed (`undimmed-detent`).
    public var hasUndimmedDetent: Bool { options["undimmed-detent"].map { $0 != "none" } ?? false }

    public var description: String {
        options.isEmpty ? name : name + " " + options.keys.sorted().map { "\($0)=\(options[$0]!)" }.joined(separator: " ")
    }
}

/// Everything about a run besides its steps: fixed while a failing sequence is shrunk.
public struct FuzzConfig: CustomStringConvertible {
    /// Style slots: 0 is the host's (level 1); a present step names the slot of a new upper level.
    public var styles: [FuzzStyleSpec]
    public var width: Double, height: Double, scale: Double
    public var reducesMotion: Bool
    /// Per presented content 1...4: whether it uses Escape itself (then the host does not dismiss).
    public var escapeUsed: [Bool]
    /// The app dismisses the top level from its `presented` event (as `modal-demo --autoplay` does).
    public var dismissOnPresented: Bool

    public var description: String {
        var lines = ["styles:"]
        for (i, s) in styles.enumerated() { lines.append("  slot \(i): \(s)") }
        lines.append("container \(fmt(width, 3)) x \(fmt(height, 3)) at scale \(fmt(scale, 4)), reduced motion \(reducesMotion), "
                     + "escape used by contents \(escapeUsed), "
                     + "dismiss on presented \(dismissOnPresented)")
        return lines.joined(separator: "\n")
    }
}

/// A seed's run: its configuration and steps.
public struct FuzzCase {
    public var seed: UInt64
    public var config: FuzzConfig
    public var steps: [FuzzStep]
}

/// `v` with at most `digits` decimals, trailing zeros dropped (deterministic, no locale).
func fmt(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite else { return "\(v)" }
    if abs(v) >= 1e9 { return "\(v)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (v * scale).rounded() / scale
    var s = "\(r)"
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}
