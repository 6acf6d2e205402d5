import CModalKitWaylandClient
import CModalKitWaylandProtocols
import Glibc

/// The globals of a ``WaylandConnection``: binding each at the version this client supports,
/// the required ones checked, outputs and seats followed as they come and go.
extension WaylandConnection {
    package var compositor: Compositor { compositorObject! }


    /// Binds `name` at the version `versions` allows; nil when it is offered below the minimum
    /// (a required one is remembered for the error, an optional one is ignored, as if absent).
    func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, offered: UInt32,
                      _ versions: GlobalVersion) -> (proxy: OpaquePointer, version: UInt32)? {
        guard let registry else { return nil }
        guard let bound = registry.bind(name: name, interface: interface, offered: offered, versions: versions) else {
            if versions.isRequired { tooOld[versions.interface] = max(tooOld[versions.interface] ?? 0, offered) }
            return nil
        }
        return bound
    }

    func globalAdded(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor" where compositorObject == nil:
            guard let bound = bind(name, cwl_wl_compositor_interface(), offered: version, GlobalVersions.compositor)
            else { return }
            compositorObject = Compositor(proxy: bound.proxy, version: bound.version, display: display)
        case "wl_shm" where shm == nil:
            guard let bound = bind(name, cwl_wl_shm_interface(), offered: version, GlobalVersions.shm) else { return }
            shm = Shm(proxy: bound.proxy, version: bound.version, display: display)
        case "xdg_wm_base" where wmBase == nil:
            guard let bound = bind(name, cwl_xdg_wm_base_interface(), offered: version, GlobalVersions.xdgWmBase)
            else { return }
            wmBase = XdgWmBase(proxy: bound.proxy, version: bound.version, display: display)
        case "zxdg_decoration_manager_v1" where decorationManager == nil:
            guard let bound = bind(name, cwl_zxdg_decoration_manager_v1_interface(), offered: version,
                                   GlobalVersions.decorationManager) else { return }
            decorationManager = DecorationManager(proxy: bound.proxy, display: display)
        case "wl_subcompositor" where subcompositor == nil:
            guard let bound = bind(name, cwl_wl_subcompositor_interface(), offered: version,
                                   GlobalVersions.subcompositor) else { return }
            subcompositor = Subcompositor(proxy: bound.proxy, display: display)
        case "wp_viewporter" where viewporter == nil:
            guard let bound = bind(name, cwl_wp_viewporter_interface(), offered: version, GlobalVersions.viewporter)
            else { return }
            viewporter = Viewporter(proxy: bound.proxy, display: display)
        case "wp_fractional_scale_manager_v1" where fractionalScaleManager == nil:
            guard let bound = bind(name, cwl_wp_fractional_scale_manager_v1_interface(), offered: version,
                                   GlobalVersions.fractionalScaleManager) else { return }
            fractionalScaleManager = FractionalScaleManager(proxy: bound.proxy, display: display)
        case "wp_presentation" where presentationTime == nil:
            guard let bound = bind(name, cwl_wp_presentation_interface(), offered: version,
                                   GlobalVersions.presentation) else { return }
            presentationTime = PresentationTime(proxy: bound.proxy, display: display)
        case "zwlr_layer_shell_v1" where layerShell == nil:
            guard let bound = bind(name, cwl_zwlr_layer_shell_v1_interface(), offered: version, GlobalVersions.layerShell)
            else { return }
            layerShell = LayerShell(proxy: bound.proxy, version: bound.version, display: display)
        case "zwp_text_input_manager_v3" where textInputManager == nil:
            guard let bound = bind(name, cwl_zwp_text_input_manager_v3_interface(), offered: version,
                                   GlobalVersions.textInputManager) else { return }
            textInputManager = TextInputManager(proxy: bound.proxy, display: display)
            for seat in seats { seat.globalsChanged() }
        case "wl_data_device_manager" where dataDeviceManager == nil:
            guard let bound = bind(name, cwl_wl_data_device_manager_interface(), offered: version,
                                   GlobalVersions.dataDeviceManager) else { return }
            dataDeviceManager = SelectionManager(kind: .clipboard, proxy: bound.proxy, display: display)
            for seat in seats { seat.globalsChanged() }
        case "zwp_primary_selection_device_manager_v1" where primarySelectionManager == nil:
            guard let bound = bind(name, cwl_zwp_primary_selection_device_manager_v1_interface(), offered: version,
                                   GlobalVersions.primarySelectionManager) else { return }
            primarySelectionManager = SelectionManager(kind: .primary, proxy: bound.proxy, display: display)
            for seat in seats { seat.globalsChanged() }
        case "wl_seat":
            guard let bound = bind(name, cwl_wl_seat_interface(), offered: version, GlobalVersions.seat) else { return }
            seats.append(Seat(globalName: name, proxy: bound.proxy, version: bound.version, display: display,
                              connection: self))
        case "wl_output":
            guard let bound = bind(name, cwl_wl_output_interface(), offered: version, GlobalVersions.output)
            else { return }
            let output = Output(globalName: name, proxy: bound.proxy, version: bound.version, display: display)
            output.onScaleChange = { [unowned self] output in
                for window in liveWindows { window.outputScaleChanged(output) }
            }
            outputs.append(output)
        default:
            break
        }
    }

    /// After the globals roundtrip: a required global absent, or offered only below its minimum,
    /// is an error naming it.
    func checkRequiredGlobals() throws {
        let present: [(GlobalVersion, Bool)] = [(GlobalVersions.compositor, compositorObject != nil),
                                                (GlobalVersions.shm, shm != nil),
                                                (GlobalVersions.xdgWmBase, wmBase != nil)]
        for (versions, bound) in present where !bound {
            if let offered = tooOld[versions.interface] { throw versions.tooOldError(offered: offered) }
            throw WaylandError.missingGlobal(versions.interface)
        }
    }

    func globalRemoved(name: UInt32) {
        if let index = outputs.firstIndex(where: { $0.globalName == name }) {
            let output = outputs.remove(at: index)
            for window in liveWindows { window.outputRemoved(output) }
        } else if let index = seats.firstIndex(where: { $0.globalName == name }) {
            seats.remove(at: index)   // releases its devices (a pointer sends .leave first)
        }
        // The singletons (compositor, shm, wm_base) are not removed by real compositors; if one
        // were, its requests would fail with a protocol error, reported by run().
    }

    func output(for proxy: OpaquePointer) -> Output? { outputs.first { $0.proxy == proxy } }

    /// A theme at `scale`, loaded once per scale.
    func cursorTheme(scale: Int) -> CursorTheme? {
        if let theme = cursorThemes[scale] { return theme }
        guard let shm, let theme = CursorTheme(shm: shm, scale: scale) else { return nil }
        cursorThemes[scale] = theme
        return theme
    }
}
