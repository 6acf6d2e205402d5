import ModalKit

/// A message that asks for an answer: a title, a message, an optional extra piece of content and
/// buttons for its responses (libadwaita's `AdwAlertDialog`, UIKit's `UIAlertController` with
/// style `.alert`). Present it with the `alert` style; its root element has the role
/// `AccessibilityRole/alert`, its buttons `AccessibilityRole/button`.
///
/// Layout (points, the frame's width from the style, 270 pt for the built-in alert): 20 pt insets;
/// the title (17 pt bold) and the message (15 pt), centred and wrapped, 8 pt apart, then the extra
/// content at its preferred height; 20 pt below them the buttons, 44 pt tall. Buttons sit side by
/// side in equal shares of the width, 8 pt apart, when every label (plus 12 pt on each side) fits
/// its share; otherwise they are stacked full width, 8 pt apart, the first response at the bottom
/// (libadwaita's rule). The height is ``preferredContentSize(fittingWidth:)``'s.
///
/// Choosing (once per alert): a tap on a button; Return, KP_Enter or space chooses the focused
/// button, or with no button focused the ``defaultResponse``; Escape chooses the ``closeResponse``
/// (UIKit's cancel action, libadwaita's `close-response`); Tab, Shift-Tab and the arrow keys move
/// focus among the buttons; a screen reader's "click" on a button chooses it. When the host
/// dismisses the alert without a choice (a tap on the dim, where the style allows it), call
/// ``hostDismissed(now:)`` and the close response is reported. A choice calls ``onResponse``,
/// resumes every `choose()` waiting (ModalKitContentConcurrency) and then ``dismiss``.
public final class Alert: PresentationContent {
    let panel: ResponsePanel

    /// - Parameters:
    ///   - title: the heading (libadwaita's `heading`; UIKit's `title`).
    ///   - message: the body text (`body`; `message`), may be empty.
    ///   - responses: the buttons, in order (left to right when side by side).
    ///   - defaultResponse: the id that Return chooses when no button is focused (`default-response`;
    ///     `preferredAction`), nil for none.
    ///   - closeResponse: the id that Escape chooses (`close-response`; the `.cancel` action), nil for
    ///     none — Escape then goes to the host, which dismisses without a response.
    public init(title: String, message: String = "", responses: [Response], defaultResponse: String? = nil,
                closeResponse: String? = nil) {
        panel = ResponsePanel(arrangement: .alert, title: title, message: message, responses: responses)
        panel.defaultResponse = defaultResponse
        panel.closeResponse = closeResponse
    }

    /// The heading.
    public var title: String { get { panel.title } set { panel.title = newValue; panel.invalidation = .all } }
    /// The body text.
    public var message: String { get { panel.message } set { panel.message = newValue; panel.invalidation = .all } }
    /// The responses, in order.
    public var responses: [Response] { get { panel.responses } set { panel.responses = newValue; panel.invalidation = .all } }
    /// The response Return chooses when no button has focus.
    public var defaultResponse: String? { get { panel.defaultResponse } set { panel.defaultResponse = newValue } }
    /// The response Escape (and ``hostDismissed(now:)``) chooses.
    public var closeResponse: String? { get { panel.closeResponse } set { panel.closeResponse = newValue } }
    /// A piece of content between the message and the buttons (libadwaita's `extra-child`), as wide
    /// as the text, as tall as its `PresentationContent/preferredContentSize(fittingWidth:)`
    /// (0 without one); it draws over the alert's white, gets presses, drags and scrolls on it in
    /// its own points, and its elements join the alert's.
    public var extraContent: (any PresentationContent)? {
        get { panel.extraContent }
        set { panel.extraContent = newValue; panel.invalidation = .all }
    }
    /// Called once with the chosen response's id and the time of the input that chose it
    /// (monotonic seconds), before the alert is dismissed.
    public var onResponse: (_ response: String, _ now: Double) -> Void {
        get { panel.onResponse } set { panel.onResponse = newValue }
    }
    /// How the alert leaves after a choice, with the input's time: set it to the window's
    /// `dismiss(now:)` (UIKit's alert controller dismisses itself after any action). Default: nothing.
    public var dismiss: (_ now: Double) -> Void {
        get { panel.dismissPresentation } set { panel.dismissPresentation = newValue }
    }
    /// The chosen response's id; nil until one is chosen.
    public var chosenResponse: String? { panel.chosen }

    /// Adds a text field under the message (UIKit's `addTextField(configurationHandler:)`;
    /// libadwaita: an `AdwEntryRow` as the extra child), full width, ``TextField/height`` tall, 8 pt
    /// below the piece above it, and returns it to configure (placeholder, secure entry, maximum
    /// length). The first field has keyboard focus when the alert is presented; Tab and Shift-Tab move
    /// through the fields, then the buttons; Return in a field chooses the ``defaultResponse``.
    @discardableResult
    public func addTextField(_ field: TextField = TextField()) -> TextField {
        panel.textFields.append(field)
        panel.invalidation = .all
        return field
    }
    /// The text fields, top to bottom.
    public var textFields: [TextField] { panel.textFields }
    /// Called once with the chosen response and the fields' texts at that moment, and the input's
    /// time (monotonic seconds), after ``onResponse`` and before the alert is dismissed.
    public var onResult: (_ result: AlertResult, _ now: Double) -> Void {
        get { panel.onResult } set { panel.onResult = newValue }
    }
    /// The chosen response with the fields' texts; nil until one is chosen.
    public var chosenResult: AlertResult? { panel.chosen.map { AlertResult(response: $0, texts: panel.chosenTexts) } }
    /// Calls `observer` once with the chosen response and the fields' texts (at once when chosen already).
    public func whenResult(_ observer: @escaping (AlertResult) -> Void) {
        if let r = chosenResult { observer(r) } else { panel.resultObservers.append(observer) }
    }
    /// The index in ``responses`` of the button with keyboard focus, if any.
    public var focusedResponse: Int? { panel.focused }

    /// Whether buttons for `responses` sit side by side at `width` points (else they are stacked).
    public func buttonsSideBySide(width: Double) -> Bool { panel.sideBySide(width: width) }

    /// Each response's button frame at `width` points, content points, in ``responses`` order.
    public func buttonFrames(width: Double) -> [Rect] { panel.layout(width: width).buttons }

    /// Reports the close response (if any, and if nothing was chosen): call it when the host
    /// dismissed the alert on its own (a tap on the dim).
    public func hostDismissed(now: Double) { panel.dismissedWithoutResponse(now: now) }

    /// Calls `observer` once with the chosen response (at once when one was chosen already).
    public func whenResponded(_ observer: @escaping (String) -> Void) {
        if let c = panel.chosen { observer(c) } else { panel.observers.append(observer) }
    }

    public var invalidation: ContentInvalidation { panel.needsDraw ? .all : .none }
    public func draw(into image: OpaquePointer, size: Size, scale: Double) { panel.draw(into: image, size: size, scale: scale) }
    public func handle(_ input: ContentInput, now: Double) -> Bool { panel.handle(input, now: now) }
    public func didLayout(size: Size) { panel.didLayout(size: size) }
    public func preferredContentSize(fittingWidth width: Double) -> Size? {
        Size(width: width, height: panel.layout(width: width).height)
    }
    public var accessibilityElement: AccessibilityElement? { panel.accessibilityElement(role: .alert) }
    public var arrowKeysMoveFocus: Bool { true }
    public var textInputState: TextInputState? { panel.textInputState }
    public var nextInvalidationTime: Double? { panel.focusedField.flatMap { panel.textFields[$0].nextBlinkTime } }
    public func cursorShape(at point: Point) -> CursorShape { panel.cursorShape(at: point) }
}

/// What an ``Alert`` with text fields answers: the chosen response's id and each field's text when
/// it was chosen, in ``Alert/textFields`` order (a secure field's real text: the app's to keep safe).
public struct AlertResult: Hashable, Sendable {
    /// The chosen response's id.
    public var response: String
    /// The fields' texts, top to bottom (empty without fields).
    public var texts: [String]
    /// A result from its parts.
    public init(response: String, texts: [String]) {
        self.response = response
        self.texts = texts
    }
}

/// A list of actions and a cancel action, presented as a sheet (UIKit's `UIAlertController` with
/// style `.actionSheet`; Flutter's `showModalBottomSheet` of tiles). Present it with the
/// `bottom-sheet` style. Buttons are stacked full width in order, 44 pt tall and 8 pt apart, the
/// cancel action last after a 16 pt gap; an optional title and message above, centred.
/// Keys, taps and reporting are ``Alert``'s; the root element has the role
/// `AccessibilityRole/dialog`.
public final class ActionSheet: PresentationContent {
    let panel: ResponsePanel

    /// - Parameters:
    ///   - title: a heading above the actions, may be empty.
    ///   - message: text under it, may be empty.
    ///   - actions: the actions, top to bottom.
    ///   - cancel: the cancel action, shown last and chosen by Escape (nil: none).
    public init(title: String = "", message: String = "", actions: [Response], cancel: Response? = nil) {
        panel = ResponsePanel(arrangement: .actionSheet, title: title, message: message,
                              responses: actions + (cancel.map { [$0] } ?? []))
        panel.closeResponse = cancel?.id
    }

    /// Called once with the chosen action's id and the input's time (monotonic seconds).
    public var onResponse: (_ response: String, _ now: Double) -> Void {
        get { panel.onResponse } set { panel.onResponse = newValue }
    }
    /// How the sheet leaves after a choice (the window's `dismiss(now:)`). Default: nothing.
    public var dismiss: (_ now: Double) -> Void {
        get { panel.dismissPresentation } set { panel.dismissPresentation = newValue }
    }
    /// The chosen action's id; nil until one is chosen.
    public var chosenResponse: String? { panel.chosen }
    /// Each action's button frame at `width` points (actions, then cancel).
    public func buttonFrames(width: Double) -> [Rect] { panel.layout(width: width).buttons }
    /// Reports the cancel action (if any, and if nothing was chosen): call it when the host
    /// dismissed the sheet on its own (a tap on the dim, a swipe down).
    public func hostDismissed(now: Double) { panel.dismissedWithoutResponse(now: now) }

    public var invalidation: ContentInvalidation { panel.needsDraw ? .all : .none }
    public func draw(into image: OpaquePointer, size: Size, scale: Double) { panel.draw(into: image, size: size, scale: scale) }
    public func handle(_ input: ContentInput, now: Double) -> Bool { panel.handle(input, now: now) }
    public func didLayout(size: Size) { panel.didLayout(size: size) }
    public func preferredContentSize(fittingWidth width: Double) -> Size? {
        Size(width: width, height: panel.layout(width: width).height)
    }
    public var accessibilityElement: AccessibilityElement? { panel.accessibilityElement(role: .dialog) }
    public var arrowKeysMoveFocus: Bool { true }
}

extension ActionSheet {
    /// Calls `observer` once with the chosen action (at once when one was chosen already).
    public func whenResponded(_ observer: @escaping (String) -> Void) {
        if let c = panel.chosen { observer(c) } else { panel.observers.append(observer) }
    }
}
