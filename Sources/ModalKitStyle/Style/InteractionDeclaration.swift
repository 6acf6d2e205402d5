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
    /// True: a drag or scroll toward expansion on a content that can scroll first moves the sheet
    /// up to its next larger detent, and the content scrolls once the sheet is at its largest;
    /// false: the content scrolls at any detent and only its edge hands the drag to the sheet
    /// (UIKit's `prefersScrollingExpandsWhenScrolledToEdge`, default true; ModalKit's `ScrollArbitration`).
    public var prefersScrollingExpandsWhenScrolledToEdge: Bool

    /// A declaration; see the properties for each value. The defaults: no drag, one detent (the
    /// frame), every detent dimmed, dismissible, scrolling expands the sheet.
    public init(dismissGesture: DismissGesture = .none, detents: [Detent] = [], largestUndimmedDetent: Int? = nil,
                isDismissible: Bool = true, prefersScrollingExpandsWhenScrolledToEdge: Bool = true) {
        self.dismissGesture = dismissGesture; self.detents = detents
        self.largestUndimmedDetent = largestUndimmedDetent; self.isDismissible = isDismissible
        self.prefersScrollingExpandsWhenScrolledToEdge = prefersScrollingExpandsWhenScrolledToEdge
    }
    /// No drag, one detent, dismissible: the 1.0 behaviour.
    public static let standard = InteractionDeclaration()
}
