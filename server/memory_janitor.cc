#include "memory_janitor.h"

#include <algorithm>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace tvmls::server {

void ReleaseFreedMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

HeapUse MeasureHeap() {
  HeapUse use;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  use.in_use = info.uordblks + info.hblkhd;
  use.kept = info.fordblks;
#endif
  return use;
}

MemoryJanitor::MemoryJanitor(Clock::duration idle, Clock::duration max_wait,
                             std::function<void()> release)
    : idle_(idle), max_wait_(max_wait), release_(std::move(release)), thread_([this] { Main(); }) {}

MemoryJanitor::~MemoryJanitor() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void MemoryJanitor::Note(Freed freed) {
  std::lock_guard<std::mutex> lock(mu_);
  last_note_ = Clock::now();
  if (freed != Freed::kNothing) pending_ = true;
  if (freed == Freed::kMuch && !pending_much_) {
    pending_much_ = true;
    first_pending_ = last_note_;
  }
  cv_.notify_all();
}

int MemoryJanitor::Releases() const {
  std::lock_guard<std::mutex> lock(mu_);
  return releases_;
}

void MemoryJanitor::Main() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    if (!pending_) {
      cv_.wait(lock);
      continue;
    }
    Clock::time_point due = last_note_ + idle_;
    if (pending_much_) due = std::min(due, first_pending_ + max_wait_);
    if (Clock::now() < due) {
      cv_.wait_until(lock, due);
      continue;
    }
    pending_ = false;
    pending_much_ = false;
    lock.unlock();
    release_();
    lock.lock();
    ++releases_;
  }
}

}  // namespace tvmls::server
