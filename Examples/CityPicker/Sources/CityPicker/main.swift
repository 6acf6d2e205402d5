import Foundation
import ModalKitContent
import ModalKitWayland

/// The window: the last choice over two buttons (Return: the first), made of ModalKitContent's pieces.
final class Root: PresentationContent {
    let buttons = [Button("Choose a city", appearance: .suggested), Button("Delete file…", appearance: .destructive)]
    var status = Label("No city chosen", alignment: .center) { didSet { invalidation = .all } }
    var onTap: (_ button: Int, _ now: Double) -> Void = { _, _ in }
    private(set) var invalidation = ContentInvalidation.all
    private var size = Size.zero, pressed: Int?
    var frames: [Rect] { VStack(spacing: 12).frames(heights: [24, 44, 44], in: Rect(x: size.width / 2 - 120, y: size.height / 2 - 60, width: 240, height: 0)) }
    func didLayout(size: Size) { self.size = size; invalidation = .all }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: Color(rgb: 0xF6F5F4))
        status.draw(into: image, frame: frames[0], scale: scale)
        for i in 0..<2 { buttons[i].draw(into: image, frame: frames[i + 1], scale: scale, isPressed: pressed == i) }
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case let .press(p): pressed = [0, 1].first { frames[$0 + 1].contains(p) }
        case let .release(p): if let i = pressed, frames[i + 1].contains(p) { onTap(i, now) }; pressed = nil
        case .cancel: pressed = nil
        case .key(.activate): onTap(0, now)
        case let .activate(id): onTap(Int(id) ?? 0, now)
        default: return false
        }
        invalidation = .all
        return true
    }
    var accessibilityElement: AccessibilityElement? {
        AccessibilityElement(identifier: "root", role: .group, label: status.text, children: [0, 1].map {
            buttons[$0].accessibilityElement(identifier: "\($0)", frame: frames[$0 + 1], isFocused: false) })
    }
}

let cities = ["Amsterdam", "Athens", "Bangkok", "Barcelona", "Beijing 北京", "Berlin", "Bogotá", "Buenos Aires", "القاهرة", "Cape Town",
              "Delhi दिल्ली", "Dubai دبي", "Dublin", "Hanoi", "Helsinki", "Istanbul", "Jerusalem ירושלים", "Kraków", "🇺🇦 Kyiv", "Lagos",
              "Lima", "Lisbon", "London", "Madrid", "Mexico City", "Montréal", "Moscow Москва", "Mumbai", "Nairobi", "New York",
              "Oslo", "Paris", "Reykjavík", "Rome", "São Paulo", "서울", "Sydney", "Tehran تهران", "東京", "Zürich"]
let root = Root(), sheet: StyleChoice = .named("bottom-sheet", options: ["detents": "0.5,0.9"])
do {
    let window = try PresentationWindow(content: root, style: sheet, options: .init(title: "Cities", appID: "modalkit.city-picker"))
    let styles = [try sheet.makeStyle(), try StyleChoice.named("alert").makeStyle()]
    window.host.onStateChange = { print($0.rawValue); fflush(stdout) }   // presenting, presented, dismissing, dismissed
    root.onTap = { button, now in
        let list = List(rows: cities.map { ListRow($0) }, title: "Cities")
        let alert = Alert(title: "Delete file?", message: "It will be deleted permanently.", responses: [Response("cancel", label: "Cancel"),
            Response("delete", label: "Delete", appearance: .destructive)], defaultResponse: "delete", closeResponse: "cancel")
        list.onChoose = { row, now in print("selected \(cities[row])"); fflush(stdout); root.status.text = cities[row]; window.dismiss(now: now) }
        alert.onResponse = { response, _ in print("response \(response)"); fflush(stdout) }
        alert.dismiss = { window.dismiss(now: $0) }
        window.present(button == 0 ? list : alert, style: styles[button], now: now)
    }
    try window.run()
} catch { FileHandle.standardError.write(Data("city-picker: \(error)\n".utf8)); exit(1) }
