import Glibc

/// The one buffer a passphrase lives in between the prompt and the `D` line that sends it (pinentry's
/// secure memory): a fixed block of ``capacity`` bytes allocated once, locked into RAM where the
/// system allows (`mlock(2)`, so it is not swapped out; refused locks are ignored, as pinentry's
/// `secmem` does without privileges), and wiped with `explicit_bzero(3)` — a write the compiler
/// may not drop — by ``wipe()``, before a new value, and when the buffer is freed.
///
/// The bytes are UTF-8 (what gpg-agent expects in the `D` line). Nothing here logs or copies them.
public final class PinentrySecret {
    /// The most bytes a passphrase may have (UTF-8). gpg-agent's own limit is smaller (its
    /// `MAX_PASSPHRASE_LEN`, 255 bytes); a longer entry is refused rather than cut.
    public static let capacity = 4096

    private let storage: UnsafeMutableRawBufferPointer
    /// The length of the value, bytes (0 after ``wipe()``).
    public private(set) var count = 0

    public init() {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.capacity, alignment: 16)
        explicit_bzero(storage.baseAddress!, storage.count)
        _ = mlock(storage.baseAddress, storage.count)
    }

    deinit {
        wipe()
        _ = munlock(storage.baseAddress, storage.count)
        storage.deallocate()
    }

    /// Replaces the value with `text`'s UTF-8 bytes (the old value wiped first).
    /// - Returns: false, with the buffer left empty, when `text` is longer than ``capacity`` bytes.
    @discardableResult
    public func set(_ text: String) -> Bool {
        wipe()
        var copied = true
        var text = text
        text.withUTF8 { bytes in
            guard bytes.count <= storage.count else { copied = false; return }
            storage.copyMemory(from: UnsafeRawBufferPointer(bytes))
            count = bytes.count
        }
        return copied
    }

    /// Replaces the value with `bytes` (the old value wiped first).
    /// - Returns: false, with the buffer left empty, when `bytes` is longer than ``capacity``.
    @discardableResult
    public func set(bytes: UnsafeRawBufferPointer) -> Bool {
        wipe()
        guard bytes.count <= storage.count else { return false }
        storage.copyMemory(from: bytes)
        count = bytes.count
        return true
    }

    /// Calls `body` with the value's bytes; the pointer is valid only inside `body`.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Whether two secrets hold the same bytes (every byte compared, whatever differs first).
    public func matches(_ other: PinentrySecret) -> Bool {
        var difference = UInt8(count == other.count ? 0 : 1)
        for i in 0..<min(count, other.count) { difference |= storage[i] ^ other.storage[i] }
        return difference == 0
    }

    /// Sets every byte of the whole block to zero (``count`` becomes 0).
    public func wipe() {
        explicit_bzero(storage.baseAddress!, storage.count)
        count = 0
    }

    /// The whole block, whatever ``count`` says (tests read it to see that a sent value was wiped).
    var blockForTesting: UnsafeRawBufferPointer { UnsafeRawBufferPointer(storage) }
}
