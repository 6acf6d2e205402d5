// Input routing: pointer, touch and keys to the presenting content or the top level, dim taps,
// and the drag recognition that turns a press on a presented view into an interactive transition.

extension PresentationHost {
    /// Routes one input event that happened at `now` (monotonic seconds; see ``PresentationInput``
    /// for where the time comes from, and the type's routing rules). Advances the transitions to
    /// `now` first, as ``update(now:)`` does. The event is of seat ``InputSeat/primary``
    /// (``handle(_:from:now:)``).
    public func handle(_ input: PresentationInput, now: Double) {
        handle(input, from: .primary, now: now)
    }

    /// Routes one input event of `seat` that happened at `now`, as ``handle(_:now:)`` does, keeping
    /// each seat's input apart (wlroots and smithay keep input state per seat):
    /// - Each seat has its own pointer position; a button, scroll or leave acts where that seat's
    ///   pointer is.
    /// - One press at a time, as with one seat: it belongs to the seat (and, for touch, the touch
    ///   point) that began it. Until it ends, another seat's motion, release, leave, touch up or
    ///   touch cancel neither moves nor ends it (a drag follows its own seat only), and another
    ///   seat's press or touch down is ignored (UIKit's one pan at a time).
    /// - Touch point ids are the seat's own: the same id on two seats is two points.
    /// - A touchpad's scroll gesture (`axis_stop` ends it) belongs to its seat: another seat's
    ///   scrolls still reach the content under that seat's pointer, but do not end it or count
    ///   toward its release velocity.
    /// - Keys of every seat go to the focused content (each seat's keyboard repeats on its own).
    /// - The content's hover follows the pointer that moved last; a leave clears it only when no
    ///   other seat's pointer is in the container.
    public func handle(_ input: PresentationInput, from seat: InputSeat, now: Double) {
        update(now: now)
        textInputGeneration &+= 1   // a press, a drag or a key may move the caret, focus or the cursor
        switch input {
        case .pointerMotion, .touchMotion, .pointerScroll: break   // hover, drags and scrolls change nothing a screen reader sees
        default: accessibilityGeneration &+= 1
        }
        switch input {
        case let .pointerMotion(p):
            pointers[seat] = p
            pointer = p
            hoverSeat = seat
            if let pr = press, pr.source == .pointer(seat) {
                deliverDrag(p, to: pr.target, now: now)
            } else if press?.source.isPointer != true {
                // (While another seat's pointer holds the press, this one hovers nothing, as the
                // pressing pointer hovers nothing: a drag follows its own seat only.)
                hover(at: p, now: now)
            }
        case let .pointerButton(pressed):
            if pressed {
                if let p = pointers[seat] { beginPress(at: p, source: .pointer(seat), now: now) }
            } else if let pr = press, pr.source == .pointer(seat) {
                endPress(at: pointers[seat], now: now)
            }
        case let .pointerScroll(scroll):
            handlePointerScroll(scroll, from: seat, now: now)
        case .pointerLeave:
            // A leave ends the pointer's press without a tap: the release may never come to this
            // surface (sway sends none when the window is hidden while the button is held).
            pointers[seat] = nil
            if let pr = press, pr.source == .pointer(seat) { endPress(at: nil, now: now) }
            if let (other, p) = pointers.first {
                // Another seat's pointer is still here: the hover is its.
                if hoverSeat == seat {
                    pointer = p
                    hoverSeat = other
                    if press?.source.isPointer != true { hover(at: p, now: now) }
                }
                return
            }
            pointer = nil
            use(presentingContent.handle(.hover(nil), now: now))
            if let top = levels.last { use(top.content.handle(.hover(nil), now: now)) }
        case let .touchDown(id, p):
            if press == nil {
                touchPoint = p
                beginPress(at: p, source: .touch(seat, id), now: now)
            }
        case let .touchMotion(id, p):
            if let pr = press, pr.source == .touch(seat, id) {
                touchPoint = p
                deliverDrag(p, to: pr.target, now: now)
            }
        case let .touchUp(id):
            if let pr = press, pr.source == .touch(seat, id) {
                endPress(at: touchPoint, now: now)
                touchPoint = nil
            }
        case .touchCancel:
            // wl_touch.cancel ends every touch point of its seat only.
            if let pr = press, case let .touch(pressSeat, _) = pr.source, pressSeat == seat {
                endPress(at: nil, now: now)
                touchPoint = nil
            }
        case let .keyboard(event):
            handleKeyboard(event, now: now)
        case let .key(key, pressed):
            guard pressed else { return }
            if let top = levels.last {
                let used = top.content.handle(.key(key), now: now)
                use(used)
                if !used && key == .escape && (top.controller.state == .presenting || top.controller.state == .presented) {
                    userDismiss(now: now)
                }
            } else {
                use(presentingContent.handle(.key(key), now: now))
            }
        case let .accessibility(request, level):
            deliverAccessibilityRequest(request, level: level, now: now)
        }
    }

    /// The pointer hovers `p` (container points): the top level's content, or — where input passes
    /// through beside an undimmed sheet, or with nothing presented — the presenting content.
    func hover(at p: Point, now: Double) {
        if let top = levels.last {
            if passesInputThrough, !(top.controller.effectivePresentedViewRect(at: now)?.contains(p) ?? false) {
                use(top.content.handle(.hover(nil), now: now))
                use(presentingContent.handle(.hover(p), now: now))
            } else {
                use(top.content.handle(.hover(toPresented(p, level: top, now: now)), now: now))
            }
        } else {
            use(presentingContent.handle(.hover(p), now: now))
        }
    }

    /// A keyboard event for the focused content (the top level's, else the presenting content):
    /// ``ContentInput/keyboard(_:)`` first; a press or repeat it did not use goes on as its meaning
    /// (``KeyInput/presentationKey``, or an arrow's focus movement where the content lets arrows
    /// move focus) through the `.key` routing: to the content, then Escape dismisses. A held
    /// Return or Escape acts once (only Tab and arrows repeat into focus movement).
    func handleKeyboard(_ event: KeyInput, now: Double) {
        let focused: any PresentationContent = levels.last?.content ?? presentingContent
        let used = focused.handle(.keyboard(event), now: now)
        use(used)
        guard !used, event.isDown else { return }
        let key = event.presentationKey ?? (focused.arrowKeysMoveFocus ? event.arrowFocusMovement : nil)
        guard let key, event.phase == .press || key == .tab || key == .backTab else { return }
        handle(.key(key, pressed: true), now: now)
    }

    func use(_ used: Bool) { if used { dirty = true } }

    /// A container point in `level`'s presented content's own points, under its current transform.
    func toPresented(_ p: Point, level: PresentedLevel, now: Double) -> Point {
        let c = level.controller
        let r = c.effectivePresentedViewRect(at: now) ?? .zero
        let t = c.effectivePresentedViewTransform(at: now)
        let kx = t.scaleX > 0 ? t.scaleX : 1, ky = t.scaleY > 0 ? t.scaleY : 1
        return Point(x: (p.x - r.minX) / kx, y: (p.y - r.minY) / ky)
    }

    func deliver(_ input: ContentInput, to target: PressTarget, now: Double) {
        switch target {
        case .presenting: use(presentingContent.handle(input, now: now))
        case .presented: if let top = levels.last { use(top.content.handle(input, now: now)) }
        case .dim, .nothing: break
        }
    }

    func deliverDrag(_ p: Point, to target: PressTarget, now: Double) {
        if scrolling.panning { panStep(to: p, now: now); return }
        if recognisePan(at: p, now: now) { return }
        // A drag whose gesture a layout took away (an adaptive sheet become a card): its content's
        // press was cancelled when it became a drag, so the rest of it reaches nothing.
        if target == .presented, let level = levels.last, level.drag.isDragging, level.controller.detentLayout == nil {
            return
        }
        if target == .presented, let level = levels.last, level.drag.isActive, let layout = level.controller.detentLayout {
            let controller = level.controller
            let d = (p.x - level.drag.start.x) * layout.axis.x + (p.y - level.drag.start.y) * layout.axis.y
            if !level.drag.isDragging {
                if abs(d) >= DragPhysics.dragThreshold,
                   ScrollArbitration.owner(
                       towardDismissal: d,
                       canScrollBack: level.content.canScroll(toward: ScrollArbitration.edge(towardDismissal: layout.direction)),
                       canScrollForward: level.content.canScroll(toward: ScrollArbitration.edge(towardExpansion: layout.direction)),
                       belowLargestDetent: level.drag.startOffset > layout.minOffset + 0.5,
                       expandsWhenScrolledToEdge: controller.interaction.prefersScrollingExpandsWhenScrolledToEdge,
                       caught: level.drag.caught) == .content {
                    // The content scrolls (UIKit: the scroll view's pan wins): its press is cancelled.
                    beginPan(at: p, now: now)
                    use(level.content.handle(.cancel, now: now))
                    return
                }
                if abs(d) >= DragPhysics.dragThreshold {
                    // A drag now: the content's press ends without a tap (UIKit cancels the
                    // content's touches when the pan gesture recognizes).
                    level.drag.isDragging = true
                    if !controller.isTracking {
                        // Not held since the press (a resting view, or the app took a caught one
                        // meanwhile): the drag catches the view where it is now.
                        level.drag.startOffset = controller.beginDrag(now: now) ?? level.drag.startOffset
                    }
                    use(level.content.handle(.cancel, now: now))
                    onInteraction(.dragBegan)
                } else {
                    deliver(.drag(toPresented(p, level: level, now: now)), to: target, now: now)
                    return
                }
            }
            guard controller.isTracking else { return }  // the app dismissed it meanwhile
            if level.drag.startOffset + d < layout.minOffset,
               level.content.canScroll(toward: ScrollArbitration.edge(towardExpansion: layout.direction)) {
                // The sheet reached its largest detent moving toward expansion: it rests there and
                // the rest of the drag scrolls the content (UIKit hands the pan to the scroll view),
                // from the point where the sheet arrived.
                let arrival = layout.minOffset - level.drag.startOffset
                let from = Point(x: level.drag.start.x + layout.axis.x * arrival, y: level.drag.start.y + layout.axis.y * arrival)
                level.drag.raw = layout.minOffset
                controller.drag(toRawOffset: layout.minOffset)
                level.drag.isDragging = false
                onInteraction(.dragEnded(velocity: 0))
                controller.endDrag(rawOffset: layout.minOffset, velocity: 0, now: now)
                beginPan(at: from, now: now)
                panStep(to: p, now: now)
                dirty = true
                return
            }
            level.drag.raw = level.drag.startOffset + d
            controller.drag(toRawOffset: level.drag.raw)
            level.drag.tracker.add(level.drag.raw, at: now)
            dirty = true
            return
        }
        guard target == .presented, let top = levels.last else {
            deliver(.drag(p), to: target, now: now)
            return
        }
        deliver(.drag(toPresented(p, level: top, now: now)), to: target, now: now)
    }

    /// Whether pointer and touch input outside the presented view reaches the presenting content:
    /// one level, resting at a detent its style leaves undimmed (UIKit passes touches through to
    /// the presenting view there). Keys stay with the presented content.
    var passesInputThrough: Bool { levels.count == 1 && levels[0].controller.isRestingUndimmed }

    func beginPress(at p: Point, source: PressSource, now: Double) {
        guard press == nil else { return }  // one press at a time (pointer or first touch)
        let target: PressTarget
        if let top = levels.last {
            let rect = top.controller.effectivePresentedViewRect(at: now) ?? .zero
            target = rect.contains(p) ? .presented : passesInputThrough ? .presenting : .dim
        } else {
            target = .presenting
        }
        press = (target, source, target == .presenting ? 0 : levels.count)
        defer { beginScrollPress(at: p, target: target, source: source, now: now) }
        if target == .presented, let level = levels.last, level.controller.isDraggable {
            // A press on a draggable view: it becomes a drag after 8 pt along the axis. On a moving
            // view it catches it where it is (UIKit's interruptible transitions).
            let controller = level.controller
            let moving = controller.isAnimating
            let offset = moving ? controller.beginDrag(now: now) : controller.dragOffset(at: now)
            if let offset = offset {
                level.drag.isActive = true
                level.drag.isDragging = false
                level.drag.caught = moving
                level.drag.start = p
                level.drag.startOffset = offset
                level.drag.raw = offset
                level.drag.tracker.reset()
                level.drag.tracker.add(offset, at: now)
                dirty = true
            }
        }
        switch target {
        case .presenting: use(presentingContent.handle(.press(p), now: now))
        case .presented:
            if let top = levels.last { use(top.content.handle(.press(toPresented(p, level: top, now: now)), now: now)) }
        case .dim, .nothing: break
        }
    }

    /// Ends the press: released at `p` (a tap if its target says so), or without a release when
    /// `p` is nil (the pointer left, the touch was cancelled): a drag is released at rest, the
    /// content gets `.cancel`.
    func endPress(at p: Point?, now: Double) {
        guard let pr = press else { return }
        if scrolling.panning {
            // A pan: its content's press was cancelled; the scroll ends, decelerating unless cancelled.
            if pr.target == .presented, let level = levels.last { level.drag.isActive = false }
            endPan(now: now, decelerates: p != nil)
            press = nil
            return
        }
        press = nil
        let level = pr.target == .presented ? levels.last : nil  // a press on a presented view is the top's
        if pr.target == .presented, endDrag(cancelled: p == nil, now: now) { return }
        if let level, levels.last !== level {
            // Releasing a caught view let its dismissal resume, and it completed at once: its level
            // left the stack, so the press ends there without a tap.
            use(level.content.handle(.cancel, now: now))
            return
        }
        guard let p = p else { deliver(.cancel, to: pr.target, now: now); return }
        switch pr.target {
        case .presenting:
            // The modal may have come up meanwhile (a key): then the press is cancelled.
            deliver(levels.isEmpty || passesInputThrough ? .release(p) : .cancel, to: .presenting, now: now)
        case .presented:
            if let top = levels.last { deliver(.release(toPresented(p, level: top, now: now)), to: .presented, now: now) }
        case .dim:
            // A tap on the top dimming view: press and release both outside its presented view.
            guard let top = levels.last?.controller, top.state == .presenting || top.state == .presented else { return }
            if top.tapOnDimDismisses(at: p, now: now) { userDismiss(now: now) }
        case .nothing:
            break
        }
    }

    /// Ends the press without a tap because what it pressed is no longer in front: a level was
    /// presented over it, or its level left the stack (UIKit cancels the touches of a view that a
    /// presentation covers or that leaves the window). Its content gets `.cancel` (unless its drag
    /// cancelled it already); a drag holding its level's view ends as released at rest, the view
    /// going back to the detent it rested at (``PresentationController/resumeAfterCatch(now:)``), so
    /// a covered level stays presented; the rest of the press reaches nothing.
    func abandonPress(now: Double) {
        guard let pr = press, pr.target != .nothing else { return }
        let panned = scrolling.panning
        endPan(now: now, decelerates: false)
        scrolling.panCandidate = false
        press = (.nothing, pr.source, pr.level)
        switch pr.target {
        case .presenting:
            if !panned { use(presentingContent.handle(.cancel, now: now)) }
        case .presented where pr.level >= 1 && pr.level <= levels.count:
            let level = levels[pr.level - 1]
            let wasDragging = level.drag.isActive && level.drag.isDragging
            if level.drag.isActive {
                level.drag.isActive = false
                level.drag.isDragging = false
                if wasDragging { onInteraction(.dragEnded(velocity: 0)) }
                level.controller.resumeAfterCatch(now: now)  // nothing unless it still holds the view
                dirty = true
            }
            if !wasDragging && !panned { use(level.content.handle(.cancel, now: now)) }
        case .presented, .dim, .nothing:
            break
        }
    }

    /// A dismissal the user asked for (dim tap, Escape): refused with a close attempt when the
    /// style declares the presentation not dismissible (UIKit's `isModalInPresentation`).
    func userDismiss(now: Double) {
        if (levels.last?.controller ?? controller).interaction.isDismissible {
            dismiss(now: now)
        } else {
            onInteraction(.closeAttempt)
        }
    }

    /// Ends the top level's drag, if its press is a drag: the release velocity over the last
    /// 100 ms, the spring to the projected target, the events. A press that caught a moving view
    /// without becoming a drag lets it resume. `cancelled`: the press ended without a release
    /// (pointer left, touch cancelled): released with velocity 0.
    /// - Returns: true when the press was a drag (the content's press was cancelled already).
    func endDrag(cancelled: Bool, now: Double) -> Bool {
        guard let level = levels.last, level.drag.isActive else { return false }
        let controller = level.controller
        level.drag.isActive = false
        guard level.drag.isDragging else {
            if level.drag.caught { controller.resumeAfterCatch(now: now) }
            dirty = true
            return false
        }
        level.drag.isDragging = false
        // The motion samples of the 100 ms before the release (a finger that rested longer
        // before lifting releases at rest). Every drag-began has its drag-ended, also when the
        // app took the view meanwhile (UIKit's pan gesture ends whatever the app does).
        let v = cancelled ? 0 : level.drag.tracker.velocity(at: now)
        onInteraction(.dragEnded(velocity: v))
        guard controller.isTracking else { return true }  // the app took the view: its spring stays
        let release = controller.endDrag(rawOffset: level.drag.raw, velocity: v, now: now)
        if release?.refusedDismissal == true { onInteraction(.closeAttempt) }
        dirty = true
        return true
    }

}
