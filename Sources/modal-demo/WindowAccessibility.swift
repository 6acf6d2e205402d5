import ModalKit
import ModalKitATK
import WaylandClient

/// A window's screen-reader support (AT-SPI, ``AccessibilityBridge``): starts the bridge once the
/// window's first frame is committed — so launching never waits for the accessibility bus — fed by
/// the host's accessibility snapshots and the window's activation; a screen reader's requests go
/// to `handle`, the window's own input path. No bus, or `NO_AT_BRIDGE=1`: nothing is loaded and
/// nothing is said. Only a missing libModalKitATKBridge.so (an incomplete installation) is one
/// line on stderr.
final class WindowAccessibility {
    private let host: PresentationHost
    private let configuration: AccessibilityBridge.Configuration
    private let handle: (PresentationInput) -> Void
    private let log: (String) -> Void
    private let warn: (String) -> Void
    private var bridge: AccessibilityBridge?
    private var attempted = false

    /// - Parameters:
    ///   - handle: a request of assistive technology, handled as the window handles input (and
    ///     followed by a redraw when it changed something).
    ///   - log: `--log-events` lines (`accessibility on` once the bridge runs).
    ///   - warn: a one-line problem for stderr.
    init(host: PresentationHost, configuration: AccessibilityBridge.Configuration,
         handle: @escaping (PresentationInput) -> Void, log: @escaping (String) -> Void,
         warn: @escaping (String) -> Void) {
        self.host = host
        self.configuration = configuration
        self.handle = handle
        self.log = log
        self.warn = warn
    }

    /// A frame of `window` was committed: the first one starts the bridge.
    func windowDidCommit(_ window: Window) {
        guard !attempted else { return }
        attempted = true
        let result = AccessibilityBridge.start(
            host: host, connection: window.connection, configuration: configuration,
            isWindowActive: { [weak window] in window?.configuration?.states.contains(.activated) ?? false },
            onRequest: { [weak self] input in self?.handle(input) })
        switch result {
        case let .success(b):
            bridge = b
            log("accessibility on")
        case let .failure(.libraryUnavailable(reason)):
            warn("accessibility: " + reason)
        case .failure:
            break   // no bus, NO_AT_BRIDGE=1: nobody asked for a bridge
        }
    }

    /// Stops the bridge (the window closed).
    func stop() {
        bridge?.stop()
        bridge = nil
    }
}
