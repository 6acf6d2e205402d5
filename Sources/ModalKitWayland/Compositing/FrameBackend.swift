/// How a frame was composed (``FrameReport/backend``; `backend=` on `modal-demo --log-events`
/// frame lines).
public enum FrameBackend: String, Hashable, Sendable {
    /// Everything drawn by pixman into the window's buffer.
    case pixman
    /// The dim and the presented view as sub-surfaces; their pixels drawn once.
    case subsurface
    /// Sub-surfaces, the presented view's layer drawn by pixman for this frame (an alpha or a
    /// scale the compositor cannot apply).
    case subsurfacePixmanPresented = "subsurface+pixman-presented"
}
