/*
 * The table of C functions that libModalKitATK.so (the C target CModalKitATK: ATK objects and the
 * at-spi2-atk bridge) gives the Swift module ModalKitATK, which loads the library with dlopen when
 * an accessibility bridge is wanted. Only plain C types cross: no GLib, GObject or ATK type, so
 * the program that loads the library needs none of their headers or libraries at start-up.
 *
 * Threading: every function must be called on the thread that runs the event loop driving the
 * GLib main context (modalkit_atk_interface.loop_prepare / loop_dispatch), and so are the
 * request callbacks.
 */
#ifndef MODALKIT_ATK_H
#define MODALKIT_ATK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when a function is added (at the end of the table only). */
#define MODALKIT_ATK_INTERFACE_VERSION 4u
/* The symbol libModalKitATK.so exports: a modalkit_atk_interface_entry. */
#define MODALKIT_ATK_INTERFACE_SYMBOL "modalkit_atk_interface"

/* What an accessible object implements besides AtkObject. */
enum modalkit_atk_kind {
    /* AtkComponent (extents, grab_focus). */
    MODALKIT_ATK_KIND_ELEMENT = 0,
    /* AtkComponent and AtkAction (one action, "click"). */
    MODALKIT_ATK_KIND_ACTIONABLE = 1,
    /* AtkComponent and AtkWindow: a frame, dialog or alert (the window:* events). */
    MODALKIT_ATK_KIND_WINDOW = 2,
    /* AtkComponent, AtkAction and AtkText: a text field (version 3; its text through
     * node_set_text_value); with MODALKIT_ATK_STATE_EDITABLE also AtkEditableText's requests
     * (version 4; set_text_request_callback). */
    MODALKIT_ATK_KIND_TEXT = 3,
};

/* Roles, mapped to AtkRole by the library. */
enum modalkit_atk_role {
    MODALKIT_ATK_ROLE_FRAME = 0,
    MODALKIT_ATK_ROLE_DIALOG = 1,
    MODALKIT_ATK_ROLE_ALERT = 2,
    MODALKIT_ATK_ROLE_PANEL = 3,
    MODALKIT_ATK_ROLE_LABEL = 4,
    MODALKIT_ATK_ROLE_HEADING = 5,
    MODALKIT_ATK_ROLE_PUSH_BUTTON = 6,
    MODALKIT_ATK_ROLE_IMAGE = 7,
    MODALKIT_ATK_ROLE_LINK = 8,
    MODALKIT_ATK_ROLE_TOGGLE_BUTTON = 9,
    MODALKIT_ATK_ROLE_CHECK_BOX = 10,
    MODALKIT_ATK_ROLE_LIST = 11,
    MODALKIT_ATK_ROLE_LIST_ITEM = 12,
    MODALKIT_ATK_ROLE_ENTRY = 13,
    MODALKIT_ATK_ROLE_PASSWORD_TEXT = 14,
};

/* States (bits), mapped to AtkStateType. */
enum modalkit_atk_state {
    MODALKIT_ATK_STATE_ENABLED = 1u << 0,   /* ATK_STATE_ENABLED and ATK_STATE_SENSITIVE */
    MODALKIT_ATK_STATE_VISIBLE = 1u << 1,
    MODALKIT_ATK_STATE_SHOWING = 1u << 2,
    MODALKIT_ATK_STATE_FOCUSABLE = 1u << 3,
    MODALKIT_ATK_STATE_FOCUSED = 1u << 4,
    MODALKIT_ATK_STATE_ACTIVE = 1u << 5,
    MODALKIT_ATK_STATE_MODAL = 1u << 6,
    MODALKIT_ATK_STATE_CHECKED = 1u << 7,
    MODALKIT_ATK_STATE_PRESSED = 1u << 8,
    MODALKIT_ATK_STATE_SELECTED = 1u << 9,
    /* ATK_STATE_EDITABLE (version 4): a text node that takes AtkEditableText's requests. */
    MODALKIT_ATK_STATE_EDITABLE = 1u << 10,
};

/* What a screen reader asked of an object. */
enum modalkit_atk_request {
    /* AtkAction do_action 0 ("click"). */
    MODALKIT_ATK_REQUEST_ACTIVATE = 0,
    /* AtkComponent grab_focus. */
    MODALKIT_ATK_REQUEST_FOCUS = 1,
    /* Version 4, AtkEditableText on an editable text node (modalkit_atk_text_request_callback;
     * offsets in code points, end -1 normalised to the text's end, start <= end):
     * set_text_contents(text). */
    MODALKIT_ATK_REQUEST_SET_TEXT = 2,
    /* insert_text(text, start): at `start`. */
    MODALKIT_ATK_REQUEST_INSERT_TEXT = 3,
    /* delete_text(start, end). */
    MODALKIT_ATK_REQUEST_DELETE_TEXT = 4,
    /* copy_text(start, end). */
    MODALKIT_ATK_REQUEST_COPY_TEXT = 5,
    /* cut_text(start, end). */
    MODALKIT_ATK_REQUEST_CUT_TEXT = 6,
    /* paste_text(start): at `start`. */
    MODALKIT_ATK_REQUEST_PASTE_TEXT = 7,
};

/* Relations (AtkRelationType), each set with its reciprocal on the target. */
enum modalkit_atk_relation {
    /* LABELLED_BY on the node, LABEL_FOR on the target. */
    MODALKIT_ATK_RELATION_LABELLED_BY = 0,
    /* DESCRIBED_BY on the node, DESCRIPTION_FOR on the target. */
    MODALKIT_ATK_RELATION_DESCRIBED_BY = 1,
};

/* Window events (AtkWindow signals, AT-SPI window:*). */
enum modalkit_atk_window_event {
    MODALKIT_ATK_WINDOW_CREATE = 0,
    MODALKIT_ATK_WINDOW_ACTIVATE = 1,
    MODALKIT_ATK_WINDOW_DEACTIVATE = 2,
    MODALKIT_ATK_WINDOW_DESTROY = 3,
};

/* An accessible object (an AtkObject subclass). The caller holds one reference from node_new
 * until node_release. */
typedef struct modalkit_atk_node modalkit_atk_node;

/*
 * A screen reader's request on the node with `key`, delivered from a GLib idle callback (never
 * inside the D-Bus call that asked), only while the node is not released. `context` is the one
 * given to start().
 */
typedef void (*modalkit_atk_request_callback)(void *context, uint64_t key, int request);

/*
 * Version 4: an AtkEditableText request on the text node with `key` (`request` one of
 * MODALKIT_ATK_REQUEST_SET_TEXT … PASTE_TEXT), queued and delivered like the others. `text`:
 * the text to set or insert (valid UTF-8, NULL for the other requests); `start` and `end`:
 * offsets in the node's text, Unicode code points, as the request's table entry above says.
 */
typedef void (*modalkit_atk_text_request_callback)(void *context, uint64_t key, int request, const char *text,
                                                   int start, int end);

struct modalkit_atk_interface {
    /* MODALKIT_ATK_INTERFACE_VERSION of the library, and sizeof(struct modalkit_atk_interface). */
    uint32_t version;
    uint32_t struct_size;

    /*
     * Installs the application root (AtkUtil get_root: role application, named `application_name`,
     * toolkit `toolkit_name` `toolkit_version`), starts the at-spi2-atk bridge
     * (atk_bridge_adaptor_init) and acquires GLib's default main context for this thread.
     * Returns 0 when the bridge is registered on the accessibility bus; -1 when it is not (no
     * accessibility bus, NO_AT_BRIDGE=1): then nothing else may be called but stop(), and the
     * bridge's own warnings have not been printed. Once per process. `bus_address`: as for
     * resume() below.
     */
    int (*start)(const char *application_name, const char *toolkit_name, const char *toolkit_version,
                 const char *bus_address, modalkit_atk_request_callback callback, void *context);
    /* atk_bridge_adaptor_cleanup; releases the main context. Nodes must be released first. */
    void (*stop)(void);

    /*
     * GLib's default main context, driven by the caller's poll loop: g_main_context_prepare and
     * g_main_context_query. Returns the number of file descriptors to poll (read each with
     * loop_fd); `*timeout_ms` receives the longest wait in milliseconds (-1: no limit, 0: do not
     * sleep). Must be followed by exactly one loop_dispatch.
     */
    int (*loop_prepare)(int *timeout_ms);
    /* The `index`-th descriptor of the last loop_prepare: its fd and poll(2) events. */
    void (*loop_fd)(int index, int *fd, short *events);
    /* g_main_context_check with the poll(2) revents of each descriptor (`count` = loop_prepare's
     * result, in its order), then g_main_context_dispatch if a source is ready. */
    void (*loop_dispatch)(const short *revents, int count);

    /* The application root (an AtkObject of role application); not to be released. */
    modalkit_atk_node *(*root)(void);
    /* A new node of `kind`, identified by `key` in request callbacks; enabled, no parent. */
    modalkit_atk_node *(*node_new)(int kind, uint64_t key);
    /* Detaches the node (no event), marks it defunct (state-changed:defunct) and drops the
     * caller's reference: later requests on it are refused. */
    void (*node_release)(modalkit_atk_node *node);
    /* Name and description (NULL = empty); a change notifies accessible-name /
     * accessible-description. */
    void (*node_set_text)(modalkit_atk_node *node, const char *name, const char *description);
    void (*node_set_role)(modalkit_atk_node *node, int role);
    /* Extents, points in the window's surface coordinates (Wayland has no global ones). */
    void (*node_set_extents)(modalkit_atk_node *node, int x, int y, int width, int height);
    /* Sets or clears the `states` bits; `notify`: one object:state-changed per bit that changed. */
    void (*node_set_states)(modalkit_atk_node *node, uint32_t states, int value, int notify);
    uint32_t (*node_states)(modalkit_atk_node *node);
    /* Inserts `child` (no parent yet) at `index` (clamped) of `parent`'s children; `notify`:
     * children-changed::add. */
    void (*node_insert_child)(modalkit_atk_node *parent, modalkit_atk_node *child, int index, int notify);
    /* Removes `child` from its parent; `notify`: children-changed::remove. */
    void (*node_remove_child)(modalkit_atk_node *child, int notify);
    /* Emits a window event on a MODALKIT_ATK_KIND_WINDOW node. */
    void (*window_event)(modalkit_atk_node *window, int event);
    /* Makes `target` (NULL: none) the node's one relation of kind `relation`, replacing the
     * previous one (and the reciprocal relations on both targets). No event. */
    void (*node_set_relation)(modalkit_atk_node *node, int relation, modalkit_atk_node *target);
    /*
     * Counts how often the bridge began listening: at-spi2-atk connects its ATK signal hooks
     * (AtkUtil add_global_event_listener) only while some assistive technology listens for
     * events, and events emitted before are dropped. When this number changes, whatever should
     * have been announced (windows, the active one, the focus) must be announced again.
     */
    uint32_t (*listening_generation)(void);

    /*
     * Version 2: following the accessibility bus. suspend() stops the at-spi2-atk bridge
     * (atk_bridge_adaptor_cleanup: its connection, object paths and listeners go) and keeps
     * everything else: the root, the nodes, the main context. resume() starts the bridge again
     * (atk_bridge_adaptor_init, which at-spi2-core allows after a cleanup). `bus_address` (NULL:
     * at-spi2-core's own lookup) is the accessibility bus the bridge connects to: it is
     * AT_SPI_BUS_ADDRESS for the duration of the call, so that the bridge neither asks the
     * session bus (a blocking call) nor keeps a shared session-bus connection; no other thread
     * may read the environment meanwhile (the caller holds ModalKit's environment lock). Returns 0 when the
     * bridge is registered, -1 when not (then it stays suspended). The caller makes sure the bus
     * answers before calling it: atk_bridge_adaptor_init waits for the bus's answer to Hello
     * (libdbus's blocking dbus_bus_register, up to 25 s).
     */
    void (*suspend)(void);
    int (*resume)(const char *bus_address);

    /*
     * Version 3: text fields. The text of a MODALKIT_ATK_KIND_TEXT node (UTF-8, NULL = empty),
     * its caret and its selection (start == end: none), offsets in characters as ATK counts them
     * (Unicode code points), clamped to the text. `notify`: text-remove and text-insert for the
     * changed stretch (the common start and end kept), text-caret-moved, text-selection-changed,
     * each only when it changed. No effect on other kinds.
     */
    void (*node_set_text_value)(modalkit_atk_node *node, const char *text, int caret, int selection_start,
                                int selection_end, int notify);

    /*
     * Version 4: editable text. Where AtkEditableText's requests on text nodes with
     * MODALKIT_ATK_STATE_EDITABLE go (NULL: refused). A node that is not editable, not showing,
     * disabled or released refuses them (the call returns FALSE where ATK has a result).
     */
    void (*set_text_request_callback)(modalkit_atk_text_request_callback callback, void *context);
};

/* The type of the exported MODALKIT_ATK_INTERFACE_SYMBOL. */
typedef const struct modalkit_atk_interface *(*modalkit_atk_interface_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
