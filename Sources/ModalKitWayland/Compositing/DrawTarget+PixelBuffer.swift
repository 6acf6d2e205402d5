import ModalKit
import ModalKitWaylandClient

extension DrawTarget {
    /// The target as ModalKit's pixel buffer (the same memory, premultiplied ARGB8888).
    var pixelBuffer: PixelBuffer { PixelBuffer(data: data, width: width, height: height, stride: stride) }
}
