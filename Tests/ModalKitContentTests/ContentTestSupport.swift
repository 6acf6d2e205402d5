import CModalKitPixman
import ModalKit
@testable import ModalKitContent
import XCTest

/// A pixman image the tests draw content into and read back (premultiplied ARGB words).
final class TestImage {
    let image: OpaquePointer
    let width: Int, height: Int
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0)!
    }
    deinit { pixman_image_unref(image) }
    func pixel(x: Int, y: Int) -> UInt32 {
        let stride = Int(pixman_image_get_stride(image)) / 4
        return pixman_image_get_data(image)![y * stride + x]
    }
}

/// Draws `content` laid out at `size` points at `scale` into a new image.
func render(_ content: any PresentationContent, size: Size, scale: Double = 1) -> TestImage {
    content.didLayout(size: size)
    let image = TestImage(width: Int((size.width * scale).rounded()), height: Int((size.height * scale).rounded()))
    content.draw(into: image.image, size: size, scale: scale)
    return image
}

func key(_ keysym: UInt32, text: String = "", _ phase: KeyInput.Phase = .press) -> ContentInput {
    .keyboard(KeyInput(keysym: keysym, phase: phase, text: text))
}

/// The delete alert of the examples: Cancel (close) and a destructive Delete (default).
func deleteAlert() -> Alert {
    Alert(title: "Delete file?", message: "It will be gone.",
          responses: [Response("cancel", label: "Cancel"), Response("delete", label: "Delete", appearance: .destructive)],
          defaultResponse: "delete", closeResponse: "cancel")
}
