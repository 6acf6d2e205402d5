/* Compile-time checks of the interface header (SwiftPM needs a source file in a C target). */
#include "modalkit_atk.h"
#include <stddef.h>

_Static_assert(offsetof(struct modalkit_atk_interface, version) == 0, "the version comes first");
_Static_assert(offsetof(struct modalkit_atk_interface, struct_size) == 4, "then the table's size");
