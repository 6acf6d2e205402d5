import CModalKitWaylandClient
import CModalKitWaylandProtocols
import Glibc

/// Which of the two selections: the clipboard (`wl_data_device`) or the primary selection
/// (`zwp_primary_selection_device_v1`: selecting copies, a middle click pastes).
public enum SelectionKind: Hashable, Sendable {
    /// The clipboard: `wl_data_device`'s selection (Ctrl+C, Ctrl+V).
    case clipboard
    /// The primary selection: `zwp_primary_selection_device_v1`'s (select, middle click).
    case primary

    /// Its name in messages.
    var name: String { self == .clipboard ? "clipboard" : "primary selection" }
}

/// The MIME types a text selection is offered as, and read by (most wanted first): UTF-8 text by
/// its MIME name and by the X11 target names that XWayland and older clients use.
enum TextMimeTypes {
    /// What this client offers (`text/plain;charset=utf-8`, `UTF8_STRING`, `TEXT`, `text/plain`).
    static let offered = ["text/plain;charset=utf-8", "UTF8_STRING", "TEXT", "text/plain"]
    /// What this client reads, in order of preference.
    static let accepted = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    /// The type to ask an offer of `types` for (nil: no text).
    static func best(of types: [String]) -> String? { accepted.first { types.contains($0) } }
}

/// The selection managers of a connection (`wl_data_device_manager`, and
/// `zwp_primary_selection_device_manager_v1` where offered). Owns their proxies.
final class SelectionManager {
    let kind: SelectionKind
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display

    init(kind: SelectionKind, proxy: OpaquePointer, display: Display) {
        self.kind = kind
        self.proxy = proxy
        self.display = display
    }

    deinit {
        switch kind {
        case .clipboard: wl_data_device_manager_destroy(proxy)   // no destructor request before v3: a proxy destroy
        case .primary: zwp_primary_selection_device_manager_v1_destroy(proxy)
        }
    }
}

/// A `wl_data_offer` / `zwp_primary_selection_offer_v1` the compositor introduced: its MIME types.
/// Owns its proxy.
final class SelectionOffer {
    let kind: SelectionKind
    let proxy: OpaquePointer
    let display: Display
    private(set) var mimeTypes: [String] = []

    init(kind: SelectionKind, proxy: OpaquePointer, display: Display) {
        self.kind = kind
        self.proxy = proxy
        self.display = display
        switch kind {
        case .clipboard: wl_data_offer_add_listener(proxy, SelectionOffer.dataListener, userData(self))
        case .primary: zwp_primary_selection_offer_v1_add_listener(proxy, SelectionOffer.primaryListener, userData(self))
        }
    }

    deinit {
        switch kind {
        case .clipboard: wl_data_offer_destroy(proxy)
        case .primary: zwp_primary_selection_offer_v1_destroy(proxy)
        }
    }

    /// `receive(mime, fd)`: the owner writes the data to `fd` (libwayland sends a duplicate; the
    /// caller closes its own).
    func receive(_ mime: String, fd: Int32) {
        switch kind {
        case .clipboard: wl_data_offer_receive(proxy, mime, fd)
        case .primary: zwp_primary_selection_offer_v1_receive(proxy, mime, fd)
        }
    }

    private func offered(_ mime: UnsafePointer<CChar>?) {
        guard let mime, mimeTypes.count < 64 else { return }
        mimeTypes.append(String(cString: mime))
    }

    private static let dataListener = listenerTable(wl_data_offer_listener(
        offer: { data, _, mime in owner(data, as: SelectionOffer.self).offered(mime) },
        source_actions: { _, _, _ in },
        action: { _, _, _ in }))
    private static let primaryListener = listenerTable(zwp_primary_selection_offer_v1_listener(
        offer: { data, _, mime in owner(data, as: SelectionOffer.self).offered(mime) }))
}

/// A selection this client owns (`wl_data_source` / `zwp_primary_selection_source_v1`): text
/// offered as ``TextMimeTypes/offered``; each `send` is served by a ``SelectionWriter`` on the
/// loop; `cancelled` (another client took the selection) ends it. Owns its proxy.
final class SelectionSource {
    let kind: SelectionKind
    let proxy: OpaquePointer
    let display: Display
    let bytes: [UInt8]
    private weak var connection: WaylandConnection?
    /// Called once, at `cancelled`.
    var onCancelled: ((SelectionSource) -> Void)?

    init(manager: SelectionManager, text: String, connection: WaylandConnection) {
        kind = manager.kind
        display = manager.display
        bytes = Array(text.utf8)
        self.connection = connection
        switch kind {
        case .clipboard:
            proxy = wl_data_device_manager_create_data_source(manager.proxy)
            wl_data_source_add_listener(proxy, SelectionSource.dataListener, userData(self))
            for mime in TextMimeTypes.offered { wl_data_source_offer(proxy, mime) }
        case .primary:
            proxy = zwp_primary_selection_device_manager_v1_create_source(manager.proxy)
            zwp_primary_selection_source_v1_add_listener(proxy, SelectionSource.primaryListener, userData(self))
            for mime in TextMimeTypes.offered { zwp_primary_selection_source_v1_offer(proxy, mime) }
        }
    }

    deinit {
        switch kind {
        case .clipboard: wl_data_source_destroy(proxy)
        case .primary: zwp_primary_selection_source_v1_destroy(proxy)
        }
    }

    private func send(fd: Int32) {
        guard let connection else { close(fd); return }
        _ = SelectionWriter(fd: fd, bytes: bytes, connection: connection)
    }

    private func cancelled() {
        let handler = onCancelled
        onCancelled = nil
        handler?(self)
    }

    private static let dataListener = listenerTable(wl_data_source_listener(
        target: { _, _, _ in },
        send: { data, _, _, fd in owner(data, as: SelectionSource.self).send(fd: fd) },
        cancelled: { data, _ in withOwner(data, as: SelectionSource.self) { $0.cancelled() } },
        dnd_drop_performed: { _, _ in },
        dnd_finished: { _, _ in },
        action: { _, _, _ in }))
    private static let primaryListener = listenerTable(zwp_primary_selection_source_v1_listener(
        send: { data, _, _, fd in owner(data, as: SelectionSource.self).send(fd: fd) },
        cancelled: { data, _ in withOwner(data, as: SelectionSource.self) { $0.cancelled() } }))
}

/// A seat's `wl_data_device` or `zwp_primary_selection_device_v1`: the offer that is the
/// selection now (`selection` names one introduced by `data_offer`, or none), drag-and-drop offers
/// dropped at `leave` (this client accepts no drops), and the sources it owns until `cancelled`.
/// Owns its proxy (`release` on data device v2+, else destroy) and its offers and sources.
final class SelectionDevice {
    let kind: SelectionKind
    let proxy: OpaquePointer
    let display: Display
    private let manager: SelectionManager
    private weak var connection: WaylandConnection?
    /// The offer introduced last and not yet claimed by `selection` or `enter`.
    private var introduced: SelectionOffer?
    /// The current selection's offer (nil: none, or this client's own).
    private(set) var selection: SelectionOffer?
    private var dragOffer: SelectionOffer?
    /// The sources this client owns (the newest is the selection while not cancelled).
    private var sources: [SelectionSource] = []

    init(manager: SelectionManager, seat: OpaquePointer, connection: WaylandConnection) {
        kind = manager.kind
        display = manager.display
        self.manager = manager
        self.connection = connection
        switch kind {
        case .clipboard:
            proxy = wl_data_device_manager_get_data_device(manager.proxy, seat)
            wl_data_device_add_listener(proxy, SelectionDevice.dataListener, userData(self))
        case .primary:
            proxy = zwp_primary_selection_device_manager_v1_get_device(manager.proxy, seat)
            zwp_primary_selection_device_v1_add_listener(proxy, SelectionDevice.primaryListener, userData(self))
        }
    }

    deinit {
        introduced = nil
        selection = nil
        dragOffer = nil
        sources.removeAll()
        switch kind {
        case .clipboard:
            if wl_proxy_get_version(proxy) >= 2 { wl_data_device_release(proxy) } else { wl_data_device_destroy(proxy) }
        case .primary: zwp_primary_selection_device_v1_destroy(proxy)
        }
    }

    /// Makes `text` the selection (`set_selection` with `serial`, the serial of the input event
    /// that asked for it).
    func offer(_ text: String, serial: UInt32) {
        guard let connection else { return }
        let source = SelectionSource(manager: manager, text: text, connection: connection)
        source.onCancelled = { [weak self] source in self?.sources.removeAll { $0 === source } }
        sources.append(source)
        switch kind {
        case .clipboard: wl_data_device_set_selection(proxy, source.proxy, serial)
        case .primary: zwp_primary_selection_device_v1_set_selection(proxy, source.proxy, serial)
        }
    }

    /// Reads the selection's text on the loop (``SelectionReader``); `completion` runs later, with
    /// nil when there is no selection or it has no text type. The client's own selection is
    /// read through the compositor like any other.
    func requestText(completion: @escaping (String?) -> Void) {
        guard let connection else { return }
        guard let offer = selection, let mime = TextMimeTypes.best(of: offer.mimeTypes) else {
            _ = SelectionReader(fd: nil, what: kind.name, connection: connection, completion: completion)
            return
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            fputs("warning: cannot read the \(kind.name): pipe: \(errnoDescription())\n", stderr)
            _ = SelectionReader(fd: nil, what: kind.name, connection: connection, completion: completion)
            return
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        offer.receive(mime, fd: fds[1])
        close(fds[1])   // libwayland sent its own duplicate
        _ = SelectionReader(fd: fds[0], what: kind.name, connection: connection, completion: completion)
    }

    private func dataOffer(_ proxy: OpaquePointer?) {
        guard let proxy else { return }
        introduced = SelectionOffer(kind: kind, proxy: proxy, display: display)
    }

    private func selectionChanged(_ proxy: OpaquePointer?) {
        if let introduced, introduced.proxy == proxy {
            selection = introduced
        } else {
            selection = nil
        }
        introduced = nil
    }

    private static let dataListener = listenerTable(wl_data_device_listener(
        data_offer: { data, _, offer in owner(data, as: SelectionDevice.self).dataOffer(offer) },
        enter: { data, _, _, _, _, _, offer in
            let device = owner(data, as: SelectionDevice.self)
            device.dragOffer = device.introduced?.proxy == offer ? device.introduced : nil
            device.introduced = nil
        },
        leave: { data, _ in owner(data, as: SelectionDevice.self).dragOffer = nil },
        motion: { _, _, _, _, _ in },
        drop: { _, _ in },
        selection: { data, _, offer in owner(data, as: SelectionDevice.self).selectionChanged(offer) }))
    private static let primaryListener = listenerTable(zwp_primary_selection_device_v1_listener(
        data_offer: { data, _, offer in owner(data, as: SelectionDevice.self).dataOffer(offer) },
        selection: { data, _, offer in owner(data, as: SelectionDevice.self).selectionChanged(offer) }))
}
