"""Put first on PYTHONPATH for Orca in the end-to-end tests: opens the file named by
MODALKIT_ORCA_DEBUG_FILE (Orca's --debug-file) line-buffered, so that every line Orca logs —
its "SPEECH OUTPUT:" lines among them — is in the file as soon as Orca has written it and the
harness can wait for it. Orca opens it with open(path, 'w'), which a file (not a terminal)
otherwise buffers by 8 KiB. Nothing else changes."""
import builtins
import os

_path = os.environ.get("MODALKIT_ORCA_DEBUG_FILE")
if _path:
    _open = builtins.open

    def _open_line_buffered(file, mode="r", buffering=-1, *args, **kwargs):
        if (buffering == -1 and isinstance(file, str) and "b" not in mode and "w" in mode
                and os.path.abspath(file) == os.path.abspath(_path)):
            buffering = 1
        return _open(file, mode, buffering, *args, **kwargs)

    builtins.open = _open_line_buffered
