import Glibc

/// The current `CLOCK_MONOTONIC` time in seconds: the one clock of ModalKit. Presentation hosts,
/// windows, frame times, input event times (converted), presentation feedback and every timeout
/// are on it; animations are driven by it (time comes from the clock, never from counting frames:
/// docs/design.md, frame pipeline).
///
/// Allocates nothing (`clock_gettime` is a vDSO call), so it may be read inside a frame.
/// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC, …)`.
@inlinable
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}

/// CPU time of the calling thread in seconds (what a frame cost the client, not how long it took).
/// The corresponding C function is `clock_gettime(CLOCK_THREAD_CPUTIME_ID, …)`.
@inlinable
public func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}
