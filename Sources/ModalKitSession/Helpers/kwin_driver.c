/*
 * kwin_driver: real input and screenshots for a private headless KWin (kwin_wayland --virtual),
 * driven one command per line on stdin. The end-to-end harness compiles it at test time with
 * glue that wayland-scanner generates from plasma-wayland-protocols' fake-input.xml.
 *
 * Input goes through KWin's org_kde_kwin_fake_input protocol on ONE Wayland connection for the
 * whole run (each connection adds a new input device to KWin's seat); screenshots and scripts go
 * through KWin's session D-Bus (DBUS_SESSION_BUS_ADDRESS) with libdbus. KWin only opens both
 * restricted interfaces to an arbitrary client when it runs with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1
 * and KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1.
 *
 * Every command is answered with one line on stdout, "ok ..." or "error REASON", after a
 * wl_display roundtrip, so that when "ok" arrives KWin has processed the request. Coordinates
 * are KWin's global logical coordinates (fixed-point on the wire).
 *
 *   authenticate                      org_kde_kwin_fake_input.authenticate
 *   capabilities                      -> "ok MASK": the wl_seat capabilities (1 pointer, 2 keyboard, 4 touch)
 *   motion X Y                        pointer_motion_absolute
 *   button down|up [CODE]             button (Linux input code, default BTN_LEFT 0x110)
 *   key CODE down|up                  keyboard_key (Linux input code, e.g. 28 KEY_ENTER, 1 KEY_ESC)
 *   axis vertical|horizontal VALUE    axis (wl_pointer.axis units; fake-input v4 names no source:
 *                                     KWin sends it as a wheel's)
 *   touch-down ID X Y | touch-motion ID X Y | touch-up ID | touch-frame | touch-cancel
 *   touch-path ID X Y DX DY N MS [lift]
 *                                     N touch_motion + touch_frame pairs from (X+DX, Y+DY) on in
 *                                     steps of (DX, DY), each flushed, MS milliseconds apart (a
 *                                     finger moving at a known speed, timed here rather than by
 *                                     one command round trip per event); with `lift`, touch_up +
 *                                     touch_frame go in the same flush as the last motion (a finger
 *                                     lifted as it moves: no round trip between them for KWin to
 *                                     stamp as a rest)
 *   screenshot FILE [native]          org.kde.KWin.ScreenShot2.CaptureActiveScreen (no cursor)
 *                                     written as binary PPM (P6) -> "ok WIDTH HEIGHT"; in logical
 *                                     pixels, or with `native` in device pixels (logical x scale)
 *   script FILE                       org.kde.kwin.Scripting.loadScript(FILE) + Script.run -> "ok ID"
 *   unload-script FILE                org.kde.kwin.Scripting.unloadScript(FILE)
 *   has-name NAME                     -> "ok 1" when NAME has an owner on the session bus, else "ok 0"
 *
 * Exit status: 0 at end of input, 1 when KWin or the bus cannot be reached or goes away.
 */
#define _GNU_SOURCE
#include <dbus/dbus.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "fake-input-client-protocol.h"

#define BTN_LEFT_CODE 0x110
#define DBUS_TIMEOUT_MS 10000

static struct wl_display *display;
static struct org_kde_kwin_fake_input *fake_input;
static struct wl_seat *seat;
static uint32_t seat_capabilities;
static DBusConnection *bus;

static void seat_capabilities_changed(void *data, struct wl_seat *s, uint32_t caps) {
    (void)data; (void)s;
    seat_capabilities = caps;
}

static void seat_name(void *data, struct wl_seat *s, const char *name) {
    (void)data; (void)s; (void)name;
}

static const struct wl_seat_listener seat_listener = {
    .capabilities = seat_capabilities_changed,
    .name = seat_name,
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
                            const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, org_kde_kwin_fake_input_interface.name) == 0 && version >= 4) {
        fake_input = wl_registry_bind(registry, name, &org_kde_kwin_fake_input_interface, 4);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && !seat) {
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
        wl_seat_add_listener(seat, &seat_listener, NULL);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global,
    .global_remove = registry_global_remove,
};

static int reply_error(const char *fmt, const char *detail) {
    printf("error ");
    printf(fmt, detail);
    printf("\n");
    fflush(stdout);
    return 0;
}

/* ---- D-Bus ---- */

/* Calls METHOD and returns the reply (caller unrefs), or NULL with the error text in *why. */
static DBusMessage *call(DBusMessage *message, char *why, size_t why_size) {
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, message, DBUS_TIMEOUT_MS, &error);
    if (!reply) {
        snprintf(why, why_size, "%s: %s", error.name ? error.name : "?", error.message ? error.message : "?");
        dbus_error_free(&error);
    }
    return reply;
}

struct pipe_reader {
    int fd;
    unsigned char *data;
    size_t size;
    int failed;
};

static void *read_pipe(void *arg) {
    struct pipe_reader *r = arg;
    size_t capacity = 1 << 20;
    r->data = malloc(capacity);
    if (!r->data) { r->failed = 1; return NULL; }
    for (;;) {
        if (r->size == capacity) {
            capacity *= 2;
            unsigned char *grown = realloc(r->data, capacity);
            if (!grown) { r->failed = 1; break; }
            r->data = grown;
        }
        ssize_t n = read(r->fd, r->data + r->size, capacity - r->size);
        if (n > 0) r->size += (size_t)n;
        else if (n < 0 && errno == EINTR) continue;
        else { if (n < 0) r->failed = 1; break; }
    }
    return NULL;
}

/* Reads one a{sv} entry of type uint32 or string from a results dictionary. */
static void read_results(DBusMessageIter *dict, uint32_t *width, uint32_t *height, uint32_t *stride,
                         uint32_t *format, char *type, size_t type_size) {
    DBusMessageIter entry, value;
    while (dbus_message_iter_get_arg_type(dict) == DBUS_TYPE_DICT_ENTRY) {
        const char *key = NULL;
        dbus_message_iter_recurse(dict, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        dbus_message_iter_recurse(&entry, &value);
        int t = dbus_message_iter_get_arg_type(&value);
        if (t == DBUS_TYPE_UINT32) {
            uint32_t v = 0;
            dbus_message_iter_get_basic(&value, &v);
            if (strcmp(key, "width") == 0) *width = v;
            else if (strcmp(key, "height") == 0) *height = v;
            else if (strcmp(key, "stride") == 0) *stride = v;
            else if (strcmp(key, "format") == 0) *format = v;
        } else if (t == DBUS_TYPE_STRING && strcmp(key, "type") == 0) {
            const char *s = NULL;
            dbus_message_iter_get_basic(&value, &s);
            snprintf(type, type_size, "%s", s);
        }
        dbus_message_iter_next(dict);
    }
}

/* CaptureActiveScreen(a{sv} options, h pipe) -> a{sv} results. KWin writes the raw image into the
 * pipe from a worker thread, so the pipe is drained by a thread of ours while we wait for the reply. */
static void append_bool_option(DBusMessageIter *options, const char *key, dbus_bool_t value) {
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(options, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "b", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(options, &entry);
}

static int screenshot(const char *path, int native) {
    int fds[2];
    if (pipe(fds) != 0) return reply_error("pipe: %s", strerror(errno));
    DBusMessage *m = dbus_message_new_method_call("org.kde.KWin", "/org/kde/KWin/ScreenShot2",
                                                  "org.kde.KWin.ScreenShot2", "CaptureActiveScreen");
    DBusMessageIter args, options;
    dbus_message_iter_init_append(m, &args);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &options);
    append_bool_option(&options, "include-cursor", FALSE);
    append_bool_option(&options, "native-resolution", native ? TRUE : FALSE);
    dbus_message_iter_close_container(&args, &options);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UNIX_FD, &fds[1]);   /* libdbus sends a dup */
    close(fds[1]);

    struct pipe_reader reader = { .fd = fds[0] };
    pthread_t thread;
    if (pthread_create(&thread, NULL, read_pipe, &reader) != 0) {
        dbus_message_unref(m);
        close(fds[0]);
        return reply_error("pthread_create: %s", strerror(errno));
    }
    char why[512];
    DBusMessage *reply = call(m, why, sizeof why);
    dbus_message_unref(m);
    if (!reply) {
        /* The message (and with it our dup of the write end) is gone: the reader sees EOF. */
        pthread_join(thread, NULL);
        close(fds[0]);
        free(reader.data);
        return reply_error("CaptureActiveScreen: %s", why);
    }
    uint32_t width = 0, height = 0, stride = 0, format = 0;
    char type[32] = "";
    DBusMessageIter results, dict;
    if (dbus_message_iter_init(reply, &results) && dbus_message_iter_get_arg_type(&results) == DBUS_TYPE_ARRAY) {
        dbus_message_iter_recurse(&results, &dict);
        read_results(&dict, &width, &height, &stride, &format, type, sizeof type);
    }
    dbus_message_unref(reply);
    pthread_join(thread, NULL);
    close(fds[0]);

    /* QImage formats: 4 RGB32, 5 ARGB32, 6 ARGB32_Premultiplied — 32-bit 0xAARRGGBB words, so
     * B, G, R, A in memory on a little-endian machine. */
    if (strcmp(type, "raw") != 0 || (format != 4 && format != 5 && format != 6) || width == 0 || height == 0
        || stride < width * 4 || reader.failed || reader.size < (size_t)stride * height) {
        char detail[200];
        snprintf(detail, sizeof detail, "type '%s' format %u %ux%u stride %u, %zu bytes read", type, format,
                 width, height, stride, reader.size);
        free(reader.data);
        return reply_error("unexpected screenshot: %s", detail);
    }
    FILE *out = fopen(path, "wb");
    if (!out) { free(reader.data); return reply_error("cannot write the screenshot: %s", strerror(errno)); }
    fprintf(out, "P6\n%u %u\n255\n", width, height);
    unsigned char *row = malloc((size_t)width * 3);
    for (uint32_t y = 0; y < height && row; y++) {
        const unsigned char *src = reader.data + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++) {
            row[x * 3 + 0] = src[x * 4 + 2];
            row[x * 3 + 1] = src[x * 4 + 1];
            row[x * 3 + 2] = src[x * 4 + 0];
        }
        fwrite(row, 1, (size_t)width * 3, out);
    }
    int bad = !row || ferror(out);
    free(row);
    free(reader.data);
    if (fclose(out) != 0 || bad) return reply_error("cannot write the screenshot: %s", path);
    printf("ok %u %u\n", width, height);
    fflush(stdout);
    return 0;
}

/* Calls METHOD of INTERFACE on org.kde.KWin's OBJECT with one string argument (none when NULL).
   Returns the reply, or NULL with the reason in WHY. */
static DBusMessage *call_kwin(const char *object, const char *interface, const char *method, const char *argument,
                              char *why, size_t why_size) {
    DBusMessage *m = dbus_message_new_method_call("org.kde.KWin", object, interface, method);
    if (argument) dbus_message_append_args(m, DBUS_TYPE_STRING, &argument, DBUS_TYPE_INVALID);
    DBusMessage *reply = call(m, why, why_size);
    dbus_message_unref(m);
    return reply;
}

/* The reply's one argument of TYPE into VALUE (left as it is when the reply has none); frees the reply. */
static void reply_argument(DBusMessage *reply, int type, void *value) {
    DBusError error;
    dbus_error_init(&error);
    if (!dbus_message_get_args(reply, &error, type, value, DBUS_TYPE_INVALID)) dbus_error_free(&error);
    dbus_message_unref(reply);
}

/* org.kde.kwin.Scripting.loadScript(s filePath) -> i id, then Script.run on KWin's object /ID. */
static int run_script(const char *path) {
    char why[512];
    DBusMessage *reply = call_kwin("/Scripting", "org.kde.kwin.Scripting", "loadScript", path, why, sizeof why);
    if (!reply) return reply_error("loadScript: %s", why);
    int32_t id = -1;
    reply_argument(reply, DBUS_TYPE_INT32, &id);
    if (id < 0) return reply_error("loadScript refused %s", path);
    char object[64];
    snprintf(object, sizeof object, "/%d", id);
    reply = call_kwin(object, "org.kde.kwin.Script", "run", NULL, why, sizeof why);
    if (!reply) return reply_error("Script.run: %s", why);
    dbus_message_unref(reply);
    printf("ok %d\n", id);
    fflush(stdout);
    return 0;
}

/* org.kde.kwin.Scripting.unloadScript(s pluginName) -> b; a script loaded from a file is named by its path. */
static int unload_script(const char *path) {
    char why[512];
    DBusMessage *reply = call_kwin("/Scripting", "org.kde.kwin.Scripting", "unloadScript", path, why, sizeof why);
    if (!reply) return reply_error("unloadScript: %s", why);
    dbus_bool_t unloaded = FALSE;
    reply_argument(reply, DBUS_TYPE_BOOLEAN, &unloaded);
    if (!unloaded) return reply_error("unloadScript: %s was not loaded", path);
    printf("ok\n");
    fflush(stdout);
    return 0;
}

/* ---- commands ---- */

static int roundtrip_ok(void) {
    if (wl_display_roundtrip(display) < 0) {
        fprintf(stderr, "kwin_driver: lost the Wayland connection: %s\n", strerror(errno));
        exit(1);
    }
    printf("ok\n");
    fflush(stdout);
    return 0;
}

static int command(char *line) {
    char word[32] = "", arg1[32] = "", path[4096] = "";
    double x = 0, y = 0;
    unsigned id = 0, code = 0;
    if (sscanf(line, "%31s", word) != 1) return reply_error("empty command%s", "");
    if (strcmp(word, "authenticate") == 0) {
        org_kde_kwin_fake_input_authenticate(fake_input, "ModalKit end-to-end tests", "drive modal-demo");
        return roundtrip_ok();
    }
    if (strcmp(word, "capabilities") == 0) {
        if (wl_display_roundtrip(display) < 0) exit(1);
        printf("ok %u\n", seat_capabilities);
        fflush(stdout);
        return 0;
    }
    if (strcmp(word, "motion") == 0 && sscanf(line, "%*s %lf %lf", &x, &y) == 2) {
        org_kde_kwin_fake_input_pointer_motion_absolute(fake_input, wl_fixed_from_double(x), wl_fixed_from_double(y));
        return roundtrip_ok();
    }
    if (strcmp(word, "button") == 0 && sscanf(line, "%*s %31s", arg1) == 1) {
        code = BTN_LEFT_CODE;
        sscanf(line, "%*s %*s %i", &code);
        if (strcmp(arg1, "down") != 0 && strcmp(arg1, "up") != 0) return reply_error("button: down or up, not %s", arg1);
        org_kde_kwin_fake_input_button(fake_input, code, strcmp(arg1, "down") == 0 ? 1 : 0);
        return roundtrip_ok();
    }
    if (strcmp(word, "key") == 0 && sscanf(line, "%*s %i %31s", &code, arg1) == 2) {
        if (strcmp(arg1, "down") != 0 && strcmp(arg1, "up") != 0) return reply_error("key: down or up, not %s", arg1);
        org_kde_kwin_fake_input_keyboard_key(fake_input, code, strcmp(arg1, "down") == 0 ? 1 : 0);
        return roundtrip_ok();
    }
    if (strcmp(word, "axis") == 0 && sscanf(line, "%*s %31s %lf", arg1, &x) == 2) {
        org_kde_kwin_fake_input_axis(fake_input, strcmp(arg1, "horizontal") == 0 ? 1 : 0, wl_fixed_from_double(x));
        return roundtrip_ok();
    }
    if (strcmp(word, "touch-down") == 0 && sscanf(line, "%*s %u %lf %lf", &id, &x, &y) == 3) {
        org_kde_kwin_fake_input_touch_down(fake_input, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
        return roundtrip_ok();
    }
    if (strcmp(word, "touch-motion") == 0 && sscanf(line, "%*s %u %lf %lf", &id, &x, &y) == 3) {
        org_kde_kwin_fake_input_touch_motion(fake_input, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
        return roundtrip_ok();
    }
    if (strcmp(word, "touch-up") == 0 && sscanf(line, "%*s %u", &id) == 1) {
        org_kde_kwin_fake_input_touch_up(fake_input, id);
        return roundtrip_ok();
    }
    if (strcmp(word, "touch-path") == 0) {
        double dx, dy;
        int n, ms;
        char lift[8] = "";
        int fields = sscanf(line, "%*s %u %lf %lf %lf %lf %d %d %7s", &id, &x, &y, &dx, &dy, &n, &ms, lift);
        if (fields < 7 || n < 1 || n > 1000 || ms < 0 || ms > 10000 || (fields == 8 && strcmp(lift, "lift") != 0))
            return reply_error("touch-path ID X Y DX DY N MS [lift] (N 1..1000, MS 0..10000)%s", "");
        for (int i = 1; i <= n; i++) {
            if (ms > 0) {
                struct timespec pause = {ms / 1000, (long)(ms % 1000) * 1000000L};
                nanosleep(&pause, NULL);
            }
            org_kde_kwin_fake_input_touch_motion(fake_input, id, wl_fixed_from_double(x + dx * i),
                                                 wl_fixed_from_double(y + dy * i));
            org_kde_kwin_fake_input_touch_frame(fake_input);
            if (i == n && fields == 8) {
                org_kde_kwin_fake_input_touch_up(fake_input, id);
                org_kde_kwin_fake_input_touch_frame(fake_input);
            }
            if (wl_display_flush(display) < 0) return reply_error("touch-path: %s", "wl_display_flush failed");
        }
        return roundtrip_ok();
    }
    if (strcmp(word, "touch-frame") == 0) {
        org_kde_kwin_fake_input_touch_frame(fake_input);
        return roundtrip_ok();
    }
    if (strcmp(word, "touch-cancel") == 0) {
        org_kde_kwin_fake_input_touch_cancel(fake_input);
        return roundtrip_ok();
    }
    if (strcmp(word, "screenshot") == 0 && sscanf(line, "%*s %4095s %31s", path, arg1) >= 1) {
        if (arg1[0] && strcmp(arg1, "native") != 0) return reply_error("screenshot FILE [native], not %s", arg1);
        return screenshot(path, arg1[0] != 0);
    }
    if (strcmp(word, "script") == 0 && sscanf(line, "%*s %4095s", path) == 1) return run_script(path);
    if (strcmp(word, "unload-script") == 0 && sscanf(line, "%*s %4095s", path) == 1) return unload_script(path);
    if (strcmp(word, "has-name") == 0 && sscanf(line, "%*s %4095s", path) == 1) {
        DBusError error;
        dbus_error_init(&error);
        dbus_bool_t owned = dbus_bus_name_has_owner(bus, path, &error);
        if (dbus_error_is_set(&error)) {
            reply_error("NameHasOwner: %s", error.message);
            dbus_error_free(&error);
            return 0;
        }
        printf("ok %d\n", owned ? 1 : 0);
        fflush(stdout);
        return 0;
    }
    return reply_error("unknown or malformed command: %s", line);
}

int main(void) {
    display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "kwin_driver: cannot connect to the Wayland display: %s\n", strerror(errno));
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    if (wl_display_roundtrip(display) < 0 || wl_display_roundtrip(display) < 0) {
        fprintf(stderr, "kwin_driver: roundtrip failed: %s\n", strerror(errno));
        return 1;
    }
    if (!fake_input) {
        fprintf(stderr, "kwin_driver: the compositor offers no org_kde_kwin_fake_input version 4\n");
        return 1;
    }
    DBusError error;
    dbus_error_init(&error);
    bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) {
        fprintf(stderr, "kwin_driver: cannot reach the session bus: %s\n", error.message);
        return 1;
    }
    dbus_connection_set_exit_on_disconnect(bus, FALSE);
    printf("ready\n");
    fflush(stdout);

    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        command(line);
    }
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    wl_display_disconnect(display);
    return 0;
}
