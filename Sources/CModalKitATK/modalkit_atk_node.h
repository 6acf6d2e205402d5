/*
 * What the library's two C files share (not installed, not part of the interface): the node
 * object every accessible is, and the text type of modalkit_atk_text.c.
 */
#ifndef MODALKIT_ATK_NODE_H
#define MODALKIT_ATK_NODE_H

#include <atk/atk.h>
#include <stdint.h>

#include "modalkit_atk.h"

#pragma GCC visibility push(hidden)

typedef struct {
    AtkObject parent;
    guint64 key;
    guint32 states;
    gboolean defunct;
    gint x, y, width, height;
    /* Children, each referenced. */
    GPtrArray *children;
    /* The target of each modalkit_atk_relation set on this node: a weak pointer (NULL once the
     * target is finalized; ATK's own relation forgets a finalized target too). */
    AtkObject *relation_target[2];
} MkNode;

typedef struct {
    AtkObjectClass parent_class;
} MkNodeClass;

/* The node types (G_DEFINE_TYPE in modalkit_atk.c and modalkit_atk_text.c). */
GType mk_node_get_type(void);
GType mk_actionable_get_type(void);
/* Text fields: AtkComponent, AtkAction, AtkText (modalkit_atk_text.c). */
GType mk_text_get_type(void);
/* modalkit_atk_interface.node_set_text_value. */
void mk_node_set_text_value(modalkit_atk_node *node, const char *text, int caret, int selection_start,
                            int selection_end, int notify);
/* modalkit_atk_interface.set_text_request_callback. */
void mk_set_text_request_callback(modalkit_atk_text_request_callback callback, void *context);

#pragma GCC visibility pop

#endif
