// Pixel checks on screenshots, with values from the design (docs/design.md, built-in styles), not
// from the code.
import Foundation
import ModalKitSession
import XCTest

/// A pixel at least this far (largest channel difference) from the background counts as "drawn"
/// when looking for the button: far above anti-aliasing, gradients and soft shadows (a few
/// percent of alpha), far below a filled button in a colour of its own.
public let drawnThreshold = 100

/// Finds the Present button in a screenshot: the connected region of strongly coloured pixels
/// nearest to the centre of `window` (screen pixels). "Background" for a row is the window's
/// pixel 2 px inside its left edge on that row, so vertical background gradients are allowed.
/// Text inside the button (holes) does not matter: the returned box is the region's bounding box.
/// - Returns: the button's box in screen pixels, or nil when nothing strongly coloured is within
///   `searchRadius` px of the window centre.
public func findButton(in shot: RGBImage, window: PixelBox, searchRadius: Int = 80) -> PixelBox? {
    let x0 = window.x, y0 = window.y, x1 = window.x + window.width, y1 = window.y + window.height
    func isDrawn(_ x: Int, _ y: Int) -> Bool {
        shot[x, y].distance(to: shot[x0 + 2, y]) > drawnThreshold
    }
    let cx = window.x + window.width / 2, cy = window.y + window.height / 2
    // Seed: the strongly coloured pixel nearest the centre (the centre itself may be label text).
    var seed: (Int, Int)?
    search: for r in 0...searchRadius {
        for dy in -r...r {
            for dx in -r...r where max(abs(dx), abs(dy)) == r {
                let x = cx + dx, y = cy + dy
                if x > x0 + 2 && x < x1 && y >= y0 && y < y1 && isDrawn(x, y) { seed = (x, y); break search }
            }
        }
    }
    guard let (sx, sy) = seed else { return nil }
    var seen = Set<Int>()
    var stack = [(sx, sy)]
    var minX = sx, maxX = sx, minY = sy, maxY = sy
    seen.insert(sy * shot.width + sx)
    while let (x, y) = stack.popLast() {
        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        where nx > x0 + 2 && nx < x1 && ny >= y0 && ny < y1 && !seen.contains(ny * shot.width + nx) && isDrawn(nx, ny) {
            seen.insert(ny * shot.width + nx)
            stack.append((nx, ny))
        }
    }
    return PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}

/// Asserts that `shot[x, y]` is within `tolerance` (per channel) of `expected`.
public func assertPixel(_ shot: RGBImage, _ x: Int, _ y: Int, near expected: RGB, tolerance: Int = 3,
                 _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    assertPixel(shot, x, y, { $0.distance(to: expected) <= tolerance }, "\(expected) ±\(tolerance)", what, file: file, line: line)
}

/// Asserts that `shot[x, y]` is farther than `margin` from `other`.
public func assertPixel(_ shot: RGBImage, _ x: Int, _ y: Int, differsFrom other: RGB, margin: Int = 12,
                 _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    assertPixel(shot, x, y, { $0.distance(to: other) > margin }, "it to differ from \(other) by more than \(margin)", what,
                file: file, line: line)
}

/// Fails with `WHAT: pixel (X, Y) is RGB, expected EXPECTATION` unless `shot[x, y]` passes `check`.
private func assertPixel(_ shot: RGBImage, _ x: Int, _ y: Int, _ check: (RGB) -> Bool, _ expectation: String,
                         _ what: String, file: StaticString, line: UInt) {
    let actual = shot[x, y]
    if !check(actual) { XCTFail("\(what): pixel (\(x), \(y)) is \(actual), expected \(expectation)", file: file, line: line) }
}

/// Checks every pixel of `region` (screen pixels, minus `excluding`) in `shot` against the same
/// pixel of `reference` seen through black of alpha `dimAlpha`; returns the first few mismatches.
public func dimMismatches(shot: RGBImage, reference: RGBImage, region: PixelBox, excluding: PixelBox? = nil,
                   dimAlpha: Double, tolerance: Int = 3, limit: Int = 5) -> [String] {
    var bad: [String] = []
    for y in region.y..<(region.y + region.height) {
        for x in region.x..<(region.x + region.width) {
            if let e = excluding, x >= e.x, x < e.x + e.width, y >= e.y, y < e.y + e.height { continue }
            let expected = reference[x, y].dimmed(byBlackAlpha: dimAlpha)
            if shot[x, y].distance(to: expected) > tolerance {
                bad.append("(\(x), \(y)) is \(shot[x, y]), expected \(reference[x, y]) × \(1 - dimAlpha) = \(expected)")
                if bad.count >= limit { return bad }
            }
        }
    }
    return bad
}

/// Pixels of `a` and `b` (same size) that differ by more than `tolerance`, outside `excluding`.
public func differences(_ a: RGBImage, _ b: RGBImage, excluding: PixelBox? = nil, tolerance: Int = 2, limit: Int = 5) -> [String] {
    guard a.width == b.width, a.height == b.height else { return ["sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)"] }
    var bad: [String] = []
    for y in 0..<a.height {
        for x in 0..<a.width {
            if let e = excluding, x >= e.x, x < e.x + e.width, y >= e.y, y < e.y + e.height { continue }
            if a[x, y].distance(to: b[x, y]) > tolerance {
                bad.append("(\(x), \(y)): \(a[x, y]) vs \(b[x, y])")
                if bad.count >= limit { return bad }
            }
        }
    }
    return bad
}

/// The smallest box inside `region` holding every pixel where `a` and `b` (same size) differ at
/// all, or nil when they agree there.
public func differenceBox(_ a: RGBImage, _ b: RGBImage, in region: PixelBox) -> PixelBox? {
    precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    for y in region.y..<(region.y + region.height) {
        for x in region.x..<(region.x + region.width) where a[x, y] != b[x, y] {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
    }
    return maxX < 0 ? nil : PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}
