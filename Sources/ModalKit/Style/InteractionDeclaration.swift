/// The interactions a style allows. The host reads it when a presentation begins and on every
/// container layout.
public struct InteractionDeclaration: Hashable, Sendable {
    /// The dismiss gesture (default: none).
    public var dismissGesture: DismissGesture
    /// The resting sizes, in ascending order; empty = one detent, the presented view's frame.
    public var detents: [Detent]
    /// Index into `detents` of the largest detent at which the dim is not shown (UIKit's
    /// `largestUndimmedDetentIdentifier`); nil = dimmed at every detent.
    public var largestUndimmedDetent: Int?
    /// False: taps on the dim, Escape and drags do not dismiss; each attempt is reported
    /// (UIKit's `isModalInPresentation` + `presentationControllerDidAttemptToDismiss`, AdwDialog's
    /// `can-close` + `close-attempt`).
    public var isDismissible: Bool

    /// A declaration; see the properties for each value. The defaults: no drag, one detent (the
    /// frame), every detent dimmed, dismissible.
    public init(dismissGesture: DismissGesture = .none, detents: [Detent] = [], largestUndimmedDetent: Int? = nil,
                isDismissible: Bool = true) {
        self.dismissGesture = dismissGesture; self.detents = detents
        self.largestUndimmedDetent = largestUndimmedDetent; self.isDismissible = isDismissible
    }
    /// No drag, one detent, dismissible: the 1.0 behaviour.
    public static let standard = InteractionDeclaration()
}
