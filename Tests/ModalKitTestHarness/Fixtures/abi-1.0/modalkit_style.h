/*
 * modalkit_style.h — the versioned C ABI between a ModalKit host (modal-demo) and a
 * presentation-style plugin (a shared library named libModalKitStyle<Name>.so).
 *
 * Why C: a Swift protocol cannot cross dlopen inside one SwiftPM package (each image gets its
 * own copy of the protocol descriptor and `as? PresentationStyle` silently fails), see
 * docs/design.md, plugin boundary. So, as in GStreamer (GstPluginDesc) and weston (module
 * init + version checks), the plugin exports plain C data and functions and the host checks
 * versions before running any plugin code.
 *
 * A plugin exports two symbols:
 *   - `modalkit_style_abi_version` (data, `modalkit_style_abi_version_t`): the ABI the plugin
 *     was built against. Defined once, in this C target's modalkit_style.c, so every plugin
 *     that links ModalKit carries it without writing any C. The host reads it with dlsym()
 *     before calling any plugin function.
 *   - `modalkit_style_entry` (function, `modalkit_style_entry_fn`): returns the plugin's
 *     descriptor. Swift plugins write it as
 *       @_cdecl("modalkit_style_entry") public func modalkitStyleEntry() -> UnsafeRawPointer {
 *           exportStyle(MyStyle.self) }
 *
 * Versioning rules (the host enforces them, in this order, before the entry runs):
 *   - the plugin's major must equal the host's major;
 *   - the plugin's minor must be <= the host's minor (a newer plugin may rely on fields or
 *     behaviour the host does not have);
 *   - `descriptor_size` must be at least the size of the descriptor as of the plugin's minor.
 * Within one major, structs only grow at the end: a new minor appends fields to
 * modalkit_style_descriptor (and bumps MODALKIT_STYLE_ABI_MINOR), never reorders or removes
 * them. A host reads fields past the ones of its own minor only if struct_size covers them.
 * Anything else is a new major.
 *
 * Units: geometry in points (the container's coordinate space, origin top-left, y down);
 * colours premultiplied, components 0...1; time in seconds; progress is the EASED transition
 * progress, 0 = dismissed, 1 = presented (the engine applies the timing curve).
 *
 * Ownership: every string and table in a descriptor belongs to the plugin and must stay valid
 * for the life of the process (the host never dlclose()s a plugin: the Swift runtime keeps the
 * plugin's conformance and metadata records registered, so unloading would leave dangling
 * pointers behind — docs/design.md, plugin boundary). A `modalkit_style` instance belongs to
 * the host from create() until it passes it to destroy().
 */
#ifndef MODALKIT_STYLE_H
#define MODALKIT_STYLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MODALKIT_STYLE_ABI_MAJOR 1
#define MODALKIT_STYLE_ABI_MINOR 0

#define MODALKIT_STYLE_ENTRY_SYMBOL "modalkit_style_entry"
#define MODALKIT_STYLE_ABI_VERSION_SYMBOL "modalkit_style_abi_version"

/* Corner bits of modalkit_corner_style.corners (UIKit's CACornerMask). */
#define MODALKIT_CORNER_TOP_LEFT 1u
#define MODALKIT_CORNER_TOP_RIGHT 2u
#define MODALKIT_CORNER_BOTTOM_LEFT 4u
#define MODALKIT_CORNER_BOTTOM_RIGHT 8u

/* modalkit_timing_curve.kind */
#define MODALKIT_CURVE_LINEAR 0u       /* no parameters */
#define MODALKIT_CURVE_EASE_IN_OUT 1u  /* cubic-bezier(0.42, 0, 0.58, 1) */
#define MODALKIT_CURVE_EASE_OUT 2u     /* cubic-bezier(0, 0, 0.58, 1) */
#define MODALKIT_CURVE_CUBIC_BEZIER 3u /* p1..p4 = x1, y1, x2, y2 (x1, x2 in 0...1) */
#define MODALKIT_CURVE_SPRING 4u       /* p1 = stiffness (N/m), p2 = damping (N*s/m), both > 0 */

/*
 * The ABI a library was built against. This struct's layout is frozen for every major
 * version, since the host must read it before it knows the plugin's major.
 */
typedef struct modalkit_style_abi_version_t {
    uint32_t major;
    uint32_t minor;
    /* sizeof(modalkit_style_descriptor) in the headers the plugin was built with, bytes. */
    uint32_t descriptor_size;
    uint32_t reserved; /* 0 */
} modalkit_style_abi_version_t;

/* Defined in modalkit_style.c (so in every image that links ModalKit) with this header's
 * MODALKIT_STYLE_ABI_MAJOR / _MINOR and sizeof(modalkit_style_descriptor). */
extern const modalkit_style_abi_version_t modalkit_style_abi_version;

typedef struct modalkit_point {
    double x, y;
} modalkit_point;

typedef struct modalkit_rect {
    double x, y, width, height;
} modalkit_rect;

/* Premultiplied colour, components 0...1. */
typedef struct modalkit_color {
    double red, green, blue, alpha;
} modalkit_color;

/* The dimming view at one progress: its colour and its view alpha (0...1); what is drawn over
 * the whole container is color * alpha. */
typedef struct modalkit_dimming {
    modalkit_color color;
    double alpha;
} modalkit_dimming;

/* Corner radius in points and the MODALKIT_CORNER_* bits it applies to. */
typedef struct modalkit_corner_style {
    double radius;
    uint32_t corners;
} modalkit_corner_style;

/* Where the presented view is drawn relative to its frame: a translation in points, then a
 * uniform scale about the frame's centre, and an opacity 0...1. */
typedef struct modalkit_view_transform {
    double translate_x, translate_y;
    double scale;
    double alpha;
} modalkit_view_transform;

/* The curve from linear time fraction to progress: one of MODALKIT_CURVE_* and its
 * parameters (unused ones 0). */
typedef struct modalkit_timing_curve {
    uint32_t kind;
    double p1, p2, p3, p4;
} modalkit_timing_curve;

/* One option the style accepts (`--style-option KEY=VALUE`). Strings are UTF-8. */
typedef struct modalkit_style_option {
    const char *key;           /* lower-case with dashes, e.g. "margin-x" */
    const char *description;   /* one line: meaning and unit */
    const char *default_value; /* as it would be written on the command line */
} modalkit_style_option;

/* A style instance, opaque to the host. */
typedef struct modalkit_style modalkit_style;

/*
 * The descriptor a plugin's entry returns. Fields marked "required" must be non-NULL; for an
 * optional function left NULL the host uses the default that `PresentationStyle`'s protocol
 * extension documents (UIKit's behaviour).
 */
typedef struct modalkit_style_descriptor {
    /* --- ABI 1.0 --- */
    uint32_t abi_major;   /* == modalkit_style_abi_version.major */
    uint32_t abi_minor;   /* == modalkit_style_abi_version.minor */
    uint32_t struct_size; /* sizeof(modalkit_style_descriptor) as built, bytes */
    uint32_t option_size; /* sizeof(modalkit_style_option) as built: the stride of `options` */

    const char *name;        /* required: what users pass to --style, e.g. "inset-centered";
                                non-empty, no whitespace, no '/' */
    const char *description; /* required: one line for --list-styles */
    size_t option_count;
    const modalkit_style_option *options; /* option_count entries, stride option_size */
    void *plugin_data;                    /* the plugin's own; the host only passes it back
                                             through the descriptor given to create() */

    /* Required. Creates an instance from `count` key/value pairs (UTF-8, keys among
     * `options`; the host has already rejected undeclared keys; missing keys take their
     * defaults). On failure returns NULL and writes a one-line, NUL-terminated message of at
     * most error_len bytes (including the NUL) into error_buf. */
    modalkit_style *(*create)(const struct modalkit_style_descriptor *descriptor,
                              const char *const *keys, const char *const *values, size_t count,
                              char *error_buf, size_t error_len);
    /* Required. Releases an instance from create(). */
    void (*destroy)(modalkit_style *style);

    /* Transition duration, seconds (UIKit transitionDuration(using:)). NULL: 0.35. */
    double (*transition_duration)(modalkit_style *style);
    /* Timing curve. NULL: ease-in-out. */
    modalkit_timing_curve (*timing_curve)(modalkit_style *style);

    /* Required. The presented view's frame when fully presented
     * (UIKit frameOfPresentedViewInContainerView). */
    modalkit_rect (*frame_of_presented_view)(modalkit_style *style, modalkit_rect container_bounds);
    /* The presented view's corners. NULL: square. */
    modalkit_corner_style (*corner_style)(modalkit_style *style, modalkit_rect container_bounds);
    /* Required. The dimming view at eased progress 0...1. */
    modalkit_dimming (*dimming_appearance)(modalkit_style *style, double progress);
    /* The presented view's transform at progress, relative to `frame` (its final frame).
     * NULL: cover-vertical (rises from below the container's bottom edge). */
    modalkit_view_transform (*presented_view_transform)(modalkit_style *style, double progress,
                                                        modalkit_rect frame,
                                                        modalkit_rect container_bounds);
    /* Whether a tap at `point` on the dimming view dismisses. NULL: true. */
    bool (*should_dismiss_on_tap)(modalkit_style *style, modalkit_point point,
                                  modalkit_rect container_bounds);

    /* Transition hooks (UIKit presentationTransitionWillBegin, presentationTransitionDidEnd(_:),
     * dismissalTransitionWillBegin, dismissalTransitionDidEnd(_:)). NULL: nothing. */
    void (*presentation_transition_will_begin)(modalkit_style *style);
    void (*presentation_transition_did_end)(modalkit_style *style, bool completed);
    void (*dismissal_transition_will_begin)(modalkit_style *style);
    void (*dismissal_transition_did_end)(modalkit_style *style, bool completed);

    /* Layout hooks (UIKit containerViewWillLayoutSubviews / DidLayoutSubviews) with the new
     * container bounds. NULL: nothing. */
    void (*container_view_will_layout)(modalkit_style *style, modalkit_rect container_bounds);
    void (*container_view_did_layout)(modalkit_style *style, modalkit_rect container_bounds);

    /* --- later minors append fields here, and only here --- */
} modalkit_style_descriptor;

/* The size a descriptor of ABI 1.<minor> has at least, bytes; 0 for a minor this header does
 * not know. The host checks the version symbol's descriptor_size against it before the entry
 * runs, and the returned descriptor's struct_size after. */
size_t modalkit_style_descriptor_min_size(uint32_t minor);

/* The plugin's entry point, exported as MODALKIT_STYLE_ENTRY_SYMBOL. Called at most once per
 * process, after the version checks; returns a descriptor valid for the life of the process. */
typedef const modalkit_style_descriptor *(*modalkit_style_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* MODALKIT_STYLE_H */
