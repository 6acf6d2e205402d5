"""Real input for a headless sway through wayvnc, for ModalKit's end-to-end tests: ONE VNC client
(vncdotool's API) for as long as it runs, instead of one `vncdo` process per action (each of
those spends about half a second of CPU importing Twisted).

Usage: PYTHON vnc_input.py HOST::PORT      (PYTHON: the interpreter vncdotool is installed for)

stdout: `ready` once connected, then one line per command line: `ok` or `error MESSAGE`.
stdin, one command line per line: `DELAY_MS WORD ARGS… [WORD ARGS…]…`, the words of vncdo's
command language that the tests use:
  move X Y        pointer to (X, Y), the output's pixels
  click N         press and release button N (1 = left)
  mousedown N     press button N (held until a mouseup: the client stays connected)
  mouseup N       release button N
  key NAME        press and release a key (vncdotool's names: enter, esc, tab, a, ctrl-a, …)
  keydown NAME    press a key;  keyup NAME: release it
  keysym HEX      press and release the key of X keysym HEX (e.g. 0xfe51 dead_acute), which
                  vncdotool's names lack; it must be in wayvnc's keymap (`--keyboard=us(intl)`)
  pause SECONDS   wait
After each action (not after a pause) it waits DELAY_MS milliseconds, as `vncdo --delay` does;
`ok` comes after the actions' bytes have been handed to the socket.
Exits 0 at the end of stdin, 1 with one stderr line when it cannot connect.
"""
import sys
import time

from vncdotool import api
from vncdotool.client import KEYMAP


def keysym_name(text):
    """A name for X keysym `text` (hex) in vncdotool's key map, registered on first use."""
    code = int(text, 16)
    name = "keysym_%x" % code
    KEYMAP[name] = code
    return name


def run(client, words, delay):
    actions = {
        "move": (2, lambda a: client.mouseMove(int(a[0]), int(a[1]))),
        "click": (1, lambda a: client.mousePress(int(a[0]))),
        "mousedown": (1, lambda a: client.mouseDown(int(a[0]))),
        "mouseup": (1, lambda a: client.mouseUp(int(a[0]))),
        "key": (1, lambda a: client.keyPress(a[0])),
        "keydown": (1, lambda a: client.keyDown(a[0])),
        "keyup": (1, lambda a: client.keyUp(a[0])),
        "keysym": (1, lambda a: client.keyPress(keysym_name(a[0]))),
    }
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("pause", "sleep"):
            if i + 1 >= len(words):
                raise ValueError("pause needs SECONDS")
            time.sleep(float(words[i + 1]))
            i += 2
            continue
        if word not in actions:
            raise ValueError("unknown command %r" % word)
        count, action = actions[word]
        arguments = words[i + 1:i + 1 + count]
        if len(arguments) != count:
            raise ValueError("%s needs %d argument(s)" % (word, count))
        action(arguments)
        # A pause of 0 goes through the reactor after the action's write: by then Twisted has
        # written the action's bytes to the socket.
        client.pause(0)
        if delay > 0:
            time.sleep(delay / 1000.0)
        i += 1 + count


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: vnc_input.py HOST::PORT\n")
        return 2
    try:
        client = api.connect(sys.argv[1], password=None, timeout=15)
        client.pause(0)   # waits until the RFB handshake is done
    except Exception as error:  # noqa: BLE001 - one line for the harness
        sys.stderr.write("vnc_input.py: cannot connect to %s: %s\n" % (sys.argv[1], error))
        api.shutdown()
        return 1
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            run(client, words[1:], int(words[0]))
            print("ok", flush=True)
        except Exception as error:  # noqa: BLE001 - reported to the harness, which fails the test
            print("error %s" % str(error).replace("\n", " "), flush=True)
    try:
        client.disconnect()
    finally:
        api.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
