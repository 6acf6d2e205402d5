import ModalKit
import ModalKitWaylandClient

/// The window driver's part that backs ``Pasteboard/general`` with the window's seats: the
/// clipboard through `wl_data_device`, the primary selection through
/// `zwp_primary_selection_device_v1` (where the compositor offers it), set with the serial of
/// the latest key or button event and read on the event loop (`Window.requestSelectionText`).
/// Installed while the window is open (``install()``, ``uninstall()``).
final class ClipboardBridge: PasteboardBackend {
    private let window: Window
    /// Text offered while the compositor could not take it (no input event yet, or no primary
    /// selection): read back from here, as in a process without a platform backend.
    private var local: [PasteboardSelection: String] = [:]

    /// Runs after each read's completion (the content has taken the text: redraw, tell the input method).
    private let afterRead: () -> Void

    init(window: Window, afterRead: @escaping () -> Void) {
        self.window = window
        self.afterRead = afterRead
    }

    private static func kind(_ selection: PasteboardSelection) -> SelectionKind {
        selection == .clipboard ? .clipboard : .primary
    }

    /// Makes this bridge the process's pasteboard backend.
    func install() { Pasteboard.general.backend = self }

    /// Removes it, if it is still the backend.
    func uninstall() {
        if Pasteboard.general.backend === self { Pasteboard.general.backend = nil }
    }

    func offer(_ text: String, as selection: PasteboardSelection) {
        if window.offerSelection(text, as: Self.kind(selection)) {
            local[selection] = nil
        } else {
            local[selection] = text
        }
    }

    func requestText(from selection: PasteboardSelection, completion: @escaping (String?) -> Void) {
        let kept = local[selection]
        window.requestSelectionText(Self.kind(selection)) { [afterRead] text in
            completion(text ?? kept)
            afterRead()
        }
    }
}
