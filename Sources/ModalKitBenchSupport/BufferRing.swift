// The buffers modal-bench renders into, with the ages a Wayland client's buffer pool reports.

/// A ring of `count` buffers used round-robin, reporting each buffer's age the way
/// `EGL_EXT_buffer_age` and ModalKit's Wayland buffer pool do: 0 = the buffer's contents are
/// undefined (never drawn), n ≥ 1 = it holds the frame drawn n frames before the one about to be
/// drawn.
///
/// Round-robin over three buffers is what a client sees when the compositor holds the two most
/// recent frames' buffers (headless sway with the pixman renderer does): after the first three
/// frames every buffer has age 3, so each frame repaints its own damage plus the two frames'
/// before it.
public struct BufferRing {
    /// Number of buffers (≥ 1).
    public let count: Int
    private var drawnFrame: [Int?]
    private var frame = 0

    public init(count: Int) {
        precondition(count >= 1, "a ring needs at least one buffer")
        self.count = count
        drawnFrame = Array(repeating: nil, count: count)
    }

    /// The buffer to draw the next frame into and its age; the frame counts as drawn.
    public mutating func next() -> (index: Int, age: Int) {
        let index = frame % count
        frame += 1
        let age = drawnFrame[index].map { frame - $0 } ?? 0
        drawnFrame[index] = frame
        return (index, age)
    }
}
