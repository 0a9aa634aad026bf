// MemoryJanitor: hands the memory the allocator keeps after large frees back to the system,
// when the server is idle. It knows nothing of LSP or of the analysis.
//
// glibc keeps freed memory mapped for reuse. After a keystroke whose error recovery rebuilt much
// of a large file's tree, the old and new trees both lived for a moment, and the freed half stays
// in the process's RSS until malloc_trim(0) hands it back. That trim walks the whole heap (about
// 75 ms for 100 MB, 280 ms under load), so it is not done on the keystroke's path: the janitor
// does it on its own thread once nothing happened for `idle`, or at the latest `max_wait` after
// the first large free, so that continuous typing cannot hold the memory forever.
//
// What was freed decides how soon: after ordinary work (a keystroke's round frees the last
// diagnostics' text, a request its answer) glibc keeps a few megabytes each time, and over a
// few hundred keystrokes that drifted the RSS up by 40 MB before anything was released, so it is
// released once idle (Freed::kSome); after a large free (Freed::kMuch) also at the latest
// `max_wait` later, while the user keeps typing.
//
// CONTRACT
//
// Note may be called from any thread. `release` runs on the janitor's thread only, never two at
// once, and at most once per run of Notes that freed something: each release answers every such
// Note made before it started. It is called when one is pending and either no Note came for
// `idle`, or a Note(kMuch) is pending and `max_wait` passed since the first of them. The
// destructor stops the thread (a pending release is dropped) and joins it.
#ifndef TVMLS_SERVER_MEMORY_JANITOR_H_
#define TVMLS_SERVER_MEMORY_JANITOR_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace tvmls::server {

/// malloc_trim(0) with glibc; nothing elsewhere.
void ReleaseFreedMemory();

/// The allocator's view of the heap, in bytes (glibc's mallinfo2; zeros elsewhere): `in_use`,
/// what the program holds; `kept`, freed memory the allocator still holds in its arenas (part
/// of it resident), which is what ReleaseFreedMemory can hand back when whole pages are free.
struct HeapUse {
  size_t in_use = 0;
  size_t kept = 0;
};
HeapUse MeasureHeap();

class MemoryJanitor {
 public:
  using Clock = std::chrono::steady_clock;
  explicit MemoryJanitor(Clock::duration idle, Clock::duration max_wait,
                         std::function<void()> release = ReleaseFreedMemory);
  ~MemoryJanitor();
  MemoryJanitor(const MemoryJanitor&) = delete;
  MemoryJanitor& operator=(const MemoryJanitor&) = delete;

  enum class Freed {
    kNothing,  // activity only: the janitor is not idle
    kSome,     // released once idle
    kMuch,     // released once idle, or `max_wait` after the first such Note
  };
  /// Something happened now (the server is not idle), and freed `freed`.
  void Note(Freed freed);
  /// How many times `release` has returned.
  int Releases() const;

 private:
  void Main();

  const Clock::duration idle_;
  const Clock::duration max_wait_;
  const std::function<void()> release_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool pending_ = false;       // a release is due once idle
  bool pending_much_ = false;  // ... or at first_pending_ + max_wait_
  Clock::time_point last_note_;
  Clock::time_point first_pending_;
  int releases_ = 0;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_MEMORY_JANITOR_H_
