import CModalKitWaylandClient
import CModalKitXkbCommon
import Glibc

/// The xkbcommon side of a keyboard: the compositor's keymap and the key/modifier state over it.
///
/// Owns an `xkb_context`, and the current `xkb_keymap` + `xkb_state` (unreferenced in `deinit`).
/// Every `wl_keyboard.keymap` replaces keymap *and* state (clients that set xkb up once misread
/// keys after a VNC server or `wtype` brings its own keymap; docs/design.md, rules from the field,
/// 6); the fd is mapped private and read-only (wl_keyboard v7+ requires MAP_PRIVATE); a format
/// other than `xkb_v1` is ignored; the fd is closed in every case.
///
/// Compose and dead keys (xkbcommon's `xkb_compose`, as foot and GTK use it): the compose table of
/// the locale named by the first of `LC_ALL`, `LC_CTYPE`, `LANG` that is set and not empty ("C"
/// otherwise; xkbcommon reads it from /usr/share/X11/locale and honours `XCOMPOSEFILE` and
/// `~/.XCompose`), loaded at the first key press; every press is fed to the compose state before
/// its keysym is used (``ComposeOutcome``).
final class XkbKeyboard {
    /// The outcome of ``loadKeymap(format:fd:size:)``.
    enum KeymapLoad: Equatable {
        /// The new keymap and a fresh state are in effect.
        case replaced
        /// Not `WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1` (e.g. `no_keymap`): the event was ignored.
        case ignoredFormat(UInt32)
        /// The fd could not be mapped or the text did not compile: keymap and state are dropped
        /// (keys are ignored until a valid keymap arrives — better than misreading them with the
        /// old one).
        case failed(String)
    }

    private let context: OpaquePointer
    private(set) var keymap: OpaquePointer?
    private(set) var state: OpaquePointer?
    /// The text of a keymap received but not compiled yet (``storeKeymap(format:fd:size:)``):
    /// compiled at its first use (``compilePendingKeymap()``), so a window's first frame never
    /// waits for xkbcommon (docs/design.md, start-up and footprint).
    private var pendingText: [CChar]?

    /// Whether a keymap was stored and not compiled yet.
    var hasPendingKeymap: Bool { pendingText != nil }
    /// The locale whose compose table is used (nil: none; compose is off).
    let composeLocale: String?
    /// The compose table and state, made at the first key press (nil before, or when the locale
    /// has no table: keys then type what the keymap says).
    private var compose: (table: OpaquePointer, state: OpaquePointer)?
    private var composeLoaded = false

    /// The locale for compose tables: the first of `LC_ALL`, `LC_CTYPE`, `LANG` that is set and
    /// not empty (POSIX's order of precedence for the character type category), else "C".
    static func composeLocale(environment: (String) -> String?) -> String {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment(name), !value.isEmpty { return value }
        }
        return "C"
    }

    /// - Parameter composeLocale: the compose table's locale; by default the environment's
    ///   (``composeLocale(environment:)``); nil turns compose off.
    init?(composeLocale: String? = XkbKeyboard.composeLocale(environment: { getenv($0).map { String(cString: $0) } })) {
        self.composeLocale = composeLocale
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        // xkbcommon logs its errors to stderr itself, several lines per bad keymap; the outcome is
        // reported once instead (``KeymapLoad/failed(_:)``, one line from ``Keyboard``).
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        self.context = context
    }

    deinit {
        dropKeymap()
        if let compose {
            xkb_compose_state_unref(compose.state)
            xkb_compose_table_unref(compose.table)
        }
        xkb_context_unref(context)
    }

    /// Handles `wl_keyboard.keymap(format, fd, size)`: compiles it now. Always closes `fd`.
    @discardableResult
    func loadKeymap(format: UInt32, fd: Int32, size: UInt32) -> KeymapLoad {
        let stored = storeKeymap(format: format, fd: fd, size: size)
        guard stored == .replaced else { return stored }
        return compilePendingKeymap() ?? .replaced
    }

    /// Handles `wl_keyboard.keymap(format, fd, size)` without compiling: the old keymap and state
    /// are dropped and the new text is kept until ``compilePendingKeymap()`` (which every key,
    /// modifier and repeat query calls first). Always closes `fd`.
    /// - Returns: `.replaced` when the text was kept (whether it compiles is known at its first
    ///   use), `.ignoredFormat` for another format (the current keymap stays), `.failed` when
    ///   the fd cannot be read (the old keymap is dropped).
    @discardableResult
    func storeKeymap(format: UInt32, fd: Int32, size: UInt32) -> KeymapLoad {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else { return .ignoredFormat(format) }
        dropKeymap()
        guard size > 0 else { return .failed("empty keymap") }
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0),
              map != UnsafeMutableRawPointer(bitPattern: -1) else {
            return .failed("mmap: \(errnoDescription())")
        }
        defer { munmap(map, Int(size)) }
        // The text is NUL-terminated within `size`; never read past the mapping.
        let text = map.assumingMemoryBound(to: CChar.self)
        let length = strnlen(text, Int(size))
        pendingText = Array(UnsafeBufferPointer(start: text, count: length))
        return .replaced
    }

    /// Compiles the stored keymap, if there is one.
    /// - Returns: nil when none was pending; `.replaced` or `.failed` (keys are ignored until a
    ///   valid keymap arrives) otherwise.
    @discardableResult
    func compilePendingKeymap() -> KeymapLoad? {
        guard let text = pendingText else { return nil }
        pendingText = nil
        return text.withUnsafeBufferPointer { buffer in
            install(xkb_keymap_new_from_buffer(context, buffer.baseAddress, buffer.count, XKB_KEYMAP_FORMAT_TEXT_V1,
                                               XKB_KEYMAP_COMPILE_NO_FLAGS))
        }
    }

    /// Compiles a keymap from RMLVO names (tests and a client-side fallback).
    @discardableResult
    func loadKeymap(layout: String, variant: String = "") -> KeymapLoad {
        dropKeymap()
        let keymap: OpaquePointer? = layout.withCString { layout in
            variant.withCString { variant in
                var names = xkb_rule_names(rules: nil, model: nil, layout: layout, variant: variant, options: nil)
                return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
            }
        }
        return install(keymap)
    }

    /// The keymap in effect as xkb text (nil without a keymap).
    var keymapText: String? {
        compilePendingKeymap()
        guard let keymap, let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// `wl_keyboard.modifiers`: the serialized xkb modifier and layout state.
    func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        compilePendingKeymap()
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// The event for evdev key `code` (xkb keycode = evdev + 8) in the current state.
    func event(code: UInt32, pressed: Bool, isRepeat: Bool) -> KeyEvent {
        compilePendingKeymap()
        guard let state else {
            return KeyEvent(keysym: 0, pressed: pressed, isRepeat: isRepeat, utf8: "", code: code)
        }
        let keycode = code + 8
        var keysym = xkb_state_key_get_one_sym(state, keycode)
        var utf8 = ""
        if pressed {
            switch feedCompose(keysym) {
            case .none:
                var buffer = [CChar](repeating: 0, count: 64)
                let count = xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
                if count > 0 { utf8 = String(cString: buffer) }
            case .composing, .cancelled:
                break   // part of a sequence, or a sequence given up: nothing is typed
            case let .composed(text, sym):
                utf8 = text
                if sym != 0 { keysym = sym }
            }
        }
        return KeyEvent(keysym: keysym, pressed: pressed, isRepeat: isRepeat, utf8: utf8,
                        modifiers: modifiers, code: code)
    }

    /// What a press did to the compose sequence (xkb_compose_status after feeding its keysym).
    enum ComposeOutcome: Equatable {
        /// No sequence under way (or compose off, or a modifier's keysym): the key types what the
        /// keymap says.
        case none
        /// The keysym started or continued a sequence (a dead key, Multi_key): nothing typed yet.
        case composing
        /// The sequence ended in `text` (the table's result, e.g. "ê") and `keysym` (0: none).
        case composed(text: String, keysym: UInt32)
        /// The keysym does not continue the sequence: the sequence and this key type nothing.
        case cancelled
    }

    /// Feeds `keysym` (a press) to the compose state, loading the table at the first press.
    func feedCompose(_ keysym: UInt32) -> ComposeOutcome {
        if !composeLoaded { loadCompose() }
        guard let compose, xkb_compose_state_feed(compose.state, keysym) == XKB_COMPOSE_FEED_ACCEPTED else { return .none }
        switch xkb_compose_state_get_status(compose.state) {
        case XKB_COMPOSE_COMPOSING:
            return .composing
        case XKB_COMPOSE_COMPOSED:
            var buffer = [CChar](repeating: 0, count: 256)
            let count = xkb_compose_state_get_utf8(compose.state, &buffer, buffer.count)
            let text = count > 0 ? String(decoding: buffer.prefix(min(Int(count), buffer.count - 1)).map { UInt8(bitPattern: $0) },
                                          as: UTF8.self) : ""
            let sym = xkb_compose_state_get_one_sym(compose.state)
            xkb_compose_state_reset(compose.state)
            return .composed(text: text, keysym: sym)
        case XKB_COMPOSE_CANCELLED:
            xkb_compose_state_reset(compose.state)
            return .cancelled
        default:
            return .none
        }
    }

    private func loadCompose() {
        composeLoaded = true
        guard let composeLocale,
              let table = xkb_compose_table_new_from_locale(context, composeLocale, XKB_COMPOSE_COMPILE_NO_FLAGS) else { return }
        guard let state = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS) else {
            xkb_compose_table_unref(table)
            return
        }
        compose = (table, state)
    }

    /// Whether the keymap says evdev key `code` repeats (modifiers, for instance, do not).
    func keyRepeats(code: UInt32) -> Bool {
        compilePendingKeymap()
        guard let keymap else { return false }
        return xkb_keymap_key_repeats(keymap, code + 8) != 0
    }

    /// The effective modifiers.
    var modifiers: KeyModifiers {
        compilePendingKeymap()
        guard let state else { return [] }
        var result: KeyModifiers = []
        let names: [(String, KeyModifiers)] = [("Shift", .shift), ("Control", .control), ("Mod1", .alt),
                                               ("Mod4", .logo), ("Lock", .capsLock), ("Mod2", .numLock)]
        for (name, modifier) in names where xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 {
            result.insert(modifier)
        }
        return result
    }

    private func install(_ newKeymap: OpaquePointer?) -> KeymapLoad {
        guard let newKeymap else { return .failed("xkbcommon could not compile the keymap") }
        guard let newState = xkb_state_new(newKeymap) else {
            xkb_keymap_unref(newKeymap)
            return .failed("xkb_state_new failed")
        }
        keymap = newKeymap
        state = newState
        return .replaced
    }

    private func dropKeymap() {
        pendingText = nil
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        state = nil
        keymap = nil
    }
}
