// What a `WAYLAND_DEBUG=1` log of a whole run with `--compositing subsurface` must show, under any
// compositor (SubsurfaceCompositingTests under sway, SubsurfaceCompositingWestonTests).
import XCTest
import ModalKitSession

extension CompositorTestCase {
    /// Fails unless the demo's `WAYLAND_DEBUG` log (its stderr, read to the end) has no protocol
    /// error, makes sub-surfaces (`wl_subcompositor.get_subsurface`), crops with viewports
    /// (`wp_viewport.set_source`), moves the presented view (`wl_subsurface.set_position`), and a
    /// frame line says `backend=subsurface`.
    public func assertSubsurfaceProtocolLog(_ demo: DemoProcess, file: StaticString = #filePath, line: UInt = #line) {
        demo.drainOutput()
        let log = demo.stderrLines
        let errors = log.filter {
            $0.contains("wl_display@1.error(") || $0.contains("wl_display#1.error(") || $0.localizedCaseInsensitiveContains("protocol error")
        }
        XCTAssertEqual(errors, [], "protocol errors in the WAYLAND_DEBUG log", file: file, line: line)
        XCTAssertTrue(log.contains { $0.contains("wl_subcompositor@") && $0.contains(".get_subsurface(") },
                      "sub-surfaces were made", file: file, line: line)
        XCTAssertTrue(log.contains { $0.contains("wp_viewport@") && $0.contains(".set_source(") },
                      "viewports were used", file: file, line: line)
        XCTAssertTrue(log.contains { $0.contains("wl_subsurface@") && $0.contains(".set_position(") },
                      "the presented view was moved", file: file, line: line)
        let frames = demo.events("frame")
        XCTAssertTrue(frames.contains { $0.contains("backend=subsurface") }, "\(frames.prefix(5))", file: file, line: line)
    }
}
