/*
 * structural/json_parse.c -- a bounds-checked, non-recursive JSON parser producing FFI values
 * (ffi.json.Parse, spec STRUCTURAL.md section 1.9). It reads untrusted documents: every index is
 * checked against the size, nesting uses an explicit stack, and errors name the position the way
 * Python's json module does.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "json_text.h"

typedef struct {
  bool is_object;
  size_t base; /* first value of this container on the value stack */
} Level;

static int parse_error(const FfiJsonCursor* r, const char* what, size_t at) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < at && i < r->n; ++i) {
    if (r->s[i] == '\n') {
      line += 1;
      col = 1;
    } else {
      col += 1;
    }
  }
  return ffi_raise("ValueError", "%s: line %zu column %zu (char %zu)", what, line, col, at);
}

/* The end of a run of string bytes that need no unescaping: the first '"', '\\' or control
 * character at or after i, or n. */
static inline size_t plain_run_end(const char* s, size_t i, size_t n) {
  while (i < n && s[i] != '"' && s[i] != '\\' && (unsigned char)s[i] >= 0x20) ++i;
  return i;
}

bool ffi_json_plain_string(FfiJsonCursor* r, TVMFFIByteArray* out) {
  const char* s = r->s;
  size_t n = r->n, start = r->pos;
  if (start >= n || s[start] != '"') return false;
  size_t end = plain_run_end(s, start + 1, n);
  if (end >= n || s[end] != '"') return false;
  out->data = s + start + 1;
  out->size = end - start - 1;
  r->pos = end + 1;
  return true;
}

static bool match(FfiJsonCursor* r, const char* word) {
  size_t len = strlen(word);
  if (r->n - r->pos < len || memcmp(r->s + r->pos, word, len) != 0) return false;
  r->pos += len;
  return true;
}

static int hex4(const FfiJsonCursor* r, size_t at, uint32_t* out) {
  if (r->n < 4 || at > r->n - 4) return -1;
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) {
    char c = r->s[at + i];
    int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = (v << 4) | (uint32_t)d;
  }
  *out = v;
  return 0;
}

static int put_utf8(FfiBuf* b, uint32_t cp) {
  char out[4];
  size_t n;
  if (cp < 0x80) {
    out[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    n = 4;
  }
  return ffi_buf_append(b, out, n);
}

/* r->pos at the opening quote; on success *out is an owned str. */
static int parse_string(FfiJsonCursor* r, FfiBuf* tmp, TVMFFIAny* out) {
  size_t start = r->pos;
  r->pos += 1;
  tmp->size = 0;
  for (;;) {
    size_t run = r->pos;
    r->pos = plain_run_end(r->s, r->pos, r->n);
    if (r->pos < r->n && r->s[r->pos] == '"' && run == start + 1) { /* no escape: no copy */
      r->pos += 1;
      return ffi_string_make(r->s + run, r->pos - 1 - run, 0, out);
    }
    if (ffi_buf_append(tmp, r->s + run, r->pos - run) != 0) return -1;
    if (r->pos >= r->n) return parse_error(r, "Unterminated string starting at", start);
    char c = r->s[r->pos];
    if (c == '"') {
      r->pos += 1;
      return ffi_string_make(tmp->data != NULL ? tmp->data : "", tmp->size, 0, out);
    }
    if (c != '\\') return parse_error(r, "Invalid control character at", r->pos);
    /* Escape errors point where the reference's parser stands: at the letter after the
     * backslash (also when the input ends there), and for the second half of a surrogate pair
     * at its hex digits. */
    size_t letter = r->pos + 1;
    if (letter >= r->n) return parse_error(r, "Invalid \\escape", letter);
    char e = r->s[letter];
    const char* simple = NULL;
    switch (e) {
      case '"': simple = "\""; break;
      case '\\': simple = "\\"; break;
      case '/': simple = "/"; break;
      case 'b': simple = "\b"; break;
      case 'f': simple = "\f"; break;
      case 'n': simple = "\n"; break;
      case 'r': simple = "\r"; break;
      case 't': simple = "\t"; break;
      default: break;
    }
    if (simple != NULL) {
      if (ffi_buf_append(tmp, simple, 1) != 0) return -1;
      r->pos += 2;
      continue;
    }
    if (e != 'u') return parse_error(r, "Invalid \\escape", letter);
    uint32_t cp;
    if (hex4(r, letter + 1, &cp) != 0) return parse_error(r, "Invalid \\uXXXX escape", letter);
    r->pos += 6;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (r->pos + 1 >= r->n || r->s[r->pos] != '\\' || r->s[r->pos + 1] != 'u') {
        return parse_error(r, "Invalid surrogate pair of \\uXXXX escapes", letter);
      }
      size_t low_digits = r->pos + 2;
      uint32_t low;
      if (hex4(r, low_digits, &low) != 0) return parse_error(r, "Invalid \\uXXXX escape", low_digits);
      if (low < 0xDC00 || low > 0xDFFF) {
        return parse_error(r, "Invalid surrogate pair of \\uXXXX escapes", low_digits);
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      r->pos += 6;
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return parse_error(r, "Invalid surrogate pair of \\uXXXX escapes", letter);
    }
    if (put_utf8(tmp, cp) != 0) return -1;
  }
}

static bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
}

/* Numbers, read as the reference reads them: the whole run of number characters
 * ([0-9+-.eE]) must be one number, else "Expecting value" at its start. So leading `+`, leading
 * zeros, `.5` and `1.` are accepted, while `1e`, `1-2` and `1.5.5` are refused whole (not read
 * as `1` followed by extra data), as is a float out of double's normal range (strtod's ERANGE:
 * `1e400`, `4e-320`). Digits alone make an int when they fit int64. Out of line, so that the
 * common case below keeps a small frame. */
static __attribute__((noinline)) int parse_number_general(FfiJsonCursor* r, TVMFFIAny* out) {
  size_t start = r->pos, i = r->pos;
  if (i < r->n && (r->s[i] == '-' || r->s[i] == '+')) ++i;
  if (i < r->n && r->s[i] == 'I' && r->n - i >= 8 && memcmp(r->s + i, "Infinity", 8) == 0) {
    r->pos = i + 8;
    *out = ffi_any_none();
    out->type_index = kTVMFFIFloat;
    out->v_float64 = r->s[start] == '-' ? -INFINITY : INFINITY;
    return 0;
  }
  size_t digits_end = i;
  while (digits_end < r->n && r->s[digits_end] >= '0' && r->s[digits_end] <= '9') ++digits_end;
  size_t end = digits_end;
  while (end < r->n && is_number_char(r->s[end])) ++end;
  bool integral = end == digits_end && digits_end > i;
  size_t len = end - start;
  if (integral && digits_end - i <= 18) { /* fits int64 exactly: no copy, no strtoll */
    int64_t v = 0;
    for (size_t d = i; d < end; ++d) v = v * 10 + (r->s[d] - '0');
    *out = ffi_any_none();
    out->type_index = kTVMFFIInt;
    out->v_int64 = r->s[start] == '-' ? -v : v;
    r->pos = end;
    return 0;
  }
  char small[64];
  char* tok = len < sizeof(small) ? small : (char*)malloc(len + 1);
  if (tok == NULL) return ffi_raise("MemoryError", "out of memory parsing a number");
  memcpy(tok, r->s + start, len);
  tok[len] = '\0';
  *out = ffi_any_none();
  bool ok = true;
  errno = 0;
  long long whole = integral ? strtoll(tok, NULL, 10) : 0;
  if (integral && errno != ERANGE) {
    out->type_index = kTVMFFIInt;
    out->v_int64 = (int64_t)whole;
  } else { /* a float, or an integer past int64 */
    char* stop = NULL;
    errno = 0;
    out->type_index = kTVMFFIFloat;
    out->v_float64 = strtod(tok, &stop);
    ok = len > 0 && stop == tok + len && errno != ERANGE;
  }
  if (tok != small) free(tok);
  if (!ok) return parse_error(r, "Expecting value", start);
  r->pos = end;
  return 0;
}

static inline bool is_digit(char c) { return (unsigned char)(c - '0') <= 9; }

/* A number at r->pos. The common case, an integer of at most 18 digits with no fraction or
 * exponent (it fits int64 exactly), is accumulated as it is read; anything else goes to
 * parse_number_general, which reads the text again. */
static inline int parse_number(FfiJsonCursor* r, TVMFFIAny* out) {
  const char* s = r->s;
  size_t n = r->n, i = r->pos;
  bool negative = false;
  if (i < n && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  size_t first = i, limit = n - i > 18 ? i + 18 : n;
  int64_t v = 0;
  while (i < limit && is_digit(s[i])) v = v * 10 + (s[i++] - '0');
  bool more = i < n && (is_digit(s[i]) || s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
                        s[i] == '+' || s[i] == '-');
  if (i == first || more) return parse_number_general(r, out);
  *out = ffi_any_none();
  out->type_index = kTVMFFIInt;
  out->v_int64 = negative ? -v : v;
  r->pos = i;
  return 0;
}

static void release_values(FfiVec* values, size_t from) {
  for (size_t i = from; i < values->size; ++i) ffi_any_release((TVMFFIAny*)ffi_vec_at(values, i));
  values->size = from;
}

/* Replaces the values of the closing container by the container. */
static int close_level(FfiVec* values, const Level* level) {
  size_t n = values->size - level->base;
  TVMFFIAny* items = (TVMFFIAny*)ffi_vec_at(values, level->base);
  TVMFFIObject* obj;
  int rc;
  if (level->is_object) {
    rc = ffi_map_new_empty(kTVMFFIMap, &obj);
    for (size_t i = 0; rc == 0 && i + 1 < n; i += 2) {
      rc = ffi_map_set(obj, items[i], items[i + 1]); /* steals both */
      items[i] = items[i + 1] = ffi_any_none();
    }
    if (rc != 0 && obj != NULL) ffi_decref(obj);
  } else {
    rc = ffi_array_new(items, (int64_t)n, &obj);
  }
  release_values(values, level->base);
  if (rc != 0) return -1;
  TVMFFIAny* slot = (TVMFFIAny*)ffi_vec_push(values);
  if (slot == NULL) {
    ffi_decref(obj);
    return -1;
  }
  *slot = ffi_any_from_object(obj);
  return 0;
}

static int push_value(FfiVec* values, TVMFFIAny v) {
  TVMFFIAny* slot = (TVMFFIAny*)ffi_vec_push(values);
  if (slot == NULL) {
    ffi_any_release(&v);
    return -1;
  }
  *slot = v;
  return 0;
}

/* Parses a key string and the ':' after it. */
static int parse_key(FfiJsonCursor* r, FfiBuf* tmp, FfiVec* values) {
  ffi_json_skip_ws(r);
  if (r->pos >= r->n || r->s[r->pos] != '"') {
    return parse_error(r, "Expecting property name enclosed in double quotes", r->pos);
  }
  TVMFFIAny key;
  if (parse_string(r, tmp, &key) != 0 || push_value(values, key) != 0) return -1;
  ffi_json_skip_ws(r);
  if (r->pos >= r->n || r->s[r->pos] != ':') return parse_error(r, "Expecting ':' delimiter", r->pos);
  r->pos += 1;
  return 0;
}

/* A value that is not an object or array, at r->pos (r->pos < r->n). */
static int parse_scalar(FfiJsonCursor* r, FfiBuf* tmp, TVMFFIAny* v) {
  /* The first character picks the kind; numbers, the common case, try no keyword. */
  char c = r->s[r->pos];
  *v = ffi_any_none();
  if (c == '"') return parse_string(r, tmp, v);
  if (c == '-' || (c >= '0' && c <= '9')) return parse_number(r, v);
  if (c == 'n' && match(r, "null")) return 0;
  if ((c == 't' && match(r, "true")) || (c == 'f' && match(r, "false"))) {
    v->type_index = kTVMFFIBool;
    v->v_int64 = c == 't';
    return 0;
  }
  if (c == 'N' && match(r, "NaN")) {
    v->type_index = kTVMFFIFloat;
    v->v_float64 = NAN;
    return 0;
  }
  if (c == '+' || c == '.' || c == 'I') return parse_number(r, v);
  return parse_error(r, "Expecting value", r->pos);
}

int ffi_json_parse_value(FfiJsonCursor* cursor, TVMFFIAny* out) {
  FfiJsonCursor r = *cursor;
  ffi_json_skip_ws(&r);
  if (r.pos < r.n && r.s[r.pos] != '{' && r.s[r.pos] != '[') { /* no stacks for a scalar */
    int rc;
    if (r.s[r.pos] == '-' || is_digit(r.s[r.pos])) { /* the commonest value: no string buffer */
      rc = parse_number(&r, out);
    } else {
      FfiBuf tmp = {NULL, 0, 0};
      rc = parse_scalar(&r, &tmp, out);
      ffi_buf_free(&tmp);
    }
    if (rc != 0) return -1;
    ffi_json_skip_ws(&r);
    *cursor = r;
    return 0;
  }
  FfiVec values, levels;
  FfiBuf tmp = {NULL, 0, 0};
  TVMFFIAny value_buffer[32]; /* short documents parse without growing these */
  Level level_buffer[8];
  ffi_vec_init_inline(&values, sizeof(TVMFFIAny), value_buffer, 32);
  ffi_vec_init_inline(&levels, sizeof(Level), level_buffer, 8);
  int rc = 0;
  bool want_value = true;
  for (;;) {
    ffi_json_skip_ws(&r);
    if (want_value) {
      if (r.pos >= r.n) {
        rc = parse_error(&r, "Expecting value", r.pos);
        break;
      }
      char c = r.s[r.pos];
      TVMFFIAny v = ffi_any_none();
      if (c == '{' || c == '[') {
        Level* level = (Level*)ffi_vec_push(&levels);
        if (level == NULL) {
          rc = -1;
          break;
        }
        level->is_object = c == '{';
        level->base = values.size;
        r.pos += 1;
        ffi_json_skip_ws(&r);
        if (r.pos < r.n && r.s[r.pos] == (c == '{' ? '}' : ']')) {
          r.pos += 1;
          rc = close_level(&values, level);
          levels.size -= 1;
          if (rc != 0) break;
          want_value = false;
          continue;
        }
        if (c == '{' && (rc = parse_key(&r, &tmp, &values)) != 0) break;
        continue;
      }
      if ((rc = parse_scalar(&r, &tmp, &v)) != 0 || (rc = push_value(&values, v)) != 0) break;
      want_value = false;
      continue;
    }
    if (levels.size == 0) break; /* the value is complete */
    Level* level = (Level*)ffi_vec_top(&levels);
    char close = level->is_object ? '}' : ']';
    if (r.pos < r.n && r.s[r.pos] == ',') {
      r.pos += 1;
      if (level->is_object && (rc = parse_key(&r, &tmp, &values)) != 0) break;
      want_value = true;
    } else if (r.pos < r.n && r.s[r.pos] == close) {
      r.pos += 1;
      rc = close_level(&values, level);
      levels.size -= 1;
      if (rc != 0) break;
    } else {
      rc = parse_error(&r, "Expecting ',' delimiter", r.pos);
      break;
    }
  }
  if (rc == 0) {
    *out = *(TVMFFIAny*)ffi_vec_at(&values, 0);
    values.size = 0;
    *cursor = r;
  }
  release_values(&values, 0);
  ffi_vec_free(&values);
  ffi_vec_free(&levels);
  ffi_buf_free(&tmp);
  return rc;
}

int ffi_json_parse(const char* text, size_t size, TVMFFIAny* out) {
  FfiJsonCursor r = {text, size, 0};
  if (ffi_json_parse_value(&r, out) != 0) return -1;
  if (r.pos != r.n) {
    ffi_any_release(out);
    return parse_error(&r, "Extra data", r.pos);
  }
  return 0;
}
