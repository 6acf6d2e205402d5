/*
 * modalkit_style.h — the versioned C ABI between a ModalKit host (modal-demo) and a
 * presentation-style plugin (a shared library named libModalKitStyle<Name>.so).
 *
 * Why C: a Swift type cannot cross dlopen inside one SwiftPM package (each image gets its own
 * copy of the type's metadata and protocol descriptors, so a cast silently fails), see
 * docs/design.md, plugin boundary. So, as in GStreamer (GstPluginDesc) and weston (module
 * init + version checks), the plugin exports plain C data and functions and the host checks
 * versions before running any plugin code.
 *
 * A plugin carries one ELF note and exports two symbols:
 *   - the note (section `.note.modalkit`, below): its name, summary, ABI version and option
 *     declarations as data, which the host reads from the FILE without loading it — so listing
 *     styles and finding one by name run no plugin code, and only the chosen library is loaded.
 *     Swift plugins get it from a build step (docs/design.md, plugin metadata and trust). A library
 *     without it (built before ModalKit wrote one) still loads: the host then reads the same
 *     metadata by loading it, and says so.
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
 * modalkit_style_descriptor or modalkit_style_option (and bumps MODALKIT_STYLE_ABI_MINOR), never
 * reorders or removes them. A host reads fields past the ones of its own minor only if struct_size
 * (option_size for options) covers them, and a minor's fields only from a plugin of that minor
 * or later. 1.1: options carry their unit and accepted values. 1.2: the presented view's frame
 * may be asked with a layout context that answers the presented content's preferred size.
 * 1.3: detents that fit the content (two detent kinds) and whether scrolling expands a sheet.
 * Anything else is a new major.
 *
 * Which minor added what: every type, constant and descriptor field below is marked with the
 * minor version it appeared in ("1.0", "1.1"). A plugin built against 1.0 has none of the 1.1
 * fields (its struct_size ends before them): the host reads them as NULL and uses the defaults,
 * which draw exactly what a 1.0 host draws.
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
#define MODALKIT_STYLE_ABI_MINOR 3 /* 1.1: option metadata (unit, accepted values) and the descriptor's 1.1 fields;
                                     1.2: the frame asked with a layout context (the content's preferred size);
                                     1.3: detents that fit the content, whether scrolling expands a sheet */

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

/* 1.1: modalkit_transition_context.phase */
#define MODALKIT_PHASE_PRESENT 0u /* progress runs 0 -> 1 */
#define MODALKIT_PHASE_DISMISS 1u /* progress runs 1 -> 0 */

/* 1.1: modalkit_dimming_fill.kind */
#define MODALKIT_DIM_SOLID 0u    /* `color` over the whole container */
#define MODALKIT_DIM_GRADIENT 1u /* `gradient` over the whole container */

/* 1.1: the most stops a modalkit_linear_gradient holds, and the most detents of an interaction. */
#define MODALKIT_GRADIENT_MAX_STOPS 8
#define MODALKIT_MAX_DETENTS 8

/* 1.1: bits of modalkit_chrome.parts (which parts of the chrome are drawn). */
#define MODALKIT_CHROME_BACKGROUND 1u
#define MODALKIT_CHROME_BORDER 2u
#define MODALKIT_CHROME_SHADOW 4u
#define MODALKIT_CHROME_GRABBER 8u

/* 1.1: modalkit_interaction.dismiss_gesture and .drag_direction */
#define MODALKIT_DISMISS_GESTURE_NONE 0u /* taps and Escape only */
#define MODALKIT_DISMISS_GESTURE_DRAG 1u /* drag the presented view along drag_direction */
#define MODALKIT_DRAG_DOWN 0u
#define MODALKIT_DRAG_UP 1u
#define MODALKIT_DRAG_LEFT 2u
#define MODALKIT_DRAG_RIGHT 3u

/* 1.1: modalkit_detent.kind */
#define MODALKIT_DETENT_FRACTION 0u /* value: a fraction (0, 1] of the container along the drag axis */
#define MODALKIT_DETENT_POINTS 1u   /* value: a length, points */
/* 1.3: as long as the presented content prefers along the drag axis (its preferred height at the
 * view's width for a vertical drag), at most `value` — a fraction (0, 1] of the container
 * (FIT_CONTENT_FRACTION) or a length in points (FIT_CONTENT_POINTS); a content that does not say
 * takes the cap (UIKit's custom detent resolving the content's height). The host resolves it on
 * each layout; a host reads these kinds only from a plugin of minor >= 3. */
#define MODALKIT_DETENT_FIT_CONTENT_FRACTION 2u
#define MODALKIT_DETENT_FIT_CONTENT_POINTS 3u

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

/*
 * The style note: what a library declares, readable without loading it (docs/design.md, plugin
 * metadata and trust; GStreamer reads the same from every plugin in a separate scanner process, a
 * note makes that a plain file read).
 *
 * An ELF note (System V gABI, "Note Section") in an allocated section named
 * MODALKIT_NOTE_SECTION of type SHT_NOTE: namesz 9, name "ModalKit\0" padded to 12 bytes, type
 * MODALKIT_NOTE_TYPE_STYLE, then descsz bytes of payload (a multiple of 4). One such note per
 * library. The note header (namesz, descsz, type) is in the file's byte order, as for every ELF
 * note; the payload is LITTLE-ENDIAN whatever the file, so one encoder serves every target.
 *
 * Payload, format 1:
 *   uint32 format      MODALKIT_NOTE_FORMAT; a host refuses a payload of a format it does not
 *                      know (a new format is made only for a change old hosts would misread)
 *   uint32 abi_major   the style ABI the plugin was built against: equal to its
 *   uint32 abi_minor   modalkit_style_abi_version and its descriptor's abi_major / abi_minor
 *   uint32 reserved    0
 *   fields, to the end of the payload, each:
 *     uint32 tag       MODALKIT_NOTE_* below; 0 is never used
 *     uint32 length    of the value, bytes (not counting the padding)
 *     value            `length` bytes, then zero bytes up to a multiple of 4
 *   A reader skips fields whose tag it does not know (later versions add tags) and takes the
 *   first of a tag that may appear once. Strings are UTF-8 without a NUL.
 *
 * Top-level fields:
 *   NAME (once, required)     the style's name, as the descriptor's `name`
 *   SUMMARY (once, required)  its one line, as the descriptor's `description`
 *   OPTION (one per option, in the descriptor's order): a value that is itself a list of fields
 *     (same layout, tags MODALKIT_NOTE_OPTION_*), one per member of modalkit_style_option:
 *       KEY (required), MEANING (`description`), DEFAULT (`default_value`), UNIT, KIND (uint32,
 *       MODALKIT_OPTION_*; absent: TEXT), RANGE (NUMBER: two IEEE 754 binary64, minimum then
 *       maximum), CHOICE (CHOICE: one word per field, in order), ACCEPTED (TEXT: the one line).
 * Limits a host enforces: payload at most 1 MiB, at most 1024 options, 256 choices per option.
 * When the host loads the library it checks that the descriptor says exactly what the note says
 * (name, summary, ABI, every option field) and refuses the library otherwise.
 */
#define MODALKIT_NOTE_SECTION ".note.modalkit"
#define MODALKIT_NOTE_OWNER "ModalKit"
#define MODALKIT_NOTE_TYPE_STYLE 0x4d4b5354u /* "MKST": outside the small numbers other owners use */
#define MODALKIT_NOTE_FORMAT 1u

#define MODALKIT_NOTE_NAME 1u
#define MODALKIT_NOTE_SUMMARY 2u
#define MODALKIT_NOTE_OPTION 3u

#define MODALKIT_NOTE_OPTION_KEY 1u
#define MODALKIT_NOTE_OPTION_MEANING 2u
#define MODALKIT_NOTE_OPTION_DEFAULT 3u
#define MODALKIT_NOTE_OPTION_UNIT 4u
#define MODALKIT_NOTE_OPTION_KIND 5u
#define MODALKIT_NOTE_OPTION_RANGE 6u
#define MODALKIT_NOTE_OPTION_CHOICE 7u
#define MODALKIT_NOTE_OPTION_ACCEPTED 8u

/* 1.0 */
typedef struct modalkit_point {
    double x, y;
} modalkit_point;

/* 1.0 */
typedef struct modalkit_rect {
    double x, y, width, height;
} modalkit_rect;

/* 1.0: premultiplied colour, components 0...1. */
typedef struct modalkit_color {
    double red, green, blue, alpha;
} modalkit_color;

/* 1.0: the dimming view at one progress: its colour and its view alpha (0...1); what is drawn over
 * the whole container is color * alpha. */
typedef struct modalkit_dimming {
    modalkit_color color;
    double alpha;
} modalkit_dimming;

/* 1.0: corner radius in points and the MODALKIT_CORNER_* bits it applies to. */
typedef struct modalkit_corner_style {
    double radius;
    uint32_t corners;
} modalkit_corner_style;

/* 1.0: where the presented view is drawn relative to its frame: a translation in points, then a
 * uniform scale about the frame's centre, and an opacity 0...1. */
typedef struct modalkit_view_transform {
    double translate_x, translate_y;
    double scale;
    double alpha;
} modalkit_view_transform;

/* 1.0: the curve from linear time fraction to progress: one of MODALKIT_CURVE_* and its
 * parameters (unused ones 0). */
typedef struct modalkit_timing_curve {
    uint32_t kind;
    double p1, p2, p3, p4;
} modalkit_timing_curve;

/* 1.1: modalkit_style_option.kind, what values an option accepts. */
#define MODALKIT_OPTION_TEXT 0u   /* any text; `accepted` may describe it */
#define MODALKIT_OPTION_NUMBER 1u /* a finite number in minimum...maximum (inclusive), in `unit` */
#define MODALKIT_OPTION_CHOICE 2u /* one of choice_count words in `choices` */
#define MODALKIT_OPTION_COLOR 3u  /* "#RRGGBB" or "#RRGGBBAA" (straight alpha) */
#define MODALKIT_OPTION_CURVE 4u  /* a timing curve: linear, ease-in-out, ease-out, cubic-bezier(...), spring(k,c) */

/*
 * 1.0 (fields marked 1.1 appended in 1.1): one option the style accepts
 * (`--style-option KEY=VALUE`). Strings are UTF-8.
 * The table's stride is the descriptor's option_size: a 1.0 plugin's entries end after
 * default_value, and the host reads the 1.1 fields only from a plugin of minor >= 1 whose
 * option_size covers them (fields only grow at the end, as in the descriptor).
 */
typedef struct modalkit_style_option {
    /* --- ABI 1.0 --- */
    const char *key;           /* lower-case with dashes, e.g. "margin-x" */
    const char *description;   /* one line: meaning (in 1.0 also the unit) */
    const char *default_value; /* as it would be written on the command line */

    /* --- ABI 1.1 --- */
    uint32_t kind;              /* 1.1: MODALKIT_OPTION_*; an unknown kind reads as TEXT */
    uint32_t reserved;          /* 1.1: 0 */
    const char *unit;           /* 1.1: unit of a number, e.g. "points", "seconds"; NULL or "" for none */
    double minimum, maximum;    /* 1.1: NUMBER: the accepted range, inclusive; otherwise 0 */
    const char *const *choices; /* 1.1: CHOICE: choice_count words; otherwise NULL */
    size_t choice_count;        /* 1.1: entries in `choices` (at most 256) */
    const char *accepted;       /* 1.1: TEXT: one line saying what is accepted; NULL or "" if nothing */
    /* --- later minors append fields here, and only here --- */
} modalkit_style_option;

/* 1.1: what every 1.1 hook is told about the transition it takes part in (UIKit's
 * UIViewControllerContextTransitioning, reduced to what a style needs). */
typedef struct modalkit_transition_context {
    uint32_t phase;                 /* MODALKIT_PHASE_* */
    bool is_interactive;            /* a gesture drives the progress, not the clock */
    bool has_source_rect;           /* whether source_rect is set */
    modalkit_rect source_rect;      /* the control that started the presentation, container
                                       points (so a style can grow from it); zero when unset */
    modalkit_rect container_bounds; /* points */
} modalkit_transition_context;

/* 1.1: one colour stop of a gradient: its place on the gradient line (0 = start, 1 = end) and
 * its premultiplied colour. */
typedef struct modalkit_gradient_stop {
    double location;
    modalkit_color color;
} modalkit_gradient_stop;

/* 1.1: a linear gradient between two points in container coordinates (points), with stop_count
 * (2 ... MODALKIT_GRADIENT_MAX_STOPS) stops stored inline, locations in 0...1 and non-decreasing.
 * Before the first stop the first colour holds, after the last the last (pad). The host checks
 * every value: locations are clamped to 0...1 and made non-decreasing, a count above 8 is cut to
 * 8, a count below 2 repeats the one stop (or draws no dim when there is none), NaN becomes 0. */
typedef struct modalkit_linear_gradient {
    modalkit_point start, end;
    uint32_t stop_count;
    modalkit_gradient_stop stops[MODALKIT_GRADIENT_MAX_STOPS];
} modalkit_linear_gradient;

/* 1.1: the dimming view at one progress: a fill (kind MODALKIT_DIM_SOLID: `color`;
 * MODALKIT_DIM_GRADIENT: `gradient`, `color` ignored) and the view's alpha 0...1. What is drawn
 * over the whole container is the fill * alpha. */
typedef struct modalkit_dimming_fill {
    uint32_t kind;
    modalkit_color color;
    modalkit_linear_gradient gradient;
    double alpha;
} modalkit_dimming_fill;

/* 1.1: where a view is drawn relative to its frame: a translation in points, then a scale per
 * axis about an anchor point in unit coordinates of the (translated) view (0,0 top-left, 1,1
 * bottom-right, 0.5,0.5 the centre: Core Animation's anchorPoint), and an opacity 0...1. A scale
 * <= 0 on either axis hides the view. */
typedef struct modalkit_anchored_transform {
    double translate_x, translate_y;
    double scale_x, scale_y;
    double anchor_x, anchor_y;
    double alpha;
} modalkit_anchored_transform;

/* 1.1: a drop shadow behind the presented view: its rounded rectangle moved by offset (points),
 * blurred by blur_radius (points, >= 0; negative is drawn as 0), in color (premultiplied; its
 * alpha is the shadow's opacity). The host draws it from a cached blurred image. */
typedef struct modalkit_shadow {
    modalkit_color color;
    modalkit_point offset;
    double blur_radius;
} modalkit_shadow;

/* 1.1: a border inside the presented view's (rounded) edge: width in points (>= 0), colour. */
typedef struct modalkit_border {
    double width;
    modalkit_color color;
} modalkit_border;

/* 1.1: the presented view's chrome, drawn by the host around and over the content. Only the
 * parts whose MODALKIT_CHROME_* bit is set in `parts` are drawn; the other fields are ignored.
 * The grabber is UIKit's sheet grabber: a 36 x 5 pt bar with fully rounded ends, centred, its
 * top 5 pt below the view's top edge, in grabber_color. */
typedef struct modalkit_chrome {
    uint32_t parts;
    modalkit_color background_color; /* filled under the content */
    modalkit_border border;
    modalkit_shadow shadow;
    modalkit_color grabber_color;
} modalkit_chrome;

/* 1.1: the presenting view while a presentation covers it: a transform relative to the
 * container bounds and a corner radius in points for all four corners (UIKit's page sheet
 * makes the presenting view recede). */
typedef struct modalkit_presenting_appearance {
    modalkit_anchored_transform transform;
    double corner_radius;
} modalkit_presenting_appearance;

/* 1.1: a resting size of a sheet along its drag axis (UIKit's sheet detents). */
typedef struct modalkit_detent {
    uint32_t kind; /* MODALKIT_DETENT_* */
    double value;
} modalkit_detent;

/* 1.1: the interactions a style allows. */
typedef struct modalkit_interaction {
    uint32_t dismiss_gesture; /* MODALKIT_DISMISS_GESTURE_* */
    uint32_t drag_direction;  /* MODALKIT_DRAG_*, used with MODALKIT_DISMISS_GESTURE_DRAG */
    uint32_t detent_count;    /* 0 ... MODALKIT_MAX_DETENTS; 0 = one detent, the view's frame */
    modalkit_detent detents[MODALKIT_MAX_DETENTS]; /* ascending */
    int32_t largest_undimmed_detent; /* index into detents, or -1: dimmed at every detent */
    bool is_dismissible; /* false: taps on the dim, Escape and drags do not dismiss */
} modalkit_interaction;

/* 1.2 */
typedef struct modalkit_size {
    double width, height;
} modalkit_size;

/* 1.2: what the 1.2 layout entry is told about the layout it takes part in (UIKit's presentation
 * controller reads its containerView and the presented view controller's preferredContentSize).
 * Valid only during the call. Later minors append fields at the end; struct_size says how many
 * bytes the host filled (read a field only when struct_size covers it). */
typedef struct modalkit_layout_context {
    uint32_t struct_size;           /* sizeof(modalkit_layout_context) as the host was built */
    uint32_t reserved;              /* 0 */
    modalkit_rect container_bounds; /* points */
    /* Asks the presented content for its preferred size at `width` points (UIKit's
     * systemLayoutSizeFitting with a fixed width; libadwaita's content-width/content-height):
     * writes it (points) into *out and returns true, or returns false when the content does not
     * say (then use the style's own size). Pass the context itself as the first argument. Never
     * NULL in a context the host made. */
    bool (*preferred_content_size)(const struct modalkit_layout_context *context, double width, modalkit_size *out);
    void *host_data; /* the host's own; do not touch */
} modalkit_layout_context;

/* 1.0: a style instance, opaque to the host. */
typedef struct modalkit_style modalkit_style;

/*
 * The descriptor a plugin's entry returns. Fields marked "required" must be non-NULL; for an
 * optional function left NULL the host keeps the default of the Swift hook it feeds
 * (`PresentationStyle`'s documentation; UIKit's behaviour). The Swift API has one set of hooks
 * and no versions: the host adapts each minor's entries to it (docs/design.md, "One set of hooks").
 */
typedef struct modalkit_style_descriptor {
    /* --- ABI 1.0 --- (every field in this block appeared in 1.0) */
    uint32_t abi_major;   /* 1.0: == modalkit_style_abi_version.major */
    uint32_t abi_minor;   /* 1.0: == modalkit_style_abi_version.minor */
    uint32_t struct_size; /* 1.0: sizeof(modalkit_style_descriptor) as built, bytes */
    uint32_t option_size; /* 1.0: sizeof(modalkit_style_option) as built: the stride of `options` */

    const char *name;        /* 1.0, required: what users pass to --style, e.g. "inset-centered";
                                non-empty, no whitespace, no '/' */
    const char *description; /* 1.0, required: one line for --list-styles */
    size_t option_count;                  /* 1.0 */
    const modalkit_style_option *options; /* 1.0: option_count entries, stride option_size */
    void *plugin_data;                    /* 1.0: the plugin's own; the host only passes it back
                                             through the descriptor given to create() */

    /* 1.0. Required. Creates an instance from `count` key/value pairs (UTF-8, keys among
     * `options`; the host has already rejected undeclared keys; missing keys take their
     * defaults). On failure returns NULL and writes a one-line, NUL-terminated message of at
     * most error_len bytes (including the NUL) into error_buf. */
    modalkit_style *(*create)(const struct modalkit_style_descriptor *descriptor,
                              const char *const *keys, const char *const *values, size_t count,
                              char *error_buf, size_t error_len);
    /* 1.0. Required. Releases an instance from create(). */
    void (*destroy)(modalkit_style *style);

    /* 1.0. Transition duration, seconds (UIKit transitionDuration(using:)). NULL: 0.35. */
    double (*transition_duration)(modalkit_style *style);
    /* 1.0. Timing curve. NULL: ease-in-out. */
    modalkit_timing_curve (*timing_curve)(modalkit_style *style);

    /* 1.0. Required. The presented view's frame when fully presented
     * (UIKit frameOfPresentedViewInContainerView). */
    modalkit_rect (*frame_of_presented_view)(modalkit_style *style, modalkit_rect container_bounds);
    /* 1.0. The presented view's corners. NULL: square. */
    modalkit_corner_style (*corner_style)(modalkit_style *style, modalkit_rect container_bounds);
    /* 1.0. Required. The dimming view at eased progress 0...1. */
    modalkit_dimming (*dimming_appearance)(modalkit_style *style, double progress);
    /* 1.0. The presented view's transform at progress, relative to `frame` (its final frame).
     * NULL: cover-vertical (rises from below the container's bottom edge). */
    modalkit_view_transform (*presented_view_transform)(modalkit_style *style, double progress,
                                                        modalkit_rect frame,
                                                        modalkit_rect container_bounds);
    /* 1.0. Whether a tap at `point` on the dimming view dismisses. NULL: true. */
    bool (*should_dismiss_on_tap)(modalkit_style *style, modalkit_point point,
                                  modalkit_rect container_bounds);

    /* 1.0. Transition hooks (UIKit presentationTransitionWillBegin, presentationTransitionDidEnd(_:),
     * dismissalTransitionWillBegin, dismissalTransitionDidEnd(_:)). NULL: nothing. */
    void (*presentation_transition_will_begin)(modalkit_style *style);
    void (*presentation_transition_did_end)(modalkit_style *style, bool completed);
    void (*dismissal_transition_will_begin)(modalkit_style *style);
    void (*dismissal_transition_did_end)(modalkit_style *style, bool completed);

    /* 1.0. Layout hooks (UIKit containerViewWillLayoutSubviews / DidLayoutSubviews) with the new
     * container bounds. NULL: nothing. */
    void (*container_view_will_layout)(modalkit_style *style, modalkit_rect container_bounds);
    void (*container_view_did_layout)(modalkit_style *style, modalkit_rect container_bounds);

    /* --- ABI 1.1 ---
     * Each takes the place of a 1.0 entry (or of a default) when non-NULL; when NULL the host
     * uses the 1.0 entry (or the default), which is what a 1.0 host does. `context` is valid only
     * during the call. An out-parameter arrives holding the default (all zero, except
     * modalkit_interaction: largest_undimmed_detent -1 and is_dismissible true); write it in full. */

    /* 1.1. Duration of the transition in `context`, seconds (a dismissal may have its own).
     * NULL: transition_duration. */
    double (*transition_duration_in_context)(modalkit_style *style, const modalkit_transition_context *context);
    /* 1.1. Timing curve of the transition in `context`. NULL: timing_curve. When the dismissal's
     * curve equals the presentation's, the dismissal plays the presentation backwards (1.0);
     * otherwise it runs its own curve forward in time: progress = 1 - curve(t). */
    modalkit_timing_curve (*timing_curve_in_context)(modalkit_style *style, const modalkit_transition_context *context);
    /* 1.1. The dimming view at eased progress 0...1 in `context`, solid or gradient.
     * NULL: dimming_appearance (solid). */
    void (*dimming_in_context)(modalkit_style *style, double progress, const modalkit_transition_context *context,
                               modalkit_dimming_fill *out);
    /* 1.1. The presented view's transform at progress, relative to `frame` (its final frame),
     * per-axis scale about an anchor. NULL: presented_view_transform (uniform scale about the
     * centre) with context->container_bounds. */
    modalkit_anchored_transform (*presented_view_transform_in_context)(modalkit_style *style, double progress,
                                                                      modalkit_rect frame,
                                                                      const modalkit_transition_context *context);
    /* 1.1. The presented view's chrome in a container of these bounds. NULL: none (parts 0). */
    void (*chrome)(modalkit_style *style, modalkit_rect container_bounds, modalkit_chrome *out);
    /* 1.1. The presenting view while covered, at eased progress 0...1 in `context`.
     * NULL: unchanged (identity transform, corner radius 0). */
    modalkit_presenting_appearance (*presenting_view_appearance)(modalkit_style *style, double progress,
                                                                const modalkit_transition_context *context);
    /* 1.1. The interactions the style allows; asked when a presentation begins and on every
     * container layout. NULL: no dismiss gesture, no detents, no undimmed detent, dismissible. */
    void (*interaction)(modalkit_style *style, modalkit_interaction *out);

    /* --- ABI 1.2 --- (same rules as 1.1: NULL keeps the 1.0 entry) */

    /* 1.2. The presented view's frame when fully presented, in `context` (which can answer the
     * content's preferred size for a width, so a style can size the view to its content).
     * NULL: frame_of_presented_view with context->container_bounds. */
    modalkit_rect (*frame_in_context)(modalkit_style *style, const modalkit_layout_context *context);

    /* --- ABI 1.3 --- (same rules: NULL keeps the default) */

    /* 1.3. Whether a drag or scroll toward expansion on content that can scroll first moves the
     * sheet to its next larger detent (true), or the content scrolls at any detent and only its
     * edge hands the drag to the sheet (false); UIKit's
     * UISheetPresentationController.prefersScrollingExpandsWhenScrolledToEdge. Asked with
     * `interaction`. NULL: true. */
    bool (*prefers_scrolling_expands_when_scrolled_to_edge)(modalkit_style *style);

    /* --- later minors append fields here, and only here --- */
} modalkit_style_descriptor;

/* The size an option entry of ABI 1.<minor> has at least, bytes (1.0: through default_value,
 * 1.1: through accepted); 0 for a minor this header does not know. */
size_t modalkit_style_option_min_size(uint32_t minor);

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
