// What the host shows assistive technology: the snapshot of its levels, and the version that
// tells a platform bridge when to take a new one.

extension PresentationHost {
    /// Changes whenever what ``accessibilitySnapshot()`` returns may have changed: input other than
    /// pointer and touch motion, a presentation or dismissal starting or ending, a layout, a
    /// request of assistive technology, ``setNeedsAccessibilityUpdate()``. A platform bridge takes a
    /// new snapshot only when it changed (motion and animation frames cost it nothing).
    public var accessibilityVersion: Int { accessibilityGeneration }

    /// Tells the host that a content's ``PresentationContent/accessibilityElement`` changed by
    /// itself (a timer, data arriving), not through input the host delivered.
    public func setNeedsAccessibilityUpdate() {
        accessibilityGeneration &+= 1
    }

    /// The accessibility tree as assistive technology should see it now (``AccessibilitySnapshot``).
    ///
    /// Rules (UIKit's modal presentation, `accessibilityViewIsModal`; GTK's modal dialogs):
    /// - level 0 is the presenting content, role ``AccessibilityRole/window``, the container's bounds;
    /// - each presented level — from the start of its presentation until its dismissal completes,
    ///   while it captures input — is ``AccessibilityRole/dialog`` (``AccessibilityRole/alert``
    ///   when its content's root element has that role), modal, at its presented view's frame,
    ///   named and described by its content's root element;
    /// - every level below the top one is hidden;
    /// - focus is in the top level only: on its content's focused element, or on the level itself
    ///   when none is focused. A level starts with focus on itself: as it is presented its content
    ///   receives ``ContentInput/focus(_:)`` with nil (focus moves onto the modal; Tab then
    ///   reaches its first control). When it is dismissed, focus is back on the level below's
    ///   focused element — the control that presented it, which kept its focus meanwhile.
    public func accessibilitySnapshot() -> AccessibilitySnapshot {
        var result: [AccessibilitySnapshot.Level] = []
        result.reserveCapacity(levels.count + 1)
        let top = levels.count
        var focus = AccessibilitySnapshot.Focus(level: top, element: nil)
        for index in 0...top {
            let content = index == 0 ? presentingContent : levels[index - 1].content
            let root = content.accessibilityElement
            let frame = index == 0 ? Rect(size: containerSize) : levels[index - 1].controller.presentedViewFrame
            let focused = index == top ? root?.focusedDescendant?.identifier : nil
            if index == top { focus.element = focused }
            let elements = (root?.children ?? []).map { element in
                Self.keepingFocus(only: focused, in: element.offsetBy(dx: frame.minX, dy: frame.minY))
            }
            let role: AccessibilityRole = index == 0 ? .window : (root?.role == .alert ? .alert : .dialog)
            result.append(AccessibilitySnapshot.Level(index: index, role: role, label: root?.label ?? "",
                                                      description: root?.description ?? "",
                                                      labelledBy: root?.labelledBy, describedBy: root?.describedBy,
                                                      frame: frame,
                                                      isModal: index > 0, isHidden: index < top, elements: elements,
                                                      presentation: index == 0 ? 0 : levels[index - 1].presentation))
        }
        return AccessibilitySnapshot(levels: result, focus: focus)
    }

    /// `element` with ``AccessibilityStates/focused`` only on the element `identifier` names (nil: none).
    static func keepingFocus(only identifier: String?, in element: AccessibilityElement) -> AccessibilityElement {
        var e = element
        if e.identifier == identifier && identifier != nil {
            e.states.insert(.focused)
        } else {
            e.states.remove(.focused)
        }
        e.children = e.children.map { keepingFocus(only: identifier, in: $0) }
        return e
    }

    /// Delivers a request of assistive technology (``PresentationInput/accessibility(_:level:)``)
    /// as keys are delivered: only to the top level's content.
    func deliverAccessibilityRequest(_ request: AccessibilityRequest, level: Int, now: Double) {
        guard level == levels.count else { return }   // hidden under a modal level, or not there
        let content = level == 0 ? presentingContent : levels[level - 1].content
        switch request {
        case let .activate(identifier): use(content.handle(.activate(identifier), now: now))
        case let .focus(identifier): use(content.handle(.focus(identifier), now: now))
        case let .editText(identifier, edit): use(content.handle(.editText(identifier, edit), now: now))
        }
    }
}
