import CModalKitPixman
import Glibc

extension UInt32 {
    /// The premultiplied ARGB components of a pixel value, 0...255 each.
    @inlinable public var argbComponents: (a: Int, r: Int, g: Int, b: Int) {
        (Int(self >> 24), Int((self >> 16) & 0xff), Int((self >> 8) & 0xff), Int(self & 0xff))
    }
}
