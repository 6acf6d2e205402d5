/*
 * The two pieces of the style ABI that must be C: the version data symbol every plugin
 * carries, and the per-minor minimum descriptor size (offsetof is a C notion).
 */
#include "modalkit_style.h"

/* Linked into every image that links ModalKit (the host and each plugin). The host reads a
 * plugin's copy with dlsym() on the plugin's handle (RTLD_LOCAL: only the plugin and its own
 * dependencies are searched) before it runs any plugin code. `used` and default visibility
 * keep it exported from a shared library even with --gc-sections. */
__attribute__((used, visibility("default")))
const modalkit_style_abi_version_t modalkit_style_abi_version = {
    .major = MODALKIT_STYLE_ABI_MAJOR,
    .minor = MODALKIT_STYLE_ABI_MINOR,
    .descriptor_size = (uint32_t)sizeof(modalkit_style_descriptor),
    .reserved = 0,
};

size_t modalkit_style_descriptor_min_size(uint32_t minor) {
    switch (minor) {
    case 0: /* ABI 1.0 ends with container_view_did_layout */
        return offsetof(modalkit_style_descriptor, container_view_did_layout) +
               sizeof(((modalkit_style_descriptor *)0)->container_view_did_layout);
    case 1: /* ABI 1.1 ends with interaction */
        return offsetof(modalkit_style_descriptor, interaction) +
               sizeof(((modalkit_style_descriptor *)0)->interaction);
    case 2: /* ABI 1.2 ends with frame_in_context */
        return offsetof(modalkit_style_descriptor, frame_in_context) +
               sizeof(((modalkit_style_descriptor *)0)->frame_in_context);
    case 3: /* ABI 1.3 ends with prefers_scrolling_expands_when_scrolled_to_edge */
        return offsetof(modalkit_style_descriptor, prefers_scrolling_expands_when_scrolled_to_edge) +
               sizeof(((modalkit_style_descriptor *)0)->prefers_scrolling_expands_when_scrolled_to_edge);
    default:
        return 0;
    }
}

size_t modalkit_style_option_min_size(uint32_t minor) {
    switch (minor) {
    case 0: /* ABI 1.0 ends with default_value */
        return offsetof(modalkit_style_option, default_value) + sizeof(const char *);
    case 1: /* ABI 1.1 ends with accepted */
    case 2: /* 1.2 added no option field */
    case 3: /* nor did 1.3 */
        return offsetof(modalkit_style_option, accepted) + sizeof(const char *);
    default:
        return 0;
    }
}
