/// @file
/// Reads network files into a tractrix::Network: pieces as Bézier control points, joints by
/// piece end. Opt-in: part of the tractrix::io target, not of tractrix.hpp; include this header
/// and link tractrix::io to use it.
///
/// The format: one statement per line; blank lines and lines starting with # are skipped.
///
///     piece <name>             starts a piece; the lines after it are its control points
///     <x>, <y>, <z>            one control point: 3k + 1 of them make k cubic segments
///     joint <name>.<end> ...   piece ends that meet (end: start or end); three or more: a switch
///     tolerance <gap> <angle>  joint tolerances (JointTolerance: relative gap, radians),
///                              optional, at most once
///
/// A piece's name is one word without '.', defined once; a joint names only pieces defined above
/// it. A control point follows its piece line or another control point: after a joint or
/// tolerance line it is an error, not a point added to the piece above. Numbers are decimal in
/// the C locale's notation (track_file::parse_number); tolerances are finite and >= 0, 0 asking
/// for the default. Each piece is an open track measured against the whole network's size
/// (ArcLengthSettings::length_scale).
///
/// Every failure names the file, and the line and field where there is one; a joint that the
/// network refuses is reported at its line with the pieces' names.
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

/// A network file as read: the network, and the names the file gave its pieces.
struct Network {
  tractrix::Network<double> network;  ///< piece i is the file's i-th piece, joints as listed
  std::vector<std::string> names;     ///< piece i's name
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

// The file's statements as read so far. Each statement's method returns the error that stops
// the read, naming the file, the line and the field.
class Statements {
 public:
  struct Piece {
    std::string name;
    int line;
    std::vector<Vector3d> points;
  };

  explicit Statements(std::string file) : file_(std::move(file)) {}

  // One line of the file (its number, counted from 1).
  std::optional<Error> read_line(std::string line, int number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string trimmed = trim(line);
    if (trimmed.empty() || trimmed[0] == '#') return std::nullopt;
    where_ = file_ + ":" + std::to_string(number) + ": ";
    const std::vector<std::string> w = words(trimmed);
    if (w.empty()) return std::nullopt;  // only whitespace that trim keeps (\v, \f)
    if (w[0] == "piece") return piece(w, number);
    if (w[0] == "joint") return points_closed(), joint(w, number);
    if (w[0] == "tolerance") return points_closed(), tolerance(w, number);
    return point(trimmed);
  }

  const std::vector<Piece>& pieces() const { return pieces_; }
  const std::vector<std::vector<PieceEnd>>& joints() const { return joints_; }
  const std::vector<int>& joint_lines() const { return joint_lines_; }
  const JointTolerance& joint_tolerance() const { return tolerance_; }

 private:
  // A joint or tolerance line ends the open piece's control points.
  void points_closed() { points_open_ = false; }
  Error fail(ErrorCode code, const std::string& what) const {
    return make_error(code, where_ + what);
  }

  // "piece <name>": opens a piece for the control points after it.
  std::optional<Error> piece(const std::vector<std::string>& w, int number) {
    if (w.size() != 2)
      return fail(ErrorCode::mismatched_sizes,
                  "'piece' takes one name, got " + std::to_string(w.size() - 1));
    if (w[1].find('.') != std::string::npos)
      return fail(ErrorCode::out_of_range,
                  "piece name '" + w[1] + "' contains '.' (it ends a name)");
    if (!index_.emplace(w[1], pieces_.size()).second)
      return fail(ErrorCode::out_of_range, "piece '" + w[1] + "' is already defined on line " +
                                               std::to_string(pieces_[index_[w[1]]].line));
    pieces_.push_back({w[1], number, {}});
    points_open_ = true;
    return std::nullopt;
  }

  // "joint <piece>.<end> ...": piece ends that meet, of pieces defined above.
  std::optional<Error> joint(const std::vector<std::string>& w, int number) {
    std::vector<PieceEnd> ends;
    for (std::size_t k = 1; k < w.size(); ++k) {
      const std::string field = "field " + std::to_string(k + 1) + " '" + w[k] + "': ";
      const auto dot = w[k].rfind('.');
      if (dot == std::string::npos)
        return fail(ErrorCode::out_of_range, field + "a piece end is <piece>.start or <piece>.end");
      const std::string name = w[k].substr(0, dot), end = w[k].substr(dot + 1);
      if (end != "start" && end != "end")
        return fail(ErrorCode::out_of_range, std::string(field).append("'").append(end).append(
                                                 "' is no end (start or end)"));
      const auto found = index_.find(name);
      if (found == index_.end())
        return fail(ErrorCode::out_of_range, std::string(field)
                                                 .append("no piece '")
                                                 .append(name)
                                                 .append("' is defined above this line"));
      ends.push_back({found->second, end == "start" ? End::start : End::end});
    }
    joints_.push_back(std::move(ends));
    joint_lines_.push_back(number);
    return std::nullopt;
  }

  // "tolerance <gap> <angle>", at most once: finite numbers >= 0, 0 for the default.
  std::optional<Error> tolerance(const std::vector<std::string>& w, int number) {
    if (tolerance_line_ > 0)
      return fail(ErrorCode::out_of_range, "a second 'tolerance' (the first is on line " +
                                               std::to_string(tolerance_line_) + ")");
    tolerance_line_ = number;
    if (w.size() != 3)
      return fail(ErrorCode::mismatched_sizes, "'tolerance' takes a relative gap and an angle");
    double value[2];
    for (std::size_t f = 0; f < 2; ++f) {
      const std::string& text = w[f + 1];
      const std::string field =
          "field " + std::to_string(f + 2) + (f == 0 ? " (gap): '" : " (angle): '") + text + "' ";
      const auto parsed = parse_number(text);
      if (!parsed || *parsed < 0)
        return fail(ErrorCode::out_of_range, field + "is not a finite number >= 0");
      // 0 asks for the default: a tolerance too small for a double must not become it.
      if (tractrix::detail::exactly_equal(*parsed, 0.0) && nonzero_digits(text))
        return fail(ErrorCode::out_of_range,
                    field + "is below the smallest double (0 asks for the default)");
      value[f] = *parsed;
    }
    tolerance_ = {value[0], value[1]};
    return std::nullopt;
  }

  // "<x>, <y>, <z>": a control point of the open piece.
  std::optional<Error> point(const std::string& trimmed) {
    if (!points_open_)
      return fail(ErrorCode::out_of_range,
                  "'" + trimmed + "' is no statement (piece, joint, tolerance)" +
                      " and no piece is open for control points (they follow their " +
                      "'piece' line, before any joint or tolerance)");
    std::vector<std::string> fields;
    std::stringstream stream(trimmed);
    for (std::string field; std::getline(stream, field, ',');)
      fields.push_back(trim(field));
    if (trimmed.back() == ',') fields.push_back("");
    if (fields.size() != 3)
      return fail(ErrorCode::mismatched_sizes,
                  std::to_string(fields.size()) + " fields, expected 3 (x, y, z)");
    const char* axes[] = {"x", "y", "z"};
    double v[3];
    for (std::size_t i = 0; i < 3; ++i) {
      const auto value = parse_number(fields[i]);
      if (!value)
        return fail(ErrorCode::non_finite, "field " + std::to_string(i + 1) + " (" + axes[i] +
                                               "): '" + fields[i] + "' is not a finite number");
      v[i] = *value;
    }
    pieces_.back().points.emplace_back(v[0], v[1], v[2]);
    return std::nullopt;
  }

  std::string file_;
  std::string where_;  // "file:line: " of the statement being read
  std::vector<Piece> pieces_;
  std::map<std::string, std::size_t> index_;  // piece name → index
  std::vector<std::vector<PieceEnd>> joints_;
  std::vector<int> joint_lines_;
  JointTolerance tolerance_;
  int tolerance_line_ = 0;
  bool points_open_ = false;  // the last statement was a piece or one of its control points
};

// Each piece as a track, measured to 1e-12 of the whole network's size (the sum of its
// segments' chords, a lower bound of its length), not of its own: as accurate as one curve of
// that length, and as few table entries (ArcLengthSettings::length_scale).
inline Expected<std::vector<Track<double>>> tracks_of(const std::vector<Statements::Piece>& pieces,
                                                      const std::string& file) {
  double chords = 0.0;
  for (const auto& piece : pieces)
    for (std::size_t k = 3; k < piece.points.size(); k += 3)
      chords += (piece.points[k] - piece.points[k - 3]).norm();
  if (!std::isfinite(chords)) chords = 0.0;  // coordinates near the range: each its own length
  std::vector<Track<double>> tracks;
  for (const auto& piece : pieces) {
    const std::string where =
        file + ":" + std::to_string(piece.line) + ": piece '" + piece.name + "': ";
    const std::size_t n = piece.points.size();
    if (n < 4 || (n - 1) % 3 != 0)
      return make_error(ErrorCode::too_few_points,
                        where + std::to_string(n) +
                            " control points; cubic segments need 3k + 1 (4, 7, 10, ...)");
    std::vector<CubicBezier<double, 3>> segments(n / 3);
    for (std::size_t k = 0; k < segments.size(); ++k)
      for (std::size_t j = 0; j < 4; ++j)
        segments[k].points[j] = piece.points[3 * k + j];
    auto track = Track<double>::build(MeasuredPath<double>::build(
        Path<double>::from_segments(segments, Closure::open),
        {ArcLengthSettings::automatic, ArcLengthMethod::gauss_legendre, chords}));
    if (!track) return make_error(track.error().code, where + track.error().message);
    tracks.push_back(std::move(*track));
  }
  return tracks;
}

// The network's refusal, with the pieces' names, at the line of the joint it names ("joint J:
// ..."; "... is already in joint K" gets K's line too, as the file numbers no joints).
inline Error network_error(const Error& error, const std::string& file,
                           const std::vector<std::string>& names,
                           const std::vector<int>& joint_lines) {
  std::string message = with_names(error.message, names);
  const std::string prefix = "joint ";
  if (message.rfind(prefix, 0) == 0) {
    const auto j = std::strtoull(message.c_str() + prefix.size(), nullptr, 10);
    const std::string already = "is already in joint ";
    const auto at = message.find(already);
    if (at != std::string::npos) {
      const auto k = std::strtoull(message.c_str() + at + already.size(), nullptr, 10);
      if (k < joint_lines.size()) message += " (line " + std::to_string(joint_lines[k]) + ")";
    }
    if (j < joint_lines.size())
      return make_error(error.code, file + ":" + std::to_string(joint_lines[j]) + ": " + message);
  }
  return make_error(error.code, file + ": " + message);
}

}  // namespace detail

/// The network in `in`, read to its end; `name` is the file name used in messages. Errors: the
/// first statement that cannot be read, at its line and field (mismatched_sizes for a statement
/// with the wrong number of words or fields, non_finite for a coordinate that is not a finite
/// number, out_of_range otherwise); no pieces (empty_input); a piece whose control points are not
/// 3k + 1 (too_few_points); what MeasuredPath::build refuses, at the piece's line (a piece of
/// zero length: out_of_range); and what Network::build refuses, with its code, at the line of
/// the joint it names where it names one.
inline Expected<Network> read(std::istream& in, const std::string& name) {
  detail::Statements statements(name);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number)
    if (auto error = statements.read_line(line, number)) return std::move(*error);
  if (statements.pieces().empty()) return make_error(ErrorCode::empty_input, name + ": no pieces");
  auto tracks = detail::tracks_of(statements.pieces(), name);
  if (!tracks) return tracks.error();
  std::vector<std::string> names;
  for (const auto& piece : statements.pieces())
    names.push_back(piece.name);
  auto network = tractrix::Network<double>::build(std::move(*tracks), statements.joints(),
                                                  statements.joint_tolerance());
  if (!network)
    return detail::network_error(network.error(), name, names, statements.joint_lines());
  return Network{std::move(*network), std::move(names)};
}

}  // namespace tractrix::io::network_file
