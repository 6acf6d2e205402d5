import ModalKit

// A window's frame in one call, for tests that drive a host frame by frame: update(now:) advances
// (and reports), then the pure queries draw what that time shows (PresentationWindow does the same).
extension PresentationHost {
    /// ``update(now:)``, then ``render(into:bufferAge:)``.
    @discardableResult
    func render(into target: PixelBuffer, now: Double, bufferAge: Int) -> [PixelRect] {
        update(now: now)
        return render(into: target, bufferAge: bufferAge)
    }

    /// ``update(now:)``, then ``layerFrame()``.
    func layerFrame(at now: Double) -> LayerFrame {
        update(now: now)
        return layerFrame()
    }
}
