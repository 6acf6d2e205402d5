/// Which half of a round trip a frame belongs to: a presentation (`present`, towards presented) or
/// a dismissal (`dismiss`, towards dismissed). Offscreen renders and reduced motion take it with a
/// linear time fraction 0...1 into that phase.
public enum TransitionPhase: String, Hashable, Sendable {
    case present, dismiss
}
