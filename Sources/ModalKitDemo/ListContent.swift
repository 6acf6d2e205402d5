import ModalKit
import ModalKitContent

/// `--content list`: the presented view as ModalKitContent's ``List`` of 40 rows, "Row 1" to
/// "Row 40", 44 pt each (UIKit's default table row height) in 20 pt text, on the card's white: the
/// wheel and the touchpad scroll it under the pointer, touch pans and — on a draggable sheet —
/// pointer drags scroll it by UIKit's sheet rule, with the host's deceleration after a finger
/// lifts. A tap on a row selects it. Page Down / Page Up, Home / End and Down / Up (one row:
/// ``List/arrowKeysScroll``) scroll it; Escape falls back to the host (dismiss).
enum ListView {
    static let rowCount = 40

    static func make() -> List {
        var look = ListAppearance()
        look.titleStyle = TextStyle(points: Double(FontSet.labelPoints), color: DemoLook.cardText)
        look.background = DemoLook.cardBackground
        let list = List(rows: (1...rowCount).map { ListRow("Row \($0)") }, title: "List", appearance: look)
        list.arrowKeysScroll = true
        return list
    }
}
