import Glibc
import ModalKitSystemSupport

// The style options of interactive transitions, shared by the built-in styles (and open to any
// plugin): `detents`, `undimmed-detent`, `dismissible`.

extension StyleOption {
    /// `detents`: comma-separated resting sizes along the drag axis, each a fraction of the
    /// container (≤ 1) or points (> 1), smallest first (UIKit's sheet detents); empty = one detent,
    /// the presented view's frame.
    public static func detents(default value: String = "") -> StyleOption {
        StyleOption(key: "detents",
                    summary: "resting sizes, smallest first: fractions of the container (≤ 1) or points (> 1), comma-separated; empty = the frame only",
                    defaultValue: value, unit: "",
                    accepted: .text("up to \(StyleOptions.maxDetents) comma-separated sizes, each a fraction in (0, 1] or points from 1 to 100000"))
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

extension StyleOptions {
    /// The most detents a style declares: what the plugin ABI carries (`MODALKIT_MAX_DETENTS`).
    public static let maxDetents = 8

    /// The `detents` option (empty list when the option is empty or undeclared).
    /// - Throws: `StyleOptionError.badValue` for an entry that is not a number > 0 (at most 100000),
    ///   entries of one kind (fractions, or points) not strictly increasing, or more than
    ///   ``maxDetents`` entries.
    public func detents() throws -> [Detent] {
        let text = string("detents").trimmingWhitespace()
        if text.isEmpty { return [] }
        var result: [Detent] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let v = Double(part.trimmingWhitespace()), v.isFinite, v > 0, v <= 100000 else {
                throw StyleOptionError.badValue(key: "detents", value: text,
                    expected: "comma-separated sizes, each a fraction in (0, 1] or points from 1 to 100000")
            }
            result.append(v <= 1 ? .fraction(v) : .points(v))
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

    /// The interactions of a style dragged in `direction` (nil: no drag gesture): the declared
    /// `detents`, `undimmed-detent` and `dismissible` options (those a style does not declare
    /// take their defaults: one detent, none undimmed, dismissible).
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
                                      isDismissible: values["dismissible"] == nil ? true : try dismissible())
    }
}
