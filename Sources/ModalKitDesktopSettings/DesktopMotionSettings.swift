/// The desktop's animation settings that mean "reduce motion", as the XDG Desktop Portal reports
/// them (`org.freedesktop.portal.Settings`; each is `nil` until the portal has reported it).
public struct DesktopMotionSettings: Equatable, Sendable {
    /// GNOME: `org.gnome.desktop.interface` `enable-animations` (a boolean; false turns animations
    /// off — GNOME Settings › Accessibility › "Reduce Animation").
    public var gnomeEnableAnimations: Bool?
    /// KDE Plasma: `org.kde.kdeglobals.KDE` `AnimationDurationFactor` (kdeglobals `[KDE]`; a factor
    /// on animation durations, 0 = animations off — System Settings › "Animation speed: Instant").
    public var kdeAnimationDurationFactor: Double?
    /// The portal's standardized key `org.freedesktop.appearance` `reduced-motion` (`u`, newer
    /// portals): 0 no preference, 1 reduced motion; other values count as 0 (the specification's rule).
    public var appearanceReducedMotion: UInt32?

    public init(gnomeEnableAnimations: Bool? = nil, kdeAnimationDurationFactor: Double? = nil,
                appearanceReducedMotion: UInt32? = nil) {
        self.gnomeEnableAnimations = gnomeEnableAnimations
        self.kdeAnimationDurationFactor = kdeAnimationDurationFactor
        self.appearanceReducedMotion = appearanceReducedMotion
    }

    /// Whether the desktop asks applications to reduce motion: GNOME's `enable-animations` is
    /// false, KDE's `AnimationDurationFactor` is 0, or the portal's `reduced-motion` is 1. Unknown
    /// values ask for nothing.
    public var reducesMotion: Bool {
        gnomeEnableAnimations == false || kdeAnimationDurationFactor == 0 || appearanceReducedMotion == 1
    }
}
