import Foundation
import ModalKitWayland

/// A field of one colour, named for screen readers, that runs `onTap` when clicked or activated
/// (with the input event's time).
final class Swatch: PresentationContent {
    let colour: Color, name: String; var onTap: (_ now: Double) -> Void = { _ in }
    private(set) var invalidation = ContentInvalidation.all
    private var size = Size.zero, pressed = false
    init(_ colour: UInt32, _ name: String) { self.colour = Color(rgb: colour); self.name = name }

    var accessibilityElement: AccessibilityElement? {
        AccessibilityElement(identifier: "root", role: .group, label: name,
                             children: [.button("tap", label: name, frame: Rect(size: size), isFocused: true)])
    }
    func didLayout(size: Size) { self.size = size }
    func preferredContentSize(fittingWidth width: Double) -> Size? { Size(width: width, height: 160) }  // for content-sized styles
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: colour)
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case .press: pressed = true
        case let .release(p): if pressed && Rect(size: size).contains(p) { onTap(now) }; pressed = false
        case .cancel: pressed = false
        case .key(.activate), .activate: onTap(now)   // Return or space, or a screen reader's "click"
        default: return false
        }
        return true
    }
}

let root = Swatch(0x1E40AF, "Present the card"), card = Swatch(0xFF8C00, "Orange card")
do {
    let window = try PresentationWindow(content: root, style: .named(CommandLine.arguments.dropFirst().first ?? "inset-centered"),
                                        options: PresentationWindowOptions(title: "HostApp", appID: "modalkit.host-app"))
    window.host.onStateChange = { print($0.rawValue); fflush(stdout) }
    window.onFrame = { _ in print("frame"); fflush(stdout) }
    root.onTap = { now in window.present(card, now: now) }
    try window.run()
} catch {
    FileHandle.standardError.write(Data("host-app: \(error)\n".utf8))
    exit(1)
}
