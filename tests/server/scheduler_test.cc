// The document scheduler without JSON or LSP: a fake DocumentAnalysis records what the workers do
// (rounds, publications, jobs run or superseded) and can hold a round open with a gate, so that
// the tests put edits, closes and jobs exactly where they want them. Waits have generous
// timeouts, only so that a broken scheduler fails instead of hanging; nothing is timed.
#include "scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tvmls::testing {
namespace {

using server::DocumentAnalysis;
using server::Scheduler;
using server::TextChange;
using ChangeStatus = Scheduler::ChangeStatus;

constexpr auto kTimeout = std::chrono::seconds(60);
// A debounce no test outlives: a change is analysed only when a job asks for it.
constexpr double kNever = 3600 * 1000;

// Everything the workers did, in order, as lines: "analyse a 2 [text]", "publish a 2",
// "run j [text]", "superseded j", "destroyed a", "drop a removed=1 <reason>", "enter a 2" (a
// round entered Analyse), "concurrent a" (two rounds of one document at once: a bug).
class Recorder {
 public:
  void Add(std::string event) {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::move(event));
    cv_.notify_all();
  }
  std::vector<std::string> Events() const {
    std::lock_guard<std::mutex> lock(mu_);
    return events_;
  }
  bool Has(const std::string& event) const {
    std::vector<std::string> all = Events();
    return std::find(all.begin(), all.end(), event) != all.end();
  }
  /// The events starting with `prefix`, in order.
  std::vector<std::string> Starting(const std::string& prefix) const {
    std::vector<std::string> out;
    for (const std::string& e : Events()) {
      if (e.rfind(prefix, 0) == 0) out.push_back(e);
    }
    return out;
  }
  /// Waits until `event` was recorded `times` times (false after kTimeout).
  bool WaitFor(const std::string& event, long times = 1) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, kTimeout, [&] {
      return std::count(events_.begin(), events_.end(), event) >= times;
    });
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> events_;
};

// Holds a round inside Analyse until opened.
class Gate {
 public:
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return open_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

struct FakeOptions {
  int64_t hold_at = -1;  // the round of this version waits for `gate` inside Analyse
  Gate* gate = nullptr;
  bool throws = false;
  // What Analyse reports; default: analysed when edited, 1 ms, never from scratch.
  std::function<DocumentAnalysis::Outcome(int64_t version, bool edited)> outcome;
};

class FakeAnalysis : public DocumentAnalysis {
 public:
  FakeAnalysis(Recorder& recorder, std::string name, FakeOptions options = {})
      : recorder_(recorder), name_(std::move(name)), options_(std::move(options)) {}
  ~FakeAnalysis() override { recorder_.Add("destroyed " + name_); }

  Outcome Analyse(const analysis::Document& text, int64_t version, bool edited) override {
    if (busy_.exchange(true)) recorder_.Add("concurrent " + name_);
    recorder_.Add("enter " + name_ + " " + std::to_string(version));
    if (version == options_.hold_at && options_.gate) options_.gate->Wait();
    recorder_.Add("analyse " + name_ + " " + std::to_string(version) + (edited ? "" : " unedited") +
                  " [" + text.Text() + "]");
    busy_ = false;
    if (options_.throws) throw std::runtime_error("boom");
    if (options_.outcome) return options_.outcome(version, edited);
    return {edited, false, 1};
  }
  void Publish(int64_t version) override {
    recorder_.Add("publish " + name_ + " " + std::to_string(version));
  }
  const std::string& name() const { return name_; }

 private:
  Recorder& recorder_;
  const std::string name_;
  const FakeOptions options_;
  std::atomic<bool> busy_{false};
};

std::unique_ptr<DocumentAnalysis> Fake(Recorder& r, const std::string& name,
                                       FakeOptions options = {}) {
  return std::make_unique<FakeAnalysis>(r, name, std::move(options));
}

Scheduler::Job Job(Recorder& r, const std::string& name) {
  return {[&r, name](const analysis::Document& text, DocumentAnalysis& analysis) {
            r.Add("run " + name + " on " + static_cast<FakeAnalysis&>(analysis).name() + " [" +
                  text.Text() + "]");
          },
          [&r, name] { r.Add("superseded " + name); }};
}

// Inserts `text` at (0, column).
std::vector<TextChange> Insert(uint32_t column, const std::string& text) {
  return {TextChange{false, {0, column}, {0, column}, text}};
}

Scheduler::DropHook RecordDrops(Recorder& r) {
  return [&r](const std::string& key, const std::string& reason, bool removed) {
    r.Add("drop " + key + " removed=" + std::to_string(removed) + " " + reason);
  };
}

TEST(Scheduler, OpenIsAnalysedAtOnceAndPublished) {
  Recorder r;
  Scheduler s(2);
  s.SetFixedDebounce(kNever);  // Opening is not debounced.
  EXPECT_FALSE(s.Open("a", 3, "x = 1", Fake(r, "a")));
  ASSERT_TRUE(r.WaitFor("publish a 3"));
  EXPECT_TRUE(r.Has("analyse a 3 [x = 1]"));
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  ASSERT_TRUE(r.WaitFor("run j on a [x = 1]"));
  // Only jobs waited: the round did not ask for a new analysis, and published nothing new.
  EXPECT_TRUE(r.Has("analyse a 3 unedited [x = 1]"));
  EXPECT_EQ(r.Starting("publish").size(), 1u);
}

TEST(Scheduler, ChangesWithinTheDebounceAreCoalescedIntoOneRound) {
  Recorder r;
  Scheduler s(2);
  s.SetFixedDebounce(kNever);
  s.Open("a", 1, "x", Fake(r, "a"));
  ASSERT_TRUE(r.WaitFor("publish a 1"));
  EXPECT_EQ(s.Change("a", 2, Insert(1, "1"), analysis::Encoding::kUtf16).status,
            ChangeStatus::kAccepted);
  EXPECT_EQ(s.Change("a", 3, Insert(2, "2"), analysis::Encoding::kUtf16).status,
            ChangeStatus::kAccepted);
  EXPECT_EQ(s.Change("a", 4, {TextChange{false, {0, 0}, {0, 1}, "y"}, TextChange{true, {}, {}, "z"},
                              TextChange{false, {0, 1}, {0, 1}, "!"}},
                     analysis::Encoding::kUtf8)
                .status,
            ChangeStatus::kAccepted);
  // Still debounced: the job makes it due at once, and one round applies all three versions.
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  ASSERT_TRUE(r.WaitFor("run j on a [z!]"));
  EXPECT_EQ(r.Starting("analyse"),
            (std::vector<std::string>{"analyse a 1 [x]", "analyse a 4 [z!]"}));
  EXPECT_EQ(r.Starting("publish"), (std::vector<std::string>{"publish a 1", "publish a 4"}));
}

TEST(Scheduler, AChangeIsAnalysedOnceDueWithoutAJob) {
  Recorder r;
  Scheduler s(1);
  s.SetFixedDebounce(0);
  s.Open("a", 1, "x", Fake(r, "a"));
  ASSERT_TRUE(r.WaitFor("publish a 1"));
  s.Change("a", 2, Insert(1, "y"), analysis::Encoding::kUtf16);
  ASSERT_TRUE(r.WaitFor("publish a 2"));
  EXPECT_TRUE(r.Has("analyse a 2 [xy]"));
}

TEST(Scheduler, StaleAndUnknownChangesAreRefused) {
  Recorder r;
  Scheduler s(1);
  s.SetFixedDebounce(kNever);
  Scheduler::ChangeResult unknown = s.Change("a", 1, Insert(0, "q"), analysis::Encoding::kUtf16);
  EXPECT_EQ(unknown.status, ChangeStatus::kNotOpen);
  EXPECT_EQ(unknown.version, 0);
  EXPECT_FALSE(s.Query("a", Job(r, "unknown")));
  s.Open("a", 5, "x", Fake(r, "a"));
  for (int64_t version : {5, 3}) {
    Scheduler::ChangeResult stale = s.Change("a", version, Insert(0, "q"), analysis::Encoding::kUtf16);
    EXPECT_EQ(stale.status, ChangeStatus::kNotNewer) << version;
    EXPECT_EQ(stale.version, 5);
  }
  EXPECT_EQ(s.Change("a", 6, Insert(1, "y"), analysis::Encoding::kUtf16).status,
            ChangeStatus::kAccepted);
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  ASSERT_TRUE(r.WaitFor("run j on a [xy]"));  // The refused changes were not applied.
  EXPECT_TRUE(r.Starting("superseded").empty());
  EXPECT_TRUE(r.Starting("run unknown").empty());
}

TEST(Scheduler, ANewerVersionSupersedesOlderWork) {
  Recorder r;
  Gate gate;
  Scheduler s(1);
  s.SetFixedDebounce(0);
  s.Open("a", 1, "x", Fake(r, "a", {2, &gate, false, nullptr}));
  ASSERT_TRUE(r.WaitFor("publish a 1"));
  s.Change("a", 2, Insert(1, "2"), analysis::Encoding::kUtf16);
  ASSERT_TRUE(r.WaitFor("enter a 2"));
  ASSERT_TRUE(s.Query("a", Job(r, "old")));  // asked on version 2, being analysed
  s.Change("a", 3, Insert(2, "3"), analysis::Encoding::kUtf16);
  gate.Open();
  ASSERT_TRUE(r.WaitFor("superseded old"));
  ASSERT_TRUE(r.WaitFor("publish a 3"));
  // Version 2 was analysed but never published: it was stale by then.
  EXPECT_TRUE(r.Has("analyse a 2 [x2]"));
  EXPECT_FALSE(r.Has("publish a 2"));
  EXPECT_TRUE(r.Starting("run old").empty());
  ASSERT_TRUE(s.Query("a", Job(r, "new")));
  ASSERT_TRUE(r.WaitFor("run new on a [x23]"));
}

TEST(Scheduler, AJobWaitsForTheRoundAfterAnInvalidationDuringItsRound) {
  Recorder r;
  Gate gate;
  Scheduler s(1);
  s.SetFixedDebounce(kNever);
  s.Open("a", 1, "x", Fake(r, "a", {1, &gate, false, nullptr}));
  ASSERT_TRUE(r.WaitFor("enter a 1"));
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  s.InvalidateAll();  // The settings changed during the round: its results are not the latest.
  gate.Open();
  ASSERT_TRUE(r.WaitFor("run j on a [x]"));
  // The first round neither published nor ran the job; the second one did both.
  EXPECT_EQ(r.Starting("analyse"), (std::vector<std::string>{"analyse a 1 [x]", "analyse a 1 [x]"}));
  EXPECT_EQ(r.Starting("publish"), std::vector<std::string>{"publish a 1"});
  std::vector<std::string> events = r.Events();
  size_t second = events.rend() - std::find(events.rbegin(), events.rend(), "analyse a 1 [x]");
  size_t run = std::find(events.begin(), events.end(), "run j on a [x]") - events.begin();
  EXPECT_GE(run, second);  // The job ran after the second analysis.
  EXPECT_TRUE(r.Starting("superseded").empty());
}

TEST(Scheduler, PublicationsComeInVersionOrderAndOneRoundAtATimePerDocument) {
  Recorder r;
  Scheduler s(4);
  s.SetFixedDebounce(0);
  const std::vector<std::string> docs = {"a", "b", "c"};
  constexpr int64_t kLast = 40;
  for (const std::string& doc : docs) s.Open(doc, 1, "", Fake(r, doc));
  for (int64_t version = 2; version <= kLast; ++version) {
    for (const std::string& doc : docs) {
      ASSERT_EQ(s.Change(doc, version, Insert(0, "."), analysis::Encoding::kUtf16).status,
                ChangeStatus::kAccepted);
    }
    if (version % 8 == 0) std::this_thread::yield();
  }
  std::string text(kLast - 1, '.');
  for (const std::string& doc : docs) ASSERT_TRUE(s.Query(doc, Job(r, "final " + doc)));
  for (const std::string& doc : docs) {
    ASSERT_TRUE(r.WaitFor("run final " + doc + " on " + doc + " [" + text + "]")) << doc;
  }
  for (const std::string& doc : docs) {
    std::vector<std::string> published = r.Starting("publish " + doc + " ");
    ASSERT_FALSE(published.empty());
    int64_t last = 0;
    for (const std::string& p : published) {
      int64_t version = std::stoll(p.substr(p.rfind(' ') + 1));
      EXPECT_GT(version, last) << doc;
      last = version;
    }
    EXPECT_EQ(last, kLast) << doc;
  }
  EXPECT_TRUE(r.Starting("concurrent").empty());
}

TEST(Scheduler, ClosingADocumentDropsItsPendingWorkAndSupersedesItsJobs) {
  Recorder r;
  Gate gate;
  Scheduler s(1);
  s.SetFixedDebounce(kNever);
  s.Open("busy", 1, "b", Fake(r, "busy", {1, &gate, false, nullptr}));
  ASSERT_TRUE(r.WaitFor("enter busy 1"));  // The only worker is held.
  s.Open("a", 1, "x", Fake(r, "a"));
  s.Change("a", 2, Insert(1, "y"), analysis::Encoding::kUtf16);
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  EXPECT_TRUE(s.Close("a"));
  // At once, on the caller's thread: the job is superseded and the analysis released.
  EXPECT_TRUE(r.Has("superseded j"));
  EXPECT_TRUE(r.Has("destroyed a"));
  EXPECT_FALSE(s.Close("a"));
  EXPECT_EQ(s.Change("a", 3, Insert(0, "z"), analysis::Encoding::kUtf16).status,
            ChangeStatus::kNotOpen);
  gate.Open();
  ASSERT_TRUE(s.Query("busy", Job(r, "sync")));
  ASSERT_TRUE(r.WaitFor("run sync on busy [b]"));
  EXPECT_TRUE(r.Starting("analyse a").empty());
  EXPECT_TRUE(r.Starting("run j").empty());
}

TEST(Scheduler, ClosingDuringARoundNeitherPublishesNorRunsJobs) {
  Recorder r;
  Gate gate;
  Scheduler s(1);
  s.Open("a", 1, "x", Fake(r, "a", {1, &gate, false, nullptr}));
  ASSERT_TRUE(r.WaitFor("enter a 1"));
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  EXPECT_TRUE(s.Close("a"));
  EXPECT_TRUE(r.Has("superseded j"));
  EXPECT_FALSE(r.Has("destroyed a"));  // The round still has it.
  gate.Open();
  ASSERT_TRUE(r.WaitFor("destroyed a"));
  EXPECT_TRUE(r.Has("analyse a 1 [x]"));
  EXPECT_TRUE(r.Starting("publish").empty());
  EXPECT_TRUE(r.Starting("run").empty());
}

TEST(Scheduler, OpeningAnOpenDocumentReplacesIt) {
  Recorder r;
  Gate gate;
  Scheduler s(1);
  s.SetFixedDebounce(kNever);
  s.Open("busy", 1, "b", Fake(r, "busy", {1, &gate, false, nullptr}));
  ASSERT_TRUE(r.WaitFor("enter busy 1"));
  s.Open("a", 1, "old", Fake(r, "a#1"));
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  EXPECT_TRUE(s.Open("a", 1, "new", Fake(r, "a#2")));
  EXPECT_TRUE(r.Has("superseded j"));
  EXPECT_TRUE(r.Has("destroyed a#1"));
  gate.Open();
  ASSERT_TRUE(r.WaitFor("publish a#2 1"));
  ASSERT_TRUE(s.Query("a", Job(r, "k")));
  ASSERT_TRUE(r.WaitFor("run k on a#2 [new]"));
  EXPECT_TRUE(r.Starting("analyse a#1").empty());
}

TEST(Scheduler, AChangeThatDoesNotFitDropsTheDocument) {
  Recorder r;
  Scheduler s(1, RecordDrops(r));
  s.SetFixedDebounce(kNever);
  s.Open("a", 1, "x", Fake(r, "a"));
  ASSERT_TRUE(r.WaitFor("publish a 1"));
  s.Change("a", 2, {TextChange{false, {7, 0}, {7, 0}, "y"}}, analysis::Encoding::kUtf16);
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  ASSERT_TRUE(r.WaitFor("superseded j"));
  std::vector<std::string> drops = r.Starting("drop a removed=1 the change to version 2 does not fit");
  EXPECT_EQ(drops.size(), 1u) << ::testing::PrintToString(r.Events());
  EXPECT_TRUE(r.Starting("analyse a 2").empty());
  // Gone until reopened.
  EXPECT_EQ(s.Change("a", 3, Insert(0, "z"), analysis::Encoding::kUtf16).status,
            ChangeStatus::kNotOpen);
  EXPECT_FALSE(s.Query("a", Job(r, "after")));
  EXPECT_FALSE(s.Open("a", 1, "w", Fake(r, "a#2")));
  ASSERT_TRUE(r.WaitFor("publish a#2 1"));
}

TEST(Scheduler, AnAnalysisThatThrowsDropsTheDocument) {
  Recorder r;
  Gate gate;
  Scheduler s(1, RecordDrops(r));
  s.Open("a", 1, "x", Fake(r, "a", {1, &gate, true, nullptr}));
  ASSERT_TRUE(r.WaitFor("enter a 1"));
  ASSERT_TRUE(s.Query("a", Job(r, "j")));
  gate.Open();
  ASSERT_TRUE(r.WaitFor("superseded j"));
  EXPECT_TRUE(r.Has("drop a removed=1 internal error: boom"));
  EXPECT_TRUE(r.WaitFor("destroyed a"));
  EXPECT_TRUE(r.Starting("publish").empty());
  EXPECT_TRUE(r.Starting("run").empty());
  EXPECT_FALSE(s.Close("a"));
}

TEST(Scheduler, InvalidateAllAnalysesEveryOpenDocumentAgain) {
  Recorder r;
  Scheduler s(2);
  s.SetFixedDebounce(kNever);
  s.Open("a", 1, "x", Fake(r, "a"));
  s.Open("b", 1, "y", Fake(r, "b"));
  ASSERT_TRUE(r.WaitFor("publish a 1"));
  ASSERT_TRUE(r.WaitFor("publish b 1"));
  s.InvalidateAll();  // Due at once, without a job.
  ASSERT_TRUE(r.WaitFor("publish a 1", 2));
  ASSERT_TRUE(r.WaitFor("publish b 1", 2));
  EXPECT_EQ(r.Starting("analyse a"), (std::vector<std::string>{"analyse a 1 [x]", "analyse a 1 [x]"}));
  EXPECT_EQ(r.Starting("analyse b"), (std::vector<std::string>{"analyse b 1 [y]", "analyse b 1 [y]"}));
}

TEST(Scheduler, TheAdaptiveDebounceFollowsIncrementalAnalysisTimes) {
  EXPECT_EQ(Scheduler::AdaptiveDebounceMs(0), server::kMinDebounceMs);
  EXPECT_DOUBLE_EQ(Scheduler::AdaptiveDebounceMs(100), 100 * server::kDebounceFactor);
  EXPECT_EQ(Scheduler::AdaptiveDebounceMs(1e6), server::kMaxDebounceMs);

  Recorder r;
  Scheduler s(1);
  EXPECT_FALSE(s.DebounceMs("a").has_value());
  FakeOptions options;
  // From scratch at version 1 (not counted), then 100 ms and 300 ms incremental analyses.
  options.outcome = [](int64_t version, bool) -> DocumentAnalysis::Outcome {
    if (version == 1) return {true, true, 10000};
    return {true, false, version == 2 ? 100.0 : 300.0};
  };
  s.Open("a", 1, "x", Fake(r, "a", options));
  ASSERT_TRUE(r.WaitFor("publish a 1"));
  EXPECT_EQ(s.DebounceMs("a"), server::kMinDebounceMs);
  s.Change("a", 2, Insert(1, "y"), analysis::Encoding::kUtf16);
  ASSERT_TRUE(r.WaitFor("publish a 2"));
  EXPECT_DOUBLE_EQ(*s.DebounceMs("a"), 100 * server::kDebounceFactor);
  s.Change("a", 3, Insert(2, "z"), analysis::Encoding::kUtf16);
  ASSERT_TRUE(r.WaitFor("publish a 3"));
  EXPECT_DOUBLE_EQ(*s.DebounceMs("a"), (100 + 300) / 2.0 * server::kDebounceFactor);
  s.SetFixedDebounce(0);
  EXPECT_EQ(s.DebounceMs("a"), 0);
}

// Runs `stop` on another thread; fails (and ends the test binary: a hung worker cannot be
// reclaimed) when it has not returned within kTimeout.
void StopsInTime(const std::function<void()>& stop) {
  std::packaged_task<void()> task(stop);
  std::future<void> done = task.get_future();
  std::thread thread(std::move(task));
  if (done.wait_for(kTimeout) != std::future_status::ready) {
    ADD_FAILURE() << "Stop did not return";
    std::fflush(stdout);
    std::_Exit(1);
  }
  thread.join();
}

TEST(Scheduler, StopSupersedesWaitingJobsAndFinishesTheRoundInProgress) {
  Recorder r;
  Gate gate;
  auto s = std::make_unique<Scheduler>(1);
  s->SetFixedDebounce(kNever);
  s->Open("busy", 1, "b", Fake(r, "busy", {1, &gate, false, nullptr}));
  ASSERT_TRUE(r.WaitFor("enter busy 1"));  // The only worker is held.
  ASSERT_TRUE(s->Query("busy", Job(r, "queued")));
  s->Open("a", 1, "x", Fake(r, "a"));
  // The worker is released when this job is superseded, which only Stop does here: had the
  // worker then gone on to `a` instead of stopping, it would have analysed it.
  ASSERT_TRUE(s->Query("a", {[&r](const analysis::Document&, DocumentAnalysis&) { r.Add("run"); },
                             [&r, &gate] {
                               r.Add("superseded waiting");
                               gate.Open();
                             }}));
  StopsInTime([&] { s->Stop(); });
  EXPECT_TRUE(r.Has("superseded queued"));
  EXPECT_TRUE(r.Has("superseded waiting"));
  EXPECT_TRUE(r.Has("publish busy 1"));  // The round in progress finished.
  EXPECT_TRUE(r.Starting("run").empty());
  EXPECT_TRUE(r.Starting("enter a").empty());
  EXPECT_TRUE(r.Has("destroyed a"));
  EXPECT_TRUE(r.Has("destroyed busy"));
  StopsInTime([&] { s.reset(); });  // Stop again, in the destructor.
}

TEST(Scheduler, AnIdleSchedulerShutsDown) {
  for (unsigned workers : {1u, 4u}) {
    auto s = std::make_unique<Scheduler>(workers);
    StopsInTime([&] { s.reset(); });
  }
  Recorder r;
  auto s = std::make_unique<Scheduler>(2);
  s->SetFixedDebounce(kNever);
  s->Open("a", 1, "x", Fake(r, "a"));
  ASSERT_TRUE(r.WaitFor("publish a 1"));
  s->Change("a", 2, Insert(0, "y"), analysis::Encoding::kUtf16);  // debounced: pending at Stop
  StopsInTime([&] { s.reset(); });
  EXPECT_TRUE(r.Starting("analyse a 2").empty());
  EXPECT_TRUE(r.Has("destroyed a"));
}

}  // namespace
}  // namespace tvmls::testing
