import CModalKitWaylandClient

/// `wl_seat`: a group of input devices. Capabilities may appear and vanish at any time
/// (wl_seat.capabilities); the matching `wl_pointer`/`wl_keyboard`/`wl_touch` is created or
/// released accordingly. Owns its proxy and devices: `deinit` releases the devices, then sends
/// `release` (v5+) or destroys the seat.
final class Seat {
    let globalName: UInt32
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32
    /// Weak: devices are destroyed from the connection's `deinit`, when it can no longer be retained.
    private weak var connection: WaylandConnection?
    private(set) var pointer: Pointer?
    private(set) var keyboard: Keyboard?
    private(set) var touch: Touch?
    /// The seat's text input, clipboard and primary selection devices, made when the connection
    /// has the global (``globalsChanged()``).
    private(set) var textInput: TextInput?
    private(set) var clipboard: SelectionDevice?
    private(set) var primarySelection: SelectionDevice?

    init(globalName: UInt32, proxy: OpaquePointer, version: UInt32, display: Display, connection: WaylandConnection) {
        self.globalName = globalName
        self.proxy = proxy
        self.display = display
        self.version = version
        self.connection = connection
        wl_seat_add_listener(proxy, Seat.listener, userData(self))
        globalsChanged()
    }

    /// Makes the text input and selection devices whose managers the connection has bound and this
    /// seat lacks (requests only: nothing waits for the compositor).
    func globalsChanged() {
        guard let connection else { return }
        let seatID = SeatID(rawValue: globalName)
        if textInput == nil, let manager = connection.textInputManager {
            textInput = TextInput(manager: manager, seat: proxy, seatID: seatID, connection: connection)
        }
        if clipboard == nil, let manager = connection.dataDeviceManager {
            clipboard = SelectionDevice(manager: manager, seat: proxy, connection: connection)
        }
        if primarySelection == nil, let manager = connection.primarySelectionManager {
            primarySelection = SelectionDevice(manager: manager, seat: proxy, connection: connection)
        }
    }

    /// The serial of this seat's latest key or button event or keyboard `enter` (the newest of
    /// the two devices', serials compared modulo 2³²), nil when there was none.
    var latestInputSerial: UInt32? {
        switch (keyboard?.lastSerial, pointer?.lastButtonSerial) {
        case let (k?, p?): return Int32(bitPattern: k &- p) >= 0 ? k : p
        case let (k, p): return k ?? p
        }
    }

    /// The selection device for `kind` (nil: the compositor offers none).
    func selectionDevice(_ kind: SelectionKind) -> SelectionDevice? { kind == .clipboard ? clipboard : primarySelection }

    deinit {
        textInput = nil
        clipboard = nil
        primarySelection = nil
        pointer = nil
        keyboard = nil
        touch = nil
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    private func capabilities(_ caps: UInt32) {
        guard let connection else { return }
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        let seatID = SeatID(rawValue: globalName)
        if hasPointer, pointer == nil {
            pointer = Pointer(proxy: wl_seat_get_pointer(proxy), seat: proxy, seatID: seatID, display: display,
                              connection: connection)
        } else if !hasPointer {
            pointer = nil
        }
        if hasKeyboard, keyboard == nil {
            let keyboardProxy = wl_seat_get_keyboard(proxy)!
            keyboard = Keyboard(proxy: keyboardProxy, seatID: seatID, display: display, connection: connection)
            if keyboard == nil {   // no xkb context: keys cannot be interpreted
                if version >= 3 { wl_keyboard_release(keyboardProxy) } else { wl_keyboard_destroy(keyboardProxy) }
            }
        } else if !hasKeyboard {
            keyboard = nil
        }
        if hasTouch, touch == nil {
            touch = Touch(proxy: wl_seat_get_touch(proxy), seat: proxy, seatID: seatID, display: display,
                          connection: connection)
        } else if !hasTouch {
            touch = nil
        }
    }

    private static let listener = listenerTable(wl_seat_listener(
        capabilities: { data, _, caps in owner(data, as: Seat.self).capabilities(caps) },
        name: { _, _, _ in }))   // wl_seat.name (v2+): not used
}
