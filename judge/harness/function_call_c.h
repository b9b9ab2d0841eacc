/* Runs inside the sandbox, in the judge's own translation unit (never the submission's): reads
   the call's arguments -- a JSON list on stdin, which the judge has checked fits the signature --
   and writes the return value as JSON to the real stdout, after the submission's own output has
   been sent to stderr so that printing cannot forge a result. Imports nothing of the judge.
   Every name is static or starts with judge_, so nothing clashes with the submission's symbols. */
#ifndef JUDGE_FUNCTION_CALL_H
#define JUDGE_FUNCTION_CALL_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *judge_in;
static size_t judge_pos, judge_size;
static FILE *judge_out;

static void judge_fail(const char *what) {
  fprintf(stderr, "\njudge harness: %s at byte %zu of the arguments\n", what, judge_pos);
  exit(1);
}

static void *judge_alloc(void *old, size_t bytes) {
  void *memory = realloc(old, bytes ? bytes : 1);
  if (!memory) {
    fputs("\nstd::bad_alloc: out of memory while reading the arguments\n", stderr);
    exit(1);
  }
  return memory;
}

static void judge_read_input(void) {
  size_t capacity = 1 << 16, got;
  judge_in = judge_alloc(NULL, capacity);
  while ((got = fread(judge_in + judge_size, 1, capacity - judge_size - 1, stdin)) > 0) {
    judge_size += got;
    if (judge_size + 1 == capacity) judge_in = judge_alloc(judge_in, capacity *= 2);
  }
  judge_in[judge_size] = '\0';
}

static char judge_peek(void) {
  while (judge_pos < judge_size && strchr(" \t\r\n", judge_in[judge_pos])) judge_pos++;
  return judge_in[judge_pos];
}

static void judge_expect(char wanted) {
  if (judge_peek() != wanted) {
    char message[32];
    snprintf(message, sizeof message, "expected '%c'", wanted);
    judge_fail(message);
  }
  judge_pos++;
}

/* After an element: true if another follows (a comma was read), false at the closing bracket. */
static bool judge_more(void) {
  if (judge_peek() == ',') {
    judge_pos++;
    return true;
  }
  return false;
}

static long long judge_read_integer(long long low, long long high) {
  char *end;
  judge_peek();
  errno = 0;
  long long value = strtoll(judge_in + judge_pos, &end, 10);
  if (end == judge_in + judge_pos || errno || value < low || value > high) judge_fail("expected an integer");
  judge_pos = (size_t)(end - judge_in);
  return value;
}

static int judge_read_int(void) { return (int)judge_read_integer(INT_MIN, INT_MAX); }
static long long judge_read_long(void) { return judge_read_integer(LLONG_MIN, LLONG_MAX); }

static double judge_read_double(void) {
  char *end;
  judge_peek();
  double value = strtod(judge_in + judge_pos, &end);
  if (end == judge_in + judge_pos) judge_fail("expected a number");
  judge_pos = (size_t)(end - judge_in);
  return value;
}

static bool judge_read_bool(void) {
  judge_peek();
  if (strncmp(judge_in + judge_pos, "true", 4) == 0) {
    judge_pos += 4;
    return true;
  }
  if (strncmp(judge_in + judge_pos, "false", 5) == 0) {
    judge_pos += 5;
    return false;
  }
  judge_fail("expected true or false");
  return false;
}

static unsigned judge_hex4(void) {
  unsigned value = 0;
  for (int i = 0; i < 4; i++) {
    char c = judge_in[judge_pos++];
    value <<= 4;
    if (c >= '0' && c <= '9') value |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') value |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') value |= (unsigned)(c - 'A' + 10);
    else judge_fail("bad \\u escape");
  }
  return value;
}

static size_t judge_utf8(char *out, unsigned code) {
  if (code < 0x80) { out[0] = (char)code; return 1; }
  if (code < 0x800) { out[0] = (char)(0xC0 | code >> 6); out[1] = (char)(0x80 | (code & 0x3F)); return 2; }
  if (code < 0x10000) {
    out[0] = (char)(0xE0 | code >> 12); out[1] = (char)(0x80 | (code >> 6 & 0x3F));
    out[2] = (char)(0x80 | (code & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | code >> 18); out[1] = (char)(0x80 | (code >> 12 & 0x3F));
  out[2] = (char)(0x80 | (code >> 6 & 0x3F)); out[3] = (char)(0x80 | (code & 0x3F));
  return 4;
}

/* A JSON string as UTF-8; decoded text is never longer than its JSON form. */
static const char *judge_read_string(void) {
  judge_expect('"');
  size_t end = judge_pos;
  while (end < judge_size && judge_in[end] != '"') end += judge_in[end] == '\\' ? 2 : 1;
  if (end >= judge_size) judge_fail("unterminated string");
  char *text = judge_alloc(NULL, end - judge_pos + 1);
  size_t length = 0;
  while (judge_pos < end) {
    char c = judge_in[judge_pos++];
    if (c != '\\') {
      text[length++] = c;
      continue;
    }
    c = judge_in[judge_pos++];
    switch (c) {
      case 'b': text[length++] = '\b'; break;
      case 'f': text[length++] = '\f'; break;
      case 'n': text[length++] = '\n'; break;
      case 'r': text[length++] = '\r'; break;
      case 't': text[length++] = '\t'; break;
      case 'u': {
        unsigned code = judge_hex4();
        if (code >= 0xD800 && code < 0xDC00 && judge_in[judge_pos] == '\\' && judge_in[judge_pos + 1] == 'u') {
          judge_pos += 2;
          code = 0x10000 + ((code - 0xD800) << 10) + (judge_hex4() - 0xDC00);
        }
        length += judge_utf8(text + length, code);
        break;
      }
      default: text[length++] = c; /* \" \\ \/ */
    }
  }
  judge_pos = end + 1;
  text[length] = '\0';
  return text;
}

/* judge_read_<T>_array(&len) and judge_read_<T>_matrix(&rows, &cols) for each scalar type. */
#define JUDGE_ARRAY_READERS(T, NAME)                                                   \
  static T *judge_read_##NAME##_array(size_t *length) {                               \
    size_t capacity = 4, count = 0;                                                    \
    T *items = judge_alloc(NULL, capacity * sizeof(T));                                \
    judge_expect('[');                                                                 \
    if (judge_peek() != ']') do {                                                      \
        if (count == capacity) items = judge_alloc(items, (capacity *= 2) * sizeof(T)); \
        items[count++] = judge_read_##NAME();                                          \
      } while (judge_more());                                                          \
    judge_expect(']');                                                                 \
    *length = count;                                                                   \
    return items;                                                                      \
  }                                                                                    \
  static T **judge_read_##NAME##_matrix(size_t *rows, size_t *cols) {                 \
    size_t capacity = 4, count = 0, width = 0;                                         \
    T **items = judge_alloc(NULL, capacity * sizeof(T *));                             \
    judge_expect('[');                                                                 \
    if (judge_peek() != ']') do {                                                      \
        if (count == capacity) items = judge_alloc(items, (capacity *= 2) * sizeof(T *)); \
        items[count] = judge_read_##NAME##_array(&width);                              \
        if (count > 0 && width != *cols) judge_fail("rows of different lengths");      \
        *cols = width;                                                                 \
        count++;                                                                       \
      } while (judge_more());                                                          \
    judge_expect(']');                                                                 \
    *rows = count;                                                                     \
    if (count == 0) *cols = 0;                                                         \
    return items;                                                                      \
  }

JUDGE_ARRAY_READERS(int, int)
JUDGE_ARRAY_READERS(long long, long)
JUDGE_ARRAY_READERS(double, double)
JUDGE_ARRAY_READERS(bool, bool)
JUDGE_ARRAY_READERS(const char *, string)

/* The submission's writes to stdout go to stderr from here on; the result goes to the real one. */
static void judge_begin_call(void) {
  fflush(stdout);
  judge_out = fdopen(dup(1), "w");
  if (!judge_out || dup2(2, 1) < 0) judge_fail("cannot set up the output");
}

static int judge_finish(void) {
  fflush(stdout);
  return fflush(judge_out) == 0 && fclose(judge_out) == 0 ? 0 : 1;
}

static void judge_write_int(int value) { fprintf(judge_out, "%d", value); }
static void judge_write_long(long long value) { fprintf(judge_out, "%lld", value); }
static void judge_write_bool(bool value) { fputs(value ? "true" : "false", judge_out); }

/* The shortest of %.15g..%.17g that reads back as the same double, always with a . or an
   exponent, so that JSON reads a double back (NaN and Infinity as Python's json writes them). */
static void judge_write_double(double value) {
  char text[40];
  if (isnan(value)) { fputs("NaN", judge_out); return; }
  if (isinf(value)) { fputs(value > 0 ? "Infinity" : "-Infinity", judge_out); return; }
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(text, sizeof text, "%.*g", digits, value);
    if (strtod(text, NULL) == value) break;
  }
  fputs(text, judge_out);
  if (!strpbrk(text, ".eE")) fputs(".0", judge_out);
}

static void judge_write_string(const char *value) {
  if (!value) { fputs("null", judge_out); return; }
  fputc('"', judge_out);
  for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
    if (*c == '"' || *c == '\\') fprintf(judge_out, "\\%c", *c);
    else if (*c < 0x20) fprintf(judge_out, "\\u%04x", *c);
    else fputc(*c, judge_out);
  }
  fputc('"', judge_out);
}

/* judge_write_<T>_array(items, len) and judge_write_<T>_matrix(items, rows, cols). */
#define JUDGE_ARRAY_WRITERS(T, NAME)                                                   \
  static void judge_write_##NAME##_array(T const *items, size_t length) {             \
    fputc('[', judge_out);                                                             \
    for (size_t i = 0; i < length; i++) {                                              \
      if (i) fputc(',', judge_out);                                                    \
      judge_write_##NAME(items[i]);                                                    \
    }                                                                                  \
    fputc(']', judge_out);                                                             \
  }                                                                                    \
  static void judge_write_##NAME##_matrix(T *const *items, size_t rows, size_t cols) { \
    fputc('[', judge_out);                                                             \
    for (size_t i = 0; i < rows; i++) {                                                \
      if (i) fputc(',', judge_out);                                                    \
      judge_write_##NAME##_array(items[i], cols);                                      \
    }                                                                                  \
    fputc(']', judge_out);                                                             \
  }

JUDGE_ARRAY_WRITERS(int, int)
JUDGE_ARRAY_WRITERS(long long, long)
JUDGE_ARRAY_WRITERS(double, double)
JUDGE_ARRAY_WRITERS(bool, bool)
JUDGE_ARRAY_WRITERS(const char *, string)

#endif
