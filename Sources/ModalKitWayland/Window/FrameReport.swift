/// One committed frame that changed what a ``PresentationWindow`` shows (``PresentationWindow/onFrame``).
public struct FrameReport: Equatable, Sendable {
    /// 1, 2, …: the window's count of frames that changed what it shows.
    public var number: Int
    /// The time the frame shows (``PresentationWindowOptions/FrameTime``), monotonic seconds.
    public var time: Double
    /// How it was composed.
    public var backend: FrameBackend
    /// CPU time of the window's thread from the start of the frame to its `wl_surface.commit`,
    /// seconds: what the frame cost the client.
    public var cpuSeconds: Double
}
