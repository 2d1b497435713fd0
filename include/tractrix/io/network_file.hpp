// Network files: pieces as Bézier control points, joints by piece end. One statement per line;
// blank lines and lines starting with # are skipped.
//
//   piece <name>             starts a piece; the lines after it are its control points
//   <x>, <y>, <z>            one control point: 3k + 1 of them make k cubic segments
//   joint <name>.<end> ...   piece ends that meet (end: start or end); three or more: a switch
//   tolerance <gap> <angle>  joint tolerances (JointTolerance: relative gap, radians), optional,
//                            at most once
//
// A control point follows its piece line or another control point: after a joint or tolerance
// line it is an error, not a point added to the piece above.
//
// Every failure names the file, and the line and field where there is one; a joint that the
// network refuses is reported at its line with the pieces' names.
#pragma once

#include <cmath>
#include <cstdlib>
#include <istream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tractrix/io/track_file.hpp"
#include "tractrix/tractrix.hpp"

namespace tractrix::io::network_file {

struct Network {
  tractrix::Network<double> network;
  std::vector<std::string> names;  // piece i's name
};

namespace detail {

// Numbers and fields as in the train demo's track files.
using track_file::parse_number;
using track_file::trim;

// Whether a number's digits before its exponent are not all zero ("1e-400", not "0.0e5").
inline bool nonzero_digits(const std::string& text) {
  const std::string mantissa = text.substr(0, text.find_first_of("eE"));
  return mantissa.find_first_of("123456789") != std::string::npos;
}

inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  for (std::string word; stream >> word;)
    out.push_back(word);
  return out;
}

struct Piece {
  std::string name;
  int line;
  std::vector<tractrix::Vector3d> points;
};

// "piece 3 end" in a library message, with the piece's name added.
inline std::string with_names(const std::string& message, const std::vector<std::string>& names) {
  std::string out;
  std::size_t at = 0;
  const std::string word = "piece ";
  for (std::size_t found; (found = message.find(word, at)) != std::string::npos;) {
    std::size_t digits = found + word.size();
    while (digits < message.size() && message[digits] >= '0' && message[digits] <= '9')
      ++digits;
    out += message.substr(at, digits - at);
    if (digits > found + word.size()) {
      const auto index = std::strtoull(message.c_str() + found + word.size(), nullptr, 10);
      if (index < names.size()) out += " ('" + names[index] + "')";
    }
    at = digits;
  }
  return out + message.substr(at);
}

}  // namespace detail

// A network from `in`; `name` is the file name used in messages.
inline tractrix::Expected<Network> read(std::istream& in, const std::string& name) {
  using tractrix::End;
  using tractrix::ErrorCode;
  using tractrix::make_error;
  using tractrix::PieceEnd;
  std::vector<detail::Piece> pieces;
  std::map<std::string, std::size_t> index;
  std::vector<std::vector<PieceEnd>> joints;
  std::vector<int> joint_lines;
  tractrix::JointTolerance tolerance;
  int tolerance_line = 0;
  bool points_open = false;  // the last statement was a piece or one of its control points
  const char* axes[] = {"x", "y", "z"};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string trimmed = detail::trim(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    const std::string where = name + ":" + std::to_string(number) + ": ";
    const std::vector<std::string> w = detail::words(trimmed);
    if (w.empty()) continue;  // only whitespace that trim keeps (\v, \f)
    if (w[0] == "piece") {
      if (w.size() != 2)
        return make_error(ErrorCode::mismatched_sizes,
                          where + "'piece' takes one name, got " + std::to_string(w.size() - 1));
      if (w[1].find('.') != std::string::npos)
        return make_error(ErrorCode::out_of_range,
                          where + "piece name '" + w[1] + "' contains '.' (it ends a name)");
      if (!index.emplace(w[1], pieces.size()).second)
        return make_error(ErrorCode::out_of_range, where + "piece '" + w[1] +
                                                       "' is already defined on line " +
                                                       std::to_string(pieces[index[w[1]]].line));
      pieces.push_back({w[1], number, {}});
      points_open = true;
    } else if (w[0] == "joint") {
      points_open = false;
      std::vector<PieceEnd> ends;
      for (std::size_t k = 1; k < w.size(); ++k) {
        const std::string field = where + "field " + std::to_string(k + 1) + " '" + w[k] + "': ";
        const auto dot = w[k].rfind('.');
        if (dot == std::string::npos)
          return make_error(ErrorCode::out_of_range,
                            field + "a piece end is <piece>.start or <piece>.end");
        const std::string piece = w[k].substr(0, dot), end = w[k].substr(dot + 1);
        if (end != "start" && end != "end")
          return make_error(ErrorCode::out_of_range,
                            field + "'" + end + "' is no end (start or end)");
        const auto found = index.find(piece);
        if (found == index.end())
          return make_error(ErrorCode::out_of_range,
                            field + "no piece '" + piece + "' is defined above this line");
        ends.push_back({found->second, end == "start" ? End::start : End::end});
      }
      joints.push_back(std::move(ends));
      joint_lines.push_back(number);
    } else if (w[0] == "tolerance") {
      points_open = false;
      if (tolerance_line > 0)
        return make_error(ErrorCode::out_of_range,
                          where + "a second 'tolerance' (the first is on line " +
                              std::to_string(tolerance_line) + ")");
      tolerance_line = number;
      if (w.size() != 3)
        return make_error(ErrorCode::mismatched_sizes,
                          where + "'tolerance' takes a relative gap and an angle");
      double value[2];
      for (std::size_t f = 0; f < 2; ++f) {
        const std::string& text = w[f + 1];
        const std::string field = where + "field " + std::to_string(f + 2) +
                                  (f == 0 ? " (gap): '" : " (angle): '") + text + "' ";
        const auto parsed = detail::parse_number(text);
        if (!parsed || *parsed < 0)
          return make_error(ErrorCode::out_of_range, field + "is not a finite number >= 0");
        // 0 asks for the default: a tolerance too small for a double must not become it.
        if (*parsed == 0.0 && detail::nonzero_digits(text))
          return make_error(ErrorCode::out_of_range,
                            field + "is below the smallest double (0 asks for the default)");
        value[f] = *parsed;
      }
      tolerance = {value[0], value[1]};
    } else {
      // A control point of the piece above.
      if (!points_open)
        return make_error(ErrorCode::out_of_range,
                          where + "'" + trimmed + "' is no statement (piece, joint, tolerance)" +
                              " and no piece is open for control points (they follow their " +
                              "'piece' line, before any joint or tolerance)");
      std::vector<std::string> fields;
      std::stringstream stream(trimmed);
      for (std::string field; std::getline(stream, field, ',');)
        fields.push_back(detail::trim(field));
      if (trimmed.back() == ',') fields.push_back("");
      if (fields.size() != 3)
        return make_error(ErrorCode::mismatched_sizes,
                          where + std::to_string(fields.size()) + " fields, expected 3 (x, y, z)");
      double v[3];
      for (std::size_t i = 0; i < 3; ++i) {
        const auto value = detail::parse_number(fields[i]);
        if (!value)
          return make_error(ErrorCode::non_finite, where + "field " + std::to_string(i + 1) + " (" +
                                                       axes[i] + "): '" + fields[i] +
                                                       "' is not a finite number");
        v[i] = *value;
      }
      pieces.back().points.emplace_back(v[0], v[1], v[2]);
    }
  }
  if (pieces.empty()) return make_error(ErrorCode::empty_input, name + ": no pieces");
  // Every piece measured to 1e-12 of the whole network's size (the sum of its segments' chords,
  // a lower bound of its length), not of its own: as accurate as one curve of that length, and
  // as few table entries (ArcLengthSettings::length_scale).
  double chords = 0.0;
  for (const auto& piece : pieces)
    for (std::size_t k = 3; k < piece.points.size(); k += 3)
      chords += (piece.points[k] - piece.points[k - 3]).norm();
  if (!std::isfinite(chords)) chords = 0.0;  // coordinates near the range: each its own length
  std::vector<tractrix::Track<double>> tracks;
  std::vector<std::string> names;
  for (const auto& piece : pieces) {
    const std::string where =
        name + ":" + std::to_string(piece.line) + ": piece '" + piece.name + "': ";
    const std::size_t n = piece.points.size();
    if (n < 4 || (n - 1) % 3 != 0)
      return make_error(ErrorCode::too_few_points,
                        where + std::to_string(n) +
                            " control points; cubic segments need 3k + 1 (4, 7, 10, ...)");
    std::vector<tractrix::CubicBezier<double, 3>> segments(n / 3);
    for (std::size_t k = 0; k < segments.size(); ++k)
      for (std::size_t j = 0; j < 4; ++j)
        segments[k].points[j] = piece.points[3 * k + j];
    auto track = tractrix::Track<double>::build(tractrix::MeasuredPath<double>::build(
        tractrix::Path<double>::from_segments(segments, tractrix::Closure::open),
        {0, tractrix::ArcLengthMethod::gauss_legendre, chords}));
    if (!track) return make_error(track.error().code, where + track.error().message);
    tracks.push_back(std::move(*track));
    names.push_back(piece.name);
  }
  auto network = tractrix::Network<double>::build(std::move(tracks), joints, tolerance);
  if (!network) {
    // "joint J: ..." from the library: report it at the joint's line.
    std::string message = detail::with_names(network.error().message, names);
    const std::string prefix = "joint ";
    if (message.rfind(prefix, 0) == 0) {
      const auto j = std::strtoull(message.c_str() + prefix.size(), nullptr, 10);
      // "... is already in joint K": the file numbers no joints, so K by its line too.
      const std::string already = "is already in joint ";
      const auto at = message.find(already);
      if (at != std::string::npos) {
        const auto k = std::strtoull(message.c_str() + at + already.size(), nullptr, 10);
        if (k < joint_lines.size()) message += " (line " + std::to_string(joint_lines[k]) + ")";
      }
      if (j < joint_lines.size())
        return make_error(network.error().code,
                          name + ":" + std::to_string(joint_lines[j]) + ": " + message);
    }
    return make_error(network.error().code, name + ": " + message);
  }
  return Network{std::move(*network), std::move(names)};
}

}  // namespace tractrix::io::network_file
