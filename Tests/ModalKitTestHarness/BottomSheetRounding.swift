// The bottom sheet's rounding, worked out by hand in PresentedViewRoundingLiveTests (sway, scale 2)
// and PresentedViewRoundingKWinTests (KWin, 1.75): the fraction that puts the sheet's top at a
// given point, `modal-demo render` of that frame, and the sheet's top row in a picture.
import Foundation
import ModalKitSession
import ModalKit
#if canImport(Glibc)
import Glibc
#endif

public enum BottomSheetRounding {
    static let easeInOut = TimingCurve(parsing: "ease-in-out")!

    /// The linear time fraction at which the bottom sheet (height h = half the container, so its
    /// top at y = h + (1 − p) × h at eased progress p) has its top at `top` points: p = 2 − top / h,
    /// f = the ease-in-out curve's inverse at p (bisection to the last bit; the top is then within
    /// 1e-12 of `top`, which the rule counts as `top`).
    public static func fraction(sheetTopAt top: Double, sheetHeight h: Double) -> Double {
        let p = 2 - top / h
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if easeInOut.value(at: mid) < p { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// `modal-demo render` of the bottom sheet at `fraction`, `width`×`height` points at `scale`.
    public static func render(width: Int, height: Int, scale: Double, fraction: Double) throws -> RGBImage {
        let dir = try SessionUser(name: "self", uid: getuid(), gid: getgid()).makePrivateDirectory(prefix: "modalkit-rounding")
        defer { removeTree(dir) }
        let png = dir + "/render.png"
        let r = try ChildProcess.run([DemoProcess.executablePath, "render", "--style", "bottom-sheet",
                                      "--size", "\(width)x\(height)", "--scale", String(scale),
                                      "--progress", String(fraction), "--output", png],
                                     environment: harnessEnvironment(["MODALKIT_REDUCED_MOTION": nil]), timeout: 60)
        guard r.status == .exited(0) else { throw HarnessError("modal-demo render failed (\(r.status)): \(r.stderr)") }
        return try RGBImage.loadPNG(path: png)
    }

    /// The first row of `image` whose pixel in the middle column is the sheet's white (the demo's
    /// card, ±2): the sheet's top edge (above it the dim is over the presenting view, never white;
    /// the sheet's text starts below its top edge).
    public static func sheetTop(_ image: RGBImage) -> Int? {
        let x = image.width / 2
        return (0..<image.height).first { image[x, $0].distance(to: RGB(255, 255, 255)) <= 6 }
    }

}
