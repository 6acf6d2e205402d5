import CModalKitWaylandClient
import CModalKitWaylandProtocols
import Glibc

/// `wp_presentation` (presentation-time, stable; optional): feedback on when a commit's content
/// turned into light. Bound when offered; its `clock_id` says which clock the times are on.
/// Owns its proxy.
final class PresentationTime {
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    /// `wp_presentation.clock_id`: the clock of every presented time (sway and weston use
    /// `CLOCK_MONOTONIC`, the clock of ``monotonicSeconds()``).
    private(set) var clockID: UInt32 = UInt32(CLOCK_MONOTONIC)

    init(proxy: OpaquePointer, display: Display) {
        self.proxy = proxy
        self.display = display
        wp_presentation_add_listener(proxy, PresentationTime.listener, userData(self))
    }

    deinit { wp_presentation_destroy(proxy) }

    /// Asks for the feedback of `surface`'s next commit (request it just before that commit).
    func feedback(for surface: Surface, onEvent: @escaping (PresentationFeedback.Outcome) -> Void) -> PresentationFeedback {
        PresentationFeedback(proxy: wp_presentation_feedback(proxy, surface.proxy), display: display, clockID: clockID,
                             onEvent: onEvent)
    }

    private static let listener = listenerTable(wp_presentation_listener(
        clock_id: { data, _, clock in withOwner(data, as: PresentationTime.self) { $0.clockID = clock } }))
}

/// One `wp_presentation_feedback`: exactly one of `presented` or `discarded` arrives, then the
/// object is gone on the compositor's side (the proxy is destroyed in `deinit`).
final class PresentationFeedback {
    enum Outcome {
        /// Shown at `time` (seconds; of `CLOCK_MONOTONIC` when `monotonic` — a compositor on
        /// `CLOCK_MONOTONIC_RAW`, as weston, is converted), `refresh` seconds to the next refresh
        /// (0 = unknown).
        case presented(time: Double, refresh: Double, monotonic: Bool)
        /// Never shown (superseded by a later commit before a refresh, or the surface was hidden).
        case discarded
    }

    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    private let clockID: UInt32
    private let onEvent: (Outcome) -> Void

    init(proxy: OpaquePointer, display: Display, clockID: UInt32, onEvent: @escaping (Outcome) -> Void) {
        self.proxy = proxy
        self.display = display
        self.clockID = clockID
        self.onEvent = onEvent
        wp_presentation_feedback_add_listener(proxy, PresentationFeedback.listener, userData(self))
    }

    deinit { wp_presentation_feedback_destroy(proxy) }

    /// A time on the compositor's presentation clock as `CLOCK_MONOTONIC` seconds: unchanged for
    /// `CLOCK_MONOTONIC`; for `CLOCK_MONOTONIC_RAW` (weston's choice where the kernel has it) moved
    /// by the clocks' current difference (they differ only by NTP's rate slew, parts per million);
    /// any other clock is left as it is and reported as not monotonic.
    static func monotonicTime(_ seconds: Double, clockID: UInt32) -> (Double, Bool) {
        if clockID == UInt32(CLOCK_MONOTONIC) { return (seconds, true) }
        guard clockID == UInt32(CLOCK_MONOTONIC_RAW) else { return (seconds, false) }
        var raw = timespec(), mono = timespec()
        clock_gettime(CLOCK_MONOTONIC_RAW, &raw)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        let difference = (Double(mono.tv_sec) - Double(raw.tv_sec)) + (Double(mono.tv_nsec) - Double(raw.tv_nsec)) / 1e9
        return (seconds + difference, true)
    }

    private static let listener = listenerTable(wp_presentation_feedback_listener(
        sync_output: { _, _, _ in },
        presented: { data, _, secHi, secLo, nsec, refresh, _, _, _ in
            withOwner(data, as: PresentationFeedback.self) { f in
                let seconds = Double(UInt64(secHi) << 32 | UInt64(secLo)) + Double(nsec) / 1e9
                let (time, monotonic) = PresentationFeedback.monotonicTime(seconds, clockID: f.clockID)
                f.onEvent(.presented(time: time, refresh: Double(refresh) / 1e9, monotonic: monotonic))
            }
        },
        discarded: { data, _ in withOwner(data, as: PresentationFeedback.self) { $0.onEvent(.discarded) } }))
}
