/*
 * A style plugin written in plain C against modalkit_style.h, compiled by the tests at test
 * time (`cc -shared -fPIC`) into variants that break one rule each. Compile-time knobs:
 *   FIXTURE_MARKER        path of a file the entry appends one line to each time it runs (required);
 *                         the library's ELF constructor appends one to FIXTURE_MARKER ".constructor"
 *                         when the library is loaded, before any of its functions is called
 *   FIXTURE_NOTE_HEADER   a header (written by the test) that defines the library's style note in
 *                         section .note.modalkit, as a Swift plugin's build step does
 *   FIXTURE_NAME          the style name (default "c-fixture")
 *   FIXTURE_MAJOR/_MINOR  the version in modalkit_style_abi_version and the descriptor
 *   FIXTURE_DESCRIPTOR_SIZE  descriptor_size in the version symbol and struct_size
 *   FIXTURE_NO_ENTRY      do not export modalkit_style_entry
 *   FIXTURE_NO_VERSION    do not export modalkit_style_abi_version
 *   FIXTURE_UNRESOLVED    the entry calls a function no library defines (RTLD_NOW must refuse)
 *   FIXTURE_NULL_CREATE   leave the required create() NULL
 *   FIXTURE_NONFINITE     every value the style returns is NaN, infinite or absurdly large
 *   FIXTURE_OPTIONS_1_0   options laid out as ABI 1.0 has them (three pointers, option_size 24):
 *                         "inset" and "tint" back to back
 *   FIXTURE_OPTIONS_1_1   options with ABI 1.1's unit and accepted values: inset (number 0...100
 *                         points), edge (choice left/right), tint (colour), note (text "any words")
 *   FIXTURE_BAD_11        (1.1 header only) the 1.1 entries return broken values: gradient stops
 *                         out of order, outside 0...1 and 9 of them, a negative blur, NaN in the
 *                         chrome, the transform and the presenting view, an unknown drag direction
 *   FIXTURE_SIGNALS       the ELF constructor installs its own SIGTERM and SIGINT handlers (as a
 *                         library that "handles Ctrl+C" for its host does)
 *   FIXTURE_CONTENT_SIZED (1.2 header only) frame_in_context: a card 200 pt wide, as tall as the
 *                         content's preferred size at 200 pt (77 pt when it does not say), at
 *                         (inset, inset)
 *   FIXTURE_FIT_DETENTS   dragged down between detents 0.25 and kind 2 with value 0.9 (1.3's
 *                         MODALKIT_DETENT_FIT_CONTENT_FRACTION: the content, at most 0.9); with
 *                         the 1.3 header, prefers_scrolling_expands_when_scrolled_to_edge false
 *
 * Compiled against the 1.0 header kept in Fixtures/abi-1.0 it is a genuine 1.0 plugin (its
 * descriptor ends before the 1.1 fields).
 *
 * The style itself (used when all rules hold): the presented view is the container inset by
 * option "inset" (points, default 10) on every side, corner radius 4, dim black 0 -> 0.3,
 * linear 0.25 s, a tap dismisses only in the container's top half.
 */
#ifdef FIXTURE_SIGNALS
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "modalkit_style.h"

/* Variants without an entry leave the style functions unused. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-const-variable"

#ifndef FIXTURE_MARKER
#error "FIXTURE_MARKER must name the marker file"
#endif
#ifndef FIXTURE_NAME
#define FIXTURE_NAME "c-fixture"
#endif
#ifndef FIXTURE_MAJOR
#define FIXTURE_MAJOR MODALKIT_STYLE_ABI_MAJOR
#endif
#ifndef FIXTURE_MINOR
#define FIXTURE_MINOR MODALKIT_STYLE_ABI_MINOR
#endif
#ifndef FIXTURE_DESCRIPTOR_SIZE
#define FIXTURE_DESCRIPTOR_SIZE sizeof(modalkit_style_descriptor)
#endif

#ifndef FIXTURE_NO_VERSION
__attribute__((visibility("default")))
const modalkit_style_abi_version_t modalkit_style_abi_version = {
    FIXTURE_MAJOR, FIXTURE_MINOR, (uint32_t)(FIXTURE_DESCRIPTOR_SIZE), 0};
#endif

struct modalkit_style {
    double inset;
};

static modalkit_style *fixture_create(const modalkit_style_descriptor *d, const char *const *keys,
                                      const char *const *values, size_t count, char *error_buf,
                                      size_t error_len) {
    (void)d;
    double inset = 10;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(keys[i], "inset") == 0) {
            char *end = NULL;
            inset = strtod(values[i], &end);
            if (end == values[i] || *end != '\0' || inset < 0) {
                snprintf(error_buf, error_len, "bad value '%s' for style option 'inset' (expected points >= 0)",
                         values[i]);
                return NULL;
            }
        }
    }
    modalkit_style *s = malloc(sizeof *s);
    s->inset = inset;
    return s;
}

static void fixture_destroy(modalkit_style *s) { free(s); }
static double fixture_duration(modalkit_style *s) { (void)s; return 0.25; }
static modalkit_timing_curve fixture_curve(modalkit_style *s) {
    (void)s;
    modalkit_timing_curve c = {MODALKIT_CURVE_LINEAR, 0, 0, 0, 0};
    return c;
}
#ifdef FIXTURE_NONFINITE
static modalkit_timing_curve fixture_bad_curve(modalkit_style *s) {
    (void)s;
    modalkit_timing_curve c = {MODALKIT_CURVE_CUBIC_BEZIER, 0, 1e20, 1, 1};
    return c;
}
static modalkit_rect fixture_bad_frame(modalkit_style *s, modalkit_rect b) {
    (void)s; (void)b;
    modalkit_rect r = {NAN, -INFINITY, INFINITY, 1e300};
    return r;
}
static modalkit_corner_style fixture_bad_corners(modalkit_style *s, modalkit_rect b) {
    (void)s; (void)b;
    modalkit_corner_style c = {NAN, MODALKIT_CORNER_TOP_LEFT};
    return c;
}
static modalkit_dimming fixture_bad_dimming(modalkit_style *s, double progress) {
    (void)s; (void)progress;
    modalkit_dimming d = {{NAN, INFINITY, -1, 2}, NAN};
    return d;
}
static modalkit_view_transform fixture_bad_transform(modalkit_style *s, double progress, modalkit_rect frame,
                                                     modalkit_rect b) {
    (void)s; (void)progress; (void)frame; (void)b;
    modalkit_view_transform t = {NAN, 1e300, INFINITY, NAN};
    return t;
}
#endif
static modalkit_rect fixture_frame(modalkit_style *s, modalkit_rect b) {
    modalkit_rect r = {b.x + s->inset, b.y + s->inset, b.width - 2 * s->inset, b.height - 2 * s->inset};
    return r;
}
static modalkit_corner_style fixture_corners(modalkit_style *s, modalkit_rect b) {
    (void)s; (void)b;
    modalkit_corner_style c = {4, MODALKIT_CORNER_TOP_LEFT | MODALKIT_CORNER_TOP_RIGHT |
                                      MODALKIT_CORNER_BOTTOM_LEFT | MODALKIT_CORNER_BOTTOM_RIGHT};
    return c;
}
static modalkit_dimming fixture_dimming(modalkit_style *s, double progress) {
    (void)s;
    modalkit_dimming d = {{0, 0, 0, 1}, 0.3 * progress};
    return d;
}
static bool fixture_should_dismiss(modalkit_style *s, modalkit_point p, modalkit_rect b) {
    (void)s;
    return p.y < b.y + b.height / 2;
}

#ifdef FIXTURE_CONTENT_SIZED
static modalkit_rect fixture_frame_in_context(modalkit_style *s, const modalkit_layout_context *c) {
    modalkit_size size = {0, 0};
    double h = c->preferred_content_size(c, 200, &size) ? size.height : 77;
    modalkit_rect r = {c->container_bounds.x + s->inset, c->container_bounds.y + s->inset, 200, h};
    return r;
}
#endif

static const modalkit_style_option fixture_options[] = {
    {"inset", "inset on every side, points", "10"},
};

#ifdef FIXTURE_BAD_11
static void fixture_bad_dimming_fill(modalkit_style *s, double progress, const modalkit_transition_context *c,
                                     modalkit_dimming_fill *out) {
    (void)s; (void)c;
    out->kind = MODALKIT_DIM_GRADIENT;
    out->alpha = progress;
    out->gradient.start.x = 0; out->gradient.start.y = 0;
    out->gradient.end.x = 0; out->gradient.end.y = NAN;
    out->gradient.stop_count = 9; /* one more than the ABI holds */
    const double locations[8] = {0.5, 0.2, -1, 0.7, 2, 0.9, 0.95, 1};
    for (int i = 0; i < 8; i++) {
        out->gradient.stops[i].location = locations[i];
        out->gradient.stops[i].color.alpha = 1;
    }
}
static void fixture_bad_chrome(modalkit_style *s, modalkit_rect b, modalkit_chrome *out) {
    (void)s; (void)b;
    out->parts = MODALKIT_CHROME_SHADOW | MODALKIT_CHROME_BACKGROUND;
    out->shadow.color.alpha = 0.5;
    out->shadow.offset.y = 4;
    out->shadow.blur_radius = -8;
    out->background_color.red = NAN;
    out->background_color.alpha = 1;
}
static modalkit_anchored_transform fixture_bad_anchored(modalkit_style *s, double progress, modalkit_rect frame,
                                                        const modalkit_transition_context *c) {
    (void)s; (void)progress; (void)frame; (void)c;
    modalkit_anchored_transform t = {NAN, 5, 2, NAN, NAN, 0, 1};
    return t;
}
static modalkit_presenting_appearance fixture_bad_presenting(modalkit_style *s, double progress,
                                                             const modalkit_transition_context *c) {
    (void)s; (void)progress; (void)c;
    modalkit_presenting_appearance a = {{0, 0, 0.9, 0.9, 0.5, 0.5, 1}, NAN};
    return a;
}
static void fixture_bad_interaction(modalkit_style *s, modalkit_interaction *out) {
    (void)s;
    out->dismiss_gesture = MODALKIT_DISMISS_GESTURE_DRAG;
    out->drag_direction = 42;
}
#endif

#ifdef FIXTURE_FIT_DETENTS
static void fixture_fit_interaction(modalkit_style *s, modalkit_interaction *out) {
    (void)s;
    out->dismiss_gesture = MODALKIT_DISMISS_GESTURE_DRAG;
    out->drag_direction = MODALKIT_DRAG_DOWN;
    out->detent_count = 2;
    out->detents[0].kind = MODALKIT_DETENT_FRACTION;
    out->detents[0].value = 0.25;
    out->detents[1].kind = 2u; /* MODALKIT_DETENT_FIT_CONTENT_FRACTION as of 1.3 */
    out->detents[1].value = 0.9;
}
#if MODALKIT_STYLE_ABI_MINOR >= 3
static bool fixture_scrolling_expands(modalkit_style *s) {
    (void)s;
    return false;
}
#endif
#endif

#ifdef FIXTURE_OPTIONS_1_0
/* ABI 1.0's option record: what a plugin built with the 1.0 header has. */
struct fixture_option_1_0 {
    const char *key, *description, *default_value;
};
static const struct fixture_option_1_0 fixture_options_1_0[] = {
    {"inset", "inset on every side, points", "10"},
    {"tint", "a second option right behind the first", "#000000"},
};
#endif

#ifdef FIXTURE_OPTIONS_1_1
static const char *const fixture_edges[] = {"left", "right"};
static const modalkit_style_option fixture_options_1_1[] = {
    {"inset", "inset on every side", "10", MODALKIT_OPTION_NUMBER, 0, "points", 0, 100, NULL, 0, NULL},
    {"edge", "the edge it hangs from", "left", MODALKIT_OPTION_CHOICE, 0, NULL, 0, 0, fixture_edges, 2, NULL},
    {"tint", "the dim's colour", "#000000", MODALKIT_OPTION_COLOR, 0, NULL, 0, 0, NULL, 0, NULL},
    {"note", "a remark", "", MODALKIT_OPTION_TEXT, 0, "", 0, 0, NULL, 0, "any words"},
};
#endif

#ifdef FIXTURE_UNRESOLVED
extern void modalkit_fixture_function_nobody_defines(void);
#endif

#ifdef FIXTURE_NOTE_HEADER
#include FIXTURE_NOTE_HEADER
#endif

/* Runs when the dynamic loader loads the library (dlopen), whatever the host does next: the
 * trace that a host which must not load the library did not. */
#ifdef FIXTURE_SIGNALS
static void fixture_signal_handler(int signal) { (void)signal; }
#endif

__attribute__((constructor)) static void fixture_constructor(void) {
#ifdef FIXTURE_SIGNALS
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = fixture_signal_handler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
#endif
    FILE *f = fopen(FIXTURE_MARKER ".constructor", "a");
    if (f) {
        fputs("constructor ran\n", f);
        fclose(f);
    }
}

static void fixture_mark(void) {
    FILE *f = fopen(FIXTURE_MARKER, "a");
    if (f) {
        fputs("entry called\n", f);
        fclose(f);
    }
}

#ifndef FIXTURE_NO_ENTRY
__attribute__((visibility("default")))
const modalkit_style_descriptor *modalkit_style_entry(void) {
    static modalkit_style_descriptor d;
    fixture_mark();
#ifdef FIXTURE_UNRESOLVED
    modalkit_fixture_function_nobody_defines();
#endif
    d.abi_major = FIXTURE_MAJOR;
    d.abi_minor = FIXTURE_MINOR;
    d.struct_size = (uint32_t)(FIXTURE_DESCRIPTOR_SIZE);
    d.option_size = sizeof(modalkit_style_option);
    d.name = FIXTURE_NAME;
    d.description = "C fixture: container inset on every side, dim 0.3";
    d.option_count = 1;
    d.options = fixture_options;
#ifdef FIXTURE_OPTIONS_1_0
    d.option_size = sizeof(struct fixture_option_1_0);
    d.option_count = 2;
    d.options = (const modalkit_style_option *)(const void *)fixture_options_1_0;
#endif
#ifdef FIXTURE_OPTIONS_1_1
    d.option_count = 4;
    d.options = fixture_options_1_1;
#endif
#ifndef FIXTURE_NULL_CREATE
    d.create = fixture_create;
#endif
    d.destroy = fixture_destroy;
    d.transition_duration = fixture_duration;
    d.timing_curve = fixture_curve;
    d.frame_of_presented_view = fixture_frame;
    d.corner_style = fixture_corners;
    d.dimming_appearance = fixture_dimming;
    /* presented_view_transform left NULL: the host's default (cover-vertical) applies. */
    d.should_dismiss_on_tap = fixture_should_dismiss;
#ifdef FIXTURE_NONFINITE
    d.timing_curve = fixture_bad_curve;
    d.frame_of_presented_view = fixture_bad_frame;
    d.corner_style = fixture_bad_corners;
    d.dimming_appearance = fixture_bad_dimming;
    d.presented_view_transform = fixture_bad_transform;
#endif
#ifdef FIXTURE_BAD_11
    d.dimming_in_context = fixture_bad_dimming_fill;
    d.chrome = fixture_bad_chrome;
    d.presented_view_transform_in_context = fixture_bad_anchored;
    d.presenting_view_appearance = fixture_bad_presenting;
    d.interaction = fixture_bad_interaction;
#endif
#ifdef FIXTURE_CONTENT_SIZED
    d.frame_in_context = fixture_frame_in_context;
#endif
#ifdef FIXTURE_FIT_DETENTS
    d.interaction = fixture_fit_interaction;
#if MODALKIT_STYLE_ABI_MINOR >= 3
    d.prefers_scrolling_expands_when_scrolled_to_edge = fixture_scrolling_expands;
#endif
#endif
    return &d;
}
#else
/* Something exported, so the library is a real, loadable shared object. */
__attribute__((visibility("default"))) int modalkit_fixture_not_a_style = 1;
#endif
