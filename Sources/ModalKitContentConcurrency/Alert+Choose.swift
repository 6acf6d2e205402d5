import ModalKit
@_exported import ModalKitContent

// Swift concurrency for ModalKitContent, in a module of its own: ModalKitContent is built without
// the implicit `_Concurrency` import (as every run-time module: a program that does not await
// maps neither libswift_Concurrency nor libdispatch), so only apps that link this module pay for them.

extension Alert {
    /// Waits for the user's choice and returns the chosen response's id (libadwaita's
    /// `adw_alert_dialog_choose`): at once when one was chosen already; the close response when
    /// the host dismissed the alert and ``Alert/hostDismissed(now:)`` was called. Present the
    /// alert first, from the main thread; the code after the `await` runs wherever the calling
    /// task resumes (a task of the global executor while the window's loop blocks the main
    /// thread): hand work for the window back to the main thread from there.
    public func choose() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            whenResponded { continuation.resume(returning: $0) }
        }
    }
}

extension Alert {
    /// Waits for the user's choice and returns it with the text fields' texts at that moment
    /// (UIKit reads `alert.textFields` in the action's handler), as ``choose()`` does.
    public func result() async -> AlertResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<AlertResult, Never>) in
            whenResult { continuation.resume(returning: $0) }
        }
    }
}

extension ActionSheet {
    /// Waits for the user's choice and returns the chosen action's id (as ``Alert/choose()``).
    public func choose() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            whenResponded { continuation.resume(returning: $0) }
        }
    }
}
