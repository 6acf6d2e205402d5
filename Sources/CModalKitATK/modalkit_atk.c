/*
 * libModalKitATK.so: accessible objects for ModalKit's windows as ATK objects, exposed on the
 * accessibility bus by the at-spi2-atk bridge (atk_bridge_adaptor_init), as GTK 3, GNOME Shell
 * and Tk do. The Swift module ModalKitATK loads this library with dlopen only when a bridge is
 * wanted and drives it through the table in modalkit_atk.h.
 *
 * The objects are plain data holders (name, description, role, states, extents, children): the
 * Swift side decides their contents and the order of every event. Requests from a screen reader
 * (AtkAction do_action, AtkComponent grab_focus) are queued with an idle callback and never run
 * application code inside the D-Bus call that asked (GTK does the same for its buttons).
 */
#include <atk/atk.h>
#include <glib.h>
#include <poll.h>
#include <string.h>

#include "modalkit_atk_bridge.h"
#include "modalkit_atk_node.h"

/* at-spi2-atk's atk-bridge.h (not on the include path: see CWayland/CModalKitATKSystem/shim.h). */
int atk_bridge_adaptor_init(int *argc, char **argv[]);
void atk_bridge_adaptor_cleanup(void);

/* Everything here is the library's own; only modalkit_atk_interface is exported. */
#pragma GCC visibility push(hidden)

/* MARK: Objects */



/* The application root and every node: children and states. */
G_DEFINE_TYPE(MkNode, mk_node, ATK_TYPE_OBJECT)

/* Nodes with extents (AtkComponent). */
typedef MkNode MkElement;
typedef MkNodeClass MkElementClass;
static void mk_component_init(AtkComponentIface *iface);
G_DEFINE_TYPE_WITH_CODE(MkElement, mk_element, mk_node_get_type(),
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_COMPONENT, mk_component_init))

/* Elements with one action, "click" (AtkAction). */
typedef MkNode MkActionable;
typedef MkNodeClass MkActionableClass;
static void mk_action_init(AtkActionIface *iface);
G_DEFINE_TYPE_WITH_CODE(MkActionable, mk_actionable, mk_element_get_type(),
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_ACTION, mk_action_init))

/* Windows: frames, dialogs, alerts (AtkWindow, a marker interface whose signals are window:*). */
typedef MkNode MkWindow;
typedef MkNodeClass MkWindowClass;
static void mk_window_iface_init(AtkWindowIface *iface);
G_DEFINE_TYPE_WITH_CODE(MkWindow, mk_window, mk_element_get_type(),
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_WINDOW, mk_window_iface_init))

#define MK_NODE(o) ((MkNode *)(o))

static gboolean is_node(gpointer object) {
    return object != NULL && G_TYPE_CHECK_INSTANCE_TYPE(object, mk_node_get_type());
}

static gint mk_node_get_n_children(AtkObject *object) {
    MkNode *n = MK_NODE(object);
    return n->defunct ? 0 : (gint)n->children->len;
}

static AtkObject *mk_node_ref_child(AtkObject *object, gint i) {
    MkNode *n = MK_NODE(object);
    if (n->defunct || i < 0 || (guint)i >= n->children->len) return NULL;
    return g_object_ref(ATK_OBJECT(g_ptr_array_index(n->children, i)));
}

static gint mk_node_get_index_in_parent(AtkObject *object) {
    AtkObject *parent = object->accessible_parent;
    if (!is_node(parent)) return -1;
    guint index;
    return g_ptr_array_find(MK_NODE(parent)->children, object, &index) ? (gint)index : -1;
}

static const struct {
    guint32 bit;
    AtkStateType state;
} state_map[] = {
    {MODALKIT_ATK_STATE_ENABLED, ATK_STATE_ENABLED},     {MODALKIT_ATK_STATE_ENABLED, ATK_STATE_SENSITIVE},
    {MODALKIT_ATK_STATE_VISIBLE, ATK_STATE_VISIBLE},     {MODALKIT_ATK_STATE_SHOWING, ATK_STATE_SHOWING},
    {MODALKIT_ATK_STATE_FOCUSABLE, ATK_STATE_FOCUSABLE}, {MODALKIT_ATK_STATE_FOCUSED, ATK_STATE_FOCUSED},
    {MODALKIT_ATK_STATE_ACTIVE, ATK_STATE_ACTIVE},       {MODALKIT_ATK_STATE_MODAL, ATK_STATE_MODAL},
    {MODALKIT_ATK_STATE_CHECKED, ATK_STATE_CHECKED},     {MODALKIT_ATK_STATE_PRESSED, ATK_STATE_PRESSED},
    {MODALKIT_ATK_STATE_SELECTED, ATK_STATE_SELECTED},   {MODALKIT_ATK_STATE_EDITABLE, ATK_STATE_EDITABLE},
};

static AtkStateSet *mk_node_ref_state_set(AtkObject *object) {
    MkNode *n = MK_NODE(object);
    AtkStateSet *set = atk_state_set_new();
    if (n->defunct) {
        atk_state_set_add_state(set, ATK_STATE_DEFUNCT);
        return set;
    }
    for (gsize i = 0; i < G_N_ELEMENTS(state_map); i++) {
        if (n->states & state_map[i].bit) atk_state_set_add_state(set, state_map[i].state);
    }
    return set;
}

static void detach_children(MkNode *n) {
    while (n->children->len > 0) {
        AtkObject *child = g_ptr_array_steal_index(n->children, n->children->len - 1);
        if (child->accessible_parent == ATK_OBJECT(n)) atk_object_set_parent(child, NULL);
        g_object_unref(child);
    }
}

static void mk_node_finalize(GObject *object) {
    MkNode *n = MK_NODE(object);
    for (int i = 0; i < 2; i++) {
        if (n->relation_target[i])
            g_object_remove_weak_pointer(G_OBJECT(n->relation_target[i]), (gpointer *)&n->relation_target[i]);
    }
    detach_children(n);
    g_ptr_array_unref(n->children);
    G_OBJECT_CLASS(mk_node_parent_class)->finalize(object);
}

static void mk_node_init(MkNode *n) {
    n->children = g_ptr_array_new();
    n->states = MODALKIT_ATK_STATE_ENABLED;
}

static void mk_node_class_init(MkNodeClass *klass) {
    AtkObjectClass *atk = ATK_OBJECT_CLASS(klass);
    atk->get_n_children = mk_node_get_n_children;
    atk->ref_child = mk_node_ref_child;
    atk->get_index_in_parent = mk_node_get_index_in_parent;
    atk->ref_state_set = mk_node_ref_state_set;
    G_OBJECT_CLASS(klass)->finalize = mk_node_finalize;
}

static void mk_element_init(MkElement *n) { (void)n; }
static void mk_element_class_init(MkElementClass *klass) { (void)klass; }
static void mk_actionable_init(MkActionable *n) { (void)n; }
static void mk_actionable_class_init(MkActionableClass *klass) { (void)klass; }
static void mk_window_init(MkWindow *n) { (void)n; }
static void mk_window_class_init(MkWindowClass *klass) { (void)klass; }
static void mk_window_iface_init(AtkWindowIface *iface) { (void)iface; }

/* MARK: Requests (queued, never run inside the D-Bus call) */

static modalkit_atk_request_callback request_callback;
static void *request_context;

typedef struct {
    MkNode *node;
    int request;
} Request;

static gboolean run_request(gpointer data) {
    Request *r = data;
    if (!r->node->defunct && request_callback) request_callback(request_context, r->node->key, r->request);
    return G_SOURCE_REMOVE;
}

static void free_request(gpointer data) {
    Request *r = data;
    g_object_unref(r->node);
    g_free(r);
}

static void queue_request(MkNode *n, int request) {
    Request *r = g_new0(Request, 1);
    r->node = g_object_ref(n);
    r->request = request;
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, run_request, r, free_request);
}

/* Whether a screen reader may act on `n` now: not gone, shown (not hidden under a modal) and enabled. */
static gboolean accepts_requests(MkNode *n) {
    guint32 needed = MODALKIT_ATK_STATE_SHOWING | MODALKIT_ATK_STATE_ENABLED;
    return !n->defunct && (n->states & needed) == needed;
}

/* MARK: AtkComponent */

static void mk_component_get_extents(AtkComponent *component, gint *x, gint *y, gint *width, gint *height,
                                     AtkCoordType coord_type) {
    MkNode *n = MK_NODE(component);
    gint px = 0, py = 0;
    if (coord_type == ATK_XY_PARENT && is_node(ATK_OBJECT(n)->accessible_parent)) {
        MkNode *parent = MK_NODE(ATK_OBJECT(n)->accessible_parent);
        if (ATK_IS_COMPONENT(parent)) {
            px = parent->x;
            py = parent->y;
        }
    }
    if (x) *x = n->x - px;
    if (y) *y = n->y - py;
    if (width) *width = n->width;
    if (height) *height = n->height;
}

static gboolean mk_component_grab_focus(AtkComponent *component) {
    MkNode *n = MK_NODE(component);
    if (!accepts_requests(n) || !(n->states & MODALKIT_ATK_STATE_FOCUSABLE)) return FALSE;
    queue_request(n, MODALKIT_ATK_REQUEST_FOCUS);
    return TRUE;
}

static AtkLayer mk_component_get_layer(AtkComponent *component) {
    return ATK_IS_WINDOW(component) ? ATK_LAYER_WINDOW : ATK_LAYER_WIDGET;
}

static void mk_component_init(AtkComponentIface *iface) {
    iface->get_extents = mk_component_get_extents;
    iface->grab_focus = mk_component_grab_focus;
    iface->get_layer = mk_component_get_layer;
}

/* MARK: AtkAction */

static gint mk_action_get_n_actions(AtkAction *action) {
    (void)action;
    return 1;
}

static const gchar *mk_action_get_name(AtkAction *action, gint i) {
    (void)action;
    return i == 0 ? "click" : NULL;
}

static const gchar *mk_action_get_localized_name(AtkAction *action, gint i) {
    (void)action;
    return i == 0 ? "Click" : NULL;
}

static const gchar *mk_action_get_description(AtkAction *action, gint i) {
    (void)action;
    return i == 0 ? "Activates the control" : NULL;
}

static gboolean mk_action_do_action(AtkAction *action, gint i) {
    MkNode *n = MK_NODE(action);
    if (i != 0 || !accepts_requests(n)) return FALSE;
    queue_request(n, MODALKIT_ATK_REQUEST_ACTIVATE);
    return TRUE;
}

static void mk_action_init(AtkActionIface *iface) {
    iface->get_n_actions = mk_action_get_n_actions;
    iface->get_name = mk_action_get_name;
    iface->get_localized_name = mk_action_get_localized_name;
    iface->get_description = mk_action_get_description;
    iface->do_action = mk_action_do_action;
}

/* MARK: The application root and AtkUtil */

static AtkObject *root_object;
static gchar *toolkit_name, *toolkit_version;
static gboolean started;
/* Whether atk_bridge_adaptor_init succeeded and no cleanup followed. */
static gboolean bridge_running;

/* ATK's own listener functions (the bridge connects its signal hooks through them), wrapped to
 * count how many hooks are connected: see modalkit_atk_interface.listening_generation. */
static guint (*atk_add_listener)(GSignalEmissionHook listener, const gchar *event_type);
static void (*atk_remove_listener)(guint listener_id);
static guint connected_listeners;
static guint32 listening_generation;

static guint util_add_global_event_listener(GSignalEmissionHook listener, const gchar *event_type) {
    guint id = atk_add_listener ? atk_add_listener(listener, event_type) : 0;
    if (id != 0 && connected_listeners++ == 0) listening_generation++;
    return id;
}

static void util_remove_global_event_listener(guint listener_id) {
    if (atk_remove_listener) atk_remove_listener(listener_id);
    if (listener_id != 0 && connected_listeners > 0) connected_listeners--;
}

static AtkObject *util_get_root(void) { return root_object; }
static const gchar *util_get_toolkit_name(void) { return toolkit_name; }
static const gchar *util_get_toolkit_version(void) { return toolkit_version; }

/* The bridge's and libatspi's warnings while it starts, kept back: without an accessibility bus
 * the bridge is simply not there, and says so only through start()'s result. */
static void quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain, (void)level, (void)message, (void)data;
}

/* atk_bridge_adaptor_init, its warnings kept back, with AT_SPI_BUS_ADDRESS = `bus_address` (when
 * not NULL) for the duration of the call: libatspi then connects to that bus instead of asking
 * the session bus for it (atspi_get_a11y_bus), which would be a blocking call and would leave a
 * shared session-bus connection that exits the process when the session bus goes. libatspi has
 * no other way to be told the address. (setenv is not safe against a getenv on another thread
 * at the same moment: the caller holds the process's environment lock, which ModalKit's other
 * threads that read the environment take too — ProcessEnvironment.changing and .reading.) */
static int init_bridge(const char *bus_address) {
    if (bridge_running) return 0;
    const char *domains[] = {"dbind", "atk-bridge", "Atspi", "GLib-GIO", NULL};
    guint handlers[G_N_ELEMENTS(domains)];
    for (gsize i = 0; domains[i]; i++) {
        handlers[i] = g_log_set_handler(domains[i], G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO,
                                        quiet_log, NULL);
    }
    gchar *saved = NULL;
    if (bus_address) {
        saved = g_strdup(g_getenv("AT_SPI_BUS_ADDRESS"));
        g_setenv("AT_SPI_BUS_ADDRESS", bus_address, TRUE);
    }
    int result = atk_bridge_adaptor_init(NULL, NULL);
    if (bus_address) {
        if (saved) g_setenv("AT_SPI_BUS_ADDRESS", saved, TRUE);
        else g_unsetenv("AT_SPI_BUS_ADDRESS");
        g_free(saved);
    }
    for (gsize i = 0; domains[i]; i++) g_log_remove_handler(domains[i], handlers[i]);
    bridge_running = result == 0;
    return bridge_running ? 0 : -1;
}

static int mk_start(const char *application_name, const char *tk_name, const char *tk_version,
                    const char *bus_address, modalkit_atk_request_callback callback, void *context) {
    if (started) return -1;
    started = TRUE;
    toolkit_name = g_strdup(tk_name ? tk_name : "");
    toolkit_version = g_strdup(tk_version ? tk_version : "");
    request_callback = callback;
    request_context = context;

    AtkUtilClass *util = g_type_class_ref(ATK_TYPE_UTIL);
    atk_add_listener = util->add_global_event_listener;
    atk_remove_listener = util->remove_global_event_listener;
    util->add_global_event_listener = util_add_global_event_listener;
    util->remove_global_event_listener = util_remove_global_event_listener;
    util->get_root = util_get_root;
    util->get_toolkit_name = util_get_toolkit_name;
    util->get_toolkit_version = util_get_toolkit_version;

    /* A component too (extents 0): screen readers ask every object for its extents, and the
     * bridge logs a critical for an object without AtkComponent. */
    root_object = g_object_new(mk_element_get_type(), NULL);
    atk_object_set_role(root_object, ATK_ROLE_APPLICATION);
    atk_object_set_name(root_object, application_name ? application_name : "");

    g_main_context_acquire(g_main_context_default());
    return init_bridge(bus_address);
}

/* at-spi2-atk names each object it exposes by a number kept on the object ("spi-dbus-id", see
 * its accessible-register.c); its cleanup forgets the numbers but leaves them on the objects, so
 * after a new init it would name them by paths its new register does not know. Forget them. */
static void forget_bus_names(AtkObject *object) {
    g_object_set_data(G_OBJECT(object), "spi-dbus-id", NULL);
    if (!is_node(object)) return;
    GPtrArray *children = MK_NODE(object)->children;
    for (guint i = 0; i < children->len; i++) forget_bus_names(ATK_OBJECT(g_ptr_array_index(children, i)));
}

/* The bridge only: at-spi2-atk frees its global state and resets its `inited` flag in
 * atk_bridge_adaptor_cleanup, and libatspi forgets its accessibility-bus connection when the
 * bridge's last reference to it goes (a data-slot destructor), so a later
 * atk_bridge_adaptor_init connects anew. */
static void mk_suspend(void) {
    if (!started || !bridge_running) return;
    atk_bridge_adaptor_cleanup();
    bridge_running = FALSE;
    forget_bus_names(root_object);
}

static gboolean context_released;

static int mk_resume(const char *bus_address) {
    if (!started || context_released) return -1;
    return init_bridge(bus_address);
}

static void mk_stop(void) {
    if (!started || context_released) return;
    mk_suspend();
    g_main_context_release(g_main_context_default());
    context_released = TRUE;
}

/* MARK: The GLib main context, from the caller's poll loop */

static GPollFD *poll_fds;
static gint poll_capacity, poll_count, max_priority;

static int mk_loop_prepare(int *timeout_ms) {
    GMainContext *context = g_main_context_default();
    g_main_context_prepare(context, &max_priority);
    gint timeout = -1;
    gint n;
    while ((n = g_main_context_query(context, max_priority, &timeout, poll_fds, poll_capacity)) > poll_capacity) {
        poll_capacity = n;
        poll_fds = g_renew(GPollFD, poll_fds, poll_capacity);
    }
    poll_count = n;
    if (timeout_ms) *timeout_ms = timeout;
    return n;
}

static void mk_loop_fd(int index, int *fd, short *events) {
    if (index < 0 || index >= poll_count) {
        if (fd) *fd = -1;
        if (events) *events = 0;
        return;
    }
    if (fd) *fd = poll_fds[index].fd;
    if (events) *events = (short)poll_fds[index].events;
}

static void mk_loop_dispatch(const short *revents, int count) {
    for (gint i = 0; i < poll_count; i++) poll_fds[i].revents = (i < count && revents) ? (gushort)revents[i] : 0;
    GMainContext *context = g_main_context_default();
    if (g_main_context_check(context, max_priority, poll_fds, poll_count)) g_main_context_dispatch(context);
}

/* MARK: Nodes */

static modalkit_atk_node *mk_root(void) { return (modalkit_atk_node *)root_object; }

static modalkit_atk_node *mk_node_new(int kind, uint64_t key) {
    GType type = kind == MODALKIT_ATK_KIND_WINDOW       ? mk_window_get_type()
                 : kind == MODALKIT_ATK_KIND_ACTIONABLE ? mk_actionable_get_type()
                 : kind == MODALKIT_ATK_KIND_TEXT       ? mk_text_get_type()
                                                        : mk_element_get_type();
    MkNode *n = g_object_new(type, NULL);
    n->key = key;
    /* atk_object_initialize is what toolkits call for a new accessible; it sets nothing here. */
    atk_object_initialize(ATK_OBJECT(n), NULL);
    return (modalkit_atk_node *)n;
}

static void remove_from_parent(MkNode *n, gboolean notify) {
    AtkObject *object = ATK_OBJECT(n);
    AtkObject *parent = object->accessible_parent;
    if (!is_node(parent)) return;
    guint index;
    if (g_ptr_array_find(MK_NODE(parent)->children, n, &index)) {
        g_ptr_array_remove_index(MK_NODE(parent)->children, index);
        if (notify) g_signal_emit_by_name(parent, "children-changed::remove", index, object);
        g_object_unref(n);
    }
    atk_object_set_parent(object, NULL);
}

static void set_relation(MkNode *n, int relation, AtkObject *target);

static void mk_node_release(modalkit_atk_node *node) {
    MkNode *n = MK_NODE(node);
    if (!n || n->defunct) return;
    set_relation(n, MODALKIT_ATK_RELATION_LABELLED_BY, NULL);
    set_relation(n, MODALKIT_ATK_RELATION_DESCRIBED_BY, NULL);
    remove_from_parent(n, FALSE);
    detach_children(n);
    n->defunct = TRUE;
    atk_object_notify_state_change(ATK_OBJECT(n), ATK_STATE_DEFUNCT, TRUE);
    g_object_unref(n);
}

static void mk_node_set_text(modalkit_atk_node *node, const char *name, const char *description) {
    AtkObject *object = ATK_OBJECT(node);
    name = name ? name : "";
    description = description ? description : "";
    if (g_strcmp0(object->name ? object->name : "", name) != 0) atk_object_set_name(object, name);
    if (g_strcmp0(object->description ? object->description : "", description) != 0)
        atk_object_set_description(object, description);
}

static void mk_node_set_role(modalkit_atk_node *node, int role) {
    static const AtkRole roles[] = {
        [MODALKIT_ATK_ROLE_FRAME] = ATK_ROLE_FRAME,
        [MODALKIT_ATK_ROLE_DIALOG] = ATK_ROLE_DIALOG,
        [MODALKIT_ATK_ROLE_ALERT] = ATK_ROLE_ALERT,
        [MODALKIT_ATK_ROLE_PANEL] = ATK_ROLE_PANEL,
        [MODALKIT_ATK_ROLE_LABEL] = ATK_ROLE_LABEL,
        [MODALKIT_ATK_ROLE_HEADING] = ATK_ROLE_HEADING,
        [MODALKIT_ATK_ROLE_PUSH_BUTTON] = ATK_ROLE_PUSH_BUTTON,
        [MODALKIT_ATK_ROLE_IMAGE] = ATK_ROLE_IMAGE,
        [MODALKIT_ATK_ROLE_LINK] = ATK_ROLE_LINK,
        [MODALKIT_ATK_ROLE_TOGGLE_BUTTON] = ATK_ROLE_TOGGLE_BUTTON,
        [MODALKIT_ATK_ROLE_CHECK_BOX] = ATK_ROLE_CHECK_BOX,
        [MODALKIT_ATK_ROLE_LIST] = ATK_ROLE_LIST,
        [MODALKIT_ATK_ROLE_LIST_ITEM] = ATK_ROLE_LIST_ITEM,
        [MODALKIT_ATK_ROLE_ENTRY] = ATK_ROLE_ENTRY,
        [MODALKIT_ATK_ROLE_PASSWORD_TEXT] = ATK_ROLE_PASSWORD_TEXT,
    };
    AtkRole r = role >= 0 && (gsize)role < G_N_ELEMENTS(roles) ? roles[role] : ATK_ROLE_UNKNOWN;
    AtkObject *object = ATK_OBJECT(node);
    if (atk_object_get_role(object) != r) atk_object_set_role(object, r);
}

static void mk_node_set_extents(modalkit_atk_node *node, int x, int y, int width, int height) {
    MkNode *n = MK_NODE(node);
    n->x = x;
    n->y = y;
    n->width = width;
    n->height = height;
}

static void mk_node_set_states(modalkit_atk_node *node, uint32_t states, int value, int notify) {
    MkNode *n = MK_NODE(node);
    guint32 old = n->states;
    n->states = value ? (old | states) : (old & ~states);
    guint32 changed = old ^ n->states;
    if (!notify || n->defunct || !changed) return;
    for (gsize i = 0; i < G_N_ELEMENTS(state_map); i++) {
        if (changed & state_map[i].bit)
            atk_object_notify_state_change(ATK_OBJECT(n), state_map[i].state, (n->states & state_map[i].bit) != 0);
    }
}

static uint32_t mk_node_states(modalkit_atk_node *node) { return MK_NODE(node)->states; }

static void mk_node_insert_child(modalkit_atk_node *parent, modalkit_atk_node *child, int index, int notify) {
    MkNode *p = MK_NODE(parent), *c = MK_NODE(child);
    if (p->defunct || c->defunct || ATK_OBJECT(c)->accessible_parent != NULL) return;
    guint i = index < 0 ? 0 : ((guint)index > p->children->len ? p->children->len : (guint)index);
    g_ptr_array_insert(p->children, (gint)i, g_object_ref(c));
    atk_object_set_parent(ATK_OBJECT(c), ATK_OBJECT(p));
    if (notify) g_signal_emit_by_name(p, "children-changed::add", i, c);
}

static void mk_node_remove_child(modalkit_atk_node *child, int notify) {
    remove_from_parent(MK_NODE(child), notify != 0);
}

static void mk_window_event(modalkit_atk_node *window, int event) {
    static const char *names[] = {
        [MODALKIT_ATK_WINDOW_CREATE] = "create",
        [MODALKIT_ATK_WINDOW_ACTIVATE] = "activate",
        [MODALKIT_ATK_WINDOW_DEACTIVATE] = "deactivate",
        [MODALKIT_ATK_WINDOW_DESTROY] = "destroy",
    };
    if (!ATK_IS_WINDOW(window) || event < 0 || (gsize)event >= G_N_ELEMENTS(names)) return;
    g_signal_emit_by_name(window, names[event]);
}

static void set_relation(MkNode *n, int relation, AtkObject *target) {
    static const AtkRelationType own[] = {ATK_RELATION_LABELLED_BY, ATK_RELATION_DESCRIBED_BY};
    static const AtkRelationType reciprocal[] = {ATK_RELATION_LABEL_FOR, ATK_RELATION_DESCRIPTION_FOR};
    if (relation < 0 || relation > 1) return;
    AtkObject *object = ATK_OBJECT(n), *old = n->relation_target[relation];
    if (old == target) return;
    if (old) {
        atk_object_remove_relationship(object, own[relation], old);
        atk_object_remove_relationship(old, reciprocal[relation], object);
        g_object_remove_weak_pointer(G_OBJECT(old), (gpointer *)&n->relation_target[relation]);
    }
    n->relation_target[relation] = target;
    if (target) {
        g_object_add_weak_pointer(G_OBJECT(target), (gpointer *)&n->relation_target[relation]);
        atk_object_add_relationship(object, own[relation], target);
        atk_object_add_relationship(target, reciprocal[relation], object);
    }
}

static void mk_node_set_relation(modalkit_atk_node *node, int relation, modalkit_atk_node *target) {
    MkNode *n = MK_NODE(node);
    if (n->defunct || (target && MK_NODE(target)->defunct)) return;
    set_relation(n, relation, target ? ATK_OBJECT(target) : NULL);
}

static uint32_t mk_listening_generation(void) { return listening_generation; }

static const struct modalkit_atk_interface interface = {
    .version = MODALKIT_ATK_INTERFACE_VERSION,
    .struct_size = sizeof(struct modalkit_atk_interface),
    .start = mk_start,
    .stop = mk_stop,
    .loop_prepare = mk_loop_prepare,
    .loop_fd = mk_loop_fd,
    .loop_dispatch = mk_loop_dispatch,
    .root = mk_root,
    .node_new = mk_node_new,
    .node_release = mk_node_release,
    .node_set_text = mk_node_set_text,
    .node_set_role = mk_node_set_role,
    .node_set_extents = mk_node_set_extents,
    .node_set_states = mk_node_set_states,
    .node_states = mk_node_states,
    .node_insert_child = mk_node_insert_child,
    .node_remove_child = mk_node_remove_child,
    .window_event = mk_window_event,
    .node_set_relation = mk_node_set_relation,
    .listening_generation = mk_listening_generation,
    .suspend = mk_suspend,
    .resume = mk_resume,
    .node_set_text_value = mk_node_set_text_value,
    .set_text_request_callback = mk_set_text_request_callback,
};

#pragma GCC visibility pop

__attribute__((visibility("default"))) const struct modalkit_atk_interface *modalkit_atk_interface(void) {
    return &interface;
}
