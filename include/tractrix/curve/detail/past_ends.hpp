/// @file
/// The sample an open path gives beyond its ends: its end sample carried straight on along the
/// end tangent. Shared by MeasuredPath, CompiledPath and Route (their sample_extended). Not API.
#pragma once

namespace tractrix::detail {

// sampler.sample(s, cursor), except that on an open sampler a distance before its start or past
// its length() continues straight along the end's tangent from the end's sample (whose other
// fields stay the end's). `beyond` gets how far past the end s lies: negative before the start,
// 0 within the path, on a closed one and for NaN (which samples as sample does).
template <class Sampler, class S, class Cursor>
auto sample_past_ends(const Sampler& sampler, S s, Cursor& cursor, S& beyond) noexcept {
  beyond = S(0);
  const S length = sampler.length();
  if (sampler.closed() || !(s < S(0) || s > length)) return sampler.sample(s, cursor);
  const bool before = s < S(0);
  beyond = before ? s : s - length;
  auto end = sampler.sample(before ? S(0) : length, cursor);
  end.point += beyond * end.tangent;
  return end;
}

}  // namespace tractrix::detail
