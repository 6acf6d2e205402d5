import Glibc

/// The current `CLOCK_MONOTONIC` time in seconds.
///
/// This is the clock of ``DrawTarget/time`` and of everything the window hands to its delegate;
/// animations must be driven by it (time comes from the clock, never from counting frames:
/// docs/design.md, frame pipeline).
/// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC, …)`.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}

/// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), seconds.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1_000_000_000
}
