import ModalKitWaylandClient

/// The frame a ``LayerComposer`` composes into: the window's own buffer (drawn only when asked for)
/// and its damage. `FrameComposer` conforms; the benchmark conforms an offscreen double.
public protocol ComposedFrame: AnyObject {
    /// The integer buffer scale of the window's buffers, 0 on the fractional path (layers are drawn
    /// at whole scales only: a fractional frame is drawn whole by pixman).
    var bufferScale: Int { get }
    /// Buffer pixels per point of the window's buffers (`FrameComposer/scale`): the whole buffer
    /// scale, or on the fractional path the fractional scale (n/120) they are drawn at.
    var scale: Double { get }
    /// The window's buffer must be drawn this frame (first frame, new size or scale, configure ack).
    var mustDrawBase: Bool { get }
    /// A free buffer for the window's content with its age, or nil when every buffer is held.
    /// - Throws: when the buffer cannot be made.
    func baseTarget() throws -> DrawTarget?
    /// The damage of the window's buffer, buffer pixels (arrives empty, keeps its capacity).
    var baseDamage: [PixelRect] { get set }
}

extension FrameComposer: ComposedFrame {}
