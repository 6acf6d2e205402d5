import CModalKitPixman
import ModalKit

/// `--content list`: the presented view as a scrolling list of 40 rows, 44 pt each (UIKit's
/// default table row height), in a ``ScrollPosition`` of the content's size: the wheel and the
/// touchpad scroll it under the pointer, touch pans and — on a draggable sheet — pointer drags
/// scroll it by UIKit's sheet rule, with the host's deceleration after a finger lifts; rows are
/// drawn only inside the view (the host clips the presented view's corners). A tap on a row
/// selects it. Escape falls back to the host (dismiss).
///
/// Keys (GTK's and UIKit's list keys, with the list focused): Page Down / Page Up scroll by a
/// viewport less one row (``scroll(byPage:)``), Home / End to the top / bottom
/// (``scrollToEdge(_:)``), Down / Up by one row (``scroll(by:)``); a press and its repeats move,
/// its release is used too. Every other key goes on to the host.
final class ListView: PresentationContent {
    static let rowCount = 40
    /// Row height, points.
    static let rowHeight = 44.0
    /// The rows' titles, made once (drawing a frame makes no strings).
    static let titles = (1...rowCount).map { "Row \($0)" }
    /// Left inset of a row's title, points.
    static let inset = 20.0

    private let fonts: FontBox
    private(set) var position = ScrollPosition(contentSize: Size(width: 0, height: ListView.rowHeight * Double(ListView.rowCount)))
    private(set) var invalidation: ContentInvalidation = .all
    private var pressedRow: Int?
    private var selectedRow: Int?
    /// Called after every change of the scroll offset with the new offset (points from the top)
    /// and the time of the input that made it (monotonic seconds; a resize: the last input's).
    var onScroll: (Double, Double) -> Void = { _, _ in }
    private var lastNow = 0.0
    /// Each row's title drawn once into its own image (premultiplied ARGB, clear around the
    /// glyphs) for the font set it was drawn with, composited OVER the rows at every draw: a frame
    /// of a scroll makes no glyph runs and allocates nothing (as a table view's cells keep their
    /// layers).
    private var titleImages: (fonts: ObjectIdentifier, images: [Image])?

    init(fonts: FontBox) { self.fonts = fonts }

    func invalidateAll() { invalidation = .all }

    func didLayout(size: Size) {
        let before = position.offset
        position.contentSize.width = size.width
        position.viewportSize = size
        if position.offset != before { onScroll(position.offset.y, lastNow) }
        invalidation = .all
    }

    func canScroll(toward edge: ScrollEdge) -> Bool { position.canScroll(toward: edge) }

    /// As tall as all its rows (40 × 44 = 1760 pt) at any width: a sheet that fits its content
    /// (`detents=fit:F`) is that tall, at most F of the container.
    func preferredContentSize(fittingWidth width: Double) -> Size? {
        Size(width: width, height: ListView.rowHeight * Double(ListView.rowCount))
    }

    /// Scrolls by `delta` points (+y down the list). Returns whether it moved.
    @discardableResult
    func scroll(by delta: Point) -> Bool {
        guard position.scroll(by: delta) else { return false }
        invalidation = .all
        onScroll(position.offset.y, lastNow)
        return true
    }

    /// Page Down (`pages` 1) or Page Up (−1): a viewport less one row, as GTK's and UIKit's lists page.
    @discardableResult
    func scroll(byPage pages: Double) -> Bool {
        scroll(by: Point(x: 0, y: pages * max(ListView.rowHeight, position.viewportSize.height - ListView.rowHeight)))
    }

    /// Home (`.top`) or End (`.bottom`).
    @discardableResult
    func scrollToEdge(_ edge: ScrollEdge) -> Bool {
        guard position.scrollToEdge(edge) else { return false }
        invalidation = .all
        onScroll(position.offset.y, lastNow)
        return true
    }

    /// Whether `keysym` is one of the list's scroll keys; scrolls by it when `perform`.
    private func scrollKey(_ keysym: UInt32, perform: Bool) -> Bool {
        switch keysym {
        case KeyInput.Keysym.pageDown: if perform { scroll(byPage: 1) }
        case KeyInput.Keysym.pageUp: if perform { scroll(byPage: -1) }
        case KeyInput.Keysym.home: if perform { scrollToEdge(.top) }
        case KeyInput.Keysym.end: if perform { scrollToEdge(.bottom) }
        case KeyInput.Keysym.down: if perform { scroll(by: Point(x: 0, y: ListView.rowHeight)) }
        case KeyInput.Keysym.up: if perform { scroll(by: Point(x: 0, y: -ListView.rowHeight)) }
        default: return false
        }
        return true
    }

    /// The row at `p` (content points), if any.
    private func row(at p: Point) -> Int? {
        let i = Int(((p.y + position.offset.y) / ListView.rowHeight).rounded(.down))
        return p.y >= 0 && p.y < position.viewportSize.height && i >= 0 && i < ListView.rowCount ? i : nil
    }

    func handle(_ input: ContentInput, now: Double) -> Bool {
        lastNow = now
        switch input {
        case let .scroll(s):
            return scroll(by: s.delta)
        case let .press(p):
            pressedRow = row(at: p)
        case let .release(p):
            if let r = pressedRow, row(at: p) == r { selectedRow = r }
            pressedRow = nil
        case .cancel:
            pressedRow = nil
        case .drag, .hover, .focus:
            return false
        case .key:
            return false   // Escape: the host dismisses
        case let .keyboard(k):
            return scrollKey(k.keysym, perform: k.isDown)
        case let .activate(id):
            guard id.hasPrefix("row-"), let i = Int(id.dropFirst(4)), i >= 1, i <= ListView.rowCount else { return false }
            selectedRow = i - 1
            position.scrollToVisible(Rect(x: 0, y: Double(i - 1) * ListView.rowHeight, width: 1, height: ListView.rowHeight))
        }
        invalidation = .all
        return true
    }

    func draw(into image: OpaquePointer, size: Size, scale s: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: DemoLook.cardBackground)
        let font = fonts.set.label
        let titles = titleImages(font: font, set: fonts.set)
        let h = ListView.rowHeight, top = position.offset.y
        let first = max(0, Int((top / h).rounded(.down))), last = min(ListView.rowCount - 1, Int(((top + size.height) / h).rounded(.down)))
        if first <= last {
            for i in first...last {
                let y = Double(i) * h - top
                if i == selectedRow || i == pressedRow {
                    ListView.fill(image, x: 0, y: Int((y * s).rounded()), width: px.width, height: Int((h * s).rounded()),
                                  color: i == pressedRow ? ListView.pressedFill : ListView.selectedFill)
                }
                // The title's ascent–descent box centred on the row.
                let baseline = Int(((y + h / 2) * s).rounded()) + (font.ascent - font.descent) / 2
                if i < titles.count {
                    let t = titles[i]
                    pixman_image_composite32(PIXMAN_OP_OVER, t.pixmanImage, nil, image, 0, 0, 0, 0,
                                             Int32(Int((ListView.inset * s).rounded())), Int32(baseline - font.ascent),
                                             Int32(t.width), Int32(t.height))
                }
                // A hairline of one whole pixel row (or more at scale ≥ 2) at the row's bottom.
                let thickness = max(1, Int(s.rounded(.down)))
                let inset = Int((ListView.inset * s).rounded())
                ListView.fill(image, x: inset, y: Int(((y + h) * s).rounded()) - thickness, width: px.width - inset,
                              height: thickness, color: ListView.separator)
            }
        }
        invalidation = .none
    }

    /// The rows' title images for `set` (made when the font set changed: a new scale).
    private func titleImages(font: Font, set: FontSet) -> [Image] {
        if let cached = titleImages, cached.fonts == ObjectIdentifier(set) { return cached.images }
        var images: [Image] = []
        for title in ListView.titles {
            guard let image = try? Image(width: max(1, font.width(of: title) + 2), height: max(1, font.ascent + font.descent))
            else { break }
            Draw.fill(image.pixmanImage, width: image.width, height: image.height, color: .clear)
            font.draw(title, into: image.pixmanImage, x: 0, baseline: font.ascent, color: DemoLook.cardText)
            images.append(image)
        }
        titleImages = (ObjectIdentifier(set), images)
        return images
    }

    /// Replaces the whole-pixel box (clipped to the image) with the opaque `color`: no
    /// allocation, unlike an anti-aliased shape's mask.
    private static func fill(_ image: OpaquePointer, x: Int, y: Int, width: Int, height: Int, color: Color) {
        let size = Draw.pixelSize(of: image)
        var box = pixman_box32_t(x1: Int32(max(0, x)), y1: Int32(max(0, y)),
                                 x2: Int32(min(size.width, x + width)), y2: Int32(min(size.height, y + height)))
        guard box.x2 > box.x1, box.y2 > box.y1 else { return }
        var pc = color.pixmanColor
        _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &pc, 1, &box)
    }

    static let separator = Color(rgb: 0xE5E5EA)
    static let selectedFill = Color(rgb: 0xE8F0FE)
    static let pressedFill = Color(rgb: 0xD1D1D6)

    var accessibilityElement: AccessibilityElement? {
        let h = ListView.rowHeight, top = position.offset.y
        var rows: [AccessibilityElement] = []
        for i in 0..<ListView.rowCount {
            let frame = Rect(x: 0, y: Double(i) * h - top, width: position.viewportSize.width, height: h)
            guard frame.maxY > 0, frame.minY < position.viewportSize.height else { continue }
            rows.append(AccessibilityElement(identifier: "row-\(i + 1)", role: .button, label: ListView.titles[i], frame: frame,
                                             states: i == selectedRow ? [.selected] : [], actions: [.activate]))
        }
        return AccessibilityElement(identifier: "list", role: .dialog, label: "List",
                                    description: "\(ListView.rowCount) rows", frame: Rect(size: position.viewportSize),
                                    children: rows)
    }
}
