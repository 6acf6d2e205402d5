#include "CModalKitDBus.h"

#include <dlfcn.h>
#include <pthread.h>

struct modalkit_dbus_table modalkit_dbus;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void) {
    void *library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    int found = 1;
#define LOOK_UP(name) \
    do { \
        *(void **)&modalkit_dbus.name = dlsym(library, "dbus_" #name); \
        if (!modalkit_dbus.name) found = 0; \
    } while (0)
    LOOK_UP(error_init);
    LOOK_UP(error_free);
    LOOK_UP(connection_open_private);
    LOOK_UP(connection_set_exit_on_disconnect);
    LOOK_UP(connection_close);
    LOOK_UP(connection_ref);
    LOOK_UP(connection_unref);
    LOOK_UP(connection_add_filter);
    LOOK_UP(connection_send_with_reply);
    LOOK_UP(connection_set_watch_functions);
    LOOK_UP(connection_dispatch);
    LOOK_UP(bus_set_unique_name);
    LOOK_UP(bus_add_match);
    LOOK_UP(message_new_method_call);
    LOOK_UP(message_unref);
    LOOK_UP(message_get_type);
    LOOK_UP(message_get_error_name);
    LOOK_UP(message_get_sender);
    LOOK_UP(message_get_path);
    LOOK_UP(message_get_member);
    LOOK_UP(message_get_interface);
    LOOK_UP(message_iter_init_append);
    LOOK_UP(message_iter_append_basic);
    LOOK_UP(message_iter_init);
    LOOK_UP(message_iter_next);
    LOOK_UP(message_iter_get_arg_type);
    LOOK_UP(message_iter_recurse);
    LOOK_UP(message_iter_get_basic);
    LOOK_UP(pending_call_set_notify);
    LOOK_UP(pending_call_steal_reply);
    LOOK_UP(pending_call_unref);
    LOOK_UP(watch_get_unix_fd);
    LOOK_UP(watch_get_flags);
    LOOK_UP(watch_get_data);
    LOOK_UP(watch_set_data);
    LOOK_UP(watch_handle);
    LOOK_UP(watch_get_enabled);
#undef LOOK_UP
    loaded = found;
}

int modalkit_dbus_load(void) {
    pthread_once(&once, load);
    return loaded;
}

int modalkit_dbus_is_loaded(void) {
    return loaded;
}
