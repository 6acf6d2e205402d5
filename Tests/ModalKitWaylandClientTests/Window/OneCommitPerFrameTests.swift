import Glibc
import XCTest
@testable import ModalKitWaylandClient
import ModalKitWaylandDecorations

/// One `wl_surface.commit` of the window's surface per drawn frame, on both compositing paths,
/// counted on the wire (``SocketPairCompositor``, acting as a compositor: a configure answers the
/// first commit, each commit gets its frame callback's `done` and releases the buffer it replaced).
///
/// xdg-shell: the first commit carries no buffer and asks for the first configure; every frame
/// after it is one commit (wl_surface: the pending state — buffer, damage, frame callback, the
/// synchronized sub-surfaces' cached state — applies atomically with it). The client-side title
/// bar (no `zxdg_decoration_manager_v1` configure says server-side) and the layers commit their
/// own surfaces; they never add a commit of the window's surface.
final class OneCommitPerFrameTests: XCTestCase {
    /// How many frames each test draws.
    private static let frames = 6

    private final class Delegate: LayeredWindowDelegate {
        let composes: Bool
        var draws = 0
        var committed: [CommittedFrame] = []
        var layer: SurfaceLayer?
        init(composes: Bool) { self.composes = composes }

        func window(_ window: Window, didConfigureWidth width: Int, height: Int, scale: Double) {}
        func windowDidRequestClose(_ window: Window) { window.close() }

        /// Pixman path: every frame changes a row of the buffer.
        func window(_ window: Window, draw target: DrawTarget, damage: inout [PixelRect]) {
            draws += 1
            let row = (draws * 3) % target.height
            memset(target.data + row * target.stride, 0xFF, target.width * 4)
            damage.append(PixelRect(x: 0, y: row, width: target.width, height: 1))
            if draws < OneCommitPerFrameTests.frames { window.setNeedsRedraw() }
        }

        /// Sub-surface path: the content is drawn at the first frame (and whenever it must be);
        /// every frame moves a solid layer.
        func window(_ window: Window, compose frame: FrameComposer) {
            draws += 1
            if frame.mustDrawBase, let target = try? frame.baseTarget() {
                memset(target.data, 0x40, target.stride * target.height)
            }
            if layer == nil { layer = window.makeLayer() }
            try? layer?.showSolid(color: 0x8000_0000, x: draws, y: 10, width: 50, height: 40)
            if draws < OneCommitPerFrameTests.frames { window.setNeedsRedraw() }
        }

        func window(_ window: Window, didCommit frame: CommittedFrame) { committed.append(frame) }

        func windowDidReceiveFrameCallback(_ window: Window) {
            if committed.count >= OneCommitPerFrameTests.frames { window.close() }
        }
    }

    /// Runs a window of `compositing` until it has committed ``frames`` frames; returns the
    /// compositor (its requests) and the delegate.
    private func run(_ compositing: CompositingMode) throws -> (SocketPairCompositor, Delegate) {
        let compositor = try SocketPairCompositor(globals: SocketPairCompositor.everything)
        compositor.actsAsCompositor = true
        let connection = try compositor.connect()
        let delegate = Delegate(composes: compositing == .subsurface)
        var options = WindowOptions(title: "Frames", requestedSize: (320, 200), compositing: compositing,
                                    presentationFeedback: true)
        options.clientSideDecorations = .standard
        let window = try Window(connection: connection, options: options, delegate: delegate)
        try compositor.serve(deadline: 30) { try connection.run() }
        XCTAssertTrue(window.isClosed)
        return (compositor, delegate)
    }

    private func check(_ compositing: CompositingMode, file: StaticString = #filePath, line: UInt = #line) throws {
        let (compositor, delegate) = try run(compositing)
        let main = try XCTUnwrap(compositor.toplevelSurface, "the window made its xdg_surface", file: file, line: line)
        XCTAssertEqual(main, compositor.surfaces.first, "the window's surface is the first made", file: file, line: line)
        let onMain = compositor.requests(on: main)
        let commits = onMain.filter { $0.opcode == 6 }
        XCTAssertEqual(delegate.draws, Self.frames, file: file, line: line)
        XCTAssertEqual(delegate.committed.count, Self.frames, file: file, line: line)
        XCTAssertEqual(commits.count, 1 + Self.frames,
                       "the first commit (no buffer, asks for the configure), then one per drawn frame",
                       file: file, line: line)
        // Between two commits: exactly one frame callback and one presentation feedback, i.e.
        // everything of one frame rides on one commit.
        var framesRequested = 0, feedbacks = 0, commitIndex = 0
        for request in compositor.requests {
            if request.object == main && request.opcode == 3 { framesRequested += 1 }
            if request.interface == "wp_presentation" && request.opcode == 1 && request.word(0) == main { feedbacks += 1 }
            if request.object == main && request.opcode == 6 {
                if commitIndex > 0 {
                    XCTAssertEqual(framesRequested, 1, "frame callbacks before commit \(commitIndex)", file: file, line: line)
                    XCTAssertEqual(feedbacks, 1, "presentation feedbacks before commit \(commitIndex)", file: file, line: line)
                } else {
                    XCTAssertEqual(framesRequested + feedbacks, 0, "the first commit asks for nothing", file: file, line: line)
                }
                framesRequested = 0
                feedbacks = 0
                commitIndex += 1
            }
        }
        // The client-side title bar was drawn: its own surface committed, not the window's.
        let bar = compositor.surfaces.dropFirst().first { surface in
            compositor.requests(on: surface).contains { $0.opcode == 1 && $0.word(0) != 0 }
        }
        XCTAssertNotNil(bar, "a decoration or layer surface got a buffer of its own", file: file, line: line)
        // xdg-decoration: the decoration object is made before the window's first commit.
        let decorationIndex = compositor.requests.firstIndex { $0.interface == "zxdg_decoration_manager_v1" && $0.opcode == 1 }
        let firstCommit = compositor.requests.firstIndex { $0.object == main && $0.opcode == 6 }
        XCTAssertNotNil(decorationIndex, file: file, line: line)
        if let decorationIndex, let firstCommit {
            XCTAssertLessThan(decorationIndex, firstCommit, "get_toplevel_decoration before the first commit",
                              file: file, line: line)
        }
    }

    func testPixmanPathCommitsTheWindowSurfaceOncePerFrame() throws {
        try check(.pixman)
        let (compositor, _) = try run(.pixman)
        let main = try XCTUnwrap(compositor.toplevelSurface)
        let attaches = compositor.requests(on: main).filter { $0.opcode == 1 }
        XCTAssertEqual(attaches.count, Self.frames, "every pixman frame attaches its buffer")
    }

    func testSubsurfacePathCommitsTheWindowSurfaceOncePerFrame() throws {
        try check(.subsurface)
        let (compositor, delegate) = try run(.subsurface)
        let main = try XCTUnwrap(compositor.toplevelSurface)
        let attaches = compositor.requests(on: main).filter { $0.opcode == 1 }
        XCTAssertEqual(attaches.count, 1, "only the first frame draws the content; the others move the layer")
        XCTAssertEqual(delegate.committed.filter(\.layersChanged).count, Self.frames)
    }
}
