import CModalKitPixman
import ModalKit

/// One answer an ``Alert`` or ``ActionSheet`` offers (libadwaita's `adw_alert_dialog_add_response`,
/// UIKit's `UIAlertAction`): an identifier reported to the app, a label and a look. UIKit's
/// action styles map onto it: `.destructive` is ``Button/Appearance/destructive``, `.cancel` is
/// the alert's ``Alert/closeResponse``, `preferredAction` its ``Alert/defaultResponse``.
public struct Response: Hashable, Sendable {
    /// What the app receives when this response is chosen (e.g. `"delete"`).
    public var id: String
    /// The button's label (e.g. `"Delete"`).
    public var label: String
    /// The button's look: normal, suggested or destructive.
    public var appearance: Button.Appearance
    /// Whether it can be chosen now.
    public var isEnabled: Bool

    /// - Parameters:
    ///   - id: the identifier reported to the app.
    ///   - label: the button's label.
    ///   - appearance: the look (default normal).
    ///   - isEnabled: whether it can be chosen (default true).
    public init(_ id: String, label: String, appearance: Button.Appearance = .normal, isEnabled: Bool = true) {
        self.id = id
        self.label = label
        self.appearance = appearance
        self.isEnabled = isEnabled
    }

    var button: Button { Button(label, appearance: appearance, isEnabled: isEnabled) }
}

/// What an alert and an action sheet share: a title, a message, an optional extra piece, buttons
/// for responses, keyboard focus among them, taps, and the one response chosen.
final class ResponsePanel {
    enum Arrangement { case alert, actionSheet }

    var title: String { didSet { layoutVersion &+= 1 } }
    var message: String { didSet { layoutVersion &+= 1 } }
    var responses: [Response] { didSet { layoutVersion &+= 1 } }
    var defaultResponse: String?
    var closeResponse: String? { didSet { layoutVersion &+= 1 } }
    var extraContent: (any PresentationContent)? { didSet { layoutVersion &+= 1 } }
    /// The alert's text fields, between the message and the extra content.
    var textFields: [TextField] = [] { didSet { layoutVersion &+= 1 } }
    /// Counts changes of what the layout depends on; the last layout is kept with the version,
    /// width and extra content's height it was made for (a field typed into redraws every frame and
    /// lays out nothing again).
    private var layoutVersion = 0
    private var lastLayout: (version: Int, width: Double, extraHeight: Double, layout: Layout)?
    /// The text field with keyboard focus (then no button has it).
    var focusedField: Int?
    /// The field a press began on: it gets the rest of the press.
    var pressedField: Int?
    /// The fields' texts when the response was chosen.
    private(set) var chosenTexts: [String] = []
    var onResult: (AlertResult, Double) -> Void = { _, _ in }
    var resultObservers: [(AlertResult) -> Void] = []
    let arrangement: Arrangement
    var onResponse: (String, Double) -> Void = { _, _ in }
    var observers: [(String) -> Void] = []
    var dismissPresentation: (Double) -> Void = { _ in }

    private(set) var chosen: String?
    private(set) var size = Size.zero
    private(set) var focused: Int?
    private(set) var focusVisible = false
    private var pressed: Int?
    private var pressedExtra = false
    var invalidation: ContentInvalidation = .all

    /// Points.
    static let inset = 20.0, titleSpacing = 8.0, sectionSpacing = 20.0, buttonSpacing = 8.0, cancelGap = 16.0

    init(arrangement: Arrangement, title: String, message: String, responses: [Response]) {
        self.arrangement = arrangement
        self.title = title
        self.message = message
        self.responses = responses
    }

    var titleLabel: Label { Label(title, style: .title, alignment: .center) }
    var messageLabel: Label { Label(message, style: .body, alignment: .center) }

    /// The rule of libadwaita's `AdwAlertDialog`: buttons side by side, equal widths, when every
    /// label fits one of `count` equal shares of the width inside the insets; otherwise stacked.
    static func fitsSideBySide(naturalWidths: [Double], width: Double) -> Bool {
        guard !naturalWidths.isEmpty else { return true }
        let available = width - 2 * inset
        let share = (available - buttonSpacing * Double(naturalWidths.count - 1)) / Double(naturalWidths.count)
        return naturalWidths.allSatisfy { $0 <= share }
    }

    func sideBySide(width: Double) -> Bool {
        arrangement == .alert && ResponsePanel.fitsSideBySide(naturalWidths: responses.map { $0.button.naturalWidth }, width: width)
    }

    struct Layout {
        var title: Rect, message: Rect, extra: Rect
        var fields: [Rect]
        var buttons: [Rect]
        var height: Double
    }

    func layout(width: Double) -> Layout {
        let inner = Rect(x: ResponsePanel.inset, y: ResponsePanel.inset, width: max(0, width - 2 * ResponsePanel.inset), height: 0)
        let extraHeight = extraContent?.preferredContentSize(fittingWidth: inner.width)?.height ?? 0
        if let last = lastLayout, last.version == layoutVersion, last.width == width, last.extraHeight == extraHeight {
            return last.layout
        }
        let made = layout(width: width, inner: inner, extraHeight: extraHeight)
        lastLayout = (layoutVersion, width, extraHeight, made)
        return made
    }

    private func layout(width: Double, inner: Rect, extraHeight: Double) -> Layout {
        let heights = [titleLabel.height(fittingWidth: inner.width), messageLabel.height(fittingWidth: inner.width)]
            + textFields.map { _ in TextField.height } + [extraHeight]
        let frames = VStack(spacing: ResponsePanel.titleSpacing).frames(heights: heights, in: inner)
        let textBottom = VStack(spacing: ResponsePanel.titleSpacing).height(of: heights)
        var y = ResponsePanel.inset + textBottom + (textBottom > 0 ? ResponsePanel.sectionSpacing : 0)
        var buttons = [Rect](repeating: .zero, count: responses.count)
        let h = Button.height, gap = ResponsePanel.buttonSpacing
        if responses.isEmpty {
        } else if sideBySide(width: width) {
            let n = Double(responses.count)
            let w = (inner.width - gap * (n - 1)) / n
            for i in responses.indices { buttons[i] = Rect(x: inner.minX + Double(i) * (w + gap), y: y, width: w, height: h) }
            y += h
        } else {
            // Stacked: an alert reverses the order (libadwaita: the first response — usually
            // Cancel — ends at the bottom); an action sheet keeps it, the close response last
            // after a wider gap (UIKit's cancel action).
            var order = Array(responses.indices)
            if arrangement == .alert { order.reverse() }
            if arrangement == .actionSheet, let c = closeResponse, let ci = responses.firstIndex(where: { $0.id == c }) {
                order.removeAll { $0 == ci }
                order.append(ci)
            }
            for (k, i) in order.enumerated() {
                if k > 0 {
                    let isCancel = arrangement == .actionSheet && responses[i].id == closeResponse
                    y += isCancel ? ResponsePanel.cancelGap : gap
                }
                buttons[i] = Rect(x: inner.minX, y: y, width: inner.width, height: h)
                y += h
            }
        }
        return Layout(title: frames[0], message: frames[1], extra: frames[frames.count - 1],
                      fields: Array(frames[2..<(frames.count - 1)]), buttons: buttons, height: y + ResponsePanel.inset)
    }

    func didLayout(size: Size) {
        self.size = size
        let l = layout(width: size.width)
        extraContent?.didLayout(size: l.extra.size)
        for (f, r) in zip(textFields, l.fields) { f.didLayout(size: r.size) }
        invalidation = .all
    }

    static let background = Color(rgb: 0xFFFFFF)

    func draw(into image: OpaquePointer, size: Size, scale s: Double) {
        let pxSize = Draw.pixelSize(of: image)
        Draw.fill(image, width: pxSize.width, height: pxSize.height, color: ResponsePanel.background)
        let l = layout(width: size.width)
        titleLabel.draw(into: image, frame: l.title, scale: s)
        messageLabel.draw(into: image, frame: l.message, scale: s)
        for (f, r) in zip(textFields, l.fields) { f.draw(into: image, frame: r, scale: s) }
        if let extra = extraContent, l.extra.height > 0 { drawExtra(extra, into: image, frame: l.extra, scale: s) }
        for (i, r) in responses.enumerated() {
            r.button.draw(into: image, frame: l.buttons[i], scale: s, isPressed: pressed == i,
                          isFocused: focusVisible && focused == i)
        }
        invalidation = .none
    }

    private func drawExtra(_ extra: any PresentationContent, into image: OpaquePointer, frame: Rect, scale s: Double) {
        let w = max(1, px(frame.width, s)), h = max(1, px(frame.height, s))
        guard let sub = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(w), Int32(h), nil, 0) else { return }
        defer { pixman_image_unref(sub) }
        Draw.fill(sub, width: w, height: h, color: ResponsePanel.background)
        extra.draw(into: sub, size: frame.size, scale: s)
        pixman_image_composite32(PIXMAN_OP_SRC, sub, nil, image, 0, 0, 0, 0, Int32(px(frame.minX, s)), Int32(px(frame.minY, s)),
                                 Int32(w), Int32(h))
    }

    var needsDraw: Bool {
        invalidation != .none || (extraContent.map { $0.invalidation != .none } ?? false)
            || textFields.contains { $0.invalidation != .none }
    }

    private func button(at p: Point) -> Int? {
        let buttons = layout(width: size.width).buttons
        return responses.indices.first { buttons[$0].contains(p) }
    }

    /// Reports `id` once: the callback, the awaiting callers, then the dismissal.
    func choose(_ id: String, now: Double) {
        guard chosen == nil else { return }
        chosen = id
        invalidation = .all
        report(id, now: now)
        dismissPresentation(now)
    }

    /// The host dismissed the content without a response (a tap on the dim): the close response.
    func dismissedWithoutResponse(now: Double) {
        guard chosen == nil, let c = closeResponse else { return }
        chosen = c
        report(c, now: now)
    }

    /// The callbacks and waiting callers get `id` (and the fields' texts).
    private func report(_ id: String, now: Double) {
        chosenTexts = textFields.map(\.text)
        for f in textFields { f.isFocused = false }
        let result = AlertResult(response: id, texts: chosenTexts)
        onResponse(id, now)
        onResult(result, now)
        let waiting = observers, waitingResults = resultObservers
        observers.removeAll()
        resultObservers.removeAll()
        for o in waiting { o(id) }
        for o in waitingResults { o(result) }
    }

    private func activate(_ i: Int, now: Double) -> Bool {
        guard responses.indices.contains(i), responses[i].isEnabled else { return false }
        choose(responses[i].id, now: now)
        return true
    }

    /// Focus order: the buttons in the order they are drawn, left to right or top to bottom.
    private var focusOrder: [Int] {
        let l = layout(width: size.width).buttons
        return responses.indices.filter { responses[$0].isEnabled }.sorted { (l[$0].minY, l[$0].minX) < (l[$1].minY, l[$1].minX) }
    }

    func handle(_ input: ContentInput, now: Double) -> Bool {
        if let used = handleFields(input, now: now) { return used }
        let extraFrame = layout(width: size.width).extra
        switch input {
        case let .press(p):
            focusVisible = false
            if let extra = extraContent, extraFrame.contains(p) {
                pressedExtra = true
                return extra.handle(.press(p.offsetBy(-extraFrame.minX, -extraFrame.minY)), now: now)
            }
            pressed = button(at: p)
        case let .drag(p):
            if pressedExtra, let extra = extraContent { return extra.handle(.drag(p.offsetBy(-extraFrame.minX, -extraFrame.minY)), now: now) }
            return false
        case let .release(p):
            if pressedExtra, let extra = extraContent {
                pressedExtra = false
                return extra.handle(.release(p.offsetBy(-extraFrame.minX, -extraFrame.minY)), now: now)
            }
            let hit = pressed
            pressed = nil
            invalidation = .all
            if let i = hit, button(at: p) == i { _ = activate(i, now: now) }
        case .cancel:
            if pressedExtra, let extra = extraContent { pressedExtra = false; return extra.handle(.cancel, now: now) }
            pressed = nil
        case let .scroll(s):
            guard let extra = extraContent, extraFrame.contains(s.location) else { return false }
            var moved = s
            moved.location = s.location.offsetBy(-extraFrame.minX, -extraFrame.minY)
            return extra.handle(.scroll(moved), now: now)
        case .hover:
            return false
        case .keyboard:
            // The extra content (a list) takes the keys it uses first — its cursor's arrows,
            // type-ahead — as GTK gives a key to the focused widget before the dialog's default
            // handling; the rest stay the panel's (Return, Escape, Tab, arrows between buttons).
            guard let extra = extraContent, extra.handle(input, now: now) else { return false }
        case .textInput, .editText:
            return false
        case let .key(key):
            switch key {
            case .escape:
                guard let c = closeResponse else { return false }
                choose(c, now: now)
            case .activate:
                focusVisible = true
                if let f = focused { return activate(f, now: now) }
                guard let d = defaultResponse, let i = responses.firstIndex(where: { $0.id == d }) else { return false }
                return activate(i, now: now)
            case .tab, .backTab:
                let order = focusOrder
                guard !order.isEmpty else { return false }
                focusVisible = true
                if let f = focused, let k = order.firstIndex(of: f) {
                    focused = order[(k + (key == .tab ? 1 : order.count - 1)) % order.count]
                } else {
                    focused = key == .tab ? order.first : order.last
                }
            }
        case let .focus(id):
            if let id {
                guard let i = responses.firstIndex(where: { "response-\($0.id)" == id }) else { return false }
                focused = i
            } else {
                // Sent as the content is presented: a presentation after a choice asks again
                // (libadwaita's dialogs can be presented again; UIKit's alert controllers are not reused).
                focused = nil
                chosen = nil
            }
        case let .activate(id):
            guard let i = responses.firstIndex(where: { "response-\($0.id)" == id }) else { return false }
            return activate(i, now: now)
        }
        invalidation = .all
        return true
    }

    func accessibilityElement(role: AccessibilityRole) -> AccessibilityElement {
        let l = layout(width: size.width)
        var children: [AccessibilityElement] = []
        if !title.isEmpty { children.append(.text("title", title, frame: l.title, role: .heading)) }
        if !message.isEmpty { children.append(.text("message", message, frame: l.message)) }
        for (i, f) in textFields.enumerated() {
            children.append(f.accessibilityElement(identifier: "text-field-\(i)", frame: l.fields[i]))
        }
        if let extra = extraContent?.accessibilityElement {
            children.append(extra.offsetBy(dx: l.extra.minX, dy: l.extra.minY))
        }
        for (i, r) in responses.enumerated() {
            children.append(r.button.accessibilityElement(identifier: "response-\(r.id)", frame: l.buttons[i], isFocused: focused == i))
        }
        return AccessibilityElement(identifier: arrangement == .alert ? "alert" : "action-sheet", role: role, label: title,
                                    description: message, frame: Rect(size: size), children: children)
    }
}

extension ResponsePanel {
    /// Input for the text fields (nil: not theirs, the buttons' code handles it): presses on a
    /// field, keys and input-method updates while one has focus, Return there choosing the default
    /// response, Tab and Shift-Tab through the fields then the buttons, focus requests.
    func handleFields(_ input: ContentInput, now: Double) -> Bool? {
        guard !textFields.isEmpty else { return nil }
        // The fields' frames only for pointer input: a key or an input method's update costs no layout.
        func fieldFrames() -> [Rect] { layout(width: size.width).fields }
        func local(_ p: Point, _ i: Int) -> Point {
            let f = fieldFrames()[i]
            return p.offsetBy(-f.minX, -f.minY)
        }
        switch input {
        case let .press(p):
            guard let i = fieldFrames().firstIndex(where: { $0.contains(p) }) else {
                pressedField = nil
                return nil
            }
            focusField(i)
            pressedField = i
            return textFields[i].handle(.press(local(p, i)), now: now)
        case let .drag(p):
            guard let i = pressedField else { return nil }
            return textFields[i].handle(.drag(local(p, i)), now: now)
        case let .release(p):
            guard let i = pressedField else { return nil }
            pressedField = nil
            return textFields[i].handle(.release(local(p, i)), now: now)
        case .cancel:
            guard let i = pressedField else { return nil }
            pressedField = nil
            return textFields[i].handle(.cancel, now: now)
        case .keyboard, .textInput:
            guard let i = focusedField else { return false }
            return textFields[i].handle(input, now: now)
        case let .editText(id, edit):
            guard id.hasPrefix("text-field-"), let i = Int(id.dropFirst("text-field-".count)), textFields.indices.contains(i)
            else { return false }
            invalidation = .all
            return textFields[i].handle(.editText("text-field", edit), now: now)
        case .key(.activate):
            guard focusedField != nil else { return nil }
            guard let d = defaultResponse, let i = responses.firstIndex(where: { $0.id == d }), responses[i].isEnabled else { return false }
            choose(responses[i].id, now: now)
            return true
        case let .key(key) where key == .tab || key == .backTab:
            // Focus order: the fields top to bottom, then the buttons as drawn.
            let order: [Int?] = textFields.indices.map { -1 - $0 } + focusOrder.map { $0 }
            let current: Int? = focusedField.map { -1 - $0 } ?? focused
            let k = current.flatMap { c in order.firstIndex { $0 == c } }
            let next: Int?
            if let k { next = order[(k + (key == .tab ? 1 : order.count - 1)) % order.count] } else { next = key == .tab ? order.first! : order.last! }
            if let n = next, n < 0 { focusField(-1 - n) } else { focusButton(next ?? nil) }
            invalidation = .all
            return true
        case .focus(nil):
            focused = nil
            chosen = nil
            focusField(0)
            return true
        case let .focus(id?), let .activate(id):
            guard id.hasPrefix("text-field-"), let i = Int(id.dropFirst("text-field-".count)), textFields.indices.contains(i) else {
                if case .focus = input { for f in textFields { f.isFocused = false }; focusedField = nil }
                return nil
            }
            focusField(i)
            return true
        default:
            return nil
        }
    }

    func focusField(_ i: Int) {
        focusedField = i
        focused = nil
        for (j, f) in textFields.enumerated() { f.isFocused = j == i }
        invalidation = .all
    }

    func focusButton(_ i: Int?) {
        focusedField = nil
        for f in textFields { f.isFocused = false }
        focused = i
        focusVisible = true
    }

    /// The focused text field's state, its cursor rectangle in the panel's points.
    var textInputState: TextInputState? {
        guard let i = focusedField, var state = textFields[i].textInputState else { return nil }
        let r = layout(width: size.width).fields[i]
        let c = state.cursorRectangle
        state.cursorRectangle = Rect(x: c.minX + r.minX, y: c.minY + r.minY, width: c.width, height: c.height)
        return state
    }

    /// The I-beam over a text field.
    func cursorShape(at point: Point) -> CursorShape {
        layout(width: size.width).fields.contains { $0.contains(point) } ? .text : .default
    }
}

extension Point {
    func offsetBy(_ dx: Double, _ dy: Double) -> Point { Point(x: x + dx, y: y + dy) }
}
