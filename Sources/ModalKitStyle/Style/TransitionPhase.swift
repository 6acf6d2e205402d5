/// Which half of a round trip a frame belongs to: a presentation (`present`, towards presented) or
/// a dismissal (`dismiss`, towards dismissed). Offscreen renders and reduced motion take it with a
/// linear time fraction 0...1 into that phase.
public enum TransitionPhase: String, Hashable, Sendable {
    /// The presentation: from dismissed (progress 0) to presented (1).
    case present
    /// The dismissal: from presented back to dismissed.
    case dismiss
}
