extension PresentationHost {
    /// The content with keyboard focus: the top level's presented content, else the presenting content
    /// (the same content ``ContentInput/keyboard(_:)`` reaches).
    var focusedContent: any PresentationContent { levels.last?.content ?? presentingContent }

    /// The focused content's ``PresentationContent/textInputState`` at `now` (monotonic seconds),
    /// its cursor rectangle converted from the content's points to the container's points (under
    /// the presented view's frame and transform at `now`); nil when no text field has focus. A
    /// window sends it to the input method after input and before each frame when it changed.
    public func textInputState(at now: Double) -> TextInputState? {
        let content = focusedContent
        guard var state = content.textInputState else { return nil }
        if let top = levels.last {
            let c = top.controller
            let r = c.effectivePresentedViewRect(at: now) ?? .zero
            let t = c.effectivePresentedViewTransform(at: now)
            let kx = t.scaleX > 0 ? t.scaleX : 1, ky = t.scaleY > 0 ? t.scaleY : 1
            let box = state.cursorRectangle
            state.cursorRectangle = Rect(x: r.minX + box.minX * kx, y: r.minY + box.minY * ky,
                                         width: box.width * kx, height: box.height * ky)
        }
        return state
    }

    /// Gives an input method's update (``ContentInput/textInput(_:)``) to the focused content, if it
    /// has a focused text field; returns whether the content used it (then the host redraws).
    @discardableResult
    public func deliverTextInput(_ update: TextInputUpdate, now: Double) -> Bool {
        let content = focusedContent
        guard content.textInputState != nil else { return false }
        let used = content.handle(.textInput(update), now: now)
        if used { accessibilityGeneration &+= 1 }   // the field's text changed: screen readers hear it
        use(used)
        return used
    }

    /// The pointer's shape over `point` (container points) at `now`: what the content under it says
    /// (``PresentationContent/cursorShape(at:)``) — the top level's presented content where the
    /// point is inside its view, the presenting content with nothing presented or where input passes
    /// through beside an undimmed sheet — and ``CursorShape/default`` elsewhere (over the dim).
    public func cursorShape(at point: Point, now: Double) -> CursorShape {
        guard let top = levels.last else { return presentingContent.cursorShape(at: point) }
        if top.controller.effectivePresentedViewRect(at: now)?.contains(point) ?? false {
            return top.content.cursorShape(at: toPresented(point, level: top, now: now))
        }
        return passesInputThrough ? presentingContent.cursorShape(at: point) : .default
    }

    /// The earliest ``PresentationContent/nextInvalidationTime`` of the presenting content and every
    /// level's content (monotonic seconds), nil when none asks: a window wakes then and redraws
    /// what became invalid (a caret's blink).
    public var nextContentInvalidationTime: Double? {
        var t = presentingContent.nextInvalidationTime
        for l in levels {
            if let n = l.content.nextInvalidationTime { t = min(t ?? n, n) }
        }
        return t
    }
}
