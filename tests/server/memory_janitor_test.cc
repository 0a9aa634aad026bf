// MemoryJanitor: releases after a free once idle, after a large free also at the latest after
// max_wait, and never without a free.
#include "memory_janitor.h"

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace tvmls::server {
namespace {

using std::chrono::milliseconds;

// Waits up to 10 s for `janitor` to have released `count` times.
bool WaitForReleases(const MemoryJanitor& janitor, int count) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (janitor.Releases() < count) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(2));
  }
  return true;
}

TEST(MemoryJanitor, ReleasesOnceIdleAfterALargeFree) {
  std::atomic<int> calls{0};
  MemoryJanitor janitor(milliseconds(20), std::chrono::hours(1), [&] { ++calls; });
  janitor.Note(MemoryJanitor::Freed::kMuch);
  janitor.Note(MemoryJanitor::Freed::kMuch);  // one release answers both
  ASSERT_TRUE(WaitForReleases(janitor, 1));
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_EQ(calls.load(), 1);
  janitor.Note(MemoryJanitor::Freed::kMuch);
  ASSERT_TRUE(WaitForReleases(janitor, 2));
  EXPECT_EQ(calls.load(), 2);
}

TEST(MemoryJanitor, NothingFreedNothingReleased) {
  std::atomic<int> calls{0};
  {
    MemoryJanitor janitor(milliseconds(1), milliseconds(1), [&] { ++calls; });
    for (int i = 0; i < 20; ++i) {
      janitor.Note(MemoryJanitor::Freed::kNothing);
      std::this_thread::sleep_for(milliseconds(3));
    }
  }
  EXPECT_EQ(calls.load(), 0);
}

TEST(MemoryJanitor, ContinuousActivityWaitsAtMostMaxWait) {
  // Notes every 2 ms never leave the janitor idle for 1 h; max_wait still releases.
  MemoryJanitor janitor(std::chrono::hours(1), milliseconds(30), [] {});
  janitor.Note(MemoryJanitor::Freed::kMuch);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (janitor.Releases() == 0 && std::chrono::steady_clock::now() < deadline) {
    janitor.Note(MemoryJanitor::Freed::kNothing);
    std::this_thread::sleep_for(milliseconds(2));
  }
  EXPECT_EQ(janitor.Releases(), 1);
}

TEST(MemoryJanitor, SmallFreesReleaseOnceIdleOnly) {
  // Continuous activity that frees a little: no release while it lasts, however long past
  // max_wait; one once it stops.
  MemoryJanitor janitor(milliseconds(150), milliseconds(5), [] {});
  auto until = std::chrono::steady_clock::now() + milliseconds(400);
  while (std::chrono::steady_clock::now() < until) {
    janitor.Note(MemoryJanitor::Freed::kSome);
    std::this_thread::sleep_for(milliseconds(2));
  }
  EXPECT_EQ(janitor.Releases(), 0);
  ASSERT_TRUE(WaitForReleases(janitor, 1));
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_EQ(janitor.Releases(), 1);
}

TEST(MemoryJanitor, DestructionDropsAPendingRelease) {
  std::atomic<int> calls{0};
  {
    MemoryJanitor janitor(std::chrono::hours(1), std::chrono::hours(1), [&] { ++calls; });
    janitor.Note(MemoryJanitor::Freed::kMuch);
  }
  EXPECT_EQ(calls.load(), 0);
}

}  // namespace
}  // namespace tvmls::server
