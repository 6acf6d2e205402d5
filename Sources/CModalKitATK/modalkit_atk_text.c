/*
 * Text fields as ATK objects: AtkText over the text, caret and selection the Swift side sets
 * (modalkit_atk_interface.node_set_text_value), so a screen reader reads what is typed and where
 * the caret is (GTK 3's GtkEntryAccessible does the same over its buffer); AtkEditableText, whose
 * edits are queued to the Swift side (set_text_request_callback) like a click, never applied here:
 * the field applies them with its own rules and sets the text it then has. Offsets are ATK's:
 * characters (Unicode code points) from the start.
 */
#include <atk/atk.h>
#include <glib.h>
#include <string.h>

#include "modalkit_atk_node.h"

#pragma GCC visibility push(hidden)

typedef struct {
    MkNode node;
    gchar *text;
    gint length;
    gint caret, selection_start, selection_end;
} MkText;

typedef MkNodeClass MkTextClass;

static void mk_text_iface_init(AtkTextIface *iface);
static void mk_editable_iface_init(AtkEditableTextIface *iface);
G_DEFINE_TYPE_WITH_CODE(MkText, mk_text, mk_actionable_get_type(),
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_TEXT, mk_text_iface_init)
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_EDITABLE_TEXT, mk_editable_iface_init))

#define MK_TEXT(o) ((MkText *)(o))

static void mk_text_finalize(GObject *object) {
    g_free(MK_TEXT(object)->text);
    G_OBJECT_CLASS(mk_text_parent_class)->finalize(object);
}

static void mk_text_init(MkText *t) {
    t->text = g_strdup("");
}

static void mk_text_class_init(MkTextClass *klass) { G_OBJECT_CLASS(klass)->finalize = mk_text_finalize; }

static gint clamp_offset(MkText *t, gint offset) { return offset < 0 ? 0 : offset > t->length ? t->length : offset; }

/* The characters start..<end (end -1: to the end), newly allocated. */
static gchar *substring(MkText *t, gint start, gint end) {
    if (end < 0 || end > t->length) end = t->length;
    start = clamp_offset(t, start);
    if (end < start) end = start;
    return g_utf8_substring(t->text, start, end);
}

static gunichar char_at(MkText *t, gint offset) {
    return g_utf8_get_char(g_utf8_offset_to_pointer(t->text, offset));
}

static gboolean is_word_char(gunichar c) { return g_unichar_isalnum(c) || g_unichar_ismark(c) || c == '_'; }

/* MARK: AtkText */

static gchar *mk_text_get_text(AtkText *text, gint start, gint end) { return substring(MK_TEXT(text), start, end); }

static gint mk_text_get_character_count(AtkText *text) { return MK_TEXT(text)->length; }

static gint mk_text_get_caret_offset(AtkText *text) { return MK_TEXT(text)->caret; }

static gunichar mk_text_get_character_at_offset(AtkText *text, gint offset) {
    MkText *t = MK_TEXT(text);
    return offset >= 0 && offset < t->length ? char_at(t, offset) : 0;
}

static gint mk_text_get_n_selections(AtkText *text) {
    MkText *t = MK_TEXT(text);
    return t->selection_start != t->selection_end ? 1 : 0;
}

static gchar *mk_text_get_selection(AtkText *text, gint n, gint *start, gint *end) {
    MkText *t = MK_TEXT(text);
    if (n != 0 || t->selection_start == t->selection_end) {
        if (start) *start = 0;
        if (end) *end = 0;
        return NULL;
    }
    if (start) *start = t->selection_start;
    if (end) *end = t->selection_end;
    return substring(t, t->selection_start, t->selection_end);
}

/* The stretch of `granularity` around `offset`: a character; a word (letters, digits and marks,
 * or the run of other characters between words); a sentence, line or paragraph: the whole field,
 * which is one line. */
static gchar *mk_text_get_string_at_offset(AtkText *text, gint offset, AtkTextGranularity granularity, gint *start,
                                           gint *end) {
    MkText *t = MK_TEXT(text);
    gint s = 0, e = t->length;
    offset = clamp_offset(t, offset);
    switch (granularity) {
    case ATK_TEXT_GRANULARITY_CHAR:
        s = offset;
        e = offset < t->length ? offset + 1 : offset;
        break;
    case ATK_TEXT_GRANULARITY_WORD: {
        gint at = offset < t->length ? offset : (offset > 0 ? offset - 1 : 0);
        if (t->length == 0) {
            s = e = 0;
            break;
        }
        gboolean word = is_word_char(char_at(t, at));
        s = at;
        while (s > 0 && is_word_char(char_at(t, s - 1)) == word) s--;
        e = at + 1;
        while (e < t->length && is_word_char(char_at(t, e)) == word) e++;
        break;
    }
    default:
        break;
    }
    if (start) *start = s;
    if (end) *end = e;
    return substring(t, s, e);
}

static gchar *mk_text_get_text_at_offset(AtkText *text, gint offset, AtkTextBoundary boundary, gint *start, gint *end) {
    AtkTextGranularity g = boundary == ATK_TEXT_BOUNDARY_CHAR                                        ? ATK_TEXT_GRANULARITY_CHAR
                           : boundary == ATK_TEXT_BOUNDARY_WORD_START || boundary == ATK_TEXT_BOUNDARY_WORD_END ? ATK_TEXT_GRANULARITY_WORD
                                                                                                    : ATK_TEXT_GRANULARITY_LINE;
    return mk_text_get_string_at_offset(text, offset, g, start, end);
}

static void mk_text_iface_init(AtkTextIface *iface) {
    iface->get_text = mk_text_get_text;
    iface->get_character_count = mk_text_get_character_count;
    iface->get_caret_offset = mk_text_get_caret_offset;
    iface->get_character_at_offset = mk_text_get_character_at_offset;
    iface->get_n_selections = mk_text_get_n_selections;
    iface->get_selection = mk_text_get_selection;
    iface->get_string_at_offset = mk_text_get_string_at_offset;
    iface->get_text_at_offset = mk_text_get_text_at_offset;
}

/* MARK: AtkEditableText (queued, never run inside the D-Bus call) */

static modalkit_atk_text_request_callback text_request_callback;
static void *text_request_context;

void mk_set_text_request_callback(modalkit_atk_text_request_callback callback, void *context) {
    text_request_callback = callback;
    text_request_context = context;
}

typedef struct {
    MkText *node;
    int request;
    gchar *text;
    gint start, end;
} TextRequest;

static gboolean run_text_request(gpointer data) {
    TextRequest *r = data;
    if (!r->node->node.defunct && text_request_callback)
        text_request_callback(text_request_context, r->node->node.key, r->request, r->text, r->start, r->end);
    return G_SOURCE_REMOVE;
}

static void free_text_request(gpointer data) {
    TextRequest *r = data;
    g_object_unref(r->node);
    g_free(r->text);
    g_free(r);
}

/* Queues `request` when the node takes edits now (editable, showing, enabled, not released, and
 * the Swift side listens): `text` is taken (freed here when refused), the range normalised as
 * GtkEntry does (end < 0 or past the text: its end; start clamped, at most end). */
static gboolean queue_edit(MkText *t, int request, gchar *text, gint start, gint end) {
    guint32 needed = MODALKIT_ATK_STATE_SHOWING | MODALKIT_ATK_STATE_ENABLED | MODALKIT_ATK_STATE_EDITABLE;
    if (t->node.defunct || (t->node.states & needed) != needed || !text_request_callback) {
        g_free(text);
        return FALSE;
    }
    if (end < 0 || end > t->length) end = t->length;
    start = clamp_offset(t, start);
    if (start > end) start = end;
    TextRequest *r = g_new0(TextRequest, 1);
    r->node = g_object_ref(t);
    r->request = request;
    r->text = text;
    r->start = start;
    r->end = end;
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, run_text_request, r, free_text_request);
    return TRUE;
}

/* `length` bytes of `string` (-1: all of it) as valid UTF-8, newly allocated. */
static gchar *valid_copy(const gchar *string, gint length) {
    if (!string) return g_strdup("");
    return g_utf8_make_valid(string, length < 0 ? -1 : (gssize)length);
}

static void mk_editable_set_text_contents(AtkEditableText *text, const gchar *string) {
    queue_edit(MK_TEXT(text), MODALKIT_ATK_REQUEST_SET_TEXT, valid_copy(string, -1), 0, -1);
}

/* `*position` (the caret when NULL) is where it goes; afterwards it is after the inserted text,
 * as ATK says — the field's rules (maximum length) may insert less, which its text then shows. */
static void mk_editable_insert_text(AtkEditableText *text, const gchar *string, gint length, gint *position) {
    MkText *t = MK_TEXT(text);
    gchar *s = valid_copy(string, length);
    gint inserted = (gint)g_utf8_strlen(s, -1);
    gint at = clamp_offset(t, position ? *position : t->caret);
    if (queue_edit(t, MODALKIT_ATK_REQUEST_INSERT_TEXT, s, at, at) && position) *position = at + inserted;
}

static void mk_editable_delete_text(AtkEditableText *text, gint start, gint end) {
    queue_edit(MK_TEXT(text), MODALKIT_ATK_REQUEST_DELETE_TEXT, NULL, start, end);
}

static void mk_editable_copy_text(AtkEditableText *text, gint start, gint end) {
    queue_edit(MK_TEXT(text), MODALKIT_ATK_REQUEST_COPY_TEXT, NULL, start, end);
}

static void mk_editable_cut_text(AtkEditableText *text, gint start, gint end) {
    queue_edit(MK_TEXT(text), MODALKIT_ATK_REQUEST_CUT_TEXT, NULL, start, end);
}

static void mk_editable_paste_text(AtkEditableText *text, gint position) {
    MkText *t = MK_TEXT(text);
    gint at = clamp_offset(t, position);
    queue_edit(t, MODALKIT_ATK_REQUEST_PASTE_TEXT, NULL, at, at);
}

static void mk_editable_iface_init(AtkEditableTextIface *iface) {
    iface->set_text_contents = mk_editable_set_text_contents;
    iface->insert_text = mk_editable_insert_text;
    iface->delete_text = mk_editable_delete_text;
    iface->copy_text = mk_editable_copy_text;
    iface->cut_text = mk_editable_cut_text;
    iface->paste_text = mk_editable_paste_text;
}

/* MARK: Setting it */

void mk_node_set_text_value(modalkit_atk_node *node, const char *value, int caret, int selection_start,
                            int selection_end, int notify) {
    if (!G_TYPE_CHECK_INSTANCE_TYPE(node, mk_text_get_type())) return;
    MkText *t = MK_TEXT(node);
    if (t->node.defunct) return;
    if (!value || !g_utf8_validate(value, -1, NULL)) value = "";
    gint length = (gint)g_utf8_strlen(value, -1);
    if (strcmp(value, t->text) != 0) {
        /* The changed stretch: what the old and the new text do not share at either end. */
        gint prefix = 0;
        const gchar *a = t->text, *b = value;
        while (prefix < t->length && prefix < length && g_utf8_get_char(a) == g_utf8_get_char(b)) {
            a = g_utf8_next_char(a);
            b = g_utf8_next_char(b);
            prefix++;
        }
        gint suffix = 0;
        while (suffix < t->length - prefix && suffix < length - prefix
               && char_at(t, t->length - 1 - suffix)
                      == g_utf8_get_char(g_utf8_offset_to_pointer(value, length - 1 - suffix))) {
            suffix++;
        }
        gint removed = t->length - prefix - suffix, inserted = length - prefix - suffix;
        gchar *removed_text = removed > 0 ? substring(t, prefix, prefix + removed) : NULL;
        g_free(t->text);
        t->text = g_strdup(value);
        t->length = length;
        t->caret = clamp_offset(t, t->caret);
        if (notify && removed > 0) g_signal_emit_by_name(t, "text-remove::system", prefix, removed, removed_text);
        g_free(removed_text);
        if (notify && inserted > 0) {
            gchar *inserted_text = substring(t, prefix, prefix + inserted);
            g_signal_emit_by_name(t, "text-insert::system", prefix, inserted, inserted_text);
            g_free(inserted_text);
        }
    }
    gint lo = clamp_offset(t, MIN(selection_start, selection_end)), hi = clamp_offset(t, MAX(selection_start, selection_end));
    gboolean selection_changed = lo != t->selection_start || hi != t->selection_end;
    t->selection_start = lo;
    t->selection_end = hi;
    caret = clamp_offset(t, caret);
    if (caret != t->caret) {
        t->caret = caret;
        if (notify) g_signal_emit_by_name(t, "text-caret-moved", caret);
    }
    if (notify && selection_changed) g_signal_emit_by_name(t, "text-selection-changed");
}

#pragma GCC visibility pop
