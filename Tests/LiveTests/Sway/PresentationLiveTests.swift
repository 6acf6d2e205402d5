// The presentation, live under headless sway, for both built-in styles: real clicks and keys
// through wayvnc + vncdo, events from --log-events, screenshots from grim checked against the
// geometry of docs/design.md and against `modal-demo render` of the same size.
import Foundation
import ModalKitTestHarness
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class PresentationLiveTests: CompositorTestCase {
    enum Style: String {
        case insetCentered = "inset-centered"
        case bottomSheet = "bottom-sheet"

        /// Black dim alpha when presented (docs/design.md: inset 0.5, sheet 0.4).
        var dimAlpha: Double { self == .insetCentered ? 0.5 : 0.4 }
    }

    // MARK: click presents at the design frame, a tap on the dim dismisses

    func testInsetCenteredClickPresentsCardAtDesignFrameAndDimTapDismisses() throws {
        try clickPresentsAndDimTapDismisses(.insetCentered)
    }

    func testBottomSheetClickPresentsSheetAtHalfHeightAndDimTapDismisses() throws {
        try clickPresentsAndDimTapDismisses(.bottomSheet)
    }

    // MARK: keyboard

    func testInsetCenteredReturnPresentsAndEscapeDismisses() throws {
        try returnPresentsEscapeDismisses(.insetCentered)
    }

    func testBottomSheetReturnPresentsAndEscapeDismisses() throws {
        try returnPresentsEscapeDismisses(.bottomSheet)
    }

    // MARK: interrupted transitions (presenting twice gives one modal, a dismissal reverses the
    // presentation: docs/design.md, rules from the field, 4)

    func testInsetCenteredDimTapDuringFadeInDismissesOnceAndNeverReachesTheButton() throws {
        try dimTapDuringFadeIn(.insetCentered)
    }

    func testBottomSheetDimTapDuringFadeInDismissesOnceAndNeverReachesTheButton() throws {
        try dimTapDuringFadeIn(.bottomSheet)
    }

    func testInsetCenteredDoubleReturnPresentsOneModal() throws {
        try doubleReturnPresentsOnce(.insetCentered)
    }

    func testBottomSheetDoubleReturnPresentsOneModal() throws {
        try doubleReturnPresentsOnce(.bottomSheet)
    }

    // MARK: scenarios

    /// Where a click lands on the dim for both styles: 60 px below the window's top edge, in
    /// the middle (above the inset card's y = 110 and above the sheet's top at H/2).
    private func dimPoint(_ window: PixelBox) -> (x: Int, y: Int) {
        (window.x + window.width / 2, window.y + 60)
    }

    /// The area around the Present button (with its hover, pressed and focus looks and its
    /// shadow), left out where the presenting view is compared through the dim.
    private func buttonArea(_ window: PixelBox) -> PixelBox {
        PixelBox(x: window.x + window.width / 2 - 150, y: window.y + window.height / 2 - 60, width: 300, height: 120)
    }

    private func clickPresentsAndDimTapDismisses(_ style: Style) throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(["--style", style.rawValue], in: sway)
        let reference = try sway.stableScreenshot()
        keep(reference, "before")

        var mark = demo.mark()
        try vnc.click(x: Int(window.rect.midX), y: Int(window.rect.midY))
        expectEvent(demo, "presenting", since: mark)
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        try vnc.park()
        let shot = try sway.stableScreenshot()
        keep(shot, "presented")
        checkPresentedGeometry(style, shot: shot, reference: reference, window: window.rect)
        try checkMatchesRender(style, shot: shot, window: window.rect)

        mark = demo.mark()
        let tap = dimPoint(window.rect)
        try vnc.click(x: tap.x, y: tap.y)
        expectEvent(demo, "dismissing", since: mark, "tap on the dim at \(tap)")
        expectEvent(demo, "dismissed", since: mark, "tap on the dim at \(tap)")
        XCTAssertEqual(demo.events("activated", since: mark), [], "the tap on the dim never reaches the button")
    }

    private func returnPresentsEscapeDismisses(_ style: Style) throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, window) = try launchDemo(["--style", style.rawValue], in: sway)
        let reference = try sway.stableScreenshot()
        keep(reference, "before")
        for round in 1...2 {
            var mark = demo.mark()
            try vnc.key("enter")
            expectEvent(demo, "presenting", since: mark, "round \(round)")
            guard expectEvent(demo, "presented", since: mark, "round \(round)") != nil else { return }
            if round == 1 {
                let shot = try sway.stableScreenshot()
                keep(shot, "presented")
                checkPresentedGeometry(style, shot: shot, reference: reference, window: window.rect)
            }
            mark = demo.mark()
            try vnc.key("esc")
            expectEvent(demo, "dismissing", since: mark, "round \(round)")
            guard expectEvent(demo, "dismissed", since: mark, "round \(round)") != nil else { return }
        }
    }

    private func dimTapDuringFadeIn(_ style: Style) throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        // A 1.5 s transition, so that a second click 0.25 s after the first surely lands while
        // the dim fades in (and the presented view is still far below the button).
        let (demo, window) = try launchDemo(["--style", style.rawValue, "--duration", "1.5"], in: sway)
        let cx = Int(window.rect.midX), cy = Int(window.rect.midY)
        let mark = demo.mark()
        // The second click is where the button is: during the fade-in that point is dim.
        try vnc.send(["move", String(cx), String(cy), "click", "1", "pause", "0.25", "click", "1"])
        guard expectEvent(demo, "dismissed", since: mark) != nil else { return }
        usleep(500_000)   // anything that would still follow (a second presentation) has time to show up
        let lines = Array(demo.stdoutLines.dropFirst(mark)).filter { !["frame", "presented-time"].contains(DemoProcess.firstWord($0)) }
        XCTAssertEqual(demo.events("activated", since: mark).count, 1, "only the first click activates: \(lines)")
        XCTAssertEqual(demo.events("presenting", since: mark).count, 1, "no second presentation: \(lines)")
        XCTAssertEqual(demo.events("presented", since: mark).count, 0, "the tap came during the fade-in: \(lines)")
        XCTAssertEqual(demo.events("dismissing", since: mark).count, 1, "exactly one dismissal: \(lines)")
        XCTAssertEqual(demo.events("dismissed", since: mark).count, 1, "exactly one dismissal: \(lines)")
        let order = lines.map { String(DemoProcess.firstWord($0)) }.filter { ["presenting", "dismissing", "dismissed"].contains($0) }
        XCTAssertEqual(order, ["presenting", "dismissing", "dismissed"])

        // A later present still works.
        let again = demo.mark()
        try vnc.click(x: cx, y: cy)
        expectEvent(demo, "activated", since: again, "the button works after the reversed presentation")
        expectEvent(demo, "presented", since: again, "the button works after the reversed presentation")
    }

    private func doubleReturnPresentsOnce(_ style: Style) throws {
        let sway = try startSway()
        let vnc = try startVNC(sway)
        let (demo, _) = try launchDemo(["--style", style.rawValue], in: sway)
        let mark = demo.mark()
        try vnc.send(["key", "enter", "key", "enter"])
        guard expectEvent(demo, "presented", since: mark) != nil else { return }
        usleep(500_000)
        XCTAssertEqual(demo.events("presenting", since: mark).count, 1, "one modal: \(demo.stdoutLines.dropFirst(mark))")
        XCTAssertEqual(demo.events("presented", since: mark).count, 1)
        XCTAssertEqual(demo.events("dismissing", since: mark).count, 0)
        let esc = demo.mark()
        try vnc.key("esc")
        expectEvent(demo, "dismissed", since: esc, "one Escape dismisses the one modal")
    }

    // MARK: pixel checks (docs/design.md numbers; W×H = the window, points = pixels at scale 1)

    private func checkPresentedGeometry(_ style: Style, shot: RGBImage, reference: RGBImage, window w: PixelBox,
                                        file: StaticString = #filePath, line: UInt = #line) {
        let x0 = w.x, y0 = w.y, W = w.width, H = w.height
        func dim(_ x: Int, _ y: Int) -> RGB { reference[x, y].dimmed(byBlackAlpha: style.dimAlpha) }
        func expectDim(_ x: Int, _ y: Int, _ what: String) {
            assertPixel(shot, x, y, near: dim(x, y), what, file: file, line: line)
        }
        func expectContent(_ x: Int, _ y: Int, _ content: RGB, _ what: String) {
            assertPixel(shot, x, y, near: content, tolerance: 6, what, file: file, line: line)
            assertPixel(shot, x, y, differsFrom: dim(x, y), what + " (not dim)", file: file, line: line)
        }
        switch style {
        case .insetCentered:
            // Card frame: x = 20, y = 110, width W − 40, height H − 220; corner radius 10.
            let card = shot[x0 + W / 2, y0 + 140]
            for y in [y0 + 150, y0 + H / 2 - 40, y0 + H - 150] {
                expectDim(x0 + 18, y, "left of the card's left edge x = 20")
                expectContent(x0 + 22, y, card, "inside the card's left edge x = 20")
                expectDim(x0 + W - 18, y, "right of the card's right edge x = W − 20")
                expectContent(x0 + W - 22, y, card, "inside the card's right edge x = W − 20")
            }
            for x in [x0 + 100, x0 + W / 2, x0 + W - 100] {
                expectDim(x, y0 + 108, "above the card's top edge y = 110")
                expectContent(x, y0 + 112, card, "inside the card's top edge y = 110")
                expectDim(x, y0 + H - 108, "below the card's bottom edge y = H − 110")
                expectContent(x, y0 + H - 112, card, "inside the card's bottom edge y = H − 110")
            }
            expectDim(x0 + 21, y0 + 111, "cut of the top-left corner (radius 10)")
            expectDim(x0 + W - 22, y0 + 111, "cut of the top-right corner (radius 10)")
            expectDim(x0 + 21, y0 + H - 112, "cut of the bottom-left corner (radius 10)")
            expectDim(x0 + W - 22, y0 + H - 112, "cut of the bottom-right corner (radius 10)")
            expectContent(x0 + 25, y0 + 115, card, "inside the top-left corner's arc")
            let bands = [PixelBox(x: x0, y: y0, width: W, height: 106),
                         PixelBox(x: x0, y: y0 + H - 106, width: W, height: 106),
                         PixelBox(x: x0, y: y0 + 106, width: 18, height: H - 212),
                         PixelBox(x: x0 + W - 18, y: y0 + 106, width: 18, height: H - 212)]
            for band in bands {
                XCTAssertEqual(dimMismatches(shot: shot, reference: reference, region: band, dimAlpha: 0.5), [],
                               "outside the card every pixel = presenting × 0.5 (band \(band))", file: file, line: line)
            }
        case .bottomSheet:
            // Sheet: the window's width up to 640 pt (Material 3's cap), centred — x 80…720 in
            // 800 — anchored to the bottom, top at H/2; top corners radius 10.
            let sw = min(W, 640), left = x0 + (W - sw) / 2, right = left + sw
            let sheet = shot[left + 40, y0 + H - 20]
            for x in [left + 100, left + sw / 2 - 200, left + sw / 2 + 200, right - 100] {
                expectDim(x, y0 + H / 2 - 2, "above the sheet's top y = H/2")
                expectContent(x, y0 + H / 2 + 2, sheet, "inside the sheet's top y = H/2")
            }
            expectContent(left, y0 + H / 2 + 40, sheet, "sheet's left edge")
            expectContent(right - 1, y0 + H / 2 + 40, sheet, "sheet's right edge")
            if left - x0 >= 2 {
                expectDim(left - 2, y0 + H / 2 + 40, "left of the capped sheet")
                expectDim(right + 1, y0 + H / 2 + 40, "right of the capped sheet")
                let beside = [PixelBox(x: x0, y: y0 + H / 2, width: left - x0 - 1, height: H / 2),
                              PixelBox(x: right + 1, y: y0 + H / 2, width: x0 + W - right - 1, height: H / 2)]
                for band in beside {
                    XCTAssertEqual(dimMismatches(shot: shot, reference: reference, region: band, dimAlpha: 0.4), [],
                                   "beside the sheet every pixel = presenting × 0.6 (band \(band))", file: file, line: line)
                }
            }
            expectContent(left + 1, y0 + H - 2, sheet, "bottom corners are square")
            expectContent(right - 2, y0 + H - 2, sheet, "bottom corners are square")
            expectDim(left + 1, y0 + H / 2 + 1, "cut of the top-left corner (radius 10)")
            expectDim(right - 2, y0 + H / 2 + 1, "cut of the top-right corner (radius 10)")
            let above = PixelBox(x: x0, y: y0, width: W, height: H / 2 - 2)
            XCTAssertEqual(dimMismatches(shot: shot, reference: reference, region: above, excluding: buttonArea(w), dimAlpha: 0.4), [],
                           "above the sheet every pixel = presenting × 0.6 (the dim does not slide)", file: file, line: line)
        }
    }

    /// The live window equals `modal-demo render` at the same size, progress 1 (docs/design.md,
    /// "Command line": `render` draws exactly what the window shows), apart from the button's hover/focus looks.
    private func checkMatchesRender(_ style: Style, shot: RGBImage, window w: PixelBox,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-render")
        defer { removeTree(dir) }
        let png = dir + "/presented.png"
        let r = try ChildProcess.run([try DemoProcess.executablePath, "render", "--style", style.rawValue,
                                      "--size", "\(w.width)x\(w.height)", "--progress", "1", "--output", png],
                                     environment: harnessEnvironment([:]), timeout: 60)
        guard r.status == .exited(0) else {
            return XCTFail("modal-demo render failed (\(r.status)): \(r.stderr)", file: file, line: line)
        }
        let rendered = try RGBImage.loadPNG(path: png)
        keep(rendered, "render")
        let live = shot.cropped(to: w)
        let area = buttonArea(PixelBox(x: 0, y: 0, width: w.width, height: w.height))
        XCTAssertEqual(differences(live, rendered, excluding: area, tolerance: 2), [],
                       "live window vs `render --progress 1` (outside the button area \(area))", file: file, line: line)
    }
}
