import CModalKitPixman

extension PresentedViewChrome {
    /// The chrome the host draws over a presented content (buffer pixels, `width × height`, corner
    /// `radius` in pixels): the border inside the rounded edge (CALayer's `borderWidth`, drawn over
    /// the content), then the grabber — `PresentedViewChrome/grabberSize` with fully rounded ends,
    /// centred, `PresentedViewChrome/grabberTopInset` below the top edge (UIKit's sheet grabber).
    /// The background is filled before the content draws (see ``PresentationContent``).
    func draw(into image: OpaquePointer, width: Int, height: Int,
              scale: Double, radius: Double, corners: CornerMask) {
        let w = Double(width), h = Double(height)
        if let border = self.border, border.width > 0, border.color.alpha > 0 {
            let bw = min(border.width * scale, w / 2, h / 2)
            Draw.fillRoundedRect(image, x: 0, y: 0, width: w, height: h, radius: radius, corners: corners,
                                 color: border.color, ring: (inset: bw, radius: max(0, radius - bw)))
        }
        if let grabber = self.grabber, grabber.alpha > 0 {
            let gw = PresentedViewChrome.grabberSize.width * scale, gh = PresentedViewChrome.grabberSize.height * scale
            Draw.fillRoundedRect(image, x: (w - gw) / 2, y: PresentedViewChrome.grabberTopInset * scale,
                                 width: gw, height: gh, radius: gh / 2, color: grabber)
        }
    }
}
