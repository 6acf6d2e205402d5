import ModalKitDemo
import ModalKit

/// `modal-demo preview`: the whole present → presented → dismiss cycle drawn offscreen, frame by
/// frame through the same snapshot path as `render`, into an animated lossless WebP — or, with
/// `--strip N`, N evenly spaced frames side by side in one PNG.
/// - Returns: 0. A bad style, or an `--output` that is not a regular file or a new path, exits 2;
///   no font, an encoder error or a failed write exits 1 (the previous file is kept: ``OutputFile``).
func runPreview(_ options: PreviewOptions) -> Int32 {
    let style = makeStyle(options.selection)
    checkOutput(options.output)
    let scene: DemoScene
    do {
        scene = try DemoScene(style: style)
    } catch {
        fail(1, String(describing: error))
    }
    scene.reducesMotion = options.reducedMotion
    scene.layout(containerSize: Size(width: Double(options.width), height: Double(options.height)), scale: options.scale)
    if let n = options.detent {
        if let mistake = scene.detentMistake(n, styleName: options.selection.style) {
            fail(UsageError.exitStatus, mistake)
        }
        scene.restingDetent = n
    }
    // One duration for the cycle: the presentation's (a style may dismiss faster; the timeline is one).
    let presenting = TransitionContext(phase: .present, containerBounds: Rect(size: scene.containerSize))
    let timeline = PreviewTimeline(duration: style.transitionDuration(presenting), fps: options.fps, hold: options.hold)
    let (width, height) = scene.pixelSize
    do {
        let frame = try Image(width: width, height: height)
        if let count = options.strip {
            let strip = try Image(width: width * count, height: height)
            for (slot, i) in timeline.stripFrames(count: count).enumerated() {
                let (phase, fraction) = timeline.frame(i)
                scene.renderSnapshot(into: frame.pixelBuffer, phase: phase, fraction: fraction)
                strip.copy(frame, toX: slot * width)
            }
            try strip.writePNG(to: options.output)
        } else {
            let writer = try AnimatedWebPWriter(width: width, height: height, path: options.output)
            for i in 0..<timeline.frameCount {
                let (phase, fraction) = timeline.frame(i)
                scene.renderSnapshot(into: frame.pixelBuffer, phase: phase, fraction: fraction)
                try writer.add(frame, timestamp: timeline.start(of: i), path: options.output)
            }
            try writer.finish(end: timeline.start(of: timeline.frameCount), path: options.output)
        }
    } catch {
        failWriting(error)
    }
    return 0
}
