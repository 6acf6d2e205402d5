import CWaylandClient
import CWaylandProtocols

/// `wp_viewporter` (optional): bound when offered so that a later backend can crop and scale
/// surfaces (DESIGN §4: a 1×1 dim buffer stretched to the container). Owns its proxy.
final class Viewporter {
    let proxy: OpaquePointer

    init(proxy: OpaquePointer) { self.proxy = proxy }

    deinit { wp_viewporter_destroy(proxy) }
}
