import ModalKitWaylandClient

/// The numbers of a ``PresentationWindow``'s frames: which drawn frame changed what the window
/// shows (and how it was composed), its ``FrameReport`` once committed, and which frame a commit
/// sequence was, for presentation feedback.
///
/// A frame is numbered only when it changed what the window shows (damage reported, or a layer
/// changed): the commits the window makes anyway (a configure's ack, a buffer resized with
/// nothing new on it) count for `wl_surface` but not here, so ``FrameReport/number`` runs 1, 2, …
/// over the frames a user could see.
struct FrameLedger {
    /// Frames numbered so far (the last ``FrameReport/number``).
    private(set) var count = 0
    /// How the frame drawn last was composed, when it changed what the window shows; nil when it
    /// did not (or once its commit has been counted).
    private var drawn: FrameBackend?
    /// Frame numbers by commit sequence (0: a commit that changed nothing the ledger counts), a
    /// small ring: feedback arrives within a few refreshes.
    private var numbers = [Int](repeating: 0, count: 64)

    /// A frame was drawn (`changed`: it changed what the window shows) with `backend`.
    mutating func drew(changed: Bool, backend: FrameBackend) {
        drawn = changed ? backend : nil
    }

    /// The window committed sequence `sequence` (``CommittedFrame/sequence``), a frame for `time`
    /// (monotonic seconds) that cost `cpuSeconds`: its report when the frame drawn for it changed
    /// what the window shows, else nil.
    mutating func committed(sequence: Int, time: Double, cpuSeconds: Double) -> FrameReport? {
        let slot = sequence % numbers.count
        guard let backend = drawn else {
            numbers[slot] = 0
            return nil
        }
        drawn = nil
        count += 1
        numbers[slot] = count
        return FrameReport(number: count, time: time, backend: backend, cpuSeconds: cpuSeconds)
    }

    /// The frame number of commit `sequence` (``CommittedFrame/sequence``), nil when that commit was
    /// not a numbered frame (or is too old for the ring).
    func number(ofSequence sequence: Int) -> Int? {
        let n = numbers[sequence % numbers.count]
        return n > 0 ? n : nil
    }
}
