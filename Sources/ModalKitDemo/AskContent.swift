import ModalKit
import ModalKitContent

/// The content of an ``AskPrompt``, made of ModalKitContent's pieces: an `Alert` (libadwaita's
/// `AdwAlertDialog`, zenity's dialogs) with the prompt's heading, text and buttons; for an entry or
/// password a `TextField` (secure for a password) with keyboard focus; for a list a `List` of the
/// rows as the alert's extra content, at most ``AskContent/visibleRows`` rows tall, scrolling.
///
/// Buttons: Cancel (the close response: Escape, a tap on the dim where the style allows it), a
/// question's ``AskPrompt/notOKLabel`` button, and OK
/// (suggested; Return's default response, or Cancel's with ``AskPrompt/defaultCancel``); a notice
/// (warning, info, error) has OK only and no close response: Escape (or closing it) dismisses it
/// without an answer, exit 1, as zenity reports a notice closed other than by its OK (`ZENITY_ESC`).
public final class AskContent {
    /// The alert to present.
    public let alert: Alert
    /// The entry's field (entry, password), else nil.
    public let field: TextField?
    /// The list (list), else nil.
    public let list: List?
    /// The prompt it was made from.
    public let prompt: AskPrompt
    /// Called once with the outcome (OK with its answer, or cancelled) and the input's time.
    public var onResult: (_ result: AskResult, _ now: Double) -> Void = { _, _ in }

    /// The most rows a list shows at once (the rest scroll): 5.5, so that a cut row says there are more.
    public static let visibleRows = 5.5

    /// The alert (with its field or list) for `prompt`; nothing is drawn before it is presented.
    public init(prompt: AskPrompt) {
        self.prompt = prompt
        var responses: [Response] = []
        if prompt.kind.hasCancel { responses.append(Response("cancel", label: prompt.cancelLabel)) }
        if prompt.kind == .question, let notOK = prompt.notOKLabel { responses.append(Response("notok", label: notOK)) }
        let okAppearance: Button.Appearance = .suggested
        responses.append(Response("ok", label: prompt.okLabel, appearance: okAppearance))
        var message = prompt.text
        if !prompt.errorText.isEmpty { message += (message.isEmpty ? "" : "\n\n") + prompt.errorText }
        alert = Alert(title: prompt.shownTitle, message: message, responses: responses,
                      defaultResponse: prompt.defaultCancel && prompt.kind.hasCancel ? "cancel" : "ok",
                      closeResponse: prompt.kind.hasCancel ? "cancel" : nil)
        if prompt.kind.hasTextField {
            let field = alert.addTextField(TextField(text: prompt.entryText, placeholder: prompt.fieldLabel,
                                                     isSecure: prompt.kind == .password))
            field.accessibilityLabel = !prompt.fieldLabel.isEmpty ? prompt.fieldLabel
                : prompt.text.isEmpty ? prompt.shownTitle : prompt.text
            if prompt.kind == .password { field.purpose = .password }
            field.isFocused = true
            self.field = field
        } else {
            field = nil
        }
        if prompt.kind == .list {
            let list = List(rows: prompt.rows.map { ListRow($0) }, title: prompt.column.isEmpty ? prompt.shownTitle : prompt.column,
                            selectionMode: prompt.multiple ? .multiple : .single)
            list.arrowKeysScroll = false
            self.list = list
            alert.extraContent = BoundedContent(list, maximumHeight: list.appearance.rowHeight * Self.visibleRows)
        } else {
            list = nil
        }
        alert.onResult = { [unowned self] result, now in
            self.onResult(self.result(forResponse: result.response, texts: result.texts), now)
        }
    }

    /// The outcome of the alert's `response` with its fields' `texts`.
    public func result(forResponse response: String, texts: [String]) -> AskResult {
        if response == "notok" { return .notOK }
        guard response == "ok" else { return .cancelled }
        switch prompt.kind {
        case .entry, .password: return .ok(answer: texts.first ?? "")
        case .list:
            let chosen = (list?.selectedRows ?? []).sorted().map { prompt.rows[$0] }
            return .ok(answer: chosen.joined(separator: prompt.separator))
        default: return .ok(answer: nil)
        }
    }
}

/// A piece of content shown at most `maximumHeight` points tall (its own preferred height below
/// that): everything else is the wrapped content's.
final class BoundedContent: PresentationContent {
    let content: any PresentationContent
    let maximumHeight: Double

    init(_ content: any PresentationContent, maximumHeight: Double) {
        self.content = content
        self.maximumHeight = maximumHeight
    }

    var invalidation: ContentInvalidation { content.invalidation }
    func draw(into image: OpaquePointer, size: Size, scale: Double) { content.draw(into: image, size: size, scale: scale) }
    func handle(_ input: ContentInput, now: Double) -> Bool { content.handle(input, now: now) }
    func didLayout(size: Size) { content.didLayout(size: size) }
    var accessibilityElement: AccessibilityElement? { content.accessibilityElement }
    func preferredContentSize(fittingWidth width: Double) -> Size? {
        content.preferredContentSize(fittingWidth: width).map { Size(width: $0.width, height: min($0.height, maximumHeight)) }
    }
    func canScroll(toward edge: ScrollEdge) -> Bool { content.canScroll(toward: edge) }
    var arrowKeysMoveFocus: Bool { content.arrowKeysMoveFocus }
    var textInputState: TextInputState? { content.textInputState }
    func cursorShape(at point: Point) -> CursorShape { content.cursorShape(at: point) }
    var nextInvalidationTime: Double? { content.nextInvalidationTime }
}
