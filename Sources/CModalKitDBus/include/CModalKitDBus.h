// libdbus, loaded with dlopen when a program first connects to a bus: the declarations of the part
// of libdbus's API that ModalKitDesktopSettings uses, and each function as a static inline forwarding to a
// table filled by dlsym (modalkit_dbus_load). Nothing links libdbus-1 (and its chain: libsystemd,
// libgcrypt, liblzma, libzstd, liblz4, libcap, libgpg-error), so a program without a session bus,
// and every program until its first frame, maps none of it (docs/design.md, start-up and footprint).
//
// The types, constants and signatures are libdbus's public ABI, stable since 1.0 (dbus/dbus-*.h:
// dbus-types.h, dbus-errors.h, dbus-message.h, dbus-connection.h, dbus-pending-call.h, dbus-bus.h,
// dbus-shared.h, dbus-protocol.h), written out here because its headers need include paths that
// only pkg-config gives, together with the -ldbus-1 this module exists to avoid.
// BusLoadingTests checks the two struct sizes against the installed headers' (72 and 32 bytes).
#ifndef MODALKIT_DBUS_DYNAMIC_H
#define MODALKIT_DBUS_DYNAMIC_H

#include <stdint.h>

typedef uint32_t dbus_bool_t;
typedef uint32_t dbus_uint32_t;

typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;
typedef struct DBusPendingCall DBusPendingCall;
typedef struct DBusWatch DBusWatch;

/// dbus-errors.h: only initialised and freed here, never read.
typedef struct DBusError {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1;
    unsigned int dummy2 : 1;
    unsigned int dummy3 : 1;
    unsigned int dummy4 : 1;
    unsigned int dummy5 : 1;
    void *padding1;
} DBusError;

/// dbus-message.h: opaque to its users (72 bytes on LP64).
typedef struct DBusMessageIter {
    void *dummy1;
    void *dummy2;
    dbus_uint32_t dummy3;
    int dummy4, dummy5, dummy6, dummy7, dummy8, dummy9, dummy10, dummy11;
    int pad1;
    void *pad2;
    void *pad3;
} DBusMessageIter;

typedef enum { DBUS_HANDLER_RESULT_HANDLED, DBUS_HANDLER_RESULT_NOT_YET_HANDLED, DBUS_HANDLER_RESULT_NEED_MEMORY } DBusHandlerResult;
typedef enum { DBUS_WATCH_READABLE = 1 << 0, DBUS_WATCH_WRITABLE = 1 << 1, DBUS_WATCH_ERROR = 1 << 2, DBUS_WATCH_HANGUP = 1 << 3 } DBusWatchFlags;
typedef enum { DBUS_DISPATCH_DATA_REMAINS, DBUS_DISPATCH_COMPLETE, DBUS_DISPATCH_NEED_MEMORY } DBusDispatchStatus;

#define DBUS_MESSAGE_TYPE_INVALID 0
#define DBUS_MESSAGE_TYPE_METHOD_CALL 1
#define DBUS_MESSAGE_TYPE_METHOD_RETURN 2
#define DBUS_MESSAGE_TYPE_ERROR 3
#define DBUS_MESSAGE_TYPE_SIGNAL 4

typedef void (*DBusFreeFunction)(void *memory);
typedef DBusHandlerResult (*DBusHandleMessageFunction)(DBusConnection *connection, DBusMessage *message, void *user_data);
typedef dbus_bool_t (*DBusAddWatchFunction)(DBusWatch *watch, void *data);
typedef void (*DBusRemoveWatchFunction)(DBusWatch *watch, void *data);
typedef void (*DBusWatchToggledFunction)(DBusWatch *watch, void *data);
typedef void (*DBusPendingCallNotifyFunction)(DBusPendingCall *pending, void *user_data);

/// The functions, filled by modalkit_dbus_load.
struct modalkit_dbus_table {
    void (*error_init)(DBusError *error);
    void (*error_free)(DBusError *error);
    DBusConnection * (*connection_open_private)(const char *address, DBusError *error);
    void (*connection_set_exit_on_disconnect)(DBusConnection *connection, dbus_bool_t exit_on_disconnect);
    void (*connection_close)(DBusConnection *connection);
    DBusConnection * (*connection_ref)(DBusConnection *connection);
    void (*connection_unref)(DBusConnection *connection);
    dbus_bool_t (*connection_add_filter)(DBusConnection *connection, DBusHandleMessageFunction function, void *user_data, DBusFreeFunction free_data_function);
    dbus_bool_t (*connection_send_with_reply)(DBusConnection *connection, DBusMessage *message, DBusPendingCall **pending_return, int timeout_milliseconds);
    dbus_bool_t (*connection_set_watch_functions)(DBusConnection *connection, DBusAddWatchFunction add_function, DBusRemoveWatchFunction remove_function, DBusWatchToggledFunction toggled_function, void *data, DBusFreeFunction free_data_function);
    DBusDispatchStatus (*connection_dispatch)(DBusConnection *connection);
    dbus_bool_t (*bus_set_unique_name)(DBusConnection *connection, const char *unique_name);
    void (*bus_add_match)(DBusConnection *connection, const char *rule, DBusError *error);
    DBusMessage * (*message_new_method_call)(const char *bus_name, const char *path, const char *iface, const char *method);
    void (*message_unref)(DBusMessage *message);
    int (*message_get_type)(DBusMessage *message);
    const char * (*message_get_error_name)(DBusMessage *message);
    const char * (*message_get_sender)(DBusMessage *message);
    const char * (*message_get_path)(DBusMessage *message);
    const char * (*message_get_member)(DBusMessage *message);
    const char * (*message_get_interface)(DBusMessage *message);
    void (*message_iter_init_append)(DBusMessage *message, DBusMessageIter *iter);
    dbus_bool_t (*message_iter_append_basic)(DBusMessageIter *iter, int type, const void *value);
    dbus_bool_t (*message_iter_init)(DBusMessage *message, DBusMessageIter *iter);
    dbus_bool_t (*message_iter_next)(DBusMessageIter *iter);
    int (*message_iter_get_arg_type)(DBusMessageIter *iter);
    void (*message_iter_recurse)(DBusMessageIter *iter, DBusMessageIter *sub);
    void (*message_iter_get_basic)(DBusMessageIter *iter, void *value);
    dbus_bool_t (*pending_call_set_notify)(DBusPendingCall *pending, DBusPendingCallNotifyFunction function, void *user_data, DBusFreeFunction free_user_data);
    DBusMessage * (*pending_call_steal_reply)(DBusPendingCall *pending);
    void (*pending_call_unref)(DBusPendingCall *pending);
    int (*watch_get_unix_fd)(DBusWatch *watch);
    unsigned int (*watch_get_flags)(DBusWatch *watch);
    void * (*watch_get_data)(DBusWatch *watch);
    void (*watch_set_data)(DBusWatch *watch, void *data, DBusFreeFunction free_data_function);
    dbus_bool_t (*watch_handle)(DBusWatch *watch, unsigned int flags);
    dbus_bool_t (*watch_get_enabled)(DBusWatch *watch);
};

extern struct modalkit_dbus_table modalkit_dbus;

/// Opens libdbus-1.so.3 (RTLD_LOCAL) and looks up every function above, once per process
/// (thread-safe). Returns 1 when all were found, else 0 (then every later call returns 0 too and
/// no function here may be called). The library stays loaded until exit.
int modalkit_dbus_load(void);

/// Whether modalkit_dbus_load has loaded libdbus in this process (tests: nothing loads it early).
int modalkit_dbus_is_loaded(void);

static inline void dbus_error_init(DBusError *error) { modalkit_dbus.error_init(error); }
static inline void dbus_error_free(DBusError *error) { modalkit_dbus.error_free(error); }
static inline DBusConnection * dbus_connection_open_private(const char *address, DBusError *error) { return modalkit_dbus.connection_open_private(address, error); }
static inline void dbus_connection_set_exit_on_disconnect(DBusConnection *connection, dbus_bool_t exit_on_disconnect) { modalkit_dbus.connection_set_exit_on_disconnect(connection, exit_on_disconnect); }
static inline void dbus_connection_close(DBusConnection *connection) { modalkit_dbus.connection_close(connection); }
static inline DBusConnection * dbus_connection_ref(DBusConnection *connection) { return modalkit_dbus.connection_ref(connection); }
static inline void dbus_connection_unref(DBusConnection *connection) { modalkit_dbus.connection_unref(connection); }
static inline dbus_bool_t dbus_connection_add_filter(DBusConnection *connection, DBusHandleMessageFunction function, void *user_data, DBusFreeFunction free_data_function) { return modalkit_dbus.connection_add_filter(connection, function, user_data, free_data_function); }
static inline dbus_bool_t dbus_connection_send_with_reply(DBusConnection *connection, DBusMessage *message, DBusPendingCall **pending_return, int timeout_milliseconds) { return modalkit_dbus.connection_send_with_reply(connection, message, pending_return, timeout_milliseconds); }
static inline dbus_bool_t dbus_connection_set_watch_functions(DBusConnection *connection, DBusAddWatchFunction add_function, DBusRemoveWatchFunction remove_function, DBusWatchToggledFunction toggled_function, void *data, DBusFreeFunction free_data_function) { return modalkit_dbus.connection_set_watch_functions(connection, add_function, remove_function, toggled_function, data, free_data_function); }
static inline DBusDispatchStatus dbus_connection_dispatch(DBusConnection *connection) { return modalkit_dbus.connection_dispatch(connection); }
static inline dbus_bool_t dbus_bus_set_unique_name(DBusConnection *connection, const char *unique_name) { return modalkit_dbus.bus_set_unique_name(connection, unique_name); }
static inline void dbus_bus_add_match(DBusConnection *connection, const char *rule, DBusError *error) { modalkit_dbus.bus_add_match(connection, rule, error); }
static inline DBusMessage * dbus_message_new_method_call(const char *bus_name, const char *path, const char *iface, const char *method) { return modalkit_dbus.message_new_method_call(bus_name, path, iface, method); }
static inline void dbus_message_unref(DBusMessage *message) { modalkit_dbus.message_unref(message); }
static inline int dbus_message_get_type(DBusMessage *message) { return modalkit_dbus.message_get_type(message); }
static inline const char * dbus_message_get_error_name(DBusMessage *message) { return modalkit_dbus.message_get_error_name(message); }
static inline const char * dbus_message_get_sender(DBusMessage *message) { return modalkit_dbus.message_get_sender(message); }
static inline const char * dbus_message_get_path(DBusMessage *message) { return modalkit_dbus.message_get_path(message); }
static inline const char * dbus_message_get_member(DBusMessage *message) { return modalkit_dbus.message_get_member(message); }
static inline const char * dbus_message_get_interface(DBusMessage *message) { return modalkit_dbus.message_get_interface(message); }
static inline void dbus_message_iter_init_append(DBusMessage *message, DBusMessageIter *iter) { modalkit_dbus.message_iter_init_append(message, iter); }
static inline dbus_bool_t dbus_message_iter_append_basic(DBusMessageIter *iter, int type, const void *value) { return modalkit_dbus.message_iter_append_basic(iter, type, value); }
static inline dbus_bool_t dbus_message_iter_init(DBusMessage *message, DBusMessageIter *iter) { return modalkit_dbus.message_iter_init(message, iter); }
static inline dbus_bool_t dbus_message_iter_next(DBusMessageIter *iter) { return modalkit_dbus.message_iter_next(iter); }
static inline int dbus_message_iter_get_arg_type(DBusMessageIter *iter) { return modalkit_dbus.message_iter_get_arg_type(iter); }
static inline void dbus_message_iter_recurse(DBusMessageIter *iter, DBusMessageIter *sub) { modalkit_dbus.message_iter_recurse(iter, sub); }
static inline void dbus_message_iter_get_basic(DBusMessageIter *iter, void *value) { modalkit_dbus.message_iter_get_basic(iter, value); }
static inline dbus_bool_t dbus_pending_call_set_notify(DBusPendingCall *pending, DBusPendingCallNotifyFunction function, void *user_data, DBusFreeFunction free_user_data) { return modalkit_dbus.pending_call_set_notify(pending, function, user_data, free_user_data); }
static inline DBusMessage * dbus_pending_call_steal_reply(DBusPendingCall *pending) { return modalkit_dbus.pending_call_steal_reply(pending); }
static inline void dbus_pending_call_unref(DBusPendingCall *pending) { modalkit_dbus.pending_call_unref(pending); }
static inline int dbus_watch_get_unix_fd(DBusWatch *watch) { return modalkit_dbus.watch_get_unix_fd(watch); }
static inline unsigned int dbus_watch_get_flags(DBusWatch *watch) { return modalkit_dbus.watch_get_flags(watch); }
static inline void * dbus_watch_get_data(DBusWatch *watch) { return modalkit_dbus.watch_get_data(watch); }
static inline void dbus_watch_set_data(DBusWatch *watch, void *data, DBusFreeFunction free_data_function) { modalkit_dbus.watch_set_data(watch, data, free_data_function); }
static inline dbus_bool_t dbus_watch_handle(DBusWatch *watch, unsigned int flags) { return modalkit_dbus.watch_handle(watch, flags); }
static inline dbus_bool_t dbus_watch_get_enabled(DBusWatch *watch) { return modalkit_dbus.watch_get_enabled(watch); }

#endif
