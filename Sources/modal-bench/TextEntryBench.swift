// modal-bench --text-entry: typing into and pasting into modal-demo's form, offscreen.
import ModalKit
import Foundation
import ModalKitBenchSupport
import ModalKitClock
import ModalKitContent
import ModalKitDemo
import ModalKitPlugins
import ModalKitWaylandClient

/// What one style and size's text entry measured.
private struct TextEntryFigures {
    /// Key press → rendered frame, one sample per typed character, ms.
    var typedMS: [Double] = []
    /// Typed characters whose first frame after the key showed them (the text grew and the frame
    /// damaged pixels).
    var shownInNextFrame = 0
    /// Heap allocations over the counted characters' input and frames.
    var allocations: UInt64 = 0
    var countedCharacters = 0
    /// Heap allocations over a line of words never typed before (after the runs), and its length.
    var freshAllocations: UInt64 = 0
    var freshCharacters = 0
    /// Ctrl+V → rendered frame with 10,000 characters, ms, one sample per run.
    var pasteMS: [Double] = []
    var pastesShown = 0
}

/// The characters typed per run (one per frame), as a user types a file name.
let typedLine = Array("Quarterly report, the final version, 2026")
/// Typed once after the runs: words the font has not shaped before (each key changes a new word,
/// which fcft shapes and rasterises).
let freshLine = Array("Minutes of the board meeting, draft seven")
/// The pasted text: 10,000 characters of ASCII words.
let pastedText: String = {
    let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
    var s = ""
    var i = 0
    while s.count < 10_000 {
        s += words[i % words.count] + " "
        i += 1
    }
    return String(s.prefix(10_000))
}()

func runTextEntry(runs: Int) throws {
    print("method   modal-demo's form (--content form: an alert whose text field has focus), then its password")
    print("         field (--secure), presented offscreen and drawn at 60 Hz by modal-demo's own frame code, as")
    print("         the frame mode does. Per run: the field emptied, then \(typedLine.count) characters typed one per frame")
    print("         — the key's press and release given to the demo, the field's text-input state read as the")
    print("         window reads it after input, then the frame rendered — timed from the press to the end of the")
    print("         render; then the field emptied and \(Format.grouped(pastedText.count)) characters pasted with Ctrl+V from the")
    print("         in-process pasteboard (no Wayland selection transfer), timed the same way. One warm-up run,")
    print("         then \(runs). Allocations: malloc & co. in the whole process over each typed character's input and")
    print("         frame. After the runs, \(freshLine.count) more characters typed the same way: a line of words never")
    print("         typed before, each of which the font shapes and fcft rasterises anew (a password field")
    print("         shows bullets: no new words).")
    var all: [(label: String, figures: TextEntryFigures)] = []
    for (name, module) in modules {
        for size in sizes {
            for secure in [false, true] {
                let label = "\(name) \(size)\(secure ? ", password field (--secure)" : "")"
                let figures = try measureTextEntry(style: try module.makeStyle(), size: size, runs: runs, secure: secure)
                all.append((label, figures))
                report(label: label, figures, runs: runs)
            }
        }
    }
    print("")
    print("targets")
    let typed = all.reduce(0) { $0 + $1.figures.typedMS.count }
    let shown = all.reduce(0) { $0 + $1.figures.shownInNextFrame }
    print("  a typed character in the frame after its key: \(shown == typed ? "met" : "MISSED") (\(shown) of \(typed))")
    let allocations = all.reduce(UInt64(0)) { $0 + $1.figures.allocations }
    let counted = all.reduce(0) { $0 + $1.figures.countedCharacters }
    print("  0 heap allocations per typed character after warm-up: \(allocations == 0 ? "met" : "MISSED")"
          + " (\(allocations) in \(Format.grouped(counted)) typed characters)")
}

private func report(label: String, _ f: TextEntryFigures, runs: Int) {
    let typed = f.typedMS.sorted(), paste = f.pasteMS.sorted()
    let perChar = f.countedCharacters > 0 ? Double(f.allocations) / Double(f.countedCharacters) : 0
    print("")
    print("\(label): \(typed.count) typed characters (\(runs) runs of \(typedLine.count)), \(paste.count) pastes")
    print("  typed key → frame median  \(ms(Statistics.median(sorted: typed) ?? 0)) ms")
    print("  typed key → frame p99     \(ms(Statistics.percentile(99, sorted: typed) ?? 0)) ms")
    print("  typed, next frame         \(f.shownInNextFrame) of \(typed.count) shown in the frame after the key")
    print("  allocations per character \(f.allocations == 0 ? "0" : String(format: "%.2f", perChar))"
          + " (\(f.allocations) in \(f.countedCharacters))")
    let perFresh = f.freshCharacters > 0 ? Double(f.freshAllocations) / Double(f.freshCharacters) : 0
    print("  allocations per character of new words \(f.freshAllocations == 0 ? "0" : String(format: "%.2f", perFresh))"
          + " (\(f.freshAllocations) in \(f.freshCharacters))")
    print("  paste \(Format.grouped(pastedText.count)) → frame median  \(ms(Statistics.median(sorted: paste) ?? 0)) ms")
    print("  paste \(Format.grouped(pastedText.count)) → frame max     \(ms(paste.last ?? 0)) ms")
    print("  paste, next frame         \(f.pastesShown) of \(paste.count) shown in the frame after Ctrl+V")
}

private func key(_ character: Character, _ phase: KeyInput.Phase) -> SceneInput {
    let scalar = character.unicodeScalars.first!.value
    return .keyboard(KeyInput(keysym: scalar, phase: phase, text: phase == .release ? "" : String(character)))
}

private func measureTextEntry(style: PresentationStyle, size: BenchSize, runs: Int, secure: Bool) throws -> TextEntryFigures {
    let driver = try SceneDriver(style: style, size: size)
    let alert = FormDemo.makeAlert(secure: secure, log: nil)
    driver.scene.presentsAlert = true
    driver.scene.makeAlertContent = { alert }
    try driver.transition(present: true) { _ in }
    guard let field = alert.textFields.first, field.isFocused else {
        throw BenchFailure(description: "the form's text field has no focus after the presentation")
    }
    let host = driver.scene.host
    var figures = TextEntryFigures()
    figures.typedMS.reserveCapacity(runs * typedLine.count)
    let dt = 1 / SceneDriver.frameRate
    for run in 0...runs {
        let counted = run > 0
        field.text = ""
        _ = driver.frame(at: driver.now + dt)
        for c in typedLine {
            let before = field.model.text.utf8.count
            let t = driver.now + dt
            let start = monotonicSeconds()
            let sample = driver.frame(at: t) {
                driver.scene.handle(key(c, .press), now: t - dt / 2)
                driver.scene.handle(key(c, .release), now: t - dt / 4)
                // What the window sends the input method after input.
                _ = host.textInputState(at: t)
            }
            let elapsed = monotonicSeconds() - start
            guard counted else { continue }
            figures.typedMS.append(elapsed * 1000)
            if field.model.text.utf8.count > before && sample.damagedPixels > 0 { figures.shownInNextFrame += 1 }
            figures.allocations += sample.allocations
            figures.countedCharacters += 1
        }
        field.text = ""
        _ = driver.frame(at: driver.now + dt)
        Pasteboard.general.setText(pastedText)
        let t = driver.now + dt
        let start = monotonicSeconds()
        let sample = driver.frame(at: t) {
            let v = KeyInput(keysym: 0x76, phase: .press, text: "\u{16}", modifiers: .control)
            driver.scene.handle(.keyboard(v), now: t - dt / 2)
            driver.scene.handle(.keyboard(KeyInput(keysym: 0x76, phase: .release, modifiers: .control)), now: t - dt / 4)
            _ = host.textInputState(at: t)
        }
        let elapsed = monotonicSeconds() - start
        guard counted else { continue }
        figures.pasteMS.append(elapsed * 1000)
        if field.model.characterCount == pastedText.count && sample.damagedPixels > 0 { figures.pastesShown += 1 }
    }
    field.text = ""
    _ = driver.frame(at: driver.now + dt)
    for c in freshLine {
        let t = driver.now + dt
        let sample = driver.frame(at: t) {
            driver.scene.handle(key(c, .press), now: t - dt / 2)
            driver.scene.handle(key(c, .release), now: t - dt / 4)
            _ = host.textInputState(at: t)
        }
        figures.freshAllocations += sample.allocations
        figures.freshCharacters += 1
    }
    return figures
}
