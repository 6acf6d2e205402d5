import CModalKitWaylandClient
import CModalKitWaylandProtocols
import Glibc

/// The event loop of a ``WaylandConnection``: one `poll` over the display, fd watches and sources.
extension WaylandConnection {
    /// Runs the event loop until every window on this connection has been closed
    /// (``Window/close()``); returns at once when there is none.
    ///
    /// One iteration: dispatch queued events; let each window draw if it must (at most one frame
    /// per window, see ``Window/setNeedsRedraw()``); `wl_display_prepare_read`; flush (waiting for
    /// `POLLOUT` when the socket is full); prepare every ``EventLoopSource`` (``addSource(_:)``);
    /// sleep in one `poll` on the display fd, the key-repeat timers, every
    /// ``watch(fd:events:onReady:)`` and the sources' descriptors, at most as long as the sources
    /// allow; read and dispatch, run the handlers of the watches that are ready, then dispatch the
    /// sources. With nothing to draw and no source asking for a timeout nothing wakes the process.
    ///
    /// - Throws: ``WaylandError/connectionLost(_:)`` when the compositor goes away,
    ///   ``WaylandError/protocolError(interface:objectID:code:message:)`` when it reported an
    ///   error, ``WaylandError/bufferAllocation(_:)`` when a buffer cannot be made. After a throw
    ///   the connection is dead; its windows can only be dropped.
    public func run() throws {
        if let failure { throw failure }
        do {
            try loop()
        } catch let error as WaylandError {
            failure = error
            throw error
        }
    }


    private func loop() throws {
        var wantWrite = false
        while true {
            try dispatchPending()
            // Straight over the weak entries, not `liveWindows`: this runs once per frame while
            // animating, and a frame allocates nothing.
            for entry in windows { try entry.window?.update() }
            if !windows.contains(where: { $0.window.map { !$0.isClosed } ?? false }) {
                _ = wl_display_flush(display.pointer)   // the close's destroy requests
                return
            }
            // Events queued meanwhile (e.g. by a roundtrip inside a delegate): dispatch them first.
            guard wl_display_prepare_read(display.pointer) == 0 else { continue }
            if wl_display_flush(display.pointer) < 0 {
                if errno == EAGAIN {
                    wantWrite = true   // socket buffer full: wait until it drains, then flush again
                } else {
                    let code = errno
                    wl_display_cancel_read(display.pointer)
                    throw currentError(fallback: code)
                }
            } else {
                wantWrite = false
            }
            // One pollfd array for the connection's life, refilled in place: an animating window
            // goes through this loop once per frame, and a frame allocates nothing.
            pollFDs.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wl_display_get_fd(display.pointer),
                                  events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0))
            pollOwners.removeAll(keepingCapacity: true)
            for w in watches where !w.events.isEmpty {
                pollFDs.append(pollfd(fd: w.fd, events: w.events.pollEvents, revents: 0))
                pollOwners.append(w)
            }
            let timeout = sources.prepare(appendingTo: &pollFDs)
            if poll(&pollFDs, nfds_t(pollFDs.count), timeout) < 0 {
                let code = errno
                wl_display_cancel_read(display.pointer)
                if code == EINTR {
                    sources.dispatch(nil)   // every prepare gets its dispatch (nothing is ready)
                    continue
                }
                throw WaylandError.connectionLost("poll: \(errnoDescription(code))")
            }
            let revents = Int32(pollFDs[0].revents)
            if revents & Int32(POLLIN) != 0 {
                if wl_display_read_events(display.pointer) < 0 { throw currentError(fallback: errno) }
            } else {
                wl_display_cancel_read(display.pointer)
                if revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    throw currentError(fallback: EPIPE)
                }
            }
            // Watches after the display: their handlers run with up-to-date focus and keymap. A
            // handler may add or remove watches; one removed meanwhile is not called.
            for i in pollOwners.indices where pollFDs[i + 1].revents != 0 {
                let w = pollOwners[i]
                guard w.isActive else { continue }
                let ready = FDEvents(pollEvents: pollFDs[i + 1].revents)
                if !ready.isDisjoint(with: [.error, .hangup, .invalid]) {
                    // poll(2) reports these whether asked or not: a watch left in place would wake
                    // the loop forever, so it ends here (after its handler has seen why).
                    removeWatch(w)
                }
                w.onReady(ready)
            }
            sources.dispatch(pollFDs)
        }
    }


    /// Sends all requests and waits until the compositor has processed them (and every event they
    /// caused has been dispatched). The corresponding C function is `wl_display_roundtrip`.
    /// - Throws: as ``run()``.
    public func roundtrip() throws {
        if let failure { throw failure }
        if wl_display_roundtrip(display.pointer) < 0 {
            let error = currentError(fallback: errno)
            failure = error
            throw error
        }
    }

    func dispatchPending() throws {
        if wl_display_dispatch_pending(display.pointer) < 0 { throw currentError(fallback: errno) }
    }

    /// Maps the display's error state to a ``WaylandError``.
    func currentError(fallback: Int32) -> WaylandError {
        let code = wl_display_get_error(display.pointer)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var objectID: UInt32 = 0
            let errorCode = wl_display_get_protocol_error(display.pointer, &interface, &objectID)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            // libwayland logged "iface@id: error N: text"; keep the text.
            var message = LibwaylandLog.lastMessage
            if let range = message.rangeOfText(": error \(errorCode): ") {
                message = String(message[range.upperBound...])
            }
            return .protocolError(interface: name, objectID: objectID, code: errorCode, message: message)
        }
        let errnoCode = code != 0 ? code : (fallback != 0 ? fallback : EPIPE)
        return .connectionLost(errnoDescription(errnoCode))
    }

    /// Watches `fd` for reading in ``run()``; `handler` runs when it is readable.
    func addReadSource(fd: Int32, handler: @escaping () -> Void) {
        _ = watch(fd: fd, events: .readable) { _ in handler() }
    }

    func removeReadSource(fd: Int32) {
        for w in watches where w.fd == fd { removeWatch(w) }
    }

    /// Polls `fd` in ``run()``'s loop alongside the display: whenever it is ready for one of
    /// `events`, `onReady` runs on the loop's thread (after the Wayland events read in the same
    /// wake-up have been dispatched) with what `poll(2)` reported. Use it to drive another event
    /// source (a D-Bus connection, a timerfd) from the same loop without threads.
    ///
    /// The watch stays until ``removeWatch(_:)``, except that one whose fd reports an error, a
    /// hang-up or is invalid (`POLLERR`, `POLLHUP`, `POLLNVAL`) is removed just before its handler
    /// sees that (poll would report it again at once, forever). Set ``FDWatch/events`` to pause
    /// (empty) or change what it waits for. The fd stays the caller's: it is never closed here.
    /// - Returns: the watch, to change or remove it.
    @discardableResult
    public func watch(fd: Int32, events: FDEvents = .readable, onReady: @escaping (FDEvents) -> Void) -> FDWatch {
        let w = FDWatch(fd: fd, events: events, onReady: onReady)
        watches.append(w)
        return w
    }

    /// Stops polling `watch`'s fd (its handler is not called again). Removing twice does nothing.
    public func removeWatch(_ watch: FDWatch) {
        watch.isActive = false
        watches.removeAll { $0 === watch }
    }

    /// Drives `source` from ``run()``'s loop (``EventLoopSource``): prepared before every sleep
    /// from the next iteration on, dispatched after it. The connection keeps the source until
    /// ``removeSource(_:)``; adding one already added does nothing.
    public func addSource(_ source: EventLoopSource) {
        sources.add(source)
    }

    /// Stops driving `source`: it is not prepared again, and not dispatched even when it was
    /// prepared for the sleep in progress. Removing one not added does nothing.
    public func removeSource(_ source: EventLoopSource) {
        sources.remove(source)
    }
}


/// What a watched file descriptor is ready for, or waits for (`poll(2)` events).
public struct FDEvents: OptionSet, Hashable, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }
    /// `POLLIN`: data to read (or a peer that closed: reading returns 0).
    public static let readable = FDEvents(rawValue: Int16(POLLIN))
    /// `POLLOUT`: writing will not block.
    public static let writable = FDEvents(rawValue: Int16(POLLOUT))
    /// `POLLERR` (reported only, never waited for).
    public static let error = FDEvents(rawValue: Int16(POLLERR))
    /// `POLLHUP`: the peer hung up (reported only).
    public static let hangup = FDEvents(rawValue: Int16(POLLHUP))
    /// `POLLNVAL`: the fd is not open (reported only).
    public static let invalid = FDEvents(rawValue: Int16(POLLNVAL))

    var pollEvents: Int16 { rawValue & Int16(POLLIN | POLLOUT) }
    init(pollEvents: Int16) { self.init(rawValue: pollEvents & Int16(POLLIN | POLLOUT | POLLERR | POLLHUP | POLLNVAL)) }
}

/// A file descriptor polled by a ``WaylandConnection``'s event loop
/// (``WaylandConnection/watch(fd:events:onReady:)``).
public final class FDWatch {
    /// The watched file descriptor (not owned).
    public let fd: Int32
    /// What to wait for, `.readable` and/or `.writable`; empty = not polled for now.
    public var events: FDEvents
    /// False once removed.
    public internal(set) var isActive = true
    let onReady: (FDEvents) -> Void

    init(fd: Int32, events: FDEvents, onReady: @escaping (FDEvents) -> Void) {
        self.fd = fd
        self.events = events.intersection([.readable, .writable])
        self.onReady = onReady
    }
}
