import CModalKitPixman
@testable import ModalKit
import XCTest

/// `Draw.fillRoundedRect` computes coverage only in the bands along the edges and fills the
/// interior with one pixman fill: every pixel must be what one coverage mask over the whole
/// bounding box gives (the anti-aliasing rule of `roundedRectCoverage`), composited OVER.
final class DrawTests: XCTestCase {
    private let width = 120, height = 90

    /// A background that is not uniform, so that an OVER that went wrong anywhere shows.
    private func background() -> OpaquePointer {
        let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0)!
        let data = pixman_image_get_data(image)!
        for y in 0..<height {
            for x in 0..<width {
                let a = UInt32(128 + (x * 7 + y * 3) % 128)
                let c = UInt32((x * 13 + y * 5) % 256) * a / 255
                data[y * width + x] = a << 24 | c << 16 | (c / 2) << 8 | (a - c / 3)
            }
        }
        return image
    }

    /// What `fillRoundedRect` drew before the interior became one fill: the mask of the whole box.
    private func reference(_ dst: OpaquePointer, x: Double, y: Double, w: Double, h: Double, radius: Double,
                           corners: CornerMask, color: Color) {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let x1 = Int((x + w).rounded(.up)), y1 = Int((y + h).rounded(.up))
        let r = clampedRadius(radius, width: w, height: h)
        let mask = pixman_image_create_bits(PIXMAN_a8, Int32(x1 - x0), Int32(y1 - y0), nil, 0)!
        defer { pixman_image_unref(mask) }
        let stride = Int(pixman_image_get_stride(mask))
        let bytes = UnsafeMutableRawPointer(pixman_image_get_data(mask)!).assumingMemoryBound(to: UInt8.self)
        for py in y0..<y1 {
            for px in x0..<x1 {
                let c = roundedRectCoverage(px: px, py: py, x0: x, y0: y, x1: x + w, y1: y + h, radius: r, corners: corners)
                bytes[(py - y0) * stride + px - x0] = UInt8((c * 255).rounded())
            }
        }
        var pc = color.pixmanColor
        let solid = pixman_image_create_solid_fill(&pc)!
        defer { pixman_image_unref(solid) }
        pixman_image_composite32(PIXMAN_OP_OVER, solid, mask, dst, 0, 0, 0, 0, Int32(x0), Int32(y0),
                                 Int32(x1 - x0), Int32(y1 - y0))
    }

    private func pixels(_ image: OpaquePointer) -> [UInt32] {
        Array(UnsafeBufferPointer(start: pixman_image_get_data(image)!, count: width * height))
    }

    func testBandedFillMatchesTheWholeMask() {
        let colors = [Color(red: 1, green: 1, blue: 1), Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.6),
                      Color.black.multipliedAlpha(by: 0.5), Color(red: 0.9, green: 0.1, blue: 0.3, alpha: 0.02)]
        let shapes: [(Double, Double, Double, Double, Double, CornerMask)] = [
            (10, 10, 100, 70, 10, .all),            // whole pixels
            (10.25, 9.5, 99.4, 70.7, 10, .all),     // fractional edges
            (0, 0, 120, 90, 0, .all),               // square corners: bands of one pixel
            (3.5, 4.5, 80.25, 60.75, 0, .all),      // square corners, fractional edges
            (5, 5, 110, 80, 24.5, [.topLeft, .topRight]),  // a sheet's top corners
            (-7.5, 20, 60, 40, 12, .all),           // partly outside the image
            (20, 20, 30, 25, 12, .all),             // too small for an interior: the mask path
            (20, 20, 27, 27, 100, .all),            // radius clamped to a circle
            (30.75, 12.25, 58.5, 66.5, 6.3, [.bottomRight]),
        ]
        for (x, y, w, h, radius, corners) in shapes {
            for color in colors {
                let drawn = background(), expected = background()
                defer { pixman_image_unref(drawn); pixman_image_unref(expected) }
                Draw.fillRoundedRect(drawn, x: x, y: y, width: w, height: h, radius: radius, corners: corners, color: color)
                reference(expected, x: x, y: y, w: w, h: h, radius: radius, corners: corners, color: color)
                let a = pixels(drawn), b = pixels(expected)
                if let i = a.indices.first(where: { a[$0] != b[$0] }) {
                    XCTFail("rect (\(x), \(y), \(w), \(h)) radius \(radius) \(color): pixel (\(i % width), \(i / width)) "
                            + "is \(String(a[i], radix: 16)), the whole mask gives \(String(b[i], radix: 16))")
                }
            }
        }
    }

    /// A rectangle reaching past every side of the image (opaque, so pixman's fill would write
    /// raw memory): nothing outside the image's rows is touched, and the image is what the whole
    /// mask gives. The image lies in the middle of a larger allocation whose guard rows must keep
    /// their pattern.
    func testARectangleLargerThanTheImageWritesOnlyInsideIt() {
        let guardRows = 8, pattern: UInt32 = 0x5A5A_A5A5
        var memory = [UInt32](repeating: pattern, count: (height + 2 * guardRows) * width)
        memory.withUnsafeMutableBufferPointer { all in
            let inside = all.baseAddress! + guardRows * width
            let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), inside, Int32(width * 4))!
            defer { pixman_image_unref(image) }
            Draw.fill(image, width: width, height: height, color: .black)
            let expected = background()
            defer { pixman_image_unref(expected) }
            Draw.fill(expected, width: width, height: height, color: .black)
            for (x, y, w, h) in [(-40.0, -30.0, 200.0, 150.0), (-10.5, 60.25, 300.0, 80.0), (100.0, -50.0, 80.0, 400.0)] {
                Draw.fillRoundedRect(image, x: x, y: y, width: w, height: h, radius: 8, color: Color(red: 1, green: 1, blue: 1))
                reference(expected, x: x, y: y, w: w, h: h, radius: 8, corners: .all, color: Color(red: 1, green: 1, blue: 1))
            }
            XCTAssertEqual(Array(UnsafeBufferPointer(start: inside, count: width * height)), pixels(expected))
        }
        XCTAssertTrue(memory[..<(guardRows * width)].allSatisfy { $0 == pattern }, "rows above the image were written")
        XCTAssertTrue(memory[((guardRows + height) * width)...].allSatisfy { $0 == pattern }, "rows below the image were written")
    }

    /// Opaque white, radius 10 from (10, 10): the interior is white, the box's corner pixel is
    /// outside the arc (background), a pixel on the straight top edge is white.
    func testOpaqueFillValues() {
        let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0)!
        defer { pixman_image_unref(image) }
        Draw.fill(image, width: width, height: height, color: .black)
        Draw.fillRoundedRect(image, x: 10, y: 10, width: 100, height: 70, radius: 10, color: Color(red: 1, green: 1, blue: 1))
        let p = pixels(image)
        XCTAssertEqual(p[50 * width + 60], 0xFFFF_FFFF)     // interior
        XCTAssertEqual(p[10 * width + 60], 0xFFFF_FFFF)     // top edge, between the corners
        XCTAssertEqual(p[10 * width + 10], 0xFF00_0000)     // the box's corner: outside the arc
        XCTAssertEqual(p[9 * width + 60], 0xFF00_0000)      // above the rectangle
        XCTAssertEqual(p[79 * width + 109 - 10], 0xFFFF_FFFF)
    }
}
