import Foundation
import ModalKit
import WaylandClient

/// A content of one colour that reports taps (press + release on it) through `onTap`.
final class ColourView: PresentationContent {
    let colour: Color
    let name: String
    var onTap: (Double) -> Void = { _ in }
    private(set) var invalidation: ContentInvalidation = .all
    private var size = Size.zero
    private var pressed = false
    init(_ colour: Color, name: String) { self.colour = colour; self.name = name }

    /// What a screen reader says: one button named `name` (presented, the card is a dialog so named).
    var accessibilityElement: AccessibilityElement? {
        AccessibilityElement(identifier: "root", role: .group, label: name,
                             children: [.button("tap", label: name, frame: Rect(size: size), isFocused: true)])
    }

    func didLayout(size: Size) { self.size = size }
    func draw(into image: OpaquePointer, size: Size, scale: Double) {
        let px = Draw.pixelSize(of: image)
        Draw.fill(image, width: px.width, height: px.height, color: colour)
        invalidation = .none
    }
    func handle(_ input: ContentInput, now: Double) -> Bool {
        switch input {
        case .press: pressed = true
        case let .release(p):
            if pressed && Rect(size: size).contains(p) { onTap(now) }
            pressed = false
        case .cancel: pressed = false
        case .key(.activate), .activate: onTap(now)   // Return, or a screen reader's "click"
        default: return false
        }
        return true
    }
}

/// The window: its content presents a card through the host.
final class App: WindowDelegate {
    let host: PresentationHost
    let card = ColourView(Color(rgb: 0xFF8C00), name: "Orange card")

    init(style: PresentationStyle) {
        let root = ColourView(Color(rgb: 0x1E40AF), name: "Present the card")
        host = PresentationHost(style: style, presenting: root)
        host.onStateChange = { print($0.rawValue); fflush(stdout) }
        root.onTap = { [unowned self] now in host.present(card, now: now) }
    }

    func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {
        host.layout(containerSize: Size(width: Double(width), height: Double(height)), scale: scale)
        print("configure \(width)x\(height)"); fflush(stdout)
        window.setNeedsRedraw()
    }

    func window(_ window: Window, draw target: DrawTarget, damage: inout [BufferRect]) {
        let buffer = PixelBuffer(data: target.data, width: target.width, height: target.height, stride: target.stride)
        for r in host.render(into: buffer, now: target.time, bufferAge: target.age) {
            damage.append(BufferRect(x: r.x, y: r.y, width: r.width, height: r.height))
        }
        if host.isAnimating { window.setNeedsRedraw() }
        if !damage.isEmpty { print("frame"); fflush(stdout) }
    }

    func windowDidRequestClose(_ window: Window) { window.close() }

    func window(_ window: Window, pointer frame: PointerFrame) {
        for event in frame.events {
            switch event.kind {
            case let .enter(x, y), let .motion(x, y): host.handle(.pointerMotion(Point(x: x, y: y)), now: monotonicSeconds())
            case .leave: host.handle(.pointerLeave, now: monotonicSeconds())
            case let .button(code, pressed) where code == 0x110: host.handle(.pointerButton(pressed: pressed), now: monotonicSeconds())
            default: break
            }
        }
        if host.needsRedraw { window.setNeedsRedraw() }
    }

    func window(_ window: Window, key event: KeyEvent) {
        let keys: [UInt32: PresentationKey] = [0xff1b: .escape, 0xff0d: .activate, 0x20: .activate]  // XKB keysyms
        guard !event.isRepeat, let key = keys[event.keysym] else { return }
        host.handle(.key(key, pressed: event.pressed), now: monotonicSeconds())
        if host.needsRedraw { window.setNeedsRedraw() }
    }
}

do {
    let name = CommandLine.arguments.dropFirst().first ?? "inset-centered"
    let style = try StyleLoader(searchPath: StyleLoader.defaultSearchPath()).load(name).makeStyle()
    let app = App(style: style)
    let connection = try WaylandConnection()
    let window = try Window(connection: connection, options: WindowOptions(title: "HostApp", appID: "modalkit.host-app"),
                            delegate: app)
    try connection.run()
    withExtendedLifetime(window) {}
} catch {
    FileHandle.standardError.write(Data("host-app: \(error)\n".utf8))
    exit(1)
}
