// Runs inside the sandbox, in the judge's own translation unit (never the submission's): reads
// the call's arguments -- a JSON list on stdin, which the judge has checked fits the signature --
// and writes the return value as JSON to the real stdout, after the submission's own output has
// been sent to stderr so that printing cannot forge a result. Imports nothing of the judge.
#ifndef JUDGE_FUNCTION_CALL_HPP
#define JUDGE_FUNCTION_CALL_HPP

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>
#include <unistd.h>

namespace judge_harness {

class Reader {
 public:
  Reader() : text_(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()) {}

  void expect(char wanted) {
    if (peek() != wanted) fail(std::string("expected '") + wanted + "'");
    pos_++;
  }

  void read(int& value) { value = static_cast<int>(integer(INT_MIN, INT_MAX)); }
  void read(long long& value) { value = integer(LLONG_MIN, LLONG_MAX); }

  void read(double& value) {
    peek();
    char* end;
    value = std::strtod(text_.c_str() + pos_, &end);
    if (end == text_.c_str() + pos_) fail("expected a number");
    pos_ = end - text_.c_str();
  }

  void read(bool& value) {
    peek();
    if (text_.compare(pos_, 4, "true") == 0) {
      value = true;
      pos_ += 4;
    } else if (text_.compare(pos_, 5, "false") == 0) {
      value = false;
      pos_ += 5;
    } else {
      fail("expected true or false");
    }
  }

  void read(std::string& value) {
    expect('"');
    value.clear();
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return;
      if (c != '\\') {
        value += c;
        continue;
      }
      c = text_[pos_++];
      switch (c) {
        case 'b': value += '\b'; break;
        case 'f': value += '\f'; break;
        case 'n': value += '\n'; break;
        case 'r': value += '\r'; break;
        case 't': value += '\t'; break;
        case 'u': utf8(value, code_point()); break;
        default: value += c;  // \" \\ \/
      }
    }
  }

  template <typename T>
  void read(std::vector<T>& items) {
    items.clear();
    expect('[');
    if (peek() != ']') {
      do {
        T item;
        read(item);
        items.push_back(item);
      } while (more());
    }
    expect(']');
  }

 private:
  std::string text_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "\njudge harness: %s at byte %zu of the arguments\n", what.c_str(), pos_);
    std::exit(1);
  }

  char peek() {
    while (pos_ < text_.size() && std::strchr(" \t\r\n", text_[pos_])) pos_++;
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  bool more() {
    if (peek() != ',') return false;
    pos_++;
    return true;
  }

  long long integer(long long low, long long high) {
    peek();
    char* end;
    errno = 0;
    long long value = std::strtoll(text_.c_str() + pos_, &end, 10);
    if (end == text_.c_str() + pos_ || errno || value < low || value > high) fail("expected an integer");
    pos_ = end - text_.c_str();
    return value;
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("bad \\u escape");
    unsigned value = std::strtoul(text_.substr(pos_, 4).c_str(), nullptr, 16);
    pos_ += 4;
    return value;
  }

  unsigned code_point() {
    unsigned code = hex4();
    if (code >= 0xD800 && code < 0xDC00 && text_.compare(pos_, 2, "\\u") == 0) {
      pos_ += 2;
      code = 0x10000 + ((code - 0xD800) << 10) + (hex4() - 0xDC00);
    }
    return code;
  }

  static void utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | code >> 6);
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | code >> 12);
      out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | code >> 18);
      out += static_cast<char>(0x80 | (code >> 12 & 0x3F));
      out += static_cast<char>(0x80 | (code >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }
};

// The submission's writes to stdout (printf and cout) go to stderr from here on.
inline FILE*& result_stream() {
  static FILE* stream = nullptr;
  return stream;
}

inline void begin_call() {
  std::cout.flush();
  std::fflush(stdout);
  result_stream() = fdopen(dup(1), "w");
  if (!result_stream() || dup2(2, 1) < 0) {
    std::fputs("\njudge harness: cannot set up the output\n", stderr);
    std::exit(1);
  }
}

inline void write(int value) { std::fprintf(result_stream(), "%d", value); }
inline void write(long long value) { std::fprintf(result_stream(), "%lld", value); }
inline void write(bool value) { std::fputs(value ? "true" : "false", result_stream()); }

// The shortest of %.15g..%.17g that reads back as the same double, always with a . or an
// exponent, so that JSON reads a double back (NaN and Infinity as Python's json writes them).
inline void write(double value) {
  FILE* out = result_stream();
  if (std::isnan(value)) {
    std::fputs("NaN", out);
    return;
  }
  if (std::isinf(value)) {
    std::fputs(value > 0 ? "Infinity" : "-Infinity", out);
    return;
  }
  char text[40];
  for (int digits = 15; digits <= 17; digits++) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  std::fputs(text, out);
  if (!std::strpbrk(text, ".eE")) std::fputs(".0", out);
}

inline void write(const std::string& value) {
  FILE* out = result_stream();
  std::fputc('"', out);
  for (unsigned char c : value) {
    if (c == '"' || c == '\\') std::fprintf(out, "\\%c", c);
    else if (c < 0x20) std::fprintf(out, "\\u%04x", c);
    else std::fputc(c, out);
  }
  std::fputc('"', out);
}

template <typename T>
void write(const std::vector<T>& items) {
  std::fputc('[', result_stream());
  bool first = true;
  for (const auto& item : items) {  // a const vector<bool> gives plain bools
    if (!first) std::fputc(',', result_stream());
    first = false;
    write(item);
  }
  std::fputc(']', result_stream());
}

inline int finish() {
  std::cout.flush();
  std::fflush(stdout);
  return std::fflush(result_stream()) == 0 && std::fclose(result_stream()) == 0 ? 0 : 1;
}

}  // namespace judge_harness

#endif
