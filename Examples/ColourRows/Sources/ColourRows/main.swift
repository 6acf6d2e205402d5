import Foundation
import ModalKitWayland
import ModalKitText

/// Rows of one colour each, named in white; a tap on a row (Return: the first) calls `onTap` with
/// the row and the input event's time.
final class Rows: PresentationContent {
    let rows: [(name: String, rgb: UInt32)], rowHeight: Double
    var onTap: (_ row: Int, _ now: Double) -> Void = { _, _ in }
    private(set) var invalidation = ContentInvalidation.all
    private var size = Size.zero, pressed: Int?
    init(_ rows: [(name: String, rgb: UInt32)], rowHeight: Double = 64) { self.rows = rows; self.rowHeight = rowHeight }

    func frame(_ i: Int) -> Rect { Rect(x: 0, y: Double(i) * rowHeight, width: size.width, height: rowHeight) }
    func row(at p: Point) -> Int? { rows.indices.first { frame($0).contains(p) } }
    var accessibilityElement: AccessibilityElement? {
        AccessibilityElement(identifier: "rows", role: .group, label: "Colours", children: rows.indices.map {
            .button("\($0)", label: rows[$0].name, frame: frame($0)) })
    }
    func didLayout(size: Size) { self.size = size; invalidation = .all }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0xFFFFFF))
        let font = try? PixmanFont(pattern: "sans-serif", points: 17, scale: scale)
        for (i, row) in rows.enumerated() {
            let f = frame(i).scaled(by: scale)
            Draw.fillRoundedRect(image, x: f.minX, y: f.minY, width: f.width, height: f.height, radius: 0,
                                 color: Color(rgb: row.rgb))
            font?.draw(row.name, into: image, x: Int(16 * scale), baseline: Int(f.midY) + Int(6 * scale),
                       color: .white)
        }
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case let .press(p): pressed = row(at: p)
        case let .release(p): if let i = pressed, row(at: p) == i { onTap(i, now) }; pressed = nil
        case .cancel: pressed = nil
        case .key(.activate): onTap(0, now)
        case let .activate(id): guard let i = Int(id), rows.indices.contains(i) else { return false }; onTap(i, now)
        default: return false
        }
        return true
    }
}

let rows = Rows([("Red", 0xC0392B), ("Green", 0x1E8449), ("Blue", 0x1F4E99)])
do {
    let window = try PresentationWindow(content: rows, style: .named("bottom-sheet", options: ["detents": "0.5,0.9"]),
                                        options: PresentationWindowOptions(title: "Colours", appID: "modalkit.colour-rows"))
    window.host.onStateChange = { print($0.rawValue); fflush(stdout) }
    window.host.onInteraction = { print($0.logLine); fflush(stdout) }
    rows.onTap = { i, now in window.present(Rows([rows.rows[i]], rowHeight: 200), now: now) }
    try window.run()
} catch {
    FileHandle.standardError.write(Data("colour-rows: \(error)\n".utf8))
    exit(1)
}
