#!/usr/bin/python3
"""A screen reader's view of one application, for the end-to-end tests (libatspi through
gi.repository.Atspi, the library Orca uses).

Registers AT-SPI event listeners at once (before the application under test starts, so the
application's bridge knows them from its first event), prints "ready", then answers one JSON
command per stdin line with one JSON line on stdout ({"ok": true, ...} or {"ok": false,
"error": "..."}), pumping GLib's main context in between so events keep arriving. Ends at EOF.

Commands ({"cmd": NAME, ...}):
  find    pid, timeout       wait (bounded) until the application of process `pid` is on the
                             desktop; that application is the one the other commands use
  tree                       the application's tree: role, name, description, states, extents
                             (window coordinates), actions, relations, children, and for objects
                             with the Text interface their text: {"text", "caret", "selection":
                             [start, end] or []} in characters — caches cleared
  events                     the events received since the last call, in order (and forget them)
  act     role, name [, nth] Action.do_action(0) on the nth (default 1st) element, depth first, with
                             that role and name: {"result": bool} or an error
  focus   role, name         Component.grab_focus on it
  edit    role, name, method, EditableText on it: method set_text_contents (text),
          [text, start, end] insert_text (text at start), delete_text, copy_text, cut_text (start
                             to end), paste_text (at start): {"result": bool} or an error
  keep    role, name, as     remember that element under the name `as`
  act_kept / focus_kept  as  the same on a remembered element (which may have gone away since)

Event records: {"type", "role", "name", "detail1", "data"} (data: the event's string, such as a
window's title, or the role and name of an object it carries).
"""
import json
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

EVENT_TYPES = [
    "object:state-changed:focused",
    "object:state-changed:showing",
    "object:state-changed:active",
    "object:state-changed:modal",
    "object:children-changed",
    "window:create",
    "window:destroy",
    "window:activate",
    "window:deactivate",
]

events = []
kept = {}
app = None


def safe(call, fallback="?"):
    try:
        return call()
    except Exception:  # an object gone away (defunct) answers with errors
        return fallback


def on_event(e):
    data = e.any_data
    if isinstance(data, Atspi.Accessible):
        data = "%s:%s" % (safe(data.get_role_name), safe(data.get_name))
    elif not isinstance(data, (str, int)):
        data = None
    events.append({
        "type": e.type,
        "role": safe(e.source.get_role_name) if e.source else "?",
        "name": safe(e.source.get_name) if e.source else "?",
        "detail1": e.detail1,
        "data": data,
    })


listener = Atspi.EventListener.new(on_event)
for t in EVENT_TYPES:
    listener.register(t)


def pump(seconds):
    context = GLib.MainContext.default()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not context.iteration(False):
            time.sleep(0.005)


def states(obj):
    return sorted(s.value_nick for s in obj.get_state_set().get_states())


def dump(obj):
    node = {
        "role": obj.get_role_name(),
        "name": obj.get_name(),
        "description": obj.get_description(),
        "states": states(obj),
    }
    component = obj.get_component_iface()
    if component is not None:
        r = component.get_extents(Atspi.CoordType.WINDOW)
        node["extents"] = [r.x, r.y, r.width, r.height]
    action = obj.get_action_iface()
    node["actions"] = [action.get_action_name(i) for i in range(action.get_n_actions())] if action else []
    relations = []
    for rel in obj.get_relation_set() or []:
        targets = [rel.get_target(i) for i in range(rel.get_n_targets())]
        relations.append({"type": rel.get_relation_type().value_nick,
                          "targets": ["%s:%s" % (t.get_role_name(), t.get_name()) for t in targets]})
    node["relations"] = relations
    text = obj.get_text_iface()
    if text is not None:
        count = text.get_character_count()
        selection = []
        if text.get_n_selections() > 0:
            r = text.get_selection(0)
            selection = [r.start_offset, r.end_offset]
        node["text"] = {"text": text.get_text(0, count), "caret": text.get_caret_offset(), "selection": selection,
                        "word_at_0": text.get_string_at_offset(0, Atspi.TextGranularity.WORD).content if count else ""}
    node["children"] = [dump(obj.get_child_at_index(i)) for i in range(obj.get_child_count())]
    return node


def find_element(command):
    role, name, nth = command["role"], command["name"], int(command.get("nth", 1))
    matches = []

    def walk(obj):
        if obj.get_role_name() == role and obj.get_name() == name:
            matches.append(obj)
        for i in range(obj.get_child_count()):
            walk(obj.get_child_at_index(i))
    if app is None:
        raise RuntimeError("no application: send find first")
    app.clear_cache()
    walk(app)
    if len(matches) < nth:
        raise RuntimeError("no %s named %r (number %d)" % (role, name, nth))
    return matches[nth - 1]


def act(obj):
    return {"ok": True, "result": bool(obj.do_action(0))}


def focus(obj):
    component = obj.get_component_iface()
    if component is None:
        raise RuntimeError("no Component interface")
    return {"ok": True, "result": bool(component.grab_focus())}


def edit(obj, command):
    editable = obj.get_editable_text_iface()
    if editable is None:
        raise RuntimeError("no EditableText interface")
    method, text = command["method"], command.get("text", "")
    start, end = int(command.get("start", 0)), int(command.get("end", 0))
    if method == "set_text_contents":
        result = editable.set_text_contents(text)
    elif method == "insert_text":
        result = editable.insert_text(start, text, len(text.encode("utf-8")))
    elif method in ("delete_text", "copy_text", "cut_text"):
        result = getattr(editable, method)(start, end)
    elif method == "paste_text":
        result = editable.paste_text(start)
    else:
        raise RuntimeError("unknown EditableText method %r" % method)
    return {"ok": True, "result": bool(result)}


def handle(command):
    global app
    cmd = command.get("cmd")
    if cmd == "find":
        pid, deadline = int(command["pid"]), time.monotonic() + float(command.get("timeout", 10))
        while time.monotonic() < deadline:
            desktop = Atspi.get_desktop(0)
            for i in range(desktop.get_child_count()):
                a = desktop.get_child_at_index(i)
                if a is not None and safe(a.get_process_id, -1) == pid:
                    app = a
                    return {"ok": True, "name": a.get_name(), "toolkit": safe(a.get_toolkit_name, "")}
            pump(0.05)
        return {"ok": False, "error": "no application of pid %d on the desktop" % pid}
    if cmd == "tree":
        if app is None:
            raise RuntimeError("no application: send find first")
        app.clear_cache()
        return {"ok": True, "tree": dump(app)}
    if cmd == "events":
        pump(0.01)
        taken = list(events)
        events.clear()
        return {"ok": True, "events": taken}
    if cmd == "act":
        return act(find_element(command))
    if cmd == "focus":
        return focus(find_element(command))
    if cmd == "edit":
        return edit(find_element(command), command)
    if cmd == "keep":
        kept[command["as"]] = find_element(command)
        return {"ok": True}
    if cmd == "act_kept":
        return act(kept[command["as"]])
    if cmd == "focus_kept":
        return focus(kept[command["as"]])
    raise RuntimeError("unknown command %r" % cmd)


def on_stdin(source, condition):
    line = sys.stdin.readline()
    if not line:
        loop.quit()
        return False
    try:
        reply = handle(json.loads(line))
    except Exception as error:  # every failure is an answer, never an end
        reply = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
    print(json.dumps(reply), flush=True)
    return True


loop = GLib.MainLoop()
GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_stdin)
print("ready", flush=True)
loop.run()
