import ModalKit
import ModalKitContent
import ModalKitSystemSupport

/// `--content form`: an alert that asks for a name in one text field (UIKit's
/// `UIAlertController.addTextField`; libadwaita's `AdwAlertDialog` with an `AdwEntryRow`).
public enum FormDemo {
    /// The alert: "Rename file", a message, one text field with keyboard focus (placeholder "Name";
    /// a password field when `secure`), Cancel (the close response: Escape) and OK (suggested, the
    /// default response: Return). `log` gets one line per event of the field and the answer:
    /// `text "TEXT"` after every change, `preedit "TEXT" BEGIN END` for an input method's preedit
    /// (its cursor in bytes, -1 -1 when hidden), `response ok "TEXT"` or `response cancel` —
    /// strings as ``jsonQuoted(_:)``, a secure field's as one • per character. Without `log` no line
    /// is made (a key typed into the field costs no string).
    public static func makeAlert(secure: Bool, log: ((String) -> Void)?) -> Alert {
        let alert = Alert(title: secure ? "Unlock keyring" : "Rename file",
                          message: secure ? "Enter the password for “login”." : "Enter a new name for “Report.pdf”.",
                          responses: [Response("cancel", label: "Cancel"), Response("ok", label: "OK", appearance: .suggested)],
                          defaultResponse: "ok", closeResponse: "cancel")
        let field = alert.addTextField(TextField(placeholder: secure ? "Password" : "Name", isSecure: secure))
        field.accessibilityLabel = secure ? "Password" : "Name"
        guard let log else { return alert }
        field.onChange = { [unowned field] _ in log("text \(jsonQuoted(field.displayText))") }
        field.onPreeditChange = { preedit in
            guard let p = preedit else { return }
            let shown = secure ? String(repeating: "•", count: p.text.count) : p.text
            let begin = secure ? -1 : p.cursor?.lowerBound ?? -1, end = secure ? -1 : p.cursor?.upperBound ?? -1
            log("preedit \(jsonQuoted(shown)) \(begin) \(end)")
        }
        alert.onResult = { result, _ in
            if result.response == "ok" {
                let text = result.texts.first ?? ""
                log("response ok \(jsonQuoted(secure ? String(repeating: "•", count: text.count) : text))")
            } else {
                log("response \(result.response)")
            }
        }
        return alert
    }

    /// The alert of ``makeAlert(secure:log:)`` as `render --content form` draws it: the field focused
    /// holding "Report 2026.pdf" with "Report 2026" selected (a file manager's rename), or with
    /// `secure` seven characters shown as bullets.
    public static func makeSampleAlert(secure: Bool) -> Alert {
        let alert = makeAlert(secure: secure, log: nil)
        let field = alert.textFields[0]
        field.text = secure ? "hunter2" : "Report 2026.pdf"
        if !secure { field.select(0..<"Report 2026".utf8.count) }
        field.isFocused = true
        return alert
    }

    /// `text` as a JSON string literal (RFC 8259): in double quotes, `"` and `\` escaped, control
    /// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; everything else as it is (UTF-8).
    public static func jsonQuoted(_ text: String) -> String { JSONString.quoted(text) }
}
