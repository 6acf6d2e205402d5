/// What assistive technology can ask an accessible element to do (AT-SPI `Action` interface;
/// UIKit: `accessibilityActivate()`).
public struct AccessibilityActions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Do what a tap or Return on the element does (AT-SPI action "click"): delivered to the
    /// content as ``ContentInput/activate(_:)``.
    public static let activate = AccessibilityActions(rawValue: 1 << 0)
}
