import Glibc
import ModalKitSystemSupport

// The style options of interactive transitions, shared by the built-in styles (and open to any
// plugin): `detents`, `undimmed-detent`, `dismissible`.

extension StyleOption {
    /// `detents`: comma-separated resting sizes along the drag axis, each a fraction of the
    /// container (≤ 1), points (> 1), or `fit` / `fit:SIZE` — as long as the content prefers, at
    /// most SIZE (a fraction or points; `fit` alone: at most the container;
    /// ``Detent/fitsContent(atMost:)``, UIKit's custom detent resolving the content's height) —
    /// smallest first (UIKit's sheet detents); empty = one detent, the presented view's frame.
    public static func detents(default value: String = "") -> StyleOption {
        StyleOption(key: "detents",
                    summary: "resting sizes, smallest first: fractions of the container (≤ 1), points (> 1), or fit / fit:SIZE (the content's height, at most SIZE), comma-separated; empty = the frame only",
                    defaultValue: value, unit: "",
                    accepted: .text("up to \(StyleOptions.maxDetents) comma-separated sizes, each \(StyleOptions.detentSyntax)"))
    }

    /// `undimmed-detent`: index (from 0) into `detents` of the largest detent that leaves the
    /// presenting view undimmed (UIKit's `largestUndimmedDetentIdentifier`), or `none`.
    public static func undimmedDetent(default value: String = "none") -> StyleOption {
        StyleOption(key: "undimmed-detent",
                    summary: "index of the largest detent without dim (the dim fades in up to the next one), or none",
                    defaultValue: value, unit: "", accepted: .text("none or a detent index from 0"))
    }

    /// `dismissible`: `true`, or `false` to refuse user dismissal (dim tap, Escape, drag), each
    /// attempt reported (UIKit's `isModalInPresentation`, AdwDialog's `can-close`).
    public static func dismissible(default value: String = "true") -> StyleOption {
        .choice("dismissible", "false: dim taps, Escape and drags do not dismiss (each attempt is reported)",
                default: value, among: ["true", "false"])
    }
}

extension StyleOption {
    /// `scrolling-expands`: `true`, or `false` so that content that can scroll scrolls at every
    /// detent and only its edge hands a drag to the sheet (UIKit's
    /// `prefersScrollingExpandsWhenScrolledToEdge`, default true;
    /// ``InteractionDeclaration/prefersScrollingExpandsWhenScrolledToEdge``).
    public static func scrollingExpands(default value: String = "true") -> StyleOption {
        .choice("scrolling-expands",
                "true: a drag or scroll up on content that can scroll first grows the sheet through its detents to the largest; false: the content scrolls at any detent (UIKit's prefersScrollingExpandsWhenScrolledToEdge)",
                default: value, among: ["true", "false"])
    }
}

extension StyleOptions {
    /// The most detents a style declares: what the plugin ABI carries (`MODALKIT_MAX_DETENTS`).
    public static let maxDetents = 8
    /// What one entry of the `detents` option may be, as its errors and declaration say it.
    static let detentSyntax = "a fraction in (0, 1], points from 1 to 100000, or fit / fit:SIZE (the content's length, at most SIZE; e.g. fit:0.9)"

    /// One size of the `detents` option: a fraction (≤ 1) or points (> 1, at most 100000); nil
    /// when it is not one.
    private static func detentSize(_ text: Substring) -> Detent? {
        guard let v = Double(text.trimmingWhitespace()), v.isFinite, v > 0, v <= 100000 else { return nil }
        return v <= 1 ? .fraction(v) : .points(v)
    }

    /// The `detents` option (empty list when the option is empty or undeclared).
    /// An entry `fit` is ``Detent/fitsContent(atMost:)`` the whole container (`.fraction(1)`),
    /// `fit:SIZE` at most SIZE (a fraction or points, as any entry).
    /// - Throws: `StyleOptionError.badValue` for an entry that is not a number > 0 (at most 100000)
    ///   nor `fit` / `fit:SIZE`, entries of one kind (fractions, or points) not strictly
    ///   increasing, or more than ``maxDetents`` entries.
    public func detents() throws -> [Detent] {
        let text = string("detents").trimmingWhitespace()
        if text.isEmpty { return [] }
        var result: [Detent] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = part.trimmingWhitespace().lowercased()
            let detent: Detent?
            if entry == "fit" {
                detent = .fitsContent(atMost: .fraction(1))
            } else if entry.hasPrefix("fit:") {
                detent = StyleOptions.detentSize(entry.dropFirst(4)).map { .fitsContent(atMost: $0) }
            } else {
                detent = StyleOptions.detentSize(Substring(entry))
            }
            guard let detent else {
                throw StyleOptionError.badValue(key: "detents", value: text,
                    expected: "comma-separated sizes, each \(StyleOptions.detentSyntax)")
            }
            result.append(detent)
        }
        // Smallest first, each once (UIKit's sheet detents): entries of one kind are compared with
        // each other; a fraction and points compare only once the container is known.
        for i in result.indices.dropFirst() {
            switch (result[i - 1], result[i]) {
            case let (.fraction(a), .fraction(b)) where b <= a, let (.points(a), .points(b)) where b <= a:
                throw StyleOptionError.badValue(key: "detents", value: text,
                                                expected: "sizes smallest first, each once (e.g. 0.5,0.9)")
            default: break
            }
        }
        guard result.count <= StyleOptions.maxDetents else {
            throw StyleOptionError.badValue(key: "detents", value: text,
                                            expected: "at most \(StyleOptions.maxDetents) sizes")
        }
        return result
    }

    /// The `dismissible` option.
    /// - Throws: `StyleOptionError.badValue` unless `true` or `false`.
    public func dismissible() throws -> Bool {
        switch string("dismissible").trimmingWhitespace().lowercased() {
        case "true", "": return true
        case "false": return false
        default:
            throw StyleOptionError.badValue(key: "dismissible", value: string("dismissible"), expected: "true or false")
        }
    }

    /// The `scrolling-expands` option.
    /// - Throws: `StyleOptionError.badValue` unless `true` or `false`.
    public func scrollingExpands() throws -> Bool {
        switch string("scrolling-expands").trimmingWhitespace().lowercased() {
        case "true", "": return true
        case "false": return false
        default:
            throw StyleOptionError.badValue(key: "scrolling-expands", value: string("scrolling-expands"),
                                            expected: "true or false")
        }
    }

    /// The interactions of a style dragged in `direction` (nil: no drag gesture): the declared
    /// `detents`, `undimmed-detent`, `dismissible` and `scrolling-expands` options (those a style
    /// does not declare take their defaults: one detent, none undimmed, dismissible, scrolling
    /// expands).
    /// - Throws: `StyleOptionError.badValue` for a bad value, or an undimmed index that is not
    ///   one of the detents.
    public func interaction(dragging direction: DragDirection?) throws -> InteractionDeclaration {
        let detents = values["detents"] == nil ? [] : try self.detents()
        var undimmed: Int?
        let u = string("undimmed-detent").trimmingWhitespace().lowercased()
        if values["undimmed-detent"] != nil, u != "none", !u.isEmpty {
            let count = max(1, detents.count)
            guard let i = Int(u), i >= 0, i < count else {
                throw StyleOptionError.badValue(key: "undimmed-detent", value: u,
                                                expected: "none or a detent index from 0 to \(count - 1)")
            }
            undimmed = i
        }
        return InteractionDeclaration(dismissGesture: direction.map { .drag($0) } ?? .none, detents: detents,
                                      largestUndimmedDetent: undimmed,
                                      isDismissible: values["dismissible"] == nil ? true : try dismissible(),
                                      prefersScrollingExpandsWhenScrolledToEdge:
                                        values["scrolling-expands"] == nil ? true : try scrollingExpands())
    }
}
