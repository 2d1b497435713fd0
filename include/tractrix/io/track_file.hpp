/// @file
/// Reads the train demo's track files into a measured Hermite path. Opt-in: part of the
/// tractrix::io target, not of tractrix.hpp; include this header and link tractrix::io to use it.
///
/// The format: one key per line, "x,y,z,tx,ty,tz" or "x,y,z,tx,ty,tz,roll" (the key point, its
/// tangent dr/dt, and the roll in radians about the tangent; every key has a roll or none does).
/// Numbers are decimal in the C locale's notation (parse_number). Blank lines and lines starting
/// with # are skipped; a line "open" or "closed" before the keys sets the topology (closed by
/// default). Every failure names the file, and the line and field where there is one.
#pragma once

#include <charconv>
#include <cmath>
#include <istream>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tractrix/tractrix.hpp"

namespace tractrix::io::track_file {

/// A track file as read: its keys as a measured path, and their rolls.
struct Track {
  /// The keys joined by cubic Hermite segments (Path::from_hermite_keys: segment i runs from key
  /// i to key i + 1, and a closed track adds one back to the first), measured with the default
  /// ArcLengthSettings.
  tractrix::MeasuredPath<double> path;
  /// One roll per key from the roll column, in radians about the tangent, or empty without one.
  std::vector<double> key_rolls;
};

/// A decimal number in the C locale's notation ('.' before the fraction), whatever the process's
/// locale; std::nullopt for anything else. The text must hold only the number (trim it first). One
/// leading '+' is allowed; hexadecimal, "inf" and "nan" are not numbers here, and neither is a
/// magnitude past double's range. One that underflows it ("1e-400") reads as a zero of its sign.
inline std::optional<double> parse_number(const std::string& text) {
  const char* first = text.data();
  const char* const last = first + text.size();
  if (first != last && *first == '+' && last - first > 1 && first[1] != '-') ++first;
  if (first == last) return std::nullopt;
  double value = 0;
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto [end, error] = std::from_chars(first, last, value, std::chars_format::general);
  if (end != last) return std::nullopt;
  if (error == std::errc::result_out_of_range) {
    // Underflow and overflow are reported alike; a negative exponent makes it the former.
    const auto e = text.find_first_of("eE");
    if (e == std::string::npos || text.find('-', e) != e + 1) return std::nullopt;
    return *first == '-' ? -0.0 : 0.0;
  }
  if (error != std::errc()) return std::nullopt;
#else
  // Standard libraries without floating-point from_chars: a stream in the classic locale.
  std::istringstream stream(std::string(first, last));
  stream.imbue(std::locale::classic());
  stream >> value;
  if (!stream.eof() || stream.fail()) return std::nullopt;
#endif
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

/// `text` without the white space a line can hold around it: spaces, tabs, carriage returns,
/// vertical tabs and form feeds.
inline std::string trim(const std::string& text) {
  const char* space = " \t\r\v\f";
  const auto first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

/// The track in `in`, read to its end; `name` is the file name used in messages.
///
/// Errors: mismatched_sizes for an "open" or "closed" line after the keys, a key of other than 6
/// or 7 fields, or one whose field count differs from the first key's; non_finite for a field
/// that is not a finite number; out_of_range for a track of zero length (all its control
/// points at one point). What Path::from_hermite_keys refuses (fewer than 2 keys: empty_input or
/// too_few_points; tangents so large the control points overflow: non_finite) and what
/// MeasuredPath::build refuses (a track too small to measure: out_of_range; a length that
/// overflows: non_finite) passes through with its code, the file name added.
inline tractrix::Expected<Track> read(std::istream& in, const std::string& name) {
  using tractrix::ErrorCode;
  using tractrix::make_error;
  std::vector<tractrix::Vector3d> points, tangents;
  std::vector<double> rolls;
  bool closed = true, any_roll = false;
  const char* names[] = {"x", "y", "z", "tx", "ty", "tz", "roll"};
  std::string line;
  std::size_t key_fields = 0;  // of the first key: every key has a roll or none
  int first_key_line = 0;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string trimmed = trim(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    if (trimmed == "open" || trimmed == "closed") {
      if (!points.empty())
        return make_error(ErrorCode::mismatched_sizes,
                          std::string(name)
                              .append(":" + std::to_string(number) + ": '")
                              .append(trimmed)
                              .append("' after the keys (line " + std::to_string(first_key_line) +
                                      " is the first); it goes before them"));
      closed = trimmed == "closed";
      continue;
    }
    std::vector<std::string> fields;
    std::stringstream stream(trimmed);
    for (std::string field; std::getline(stream, field, ',');)
      fields.push_back(trim(field));
    if (!trimmed.empty() && trimmed.back() == ',') fields.push_back("");
    const std::string where = name + ":" + std::to_string(number) + ": ";
    if (fields.size() != 6 && fields.size() != 7)
      return make_error(ErrorCode::mismatched_sizes,
                        where + std::to_string(fields.size()) +
                            " fields, expected 6 (x,y,z,tx,ty,tz) or 7 (+roll)");
    if (key_fields == 0) {
      key_fields = fields.size();
      first_key_line = number;
    } else if (fields.size() != key_fields) {
      return make_error(ErrorCode::mismatched_sizes,
                        where + std::to_string(fields.size()) + " fields where line " +
                            std::to_string(first_key_line) + " has " + std::to_string(key_fields) +
                            ": every key has a roll or none does");
    }
    double v[7] = {0, 0, 0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const auto value = parse_number(fields[i]);
      if (!value)
        return make_error(ErrorCode::non_finite, where + "field " + std::to_string(i + 1) + " (" +
                                                     names[i] + "): '" + fields[i] +
                                                     "' is not a finite number");
      v[i] = *value;
    }
    points.emplace_back(v[0], v[1], v[2]);
    tangents.emplace_back(v[3], v[4], v[5]);
    rolls.push_back(v[6]);
    any_roll = any_roll || fields.size() == 7;
  }
  using tractrix::Closure;
  auto path = tractrix::Path<double>::from_hermite_keys(points, tangents,
                                                        closed ? Closure::closed : Closure::open);
  if (!path) return make_error(path.error().code, name + ": " + path.error().message);
  auto measured = tractrix::MeasuredPath<double>::build(std::move(*path));
  // Zero length in the file's words; any other refusal (a track too small to measure) as it is.
  if (!measured && measured.error().message.rfind("path: zero length", 0) == 0)
    return make_error(ErrorCode::out_of_range,
                      name + ": the track has zero length (every key at one point)");
  if (!measured) return make_error(measured.error().code, name + ": " + measured.error().message);
  return Track{std::move(*measured), any_roll ? rolls : std::vector<double>{}};
}

}  // namespace tractrix::io::track_file
