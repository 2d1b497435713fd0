// Counting heap allocations: this header replaces the global operator new and delete, so a
// binary includes it from exactly one translation unit. `Counting` counts what is allocated while
// it lives, on its own thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

// Sanitizers own operator new (mixing theirs and ours is an alloc-dealloc mismatch), so the
// counting replacement is compiled only in plain builds: the test preset runs it (the clang and
// asan presets are sanitized).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TRACTRIX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TRACTRIX_SANITIZED 1
#endif
#endif

namespace {
std::atomic<long> allocations{0};
std::atomic<long long> allocated_bytes{0};
thread_local bool counting = false;

#if !defined(TRACTRIX_SANITIZED)
void* allocate(std::size_t size, std::size_t alignment) {
  if (counting) {
    ++allocations;
    allocated_bytes += static_cast<long long>(size);
  }
  size = size == 0 ? 1 : size;
  void* p = alignment > alignof(std::max_align_t)
                ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
                : std::malloc(size);
  if (!p) throw std::bad_alloc();
  return p;
}
#endif

// Counts the allocations made while it lives, and their bytes.
class Counting {
 public:
  Counting() : start_(allocations.load()), start_bytes_(allocated_bytes.load()) { counting = true; }
  ~Counting() { counting = false; }
  long made() const { return allocations.load() - start_; }
  long long bytes() const { return allocated_bytes.load() - start_bytes_; }

 private:
  long start_;
  long long start_bytes_;
};
}  // namespace

#if !defined(TRACTRIX_SANITIZED)
void* operator new(std::size_t size) {
  return allocate(size, 0);
}
void* operator new[](std::size_t size) {
  return allocate(size, 0);
}
void* operator new(std::size_t size, std::align_val_t a) {
  return allocate(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a) {
  return allocate(size, static_cast<std::size_t>(a));
}
// Our operator new allocates with malloc, so free is the matching release; GCC at -O1 sees only
// the standard operator new paired with free and warns.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif
