/// Reduced motion: the presented view cross-fades at its frame instead of moving.
///
/// The rule mirrors UIKit's "Reduce Motion" accessibility setting
/// (`UIAccessibility.isReduceMotionEnabled`), under which system transitions replace slides and
/// zooms with cross-fades. On a Linux desktop the user's choice is GNOME's
/// `org.gnome.desktop.interface enable-animations` = false or KDE's `kdeglobals`
/// `[KDE] AnimationDurationFactor` = 0, both read through the XDG Desktop Portal's
/// `org.freedesktop.portal.Settings` interface (the host application reads them; ModalKit only
/// receives the resulting flag, `PresentationController.reducesMotion`).
///
/// Under reduced motion, for a style with transition duration `D` seconds and timing curve `C`:
/// - The **presented view** never moves: it is drawn at its final place — the style's
///   `presentedViewTransform` at progress 1, normally its frame — and only its alpha changes, linearly,
///   0 → 1 over the fade duration `F = min(0.2 s, D)` from the start of a presentation, and 1 → 0 over
///   `F` from the start of a dismissal. Progress is measured in seconds: `alpha = clamp(t / F)` at
///   `t` seconds into a presentation, `1 − clamp(t / F)` at `t` seconds into a dismissal.
/// - The **presenting view** (a style's recede: `presentingViewAppearance`) never moves or scales
///   either: its transform and corner radius jump from the style's look at progress 0 to the look
///   at 1 when the presented view's fade reaches alpha 0.5, and back when a dismissal's fade falls
///   below 0.5 (under the half-opaque presented view); its alpha follows the progress like the dim.
/// - A **shape change** of an adaptive style (a layout crossing its breakpoint while presented,
///   `PresentationController.morphDuration` otherwise) applies at once: no morph.
/// - The **dimming view** fades exactly as without reduced motion: over `D` with curve `C`, never
///   beyond its presented alpha.
/// - The transition ends when the longer of the two ends; since `F ≤ D` (reduced motion never
///   makes a transition longer, and `D = 0` stays instantaneous) that is always the dim's `D`, so
///   the `presenting → presented` and `dismissing → dismissed` timing is unchanged.
/// - A reversal mid-transition (a dismissal during the fade-in, or the reverse) continues the fade
///   from the alpha it has reached, at the same rate, like the dim's reversal.
///
/// For `modal-demo render`, which has a linear time fraction `P` of `D` rather than a clock, the
/// fade is at `t = P·D` seconds into the phase: see `ReducedMotion.presentedAlpha(phase:fraction:duration:)`.
public enum ReducedMotion {
    /// The cross-fade's full length, seconds: 0.2.
    public static let fadeDuration = 0.2

    /// The fade's length for a transition of `duration` seconds: `min(0.2, duration)` (≥ 0).
    public static func fadeDuration(forTransitionDuration duration: Double) -> Double {
        min(fadeDuration, max(0, duration.isFinite ? duration : 0))
    }

    /// The presented view's alpha (0...1) at linear time fraction `fraction` (0...1) of a
    /// transition of `duration` seconds, in `phase`: the fade is `t = fraction · duration` seconds
    /// into that phase, `clamp(t / F)` presenting and `1 − clamp(t / F)` dismissing, with
    /// `F = min(0.2, duration)`. With `duration = 0` the alpha follows `fraction` (both ends are
    /// the only moments shown).
    public static func presentedAlpha(phase: TransitionPhase, fraction: Double, duration: Double) -> Double {
        let p = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let f = fadeDuration(forTransitionDuration: duration)
        let faded = f > 0 ? min(1, p * max(0, duration) / f) : p
        return phase == .present ? faded : 1 - faded
    }

    /// The presented view's transform under reduced motion: the style's transform at progress 1
    /// (its final place, normally the identity at its frame) with its alpha multiplied by
    /// `alpha` (0...1, the fade).
    public static func presentedViewTransform(style: PresentationStyle, alpha: Double, frame: Rect,
                                              context: TransitionContext) -> ViewTransform {
        var t = style.presentedViewTransform(1, frame, context)
        t.alpha *= min(max(alpha, 0), 1)
        return t
    }
}
