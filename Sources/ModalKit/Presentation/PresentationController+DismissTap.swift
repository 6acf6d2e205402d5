// Where a tap on the dimming view dismisses: the rule the scene applies to taps, and a search
// for a point that satisfies it, asked by tools that drive the demo with real input.

extension PresentationController {
    /// Whether a tap (press and release) at `point` on the modal layer dismisses at eased
    /// `progress`: the point is outside the presented view's on-screen rect
    /// (``presentedViewRect(progress:)``) and the style's `PresentationStyle/shouldDismissOnTap` accepts it —
    /// UIKit's dimming-view tap, with the style's veto. Always false while dismissed.
    /// - Parameters:
    ///   - point: container coordinates, points.
    ///   - progress: the eased progress at which the presented view's rect is taken.
    public func tapOnDimDismisses(at point: Point, progress: Double) -> Bool {
        guard let rect = presentedViewRect(progress: progress) else { return false }
        return !rect.contains(point) && style.shouldDismissOnTap(point, LayoutContext(containerBounds: containerBounds))
    }

    /// A point where a tap dismisses `style`'s modal once presented in a container of
    /// `containerSize` points, asked through the style's own hooks (`frameOfPresentedView`, the
    /// transform at progress 1, `shouldDismissOnTap`, the interaction declaration);
    /// nil when there is none (a style whose presented view covers the container, that refuses
    /// every tap, that is not dismissible, or that rests at an undimmed detent, where taps outside
    /// the sheet reach the view underneath). The presented view is taken where it rests (its
    /// detent).
    ///
    /// Candidates are whole points on a grid over the container (step: the shorter side / 50,
    /// at least 1, and at least the longer side / 2000, so that a container of any shape gives at
    /// most about 2000 × 50 candidates) that keep a clearance from the container's edges and the
    /// presented view — 8 points where the dim leaves room for it, else 2 — so that rounding to a
    /// device pixel or a fractional scale cannot move the tap onto the view or off the window. Of
    /// those, the one nearest the dim's top centre, (width / 2, min(60, height / 2)), is returned:
    /// the spot a user taps above a card or a sheet.
    /// - Parameters:
    ///   - style: a style instance (its presentation hooks are called once, as for a presentation).
    ///   - containerSize: the window content size, points (each side ≥ 1).
    public static func dismissingTapPoint(style: PresentationStyle, containerSize: Size) -> Point? {
        let bounds = Rect(size: Size(width: max(1, containerSize.width), height: max(1, containerSize.height)))
        let controller = PresentationController(style: style)
        controller.layout(containerBounds: bounds)
        controller.present(now: 0)
        let rest = 1e6   // long after any transition: presented, at rest on its detent
        controller.update(now: rest)
        guard controller.interaction.isDismissible, !controller.isRestingUndimmed,
              let rect = controller.effectivePresentedViewRect(at: rest) else { return nil }
        for margin in [8.0, 2.0] {
            if let p = controller.nearestDismissingPoint(bounds: bounds, presented: rect, margin: margin, now: rest) {
                return p
            }
        }
        return nil
    }

    private func nearestDismissingPoint(bounds: Rect, presented rect: Rect, margin: Double, now: Double) -> Point? {
        let keepOff = Rect(x: rect.minX - margin, y: rect.minY - margin,
                           width: rect.width + 2 * margin, height: rect.height + 2 * margin)
        let anchor = Point(x: (bounds.width / 2).rounded(.down), y: min(60, (bounds.height / 2).rounded(.down)))
        func usable(_ p: Point) -> Bool {
            p.x >= margin && p.y >= margin && p.x <= bounds.width - margin && p.y <= bounds.height - margin
                && !keepOff.contains(p) && tapOnDimDismisses(at: p, now: now)
        }
        // The anchor is the nearest candidate of all (distance 0): when it dismisses, it is the
        // answer, and the grid is never made (the common case, at every window's layout).
        if usable(anchor) { return anchor }
        let step = max(1, (min(bounds.width, bounds.height) / 50).rounded(.down),
                       (max(bounds.width, bounds.height) / 2000).rounded(.down))

        var candidates: [Point] = [anchor]
        var y = margin.rounded(.up)
        while y <= bounds.height - margin {
            var x = margin.rounded(.up)
            while x <= bounds.width - margin {
                candidates.append(Point(x: x, y: y))
                x += step
            }
            y += step
        }
        func distance(_ p: Point) -> Double { (p.x - anchor.x) * (p.x - anchor.x) + (p.y - anchor.y) * (p.y - anchor.y) }
        // Nearest first; ties in reading order, so the answer does not depend on the sort.
        candidates.sort { a, b in
            let da = distance(a), db = distance(b)
            return da != db ? da < db : (a.y, a.x) < (b.y, b.x)
        }
        return candidates.first(where: usable)
    }
}

extension PresentationController {
    /// Whether a tap at `point` (container points) on the modal layer dismisses at `now`: outside
    /// the presented view as drawn at `now` (``effectivePresentedViewRect(at:)``, which follows a
    /// drag and rests on the current detent) and accepted by the style's `shouldDismissOnTap`.
    /// Does not look at `InteractionDeclaration/isDismissible` (the host reports a refused tap).
    public func tapOnDimDismisses(at point: Point, now: Double) -> Bool {
        guard let rect = effectivePresentedViewRect(at: now) else { return false }
        return !rect.contains(point) && style.shouldDismissOnTap(point, LayoutContext(containerBounds: containerBounds))
    }
}
