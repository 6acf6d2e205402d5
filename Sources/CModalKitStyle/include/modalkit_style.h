/* Placeholder: the versioned style-plugin ABI (issue 4) replaces this file. */
#ifndef MODALKIT_STYLE_H
#define MODALKIT_STYLE_H
#endif
