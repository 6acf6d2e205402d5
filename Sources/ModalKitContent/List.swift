import CModalKitPixman
import ModalKit
import ModalKitText

/// One row of a ``List``: a title and an optional detail.
public struct ListRow: Hashable, Sendable {
    /// The row's text (any script; a right-to-left title puts the row's text at its right).
    public var title: String
    /// Secondary text at the row's end, grey (UIKit's `.value1` cell), or empty.
    public var detail: String

    /// - Parameters:
    ///   - title: the row's text.
    ///   - detail: secondary text at the row's end (default none).
    public init(_ title: String, detail: String = "") {
        self.title = title
        self.detail = detail
    }
}

/// How many rows a ``List`` lets the user pick.
public enum ListSelectionMode: Hashable, Sendable {
    /// Rows are not picked (a tap or Return still reports the row).
    case none
    /// One row at a time: choosing a row replaces the selection (a picker).
    case single
    /// Any number: choosing a row toggles it, and a check mark shows at its end.
    case multiple
}

/// How a ``List`` looks: sizes in points, colours premultiplied.
public struct ListAppearance: Hashable, Sendable {
    /// A row's height, points (UIKit's default table row: 44).
    public var rowHeight = 44.0
    /// Space between a row's edge and its text, at both ends, points (and the separator's start).
    public var inset = 20.0
    /// The titles' text style.
    public var titleStyle = TextStyle.row
    /// The details' text style.
    public var detailStyle = TextStyle.detail
    /// The list's background.
    public var background = Color(rgb: 0xFFFFFF)
    /// A selected row's fill.
    public var selectedFill = Color(rgb: 0xE8F0FE)
    /// A pressed row's fill, or the row with keyboard focus when focus is shown.
    public var pressedFill = Color(rgb: 0xD1D1D6)
    /// The hairline at each row's bottom (one whole buffer pixel, or ⌊scale⌋ pixels).
    public var separator = Color(rgb: 0xE5E5EA)

    /// The default look: 44 pt rows, 20 pt insets, 17 pt titles on white.
    public init() {}
}

/// Rows of text the user scrolls through and picks from (UIKit's `UITableView` of plain cells,
/// GTK's `GtkListView`, Flutter's `ListView` of `ListTile`s), as a presented or presenting content.
///
/// Scrolling: a `ScrollPosition` the size of the rows; every input the host routes scrolls it —
/// the wheel and touchpad under the pointer, touch pans, pointer drags on a draggable sheet, the
/// host's deceleration after them — and ``canScroll(toward:)`` gives the host UIKit's sheet rule
/// (a drag that starts with the list at its top moves the sheet; with room to scroll, the list).
/// Keys with the list focused: Down / Up move the cursor one row (with ``arrowKeysScroll``, scroll
/// one row instead), Page Down / Page Up scroll a viewport less one row, Home / End to the ends;
/// Return or space chooses the row under the cursor; typing letters moves the cursor to the first
/// row whose title starts with what was typed within the last second (type-ahead, case-insensitive).
/// With ``ListSelectionMode/single`` the cursor's row is selected as it moves; with
/// ``ListSelectionMode/multiple`` space toggles it (inside an ``Alert``, whose Return answers).
///
/// Choosing a row (a tap on it, Return on the cursor's row, a screen reader's "click") updates the
/// selection by ``selectionMode`` and calls ``onChoose``. A row's title sits at the inset from its
/// paragraph's start: the left for left-to-right text, the right for Arabic or Hebrew; its detail at
/// the other end. For assistive technology the root is a dialog named ``title`` holding one
/// `AccessibilityRole/list` whose visible rows are `AccessibilityRole/listItem`s (identifiers
/// `row-1`…), selected ones with `AccessibilityStates/selected`.
public final class List: PresentationContent {
    /// The rows, top to bottom.
    public var rows: [ListRow] { didSet { rowsChanged() } }
    /// The list's name for assistive technology (the modal's title).
    public var title: String
    /// Whether choosing selects one row, toggles rows, or selects nothing.
    public var selectionMode: ListSelectionMode
    /// The look.
    public var appearance: ListAppearance { didSet { rowsChanged() } }
    /// Up / Down scroll by one row instead of moving the cursor (a list read rather than picked from).
    public var arrowKeysScroll = false
    /// Called when a row is chosen, with its index and the input's time (monotonic seconds).
    public var onChoose: (_ row: Int, _ now: Double) -> Void = { _, _ in }
    /// Called after every change of the scroll offset with the new offset (points from the top)
    /// and the time of the input that made it (monotonic seconds; a resize: the last input's).
    public var onScroll: (_ offset: Double, _ now: Double) -> Void = { _, _ in }

    /// The rows picked, by index.
    public private(set) var selectedRows: Set<Int> = []
    /// The row under the keyboard cursor (Up/Down/type-ahead move it; Return chooses it), if any.
    public private(set) var cursorRow: Int?
    /// The scroll position: offset from the top, the rows' size and the viewport's, points.
    public private(set) var position = ScrollPosition()
    public private(set) var invalidation: ContentInvalidation = .all

    private var pressedRow: Int?
    private var focusVisible = false
    private var lastNow = 0.0
    private var typed = "", typedAt = -Double.infinity
    /// Each row's title (and detail) drawn once per font scale into an image of its own, clear
    /// around the glyphs, composited at every draw: a frame of a scroll shapes no text and
    /// allocates nothing (as a table view's cells keep their layers).
    private var rowImages: (scale: Double, images: [(title: OpaquePointer?, detail: OpaquePointer?)])?

    /// The time within which typed letters add up to one type-ahead search, seconds.
    public static let typeAheadInterval = 1.0

    /// - Parameters:
    ///   - rows: the rows, top to bottom.
    ///   - title: the list's name for assistive technology.
    ///   - selectionMode: single (default), multiple or none.
    ///   - appearance: the look.
    public init(rows: [ListRow], title: String = "", selectionMode: ListSelectionMode = .single,
                appearance: ListAppearance = ListAppearance()) {
        self.rows = rows
        self.title = title
        self.selectionMode = selectionMode
        self.appearance = appearance
        position.contentSize.height = appearance.rowHeight * Double(rows.count)
    }

    deinit { dropImages() }

    private func rowsChanged() {
        position.contentSize.height = appearance.rowHeight * Double(rows.count)
        selectedRows = selectedRows.filter { $0 < rows.count }
        if let c = cursorRow, c >= rows.count { cursorRow = nil }
        dropImages()
        invalidation = .all
    }

    private func dropImages() {
        for pair in rowImages?.images ?? [] {
            if let t = pair.title { pixman_image_unref(t) }
            if let d = pair.detail { pixman_image_unref(d) }
        }
        rowImages = nil
    }

    /// Marks everything for redrawing (a new font set, a theme change).
    public func invalidateAll() { invalidation = .all }

    /// Selects exactly `rows` (indices out of range are ignored) without reporting a choice.
    public func select(_ rows: Set<Int>) {
        selectedRows = rows.filter { self.rows.indices.contains($0) }
        invalidation = .all
    }

    public func didLayout(size: Size) {
        let before = position.offset
        position.contentSize.width = size.width
        position.viewportSize = size
        if position.offset != before { onScroll(position.offset.y, lastNow) }
        invalidation = .all
    }

    public func canScroll(toward edge: ScrollEdge) -> Bool { position.canScroll(toward: edge) }

    public func preferredContentSize(fittingWidth width: Double) -> Size? { Size(width: width, height: position.contentSize.height) }

    /// Scrolls by `delta` points (+y down the list). Returns whether it moved.
    @discardableResult
    public func scroll(by delta: Point) -> Bool {
        guard position.scroll(by: delta) else { return false }
        invalidation = .all
        onScroll(position.offset.y, lastNow)
        return true
    }

    /// Scrolls by `pages` viewports less one row each (+1 Page Down, −1 Page Up, as GTK's and UIKit's lists page).
    @discardableResult
    public func scroll(byPage pages: Double) -> Bool {
        scroll(by: Point(x: 0, y: pages * max(appearance.rowHeight, position.viewportSize.height - appearance.rowHeight)))
    }

    /// Scrolls to the top (`.top`, Home) or the bottom (`.bottom`, End). Returns whether it moved.
    @discardableResult
    public func scrollToEdge(_ edge: ScrollEdge) -> Bool {
        guard position.scrollToEdge(edge) else { return false }
        invalidation = .all
        onScroll(position.offset.y, lastNow)
        return true
    }

    /// Row `i`'s frame in the list's own points (scrolled: y is relative to the viewport's top).
    public func frame(ofRow i: Int) -> Rect {
        Rect(x: 0, y: Double(i) * appearance.rowHeight - position.offset.y, width: position.viewportSize.width,
             height: appearance.rowHeight)
    }

    /// The row at `p` (the list's own points, inside the viewport), if any.
    public func row(at p: Point) -> Int? {
        let i = Int(((p.y + position.offset.y) / appearance.rowHeight).rounded(.down))
        return p.y >= 0 && p.y < position.viewportSize.height && rows.indices.contains(i) ? i : nil
    }

    /// Moves the cursor to row `i` and scrolls it into view.
    public func moveCursor(to i: Int) {
        guard rows.indices.contains(i) else { return }
        cursorRow = i
        if position.scrollToVisible(Rect(x: 0, y: Double(i) * appearance.rowHeight, width: 1, height: appearance.rowHeight)) {
            onScroll(position.offset.y, lastNow)
        }
        invalidation = .all
    }

    /// Chooses row `i` as a tap would: updates the selection and calls ``onChoose``.
    public func choose(_ i: Int, now: Double) {
        guard rows.indices.contains(i) else { return }
        switch selectionMode {
        case .none: break
        case .single: selectedRows = [i]
        case .multiple: if selectedRows.contains(i) { selectedRows.remove(i) } else { selectedRows.insert(i) }
        }
        invalidation = .all
        onChoose(i, now)
    }

    /// The first row whose title starts with `prefix` (case-insensitive), if any.
    public func firstRow(matching prefix: String) -> Int? {
        let p = prefix.lowercased()
        return rows.firstIndex { $0.title.lowercased().hasPrefix(p) }
    }

    private func key(_ k: KeyInput, now: Double) -> Bool {
        let step = appearance.rowHeight
        switch k.keysym {
        case KeyInput.Keysym.pageDown: if k.isDown { scroll(byPage: 1) }
        case KeyInput.Keysym.pageUp: if k.isDown { scroll(byPage: -1) }
        case KeyInput.Keysym.home: if k.isDown { scrollToEdge(.top) }
        case KeyInput.Keysym.end: if k.isDown { scrollToEdge(.bottom) }
        case KeyInput.Keysym.down, KeyInput.Keysym.up:
            let down = k.keysym == KeyInput.Keysym.down
            guard k.isDown else { return true }
            if arrowKeysScroll {
                scroll(by: Point(x: 0, y: down ? step : -step))
            } else {
                focusVisible = true
                guard !rows.isEmpty else { return true }
                let next = cursorRow.map { down ? min(rows.count - 1, $0 + 1) : max(0, $0 - 1) } ?? (down ? 0 : rows.count - 1)
                moveCursor(to: next)
                selectAtCursor()
            }
        case KeyInput.Keysym.space where selectionMode == .multiple && typed.isEmpty && cursorRow != nil:
            // Space toggles the cursor's row of a multiple-selection list (GTK's list views).
            if k.isDown, let c = cursorRow { choose(c, now: now) }
        default:
            // Typed text (no control characters, no shortcuts); a space that starts a search is
            // left to the host (space activates, as Return).
            let text = k.typedText
            guard !text.isEmpty, !(text == " " && typed.isEmpty) else { return false }
            if now - typedAt > List.typeAheadInterval { typed = "" }
            typed += text
            typedAt = now
            focusVisible = true
            if let i = firstRow(matching: typed) { moveCursor(to: i); selectAtCursor() }
        }
        return true
    }

    /// In a single-selection list the keyboard's cursor is the selection (GTK's single-selection
    /// list and tree views select the row the arrows or type-ahead move to), so that Return on a
    /// dialog's default button answers with the row the user moved to.
    private func selectAtCursor() {
        guard selectionMode == .single, let c = cursorRow else { return }
        selectedRows = [c]
    }

    public func handle(_ input: ContentInput, now: Double) -> Bool {
        lastNow = now
        switch input {
        case let .scroll(s):
            return scroll(by: s.delta)
        case let .press(p):
            focusVisible = false
            pressedRow = row(at: p)
        case let .release(p):
            let hit = pressedRow
            pressedRow = nil
            invalidation = .all
            if let r = hit, row(at: p) == r { cursorRow = r; choose(r, now: now) }
        case .cancel:
            pressedRow = nil
        case .drag, .hover, .textInput, .editText:
            return false
        case .focus(nil):
            return false
        case let .focus(id?):
            guard let i = rowIndex(id) else { return false }
            moveCursor(to: i)
        case let .key(k):
            guard k == .activate, let c = cursorRow else { return false }   // Escape: the host dismisses
            choose(c, now: now)
        case let .keyboard(k):
            return key(k, now: now)
        case let .activate(id):
            guard let i = rowIndex(id) else { return false }
            moveCursor(to: i)
            choose(i, now: now)
        }
        invalidation = .all
        return true
    }

    private func rowIndex(_ id: String) -> Int? {
        guard id.hasPrefix("row-"), let i = Int(id.dropFirst(4)), i >= 1, i <= rows.count else { return nil }
        return i - 1
    }

    /// Where row `i`'s title is drawn at `scale`: its pen's start and its width, buffer pixels (the
    /// title ends at the right inset in a right-to-left row, starts at the left inset otherwise).
    public func titlePlacement(ofRow i: Int, scale: Double) -> (x: Int, width: Int) {
        let font = appearance.titleStyle.font(scale: scale)
        let w = font?.width(of: rows[i].title) ?? 0
        let rtl = ParagraphDirection(of: rows[i].title) == .rightToLeft
        return (rtl ? px(position.viewportSize.width - appearance.inset, scale) - w : px(appearance.inset, scale), w)
    }

    public func draw(into image: OpaquePointer, size: Size, scale s: Double) {
        let pxSize = Draw.pixelSize(of: image)
        Draw.fill(image, width: pxSize.width, height: pxSize.height, color: appearance.background)
        let a = appearance, h = a.rowHeight, top = position.offset.y
        let images = rowImages(scale: s)
        let titleFont = a.titleStyle.font(scale: s), detailFont = a.detailStyle.font(scale: s)
        let first = max(0, Int((top / h).rounded(.down))), last = min(rows.count - 1, Int(((top + size.height) / h).rounded(.down)))
        guard first <= last else { invalidation = .none; return }
        for i in first...last {
            let y = Double(i) * h - top
            let highlighted = i == pressedRow || (focusVisible && i == cursorRow)
            if highlighted || selectedRows.contains(i) {
                fillBox(image, x: 0, y: px(y, s), width: pxSize.width, height: px(h, s),
                        color: highlighted ? a.pressedFill : a.selectedFill)
            }
            let rtl = ParagraphDirection(of: rows[i].title) == .rightToLeft
            if let font = titleFont, let t = images[i].title {
                // The title's ascent–descent box centred on the row.
                let baseline = px(y + h / 2, s) + (font.ascent - font.descent) / 2
                let x = titlePlacement(ofRow: i, scale: s).x
                composite(t, into: image, x: x, y: baseline - font.ascent)
            }
            var trailingEnd = a.inset
            if selectionMode == .multiple && selectedRows.contains(i), let font = titleFont {
                let mark = "✓", w = font.width(of: mark)
                let x = rtl ? px(a.inset, s) : px(size.width - a.inset, s) - w
                font.draw(mark, into: image, x: x, baseline: px(y + h / 2, s) + (font.ascent - font.descent) / 2,
                          color: Color(rgb: 0x3584E4))
                trailingEnd += Double(w) / s + 8
            }
            if let font = detailFont, let d = images[i].detail {
                let w = Int(pixman_image_get_width(d))
                let x = rtl ? px(trailingEnd, s) : px(size.width - trailingEnd, s) - w
                composite(d, into: image, x: x, y: px(y + h / 2, s) + (font.ascent - font.descent) / 2 - font.ascent)
            }
            // A hairline of one whole pixel row (or more at scale ≥ 2) at the row's bottom.
            let thickness = max(1, Int(s.rounded(.down)))
            let inset = px(a.inset, s)
            fillBox(image, x: rtl ? 0 : inset, y: px(y + h, s) - thickness, width: pxSize.width - inset, height: thickness,
                    color: a.separator)
        }
        invalidation = .none
    }

    private func composite(_ src: OpaquePointer, into dst: OpaquePointer, x: Int, y: Int) {
        pixman_image_composite32(PIXMAN_OP_OVER, src, nil, dst, 0, 0, 0, 0, Int32(x), Int32(y),
                                 pixman_image_get_width(src), pixman_image_get_height(src))
    }

    /// The rows' text images at `scale` (made when the scale changed).
    private func rowImages(scale: Double) -> [(title: OpaquePointer?, detail: OpaquePointer?)] {
        if let cached = rowImages, cached.scale == scale, cached.images.count == rows.count { return cached.images }
        dropImages()
        func image(_ text: String, _ style: TextStyle) -> OpaquePointer? {
            guard !text.isEmpty, let font = style.font(scale: scale),
                  let img = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(max(1, font.width(of: text) + 2)),
                                                     Int32(max(1, font.ascent + font.descent)), nil, 0) else { return nil }
            font.draw(text, into: img, x: 0, baseline: font.ascent, color: style.color)
            return img
        }
        let images = rows.map { (title: image($0.title, appearance.titleStyle), detail: image($0.detail, appearance.detailStyle)) }
        rowImages = (scale, images)
        return images
    }

    public var accessibilityElement: AccessibilityElement? {
        var items: [AccessibilityElement] = []
        for i in rows.indices {
            let frame = frame(ofRow: i)
            guard frame.maxY > 0, frame.minY < position.viewportSize.height else { continue }
            var states: AccessibilityStates = [.focusable]
            if selectedRows.contains(i) { states.insert(.selected) }
            if i == cursorRow { states.insert(.focused) }
            items.append(AccessibilityElement(identifier: "row-\(i + 1)", role: .listItem, label: rows[i].title,
                                              description: rows[i].detail, frame: frame, states: states, actions: .activate))
        }
        let list = AccessibilityElement(identifier: "list", role: .list, label: title, description: "\(rows.count) rows",
                                        frame: Rect(size: position.viewportSize), children: items)
        return AccessibilityElement(identifier: "list-view", role: .dialog, label: title, description: "\(rows.count) rows",
                                    frame: Rect(size: position.viewportSize), children: [list])
    }
}
