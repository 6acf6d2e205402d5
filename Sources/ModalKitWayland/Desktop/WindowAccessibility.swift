import ModalKit
import ModalKitATK
import ModalKitWaylandClient

/// A window's screen-reader support (AT-SPI, ``AccessibilityBridge``): started once the window's
/// first frame is committed — so launching never waits for the accessibility bus — fed by the host's
/// accessibility snapshots and the window's activation; a screen reader's requests go to `handle`,
/// the window's own input path. The accessibility bus is found and followed on the window's loop:
/// one that appears late or restarts is joined again; one that does not answer never holds up a
/// frame. No bus, or `NO_AT_BRIDGE=1`: nothing is loaded and nothing is said. Reported through
/// `warn`, one line each: a missing libModalKitATKBridge.so (an incomplete installation) and a bus
/// that does not answer within 5 s.
final class WindowAccessibility {
    private let host: PresentationHost
    private let configuration: AccessibilityBridge.Configuration
    private let handle: (PresentationInput) -> Void
    private let started: () -> Void
    private let warn: (String) -> Void
    private var bridge: AccessibilityBridge?
    private var attempted = false
    private var stopped = false

    /// - Parameters:
    ///   - handle: a request of assistive technology, handled as the window handles input.
    ///   - started: the bridge runs (a screen reader can see the window).
    ///   - warn: a one-line problem.
    init(host: PresentationHost, configuration: AccessibilityBridge.Configuration,
         handle: @escaping (PresentationInput) -> Void, started: @escaping () -> Void, warn: @escaping (String) -> Void) {
        self.host = host
        self.configuration = configuration
        self.handle = handle
        self.started = started
        self.warn = warn
    }

    /// A frame of `window` was committed: the first one starts the bridge (asking for the bus on the
    /// window's loop).
    func windowDidCommit(_ window: Window) {
        guard !attempted else { return }
        attempted = true
        AccessibilityBridge.start(
            host: host, connection: window.connection, configuration: configuration,
            isWindowActive: { [weak window] in window?.configuration?.states.contains(.activated) ?? false },
            onRequest: { [weak self] input in self?.handle(input) },
            onProblem: { [weak self] line in self?.warn(line) },
            completion: { [weak self] result in
                guard let self else {
                    if case let .success(b) = result { b.stop() }
                    return
                }
                switch result {
                case let .success(b):
                    guard !stopped else { return b.stop() }
                    bridge = b
                    started()
                case let .failure(.libraryUnavailable(reason)):
                    warn("accessibility: " + reason)
                case .failure:
                    break   // no bus, NO_AT_BRIDGE=1: nobody asked for a bridge
                }
            })
    }

    /// Stops the bridge (the window closed).
    func stop() {
        stopped = true
        if let bridge { bridge.stop() } else if attempted { AccessibilityBridge.cancel() }
        bridge = nil
    }
}
