// The session library (compositors, input, screenshots, child processes) is part of the harness's
// API: every test that imports the harness sees it.
@_exported import ModalKitSession
