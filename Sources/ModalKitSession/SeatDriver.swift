// What the sessions whose compositor has no headless input of its own (mutter, KWin) share: a
// driver program answering one line per command, and the click and key press made of its
// pointer and key events.
import Foundation

extension ChildProcess {
    /// Writes `command` as one line to the child's stdin and waits (bounded) for the line it
    /// answers on stdout (a session's driver: mutter_remote_desktop.py, kwin_driver.c).
    /// - Throws: `HarnessError` when stdin cannot be written or no answer comes within `timeout`
    ///   seconds (with the driver's output).
    func request(_ command: String, timeout: Double) throws -> String {
        let before = stdout.lines.count
        try writeToStandardInput(command + "\n")
        guard let answer = stdout.wait(timeout: timeout, { $0.count > before ? $0[before] : nil }) else {
            throw HarnessError("\(name) gave no answer to `\(command)` within \(timeout) s:\n\(diagnostics())")
        }
        return answer
    }
}

/// A seat's pointer and keyboard as a session's driver moves and presses them; a click and a key
/// press are made of those events the same way in every session.
public protocol SeatDriving {
    /// How the driver names a key (a Linux input event code, an X keysym).
    associatedtype KeyCode
    /// Moves the pointer to (`x`, `y`), in the session's coordinates.
    func move(x: Double, y: Double) throws
    /// Presses (`true`) or releases the left button.
    func leftButton(pressed: Bool) throws
    /// Presses (`true`) or releases a key.
    func key(_ code: KeyCode, pressed: Bool) throws
}

extension SeatDriving {
    /// Moves the pointer to (`x`, `y`) and clicks the left button.
    public func click(x: Double, y: Double) throws {
        try move(x: x, y: y)
        try leftButton(pressed: true)
        try leftButton(pressed: false)
    }

    /// Presses and releases a key.
    public func key(_ code: KeyCode) throws {
        try key(code, pressed: true)
        try key(code, pressed: false)
    }
}
