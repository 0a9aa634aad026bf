// The document scheduler: the document store under one lock, and the workers' rounds.
#include "scheduler.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace tvmls::server {

using Clock = std::chrono::steady_clock;

namespace {

/// The weight of the newest incremental analysis time in a document's moving average: the
/// debounce follows a change in the document's cost within a few edits, and one slow edit moves
/// it only halfway.
constexpr double kRecentWeight = 0.5;

// The changes accepted as one version.
struct Batch {
  int64_t version = 0;
  std::vector<TextChange> changes;
  analysis::Encoding encoding = analysis::Encoding::kUtf16;
};

// A job waiting for the analysis of `version`.
struct Waiter {
  int64_t version = 0;
  Scheduler::Job job;
};

void Supersede(std::vector<Waiter>& waiters) {
  for (Waiter& w : waiters) {
    if (!w.job.superseded) continue;
    try {
      w.job.superseded();
    } catch (...) {  // The contract forbids it; a worker must not die of it.
    }
  }
  waiters.clear();
}

void Run(std::vector<Waiter>& waiters, const analysis::Document& text, DocumentAnalysis& analysis) {
  for (Waiter& w : waiters) {
    if (!w.job.run) continue;
    try {
      w.job.run(text, analysis);
    } catch (...) {
    }
  }
  waiters.clear();
}

struct DocState {
  // Guarded by Impl::mu.
  std::string key;
  int64_t version = 0;         // the latest version accepted
  std::vector<Batch> pending;  // accepted, not yet applied by a worker
  bool dirty = true;           // needs a round: pending changes, or invalidated
  bool closed = false;         // closed, replaced or dropped: never publish or run jobs again
  Clock::time_point due;       // when a dirty document is taken up
  std::vector<Waiter> waiters;
  double recent_ms = 0;  // moving average of its incremental analysis times (0: none yet)
  bool busy = false;     // a worker has it: no other worker touches text/analysis meanwhile

  // The worker's alone (the one with `busy`).
  std::unique_ptr<analysis::Document> text;
  std::unique_ptr<DocumentAnalysis> analysis;
};

// What a round took from its document under the lock.
struct Round {
  std::vector<Batch> batches;
  bool edited = false;
  int64_t version = 0;
};

// Applies the round's batches to `d.text`; the reason for refusing them, or "".
std::string ApplyBatches(DocState& d, std::vector<Batch>& batches) {
  for (Batch& batch : batches) {
    std::vector<analysis::PositionEdit> run;
    auto flush = [&]() -> std::string {
      if (run.empty()) return "";
      analysis::EditResult result = d.text->ApplyEdits(run, batch.encoding);
      run.clear();
      if (result.ok) return "";
      return "the change to version " + std::to_string(batch.version) +
             " does not fit the document: " + result.error;
    };
    for (TextChange& change : batch.changes) {
      if (change.full) {
        if (std::string error = flush(); !error.empty()) return error;
        if (d.text) {
          d.text->ReplaceAll(std::move(change.text));
        } else {
          d.text = std::make_unique<analysis::Document>(std::move(change.text));
          d.text->SetTreeComparison(false);  // changed ranges are never asked for here
        }
      } else if (!d.text) {
        return "a range change before any text";
      } else {
        run.push_back({change.start, change.end, std::move(change.text)});
      }
    }
    if (std::string error = flush(); !error.empty()) return error;
  }
  return d.text ? "" : "no text";
}

// The text a round's changes end in when the last one gives the whole text, else null.
const std::string* WholeText(const std::vector<Batch>& batches) {
  if (batches.empty() || batches.back().changes.empty()) return nullptr;
  const TextChange& last = batches.back().changes.back();
  return last.full ? &last.text : nullptr;
}

}  // namespace

struct Scheduler::Impl {
  explicit Impl(DropHook hook) : on_drop(std::move(hook)) {}

  DropHook on_drop;
  mutable std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  std::optional<double> fixed_debounce_ms;
  std::map<std::string, std::shared_ptr<DocState>> docs;
  std::vector<std::thread> workers;

  double DebounceMs(const DocState& d) const {  // under mu
    return fixed_debounce_ms ? *fixed_debounce_ms : AdaptiveDebounceMs(d.recent_ms);
  }
  void WorkerMain();
  // Under mu (held by `lock`): the document to work on next, or null after waiting.
  std::shared_ptr<DocState> Next(std::unique_lock<std::mutex>& lock);
  // Entered and left with `lock` held: one round of `d`.
  void RunRound(std::unique_lock<std::mutex>& lock, std::shared_ptr<DocState> d);
  // The end of a round that analysed `version`: publish, then run or supersede the jobs.
  void Finish(std::unique_lock<std::mutex>& lock, DocState& d, int64_t version,
              const DocumentAnalysis::Outcome& outcome);
  void Drop(std::unique_lock<std::mutex>& lock, DocState& d, const std::string& reason);
};

std::shared_ptr<DocState> Scheduler::Impl::Next(std::unique_lock<std::mutex>& lock) {
  // The document with waiting jobs, else the dirty one due first.
  std::shared_ptr<DocState> next;
  Clock::time_point earliest = Clock::time_point::max();
  for (auto& entry : docs) {
    DocState& d = *entry.second;
    Clock::time_point when;
    if (d.busy) {
      continue;
    } else if (!d.waiters.empty()) {
      when = Clock::time_point::min();
    } else if (d.dirty) {
      when = d.due;
    } else {
      continue;
    }
    if (!next || when < earliest) {
      earliest = when;
      next = entry.second;
    }
  }
  if (!next) {
    cv.wait(lock);
    return nullptr;
  }
  if (earliest > Clock::now()) {
    cv.wait_until(lock, earliest);
    return nullptr;
  }
  return next;
}

void Scheduler::Impl::WorkerMain() {
  std::unique_lock<std::mutex> lock(mu);
  while (!stop) {
    if (std::shared_ptr<DocState> next = Next(lock)) RunRound(lock, std::move(next));
  }
}

void Scheduler::Impl::Drop(std::unique_lock<std::mutex>& lock, DocState& d,
                           const std::string& reason) {
  std::shared_ptr<DocState> removed;
  auto it = docs.find(d.key);
  if (it != docs.end() && it->second.get() == &d) {
    removed = std::move(it->second);
    docs.erase(it);
  }
  if (on_drop) on_drop(d.key, reason, removed != nullptr);
  d.closed = true;
  d.pending.clear();
  std::vector<Waiter> orphans = std::move(d.waiters);
  d.waiters.clear();
  lock.unlock();
  Supersede(orphans);
  lock.lock();
}

void Scheduler::Impl::RunRound(std::unique_lock<std::mutex>& lock, std::shared_ptr<DocState> d) {
  Round round;
  round.batches = std::move(d->pending);
  d->pending.clear();
  round.edited = d->dirty;
  d->dirty = false;
  round.version = d->version;
  d->busy = true;
  lock.unlock();

  if (const std::string* whole = d->text ? nullptr : WholeText(round.batches)) {
    // A preview is a bonus: one that fails is skipped, and the round goes on.
    bool found = false;
    try {
      found = d->analysis->Preview(*whole, round.version);
    } catch (...) {
    }
    if (found) {
      lock.lock();
      try {
        if (!d->closed && !d->dirty && d->version == round.version) d->analysis->PublishPreview(round.version);
      } catch (...) {
      }
      lock.unlock();
    }
  }

  std::string error;
  DocumentAnalysis::Outcome outcome;
  try {
    error = ApplyBatches(*d, round.batches);
    if (error.empty()) outcome = d->analysis->Analyse(*d->text, round.version, round.edited);
  } catch (const std::exception& e) {
    // The document's state may be half-updated: drop it rather than serve garbage.
    error = std::string("internal error: ") + e.what();
  } catch (...) {
    error = "internal error";
  }
  lock.lock();

  if (error.empty()) {
    Finish(lock, *d, round.version, outcome);
  } else {
    Drop(lock, *d, error);
  }
  d->busy = false;
  cv.notify_all();  // Work for this document may have come while it was busy.
  lock.unlock();
  d.reset();  // The last reference may be this one: destroy it unlocked.
  lock.lock();
}

void Scheduler::Impl::Finish(std::unique_lock<std::mutex>& lock, DocState& d, int64_t version,
                             const DocumentAnalysis::Outcome& outcome) {
  if (outcome.analysed && !outcome.from_scratch) {
    d.recent_ms = d.recent_ms == 0 ? outcome.ms
                                   : kRecentWeight * outcome.ms + (1 - kRecentWeight) * d.recent_ms;
  }
  // Jobs asked before a newer change are stale whatever happens next.
  std::vector<Waiter> ready;
  std::vector<Waiter> stale;
  for (Waiter& w : d.waiters) (w.version < d.version ? stale : ready).push_back(std::move(w));
  d.waiters.clear();
  bool current = !d.closed && !d.dirty && d.version == version;
  if (current && outcome.analysed) {
    d.analysis->Publish(version);
  } else if (!current && !d.closed) {
    // Newer work came meanwhile: the jobs wait for the next round (and are superseded then when
    // a newer version is what came).
    for (Waiter& w : ready) d.waiters.push_back(std::move(w));
    ready.clear();
  }
  lock.unlock();
  Supersede(stale);
  if (current) {
    Run(ready, *d.text, *d.analysis);
  } else {
    Supersede(ready);  // Closed or replaced meanwhile.
  }
  lock.lock();
}

// ------------------------------------------------------------------------------------------------

Scheduler::Scheduler(unsigned workers, DropHook on_drop)
    : impl_(std::make_unique<Impl>(std::move(on_drop))) {
  workers = std::max(workers, 1u);
  for (unsigned i = 0; i < workers; ++i) impl_->workers.emplace_back([this] { impl_->WorkerMain(); });
}

Scheduler::~Scheduler() { Stop(); }

unsigned Scheduler::DefaultWorkers() {
  return std::clamp(std::thread::hardware_concurrency(), 1u, kMaxWorkers);
}

double Scheduler::AdaptiveDebounceMs(double recent_ms) {
  return std::clamp(recent_ms * kDebounceFactor, kMinDebounceMs, kMaxDebounceMs);
}

void Scheduler::SetFixedDebounce(std::optional<double> ms) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->fixed_debounce_ms = ms;
}

std::optional<double> Scheduler::DebounceMs(const std::string& key) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->docs.find(key);
  if (it == impl_->docs.end()) return std::nullopt;
  return impl_->DebounceMs(*it->second);
}

bool Scheduler::Open(const std::string& key, int64_t version, std::string text,
                     std::unique_ptr<DocumentAnalysis> analysis) {
  auto d = std::make_shared<DocState>();
  d->key = key;
  d->version = version;
  d->pending.push_back({version, {TextChange{true, {}, {}, std::move(text)}}, {}});
  d->due = Clock::now();
  d->analysis = std::move(analysis);
  std::shared_ptr<DocState> replaced;
  std::vector<Waiter> orphans;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    std::shared_ptr<DocState>& slot = impl_->docs[key];
    if (slot) {
      replaced = std::move(slot);
      replaced->closed = true;
      replaced->pending.clear();
      orphans = std::move(replaced->waiters);
      replaced->waiters.clear();
    }
    slot = std::move(d);
  }
  impl_->cv.notify_all();
  Supersede(orphans);
  return replaced != nullptr;  // `replaced` is destroyed here, unlocked, unless a round has it.
}

Scheduler::ChangeResult Scheduler::Change(const std::string& key, int64_t version,
                                          std::vector<TextChange> changes,
                                          analysis::Encoding encoding) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->docs.find(key);
  if (it == impl_->docs.end()) return {ChangeStatus::kNotOpen, 0};
  DocState& d = *it->second;
  if (version <= d.version) return {ChangeStatus::kNotNewer, d.version};
  d.version = version;
  d.pending.push_back({version, std::move(changes), encoding});
  d.dirty = true;
  d.due = Clock::now() +
          std::chrono::microseconds(static_cast<int64_t>(impl_->DebounceMs(d) * 1000));
  impl_->cv.notify_all();
  return {ChangeStatus::kAccepted, version};
}

bool Scheduler::Close(const std::string& key) {
  std::shared_ptr<DocState> closed;
  std::vector<Waiter> orphans;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    auto it = impl_->docs.find(key);
    if (it == impl_->docs.end()) return false;
    closed = std::move(it->second);
    impl_->docs.erase(it);
    closed->closed = true;
    closed->pending.clear();
    orphans = std::move(closed->waiters);
    closed->waiters.clear();
  }
  Supersede(orphans);
  return true;  // `closed` is destroyed here, unlocked, unless a round has it.
}

void Scheduler::InvalidateAll() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  Clock::time_point now = Clock::now();
  for (auto& entry : impl_->docs) {
    entry.second->dirty = true;
    entry.second->due = now;
  }
  impl_->cv.notify_all();
}

bool Scheduler::Query(const std::string& key, Job job) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->docs.find(key);
  if (it == impl_->docs.end()) return false;
  it->second->waiters.push_back({it->second->version, std::move(job)});
  impl_->cv.notify_all();
  return true;
}

std::vector<std::string> Scheduler::Keys() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  std::vector<std::string> keys;
  keys.reserve(impl_->docs.size());
  for (const auto& entry : impl_->docs) keys.push_back(entry.first);
  return keys;
}

bool Scheduler::IsOpen(const std::string& key) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->docs.count(key) > 0;
}

void Scheduler::Stop() {
  std::vector<Waiter> orphans;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->stop = true;
    for (auto& entry : impl_->docs) {
      for (Waiter& w : entry.second->waiters) orphans.push_back(std::move(w));
      entry.second->waiters.clear();
    }
  }
  impl_->cv.notify_all();
  Supersede(orphans);
  for (std::thread& worker : impl_->workers) {
    if (worker.joinable()) worker.join();
  }
  std::map<std::string, std::shared_ptr<DocState>> docs;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    docs.swap(impl_->docs);
  }
  for (auto& entry : docs) {
    entry.second->closed = true;
    Supersede(entry.second->waiters);
  }
}  // `docs` is destroyed here, unlocked.

}  // namespace tvmls::server
