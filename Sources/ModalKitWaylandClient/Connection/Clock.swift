// The clock of ``DrawTarget/time`` and of everything the window hands to its delegate is
// `ModalKitClock`'s ``monotonicSeconds()``, re-exported so that an app on ModalKitWaylandClient reads the
// same clock without importing a second module.
@_exported import ModalKitClock
