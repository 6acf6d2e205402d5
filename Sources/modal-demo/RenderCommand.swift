import ModalKitDemo
import ModalKit

/// `modal-demo render`: draws exactly what the window shows at the given size, scale and
/// linear time fraction of a transition (`--progress`; the hooks see the eased progress), through the same renderer, and writes it as a PNG. No compositor needed.
/// Exactly, with either backend of the window: the presented view's pixels come from the one
/// rounding rule of ``PresentationSnapshot/presentedPixelRect(_:scale:)`` (its top-left at a
/// whole point), which the window's pixman and sub-surface paths follow too.
/// - Returns: 0. Failures do not return: a bad style, or an `--output` that is not a regular file
///   or a new path, exits 2; no font or a failed write exits 1 (one stderr line, `fail`); a failed
///   write keeps the previous file (``OutputFile``).
func runRender(_ options: RenderOptions) -> Int32 {
    let styles = makeStyleFactory(options.selections)
    checkOutput(options.output)
    let scene: DemoScene
    do {
        scene = try DemoScene(styleForLevel: styles, levelEvents: { _, _ in })
    } catch {
        fail(1, String(describing: error))
    }
    scene.reducesMotion = options.reducedMotion
    scene.presentsList = options.content == .list
    scene.presentsAlert = options.content == .alert || options.content == .form
    if options.content == .form {
        let secure = options.secure
        scene.makeAlertContent = { FormDemo.makeSampleAlert(secure: secure) }
    }
    scene.layout(containerSize: Size(width: Double(options.width), height: Double(options.height)),
                 scale: options.scale)
    if let n = options.detent {
        // A detent the style does not have (or a style without detents): exit 2, naming its detents.
        if let mistake = scene.detentMistake(n, styleName: options.selection.style) {
            fail(UsageError.exitStatus, mistake)
        }
        scene.restingDetent = n
    }
    let image: Image
    do {
        let (width, height) = scene.pixelSize   // round(W × S) × round(H × S), halves away from zero
        image = try Image(width: width, height: height)
    } catch {
        fail(1, String(describing: error))
    }
    if let distance = options.scroll {
        scene.renderScroll(into: image.pixelBuffer, distance: distance)
    } else if let distance = options.drag {
        scene.renderDrag(into: image.pixelBuffer, distance: distance)
    } else if options.selections.count > 1 {
        scene.renderStackSnapshot(into: image.pixelBuffer, levels: options.selections.count, phase: options.phase,
                                  fraction: options.fraction)
    } else {
        scene.renderSnapshot(into: image.pixelBuffer, phase: options.phase, fraction: options.fraction)
    }
    do {
        try image.writePNG(to: options.output)
    } catch {
        failWriting(error)
    }
    return 0
}
