import CModalKitWaylandClient

/// `wl_output`: a monitor. This client uses its integer `scale`.
///
/// wl_output v2+: properties arrive in a burst ended by `done`; they are applied then (v1 has
/// neither `scale` nor `done`, so its scale is 1). Owns its proxy: `deinit` sends `release`
/// (v3+) or destroys it.
final class Output {
    /// The registry name of the global (for `global_remove`).
    let globalName: UInt32
    let proxy: OpaquePointer
    /// Keeps the `wl_display` connected while the proxy lives (``Display``).
    let display: Display
    let version: UInt32
    /// Integer scale factor (≥ 1), as of the last `done`.
    private(set) var scale = 1
    /// Called after a `done` changed the scale.
    var onScaleChange: ((Output) -> Void)?

    private var pendingScale = 1

    init(globalName: UInt32, proxy: OpaquePointer, version: UInt32, display: Display) {
        self.globalName = globalName
        self.proxy = proxy
        self.display = display
        self.version = version
        wl_output_add_listener(proxy, Output.listener, userData(self))
    }

    deinit {
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    private func done() {
        guard pendingScale != scale else { return }
        scale = pendingScale
        onScaleChange?(self)
    }

    private static let listener = listenerTable(wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { data, _ in owner(data, as: Output.self).done() },
        scale: { data, _, factor in
            // wl_output.scale is an integer ≥ 1; guard against a bogus 0 or negative value.
            owner(data, as: Output.self).pendingScale = max(1, Int(factor))
        },
        // Connector name and description (v4): not used.
        name: { _, _, _ in },
        description: { _, _, _ in }))
}
