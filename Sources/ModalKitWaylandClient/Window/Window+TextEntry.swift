/// Text entry on a window: the input method (text-input-v3), the pointer's cursor over the content,
/// and the clipboard and primary selection of the seat the user used last.
extension Window {
    /// Tells the input method of every seat whose text input is on this window what its focused
    /// field holds (nil: no text field has focus, the text input is disabled). Only what changed
    /// since the last `commit` is sent (``TextInputRequest``); nothing when it did not change.
    /// - Parameters:
    ///   - request: the focused field's state (surrounding text, caret and anchor in UTF-8 bytes,
    ///     content type, cursor rectangle in surface coordinates), or nil.
    ///   - cause: `.inputMethod` right after applying a ``TextInputEvent``; `.other` otherwise.
    public func setTextInput(_ request: TextInputRequest?, cause: TextChangeCause = .other) {
        guard !isClosed else { return }
        textInputRequest = request
        for seat in connection.seats {
            guard let input = seat.textInput, input.focus === self else { continue }
            input.update(request, cause: cause)
        }
    }

    /// Names the cursor the pointer shows over the window's content, most wanted first (libwayland-
    /// cursor theme names, e.g. `["xterm", "text"]`; empty: the arrow, `left_ptr`). Set again on
    /// the pointers over the content when it changed.
    public func setContentCursor(_ names: [String]) {
        guard !isClosed, names != contentCursor else { return }
        contentCursor = names
        for seat in connection.seats { seat.pointer?.contentCursorChanged(self) }
    }

    /// The seat whose selection the window uses: of the seats with keyboard or pointer focus on the
    /// window, the one with the newest input serial; else any seat with an input serial.
    private func selectionSeat(_ kind: SelectionKind) -> (seat: Seat, serial: UInt32)? {
        let candidates = connection.seats.compactMap { seat -> (Seat, UInt32)? in
            guard seat.selectionDevice(kind) != nil, let serial = seat.latestInputSerial else { return nil }
            return (seat, serial)
        }
        let focused = candidates.filter { $0.0.keyboard?.focus === self || $0.0.pointer?.focus === self }
        return (focused.isEmpty ? candidates : focused).max { Int32(bitPattern: $0.1 &- $1.1) < 0 }
    }

    /// Makes `text` the clipboard or the primary selection of the seat the user used last on this
    /// window (`set_selection` with that seat's latest key or button serial), offered as
    /// `text/plain;charset=utf-8`, `UTF8_STRING`, `TEXT` and `text/plain`.
    /// - Returns: false when it cannot be offered (the compositor has no such selection, or no input
    ///   event came yet).
    @discardableResult
    public func offerSelection(_ text: String, as kind: SelectionKind) -> Bool {
        guard !isClosed, let (seat, serial) = selectionSeat(kind), let device = seat.selectionDevice(kind) else { return false }
        device.offer(text, serial: serial)
        return true
    }

    /// Reads the text of the clipboard or primary selection (of the seat with keyboard focus on the
    /// window, else the one used last) without blocking: `completion` runs later on the loop's
    /// thread with the text (invalid UTF-8 repaired, at most 16 MiB) or nil (none, no text type,
    /// or the read failed).
    public func requestSelectionText(_ kind: SelectionKind, completion: @escaping (String?) -> Void) {
        let keyboardSeat = connection.seats.first { $0.keyboard?.focus === self && $0.selectionDevice(kind) != nil }
        guard !isClosed, let device = (keyboardSeat ?? selectionSeat(kind)?.seat)?.selectionDevice(kind) else {
            _ = SelectionReader(fd: nil, what: kind.name, connection: connection, completion: completion)
            return
        }
        device.requestText(completion: completion)
    }
}
