import CPixman
import ModalKit
import Foundation

/// The look of the Present button (UIKit's `UIControl.State`: highlighted = pressed; focus shown
/// only after keyboard use, like the web's `:focus-visible` and UIKit's focus system on iPad).
public struct ButtonAppearance: Hashable, Sendable {
    public var isHovered = false
    public var isPressed = false
    public var showsFocusRing = false
    public init(isHovered: Bool = false, isPressed: Bool = false, showsFocusRing: Bool = false) {
        self.isHovered = isHovered; self.isPressed = isPressed; self.showsFocusRing = showsFocusRing
    }
}

/// Layout and colours of the demo's two views, in points. The presenting view: a soft background
/// gradient, a large title "ModalKit" with a subtitle, a centred filled "Present" button and a hint
/// line. The presented view: a white card with the label "modal" centred (docs/design.md,
/// built-in styles).
enum DemoLook {
    static let backgroundTop = Color(rgb: 0xF6F7FB)
    static let backgroundBottom = Color(rgb: 0xE7EBF3)
    static let titleColor = Color(rgb: 0x111827)
    static let secondaryColor = Color(rgb: 0x6B7280)
    static let accent = Color(rgb: 0x0A6CFF)
    static let accentHover = Color(rgb: 0x2A80FF)
    static let accentPressed = Color(rgb: 0x0656D1)
    static let buttonText = Color.white
    static let cardBackground = Color.white
    static let cardText = Color(rgb: 0x1C1C1E)

    static let title = "ModalKit"
    static let subtitle = "Custom modal presentation"
    static let buttonTitle = "Present"
    static let hint = "Esc or a tap outside dismisses"
    static let label = "modal"

    /// Button size and corner radius, points.
    static let buttonSize = Size(width: 176, height: 50)
    static let buttonRadius = 12.0
    /// Focus ring: gap outside the button and ring width, points.
    static let focusGap = 3.0, focusWidth = 2.5
    /// The button's soft shadow reaches this far outside the button, points.
    static let shadowReach = 8.0

    /// The Present button's frame in a container of `bounds`, points: centred.
    static func buttonFrame(in bounds: Rect) -> Rect {
        let s = buttonSize
        return Rect(x: (bounds.midX - s.width / 2).rounded(), y: (bounds.midY - s.height / 2).rounded(),
                    width: s.width, height: s.height)
    }

    /// Everything the button's look can change, points (button + focus ring + shadow).
    static func buttonOuterFrame(in bounds: Rect) -> Rect {
        let r = max(focusGap + focusWidth, shadowReach) + 1
        return buttonFrame(in: bounds).insetBy(dx: -r, dy: -r)
    }

    /// Draws the presenting view (replacing everything) into `image` of `size` points × `scale`
    /// (buffer pixels per point, > 0, whole or fractional). Text positions and the button's edges
    /// are rounded to whole pixels (exact at a whole scale, where they already are whole).
    static func drawPresentingView(into image: OpaquePointer, size: Size, scale: Double, fonts: FontSet,
                                   button: ButtonAppearance) {
        let s = scale
        let wpx = Int(pixman_image_get_width(image)), hpx = Int(pixman_image_get_height(image))
        Draw.verticalGradient(image, width: wpx, height: hpx, top: backgroundTop, bottom: backgroundBottom)

        // Header: large title and subtitle, 20 pt from the left, like a UIKit large-title navigation bar.
        let left = Int((20 * s).rounded())
        let titleBaseline = Int((24 * s).rounded()) + fonts.title.ascent
        fonts.title.draw(title, into: image, x: left, baseline: titleBaseline, color: titleColor)
        fonts.body.draw(subtitle, into: image, x: left, baseline: titleBaseline + Int((26 * s).rounded()),
                        color: secondaryColor)

        // The button: soft shadow, fill, label, focus ring; its edges on whole pixels.
        let bounds = Rect(size: size)
        let frame = buttonFrame(in: bounds).scaled(by: scale).snappedToPixels
        let radius = buttonRadius * s
        if !button.isPressed {
            for (grow, alpha) in [(6.0, 0.035), (3.5, 0.05), (1.5, 0.07)] {
                let g = grow * s
                Draw.fillRoundedRect(image, x: frame.minX - g, y: frame.minY - g + 3 * s, width: frame.width + 2 * g,
                                     height: frame.height + 2 * g, radius: radius + g,
                                     color: Color(red: 0.04, green: 0.2, blue: 0.55, alpha: alpha))
            }
        }
        let fill = button.isPressed ? accentPressed : (button.isHovered ? accentHover : accent)
        Draw.fillRoundedRect(image, x: frame.minX, y: frame.minY, width: frame.width, height: frame.height,
                             radius: radius, color: fill)
        fonts.button.drawCentered(buttonTitle, into: image, centerX: frame.midX, centerY: frame.midY,
                                  color: buttonText)
        if button.showsFocusRing {
            let o = (focusGap + focusWidth) * s
            Draw.fillRoundedRect(image, x: frame.minX - o, y: frame.minY - o, width: frame.width + 2 * o,
                                 height: frame.height + 2 * o, radius: radius + o,
                                 color: accent.multipliedAlpha(by: 0.55),
                                 ring: (inset: focusWidth * s, radius: radius + focusGap * s))
        }

        // Hint under the button.
        fonts.caption.drawCentered(hint, into: image, centerX: frame.midX,
                                   centerY: frame.maxY + 28 * s, color: secondaryColor)
    }

    /// Draws the presented view's content (replacing everything) into `image`: the card background and
    /// the label "modal" centred. The corner clip is applied by the caller.
    static func drawPresentedView(into image: OpaquePointer, scale: Double, fonts: FontSet) {
        let wpx = Int(pixman_image_get_width(image)), hpx = Int(pixman_image_get_height(image))
        Draw.fill(image, width: wpx, height: hpx, color: cardBackground)
        fonts.label.drawCentered(label, into: image, centerX: Double(wpx) / 2, centerY: Double(hpx) / 2,
                                 color: cardText)
    }
}
