import ModalKit

// The scene's offline frames for the command line (`render`, `preview`, `--detent`): snapshots,
// stacks, scripted drags and scrolls, and the style's detents as the commands number them.
extension DemoScene {
    /// Renders, offscreen, the frame at linear time fraction `fraction` (0...1) of a presentation
    /// (`.present`) or of a dismissal (`.dismiss`), for the current container size and scale, into
    /// `target` (``pixelSize``): ``PresentationHost/snapshot(phase:fraction:)`` — the same
    /// geometry function as the live frame — drawn by the same caches and compositor; the source
    /// rectangle is the Present button's frame, as for a click. Does not change the live state,
    /// call style hooks or emit events.
    public func renderSnapshot(into target: PixelBuffer, phase: TransitionPhase, fraction: Double) {
        // Presented from the Present button, as a click on it does (a live presentation already is).
        if host.state == .dismissed { host.sourceRect = buttonFrame }
        host.renderOffline(host.snapshot(phase: phase, fraction: fraction, detent: restingDetent.map { $0 - 1 },
                                         content: firstContent),
                           presented: firstContent, into: target)
    }

    /// The style's detents as `--detent` numbers them, e.g. "1 (0.5 of the height), 2 (600 pt)"
    /// (their resting lengths along the drag axis), or nil for a style without a drag gesture or
    /// without declared detents. Asked in the current container.
    public var detentList: String? {
        let interaction = style.interaction(LayoutContext(containerBounds: Rect(size: containerSize)))
        guard case let .drag(direction) = interaction.dismissGesture, !interaction.detents.isEmpty else { return nil }
        let axis = direction.isVertical ? "height" : "width"
        return interaction.detents.enumerated().map { i, d in
            switch d {
            case let .fraction(f): return "\(i + 1) (\(DemoScene.number(f)) of the \(axis))"
            case let .points(p): return "\(i + 1) (\(DemoScene.number(p)) pt)"
            case let .fitsContent(cap):
                let limit: String
                switch cap {
                case let .points(p): limit = "\(DemoScene.number(p)) pt"
                default: limit = "\(DemoScene.number(cap.resolved(containerLength: 1))) of the \(axis)"
                }
                return "\(i + 1) (the content, at most \(limit))"
            }
        }.joined(separator: ", ")
    }

    /// The one-line mistake of `--detent n` (1-based) for this scene's style, or nil when the
    /// style has that detent: "style 'NAME' has detents 1 (…), 2 (…)" or "… has no detents".
    public func detentMistake(_ n: Int, styleName: String) -> String? {
        let count = style.interaction(LayoutContext(containerBounds: Rect(size: containerSize))).detents.count
        guard let list = detentList else {
            return "--detent \(n): style '\(styleName)' has no detents (a style with a 'detents' option takes them, "
                + "e.g. --style-option detents=0.5,1)"
        }
        return n >= 1 && n <= count ? nil : "--detent \(n): style '\(styleName)' has detents \(list)"
    }

    private static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// Renders, offscreen, a stack of `levels` cards (≥ 1): levels 1…n − 1 presented, level n at
    /// linear time fraction `fraction` of a presentation or dismissal, each with its level's style
    /// (the same geometry function as the live frames, drawn by the same caches and compositor).
    /// Does not change the live state or emit events.
    public func renderStackSnapshot(into target: PixelBuffer, levels: Int, phase: TransitionPhase, fraction: Double) {
        let n = max(1, levels)
        var snapshots: [PresentationSnapshot] = []
        var contents: [any PresentationContent] = []
        let bounds = Rect(size: containerSize)
        for level in 1...n {
            let phase = level == n ? phase : .present, fraction = level == n ? fraction : 1
            if level == 1 {
                // Presented from the Present button (a live presentation already is).
                if host.state == .dismissed { host.sourceRect = buttonFrame }
                snapshots.append(host.snapshot(phase: phase, fraction: fraction, detent: nil, content: cardForLevel(1)))
            } else {
                // An offline controller of this level's style, presented from the card below's
                // Present another.
                let c = PresentationController(style: style(level: level))
                let levelCard = cardForLevel(level)
                c.contentSizing = { levelCard.preferredContentSize(fittingWidth: $0) }
                c.reducesMotion = host.reducesMotion
                c.layout(containerBounds: bounds)
                let f = style(level: level - 1).frameOfPresentedView(LayoutContext(containerBounds: bounds))
                c.sourceRect = DemoLook.cardButtonFrames(in: f.size).presentAnother.offsetBy(dx: f.minX, dy: f.minY)
                snapshots.append(c.snapshot(phase: phase, fraction: fraction))
            }
            _ = cardForLevel(level)
            updateBackground(level: level)
            contents.append(cards[level - 1])
        }
        host.renderOffline(snapshots, presented: contents, into: target)
    }

    /// Renders the frame of a scripted pointer drag into `target` (``pixelSize``), through the
    /// window's own path (``PresentationHost`` input and render) at synthetic times: presents and
    /// lets the presentation end (t = 10 s), presses at the centre of the presented view, moves the
    /// pointer `distance` points down (negative: up) in 10 steps 20 ms apart, and draws the frame
    /// of the last step (the button still held). Changes the live state (meant for `render`).
    public func renderDrag(into target: PixelBuffer, distance: Double) {
        present(now: 0)
        host.update(now: 10)
        guard let rect = host.presentedViewRect(at: 10) else { return }
        let p = Point(x: rect.midX, y: min(rect.midY, (rect.minY + containerSize.height) / 2))
        handle(.pointerMotion(p), now: 10)
        handle(.pointerButton(pressed: true), now: 10)
        var t = 10.0
        for i in 1...10 {
            t += 0.02
            handle(.pointerMotion(Point(x: p.x, y: p.y + distance * Double(i) / 10)), now: t)
        }
        render(into: target, now: t, bufferAge: 0)
    }

    /// Renders the frame of a scripted wheel scroll into `target` (``pixelSize``), through the
    /// window's own path at synthetic times: presents and lets the presentation end (t = 10 s),
    /// puts the pointer at the centre of the presented view and turns the wheel down by 15 pt
    /// steps (one detent each), 2 s apart, until the list (``presentsList``) has scrolled
    /// `distance` points or can go no further — a sheet resting below its largest detent grows
    /// to the next one first (UIKit's rule) — then draws the frame. Changes the live state (meant
    /// for `render --scroll`).
    public func renderScroll(into target: PixelBuffer, distance: Double) {
        present(now: 0)
        host.update(now: 10)
        var t = 10.0
        for _ in 0..<1000 where listScrollOffset < distance - 1e-9 {
            guard let rect = host.presentedViewRect(at: t) else { break }
            let p = Point(x: rect.midX, y: (rect.minY + rect.maxY) / 2)
            let before = (listScrollOffset, rect)
            handle(.pointerMotion(p), now: t)
            handle(.pointerScroll(ScrollInput(delta: Point(x: 0, y: min(15, distance - listScrollOffset)), steps120Y: 120,
                                              source: .wheel)), now: t)
            t += 2
            host.update(now: t)
            if listScrollOffset == before.0 && host.presentedViewRect(at: t) == before.1 { break }   // at the end
        }
        render(into: target, now: t, bufferAge: 0)
    }
}
