import ModalKit

/// Makes a seed's ``FuzzCase``: a configuration (styles with random options, container, scale,
/// flags) and 20–110 steps drawn in bursts a user or a compositor produces — taps, drags with
/// motion between frames, key presses, presentations and dismissals, resizes, scale changes,
/// clock jumps and frames — plus stray events (a release without a press, an unknown touch id).
///
/// Time: the clock starts at 1000 s and moves by ``FuzzStep/advance(_:)``: 0 (the same time again),
/// sub-frame, frame-sized, large (seconds to 10⁷ s: a suspended machine) — and small steps back,
/// up to 50 ms. The host must tolerate those: a window drawing for the predicted presentation time
/// (`--frame-time predicted`) renders up to a refresh ahead of the input events that follow, whose
/// times come from the compositor's clock — so `now` values reach the host out of order by up to
/// a few frames. Larger steps back are not generated: `CLOCK_MONOTONIC` never goes back.
public enum FuzzGenerator {
    /// How often frames are drawn, relative to the other steps.
    public struct Profile {
        /// The weight of a frame burst (render, layer frame, presenting layer) among the bursts.
        public var frames: Int
        /// The chance of a frame between two motions of a drag.
        public var framesInDrags: Double
        /// Every kind of step, frames as often as a window draws them during input (the host's own
        /// test: damage and pixels are checked on every frame).
        public static let host = Profile(frames: 14, framesInDrags: 0.2)
        /// Fewer frames (an app's content is costly to draw in a debug build), the same input.
        public static let scene = Profile(frames: 5, framesInDrags: 0.05)
    }

    public static func makeCase(seed: UInt64, profile: Profile = .host) -> FuzzCase {
        var rng = SplitMix64(seed: seed)
        let config = makeConfig(&rng)
        var steps: [FuzzStep] = []
        let target = rng.int(20...110)
        while steps.count < target { burst(&rng, profile, into: &steps) }
        return FuzzCase(seed: seed, config: config, steps: steps)
    }

    // MARK: Configuration

    static func makeConfig(_ rng: inout SplitMix64) -> FuzzConfig {
        let styles = (0..<4).map { _ in style(&rng) }
        let size: (Double, Double)
        // Mostly small (frames are drawn and compared whole), some past the adaptive breakpoint.
        switch rng.weighted([60, 15, 10, 15]) {
        case 0: size = (rng.double(40...320).rounded(), rng.double(40...320).rounded())
        case 1: size = (rng.double(120...620).rounded(), rng.double(100...520).rounded())
        case 2: size = (1, 1)
        default: size = (rng.double(40...620), rng.double(40...520))
        }
        return FuzzConfig(styles: styles, width: size.0, height: size.1, scale: scale(&rng),
                          reducesMotion: rng.chance(0.25),
                          escapeUsed: (0..<5).map { i in i > 0 && rng.chance(0.2) },
                          dismissOnPresented: rng.chance(0.1))
    }

    /// A built-in style with random options within their declared ranges (edge values favoured).
    static func style(_ rng: inout SplitMix64) -> FuzzStyleSpec {
        var o: [String: String] = [:]
        let name = rng.pick(BuiltinStyles.names)
        if rng.chance(0.4) { o["dim-alpha"] = rng.pick(["0", "0.3", "0.75", "1"]) }
        if rng.chance(0.5) { o["duration"] = rng.pick(["0", "0.05", "0.2", "1.5"]) }
        if rng.chance(0.4) {
            o["curve"] = rng.pick(["linear", "ease-out", "ease-in-out", "spring(300,8)", "spring(50,3)",
                                   "cubic-bezier(0.3,1.6,0.6,-0.6)"])
        }
        if rng.chance(0.2) { o["dismissible"] = "false" }
        switch name {
        case "inset-centered":
            if rng.chance(0.25) { o["margin-y"] = rng.pick(["0", "5", "300"]) }
            if rng.chance(0.15) { o["margin-x"] = rng.pick(["0", "300"]) }
            if rng.chance(0.15) { o["corner-radius"] = rng.pick(["0", "500"]) }
            if rng.chance(0.2) { o["shadow"] = "soft" }
            if rng.chance(0.2) { o["background"] = rng.pick(["#FFFFFF", "#2050A080"]) }
            if rng.chance(0.1) { o["border"] = "#FF0000" }
        case "bottom-sheet":
            if rng.chance(0.25) { o["height"] = rng.pick(["1", "0.1", "40", "5000"]) }
            if rng.chance(0.45) {
                let d = rng.pick(["0.3,0.6", "0.25,0.5,1", "200", "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8"])
                o["detents"] = d
                let count = d.split(separator: ",").count
                if count >= 2, rng.chance(0.5) { o["undimmed-detent"] = String(rng.below(count - 1)) }
            }
            if rng.chance(0.25) { o["dim"] = "gradient" }
            if rng.chance(0.2) { o["grabber"] = rng.pick(["on", "off"]) }
            if rng.chance(0.35) { o["recede"] = "on" }
            if rng.chance(0.2) { o["shadow"] = "soft" }
        case "popover":
            if rng.chance(0.25) { o["width"] = rng.pick(["1", "10", "2000"]) }
            if rng.chance(0.25) { o["height"] = rng.pick(["1", "10", "2000"]) }
            if rng.chance(0.3) { o["dismiss-duration"] = rng.pick(["0", "1"]) }
            if rng.chance(0.2) { o["shadow"] = "soft" }
            if rng.chance(0.15) { o["corner-radius"] = rng.pick(["0", "500"]) }
        case "alert":
            // Its one option is dim-alpha (its durations and curves are UIKit's alert's).
            o = o.filter { $0.key == "dim-alpha" || $0.key == "dismissible" }
        default:  // adaptive
            if rng.chance(0.2) { o["height"] = rng.pick(["0.01", "5000"]) }
            if rng.chance(0.2) { o["max-width"] = rng.pick(["1", "5000"]) }
            if rng.chance(0.2) { o["sheet-height"] = rng.pick(["1", "0.05", "3000"]) }
            if rng.chance(0.15) { o["corner-radius"] = rng.pick(["0", "500"]) }
        }
        return FuzzStyleSpec(name, o)
    }

    static func scale(_ rng: inout SplitMix64) -> Double {
        switch rng.weighted([30, 20, 10, 10, 10, 4, 4, 6, 6]) {
        case 0: return 1
        case 1: return 2
        case 2: return 1.25
        case 3: return 1.5
        case 4: return 1.75
        case 5: return 3
        case 6: return 0.5
        case 7: return Double(rng.int(121...360)) / 120  // wp_fractional_scale_v1: n/120
        default: return rng.pick([0, -1, .nan, .infinity])  // means 1
        }
    }

    // MARK: Steps

    static func point(_ rng: inout SplitMix64) -> FuzzPoint {
        switch rng.weighted([30, 35, 25, 10]) {
        case 0: return .container(rng.double(-0.1...1.1), rng.double(-0.1...1.1))
        case 1:
            let edge = [0.0, 0.001, 0.5, 0.999, 1.0]
            return rng.chance(0.2) ? .presented(rng.pick(edge), rng.pick(edge))
                : .presented(rng.double(0.02...0.98), rng.double(0.02...0.98))
        case 2: return .control(rng.below(3), rng.double(0.1...0.9), rng.double(0.1...0.9))
        default: return .container(rng.pick([0.0, 0.5, 1.0]), rng.pick([0.0, 0.5, 1.0]))
        }
    }

    static func advance(_ rng: inout SplitMix64) -> FuzzStep {
        switch rng.weighted([12, 8, 25, 15, 15, 8, 3, 6]) {
        case 0: return .advance(0)
        case 1: return .advance(rng.double(0.0001...0.004))
        case 2: return .advance(rng.double(0.004...0.02))
        case 3: return .advance(rng.double(0.02...0.1))
        case 4: return .advance(rng.double(0.1...0.6))
        case 5: return .advance(rng.skewed(1...100))
        case 6: return .advance(rng.skewed(1e4...1e7))
        default: return .advance(-rng.double(0.0005...0.05))
        }
    }

    static func resize(_ rng: inout SplitMix64) -> FuzzStep {
        func r(_ w: Double, _ h: Double) -> FuzzStep { .resize(width: w, height: h) }
        switch rng.weighted([10, 45, 10, 6, 8, 5, 2]) {
        case 0:
            return rng.chance(0.5) ? r(Double(rng.int(1...12)), Double(rng.int(1...12)))
                : rng.pick([r(1, 1), r(1, 2), r(2, 1), r(0.3, 0.4), r(0, 0), r(-10, 5)])
        case 1: return r(rng.double(20...320).rounded(), rng.double(20...320).rounded())
        case 2:
            let w = rng.double(120...620), h = rng.double(100...520)
            return rng.chance(0.3) ? r(w, h) : r(w.rounded(), h.rounded())
        case 3: return rng.pick([r(450, 360), r(451, 361), r(449, 500), r(900, 360), r(900, 361), r(450.5, 360.5)])
        case 4:
            // Huge along one side, thin along the other: beyond the 32767-pixel cache limit, still
            // a buffer of a few hundred kilobytes.
            let long = rng.chance(0.5) ? rng.skewed(33000...2e6) : 16384 + Double(rng.int(0...4))
            let thin = Double(rng.int(1...6))
            return rng.chance(0.5) ? r(long, thin) : r(thin, long)
        case 5: return r(rng.skewed(1e5...2.1e9).rounded(), rng.skewed(1e5...2.1e9).rounded())
        default: return rng.pick([r(.infinity, 100), r(.nan, .nan), r(100, -.infinity), r(1e300, 1e300)])
        }
    }

    static func key(_ rng: inout SplitMix64) -> PresentationKey {
        [.escape, .activate, .tab, .backTab][rng.weighted([30, 25, 25, 20])]
    }

    static func burst(_ rng: inout SplitMix64, _ profile: Profile, into s: inout [FuzzStep]) {
        switch rng.weighted([10, 6, 12, 6, 12, 12, 5, 7, 4, 18, profile.frames, 2, 6]) {
        case 0:  // pointer tap
            s.append(.pointerMotion(point(&rng)))
            s.append(.pointerButton(pressed: true))
            if rng.chance(0.3) { s.append(advance(&rng)) }
            if rng.chance(0.2) { s.append(.pointerMotion(.delta(rng.double(-4...4), rng.double(-4...4)))) }
            s.append(.pointerButton(pressed: false))
        case 1:  // touch tap
            let id = Int32(rng.below(3))
            s.append(.touchDown(id: id, point(&rng)))
            if rng.chance(0.3) { s.append(advance(&rng)) }
            s.append(rng.chance(0.9) ? .touchUp(id: id) : .touchCancel)
        case 2:  // drag: press on the presented view (or anywhere), move between frames, release
            let touch = rng.chance(0.4)
            let id = Int32(rng.below(3))
            let start: FuzzPoint = rng.chance(0.8) ? .presented(rng.double(0.1...0.9), rng.double(0.05...0.95)) : point(&rng)
            if touch {
                s.append(.touchDown(id: id, start))
            } else {
                s.append(.pointerMotion(start))
                s.append(.pointerButton(pressed: true))
            }
            let down = rng.chance(0.75) ? 1.0 : -1.0
            for _ in 0..<rng.int(1...12) {
                let p = FuzzPoint.delta(rng.double(-3...3), down * rng.skewed(1...80) * (rng.chance(0.15) ? -1 : 1))
                s.append(touch ? .touchMotion(id: id, p) : .pointerMotion(p))
                s.append(.advance(rng.double(0.004...0.03)))
                if rng.chance(profile.framesInDrags) { s.append(.render(buffer: rng.below(3), fresh: false)) }
            }
            switch rng.weighted([70, 10, 10, 10]) {
            case 0: s.append(touch ? .touchUp(id: id) : .pointerButton(pressed: false))
            case 1: s.append(touch ? .touchCancel : .pointerLeave)
            case 2: break  // left pressed
            default:
                s.append(.advance(rng.double(0.12...0.4)))  // rests before lifting: no velocity
                s.append(touch ? .touchUp(id: id) : .pointerButton(pressed: false))
            }
        case 3:  // hover
            for _ in 0..<rng.int(1...4) {
                s.append(.pointerMotion(rng.chance(0.3) ? .delta(rng.double(-30...30), rng.double(-30...30)) : point(&rng)))
            }
        case 4:  // keys
            let k = key(&rng)
            switch rng.weighted([80, 10, 10]) {
            case 0: s.append(.key(k, pressed: true)); s.append(.key(k, pressed: false))
            case 1: s.append(.key(k, pressed: true))
            default: s.append(.key(k, pressed: false))
            }
        case 5:  // the app presents (often letting the transition end, so the next can stack on it)
            s.append(.present(content: rng.int(1...4), style: rng.chance(0.2) ? nil : rng.int(1...3)))
            switch rng.weighted([50, 30, 20]) {
            case 0: s.append(.advance(rng.double(0.2...2)))
            case 1: s.append(advance(&rng))
            default: break
            }
        case 6: s.append(.dismiss)
        case 7: s.append(resize(&rng))
        case 8: s.append(.scale(scale(&rng)))
        case 9: s.append(advance(&rng))
        case 10:
            switch rng.weighted([70, 12, 18]) {
            case 0: s.append(.render(buffer: rng.below(3), fresh: rng.chance(0.15)))
            case 1: s.append(.layerFrame)
            default: s.append(.renderPresentingLayer(buffer: rng.below(3), fresh: rng.chance(0.15)))
            }
        case 11: s.append(.reducedMotion(rng.chance(0.5)))
        default:  // stray events
            let id = Int32(rng.below(4))
            let p = point(&rng)
            let stray: [FuzzStep] = [.pointerButton(pressed: false), .pointerButton(pressed: true), .pointerLeave,
                                     .touchUp(id: id), .touchCancel, .touchMotion(id: id, p), .touchDown(id: id, p),
                                     .pointerMotion(p)]
            s.append(rng.pick(stray))
        }
    }
}
