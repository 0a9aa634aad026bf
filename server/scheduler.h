// The language server's document scheduler: the open documents and their versions, the debounce
// of edits, the cancellation of stale work, and the pool of worker threads that applies edits,
// analyses and runs the requests waiting on a document. It knows nothing of JSON or LSP:
// documents are keys (the server uses their URIs), the analysis is the owner's
// (DocumentAnalysis), and requests are callbacks (Scheduler::Job). It depends on analysis/ (the
// Document and its positions) and std only.
//
// CONTRACT
//
// Threads. Open, Change, Close, InvalidateAll, Query, Keys, IsOpen, SetFixedDebounce and
//   DebounceMs may be called from any thread (the server calls them from its message loop); they
//   take a short internal lock and never wait for analysis. The work runs on `workers` threads
//   started by the constructor. A worker claims one document at a time, and a document is claimed
//   by one worker at a time: a document's text and its DocumentAnalysis are never used
//   concurrently, its rounds (below) run one after another, and so its publications come in
//   version order.
//   Different documents are worked on in parallel.
//
// Versions. Open sets a document's version and text (replacing a document open under the same
//   key). Change is accepted only for an open document and a version newer than its last one;
//   otherwise nothing changes (ChangeStatus says why).
//
// Rounds. A worker takes up a document at once when jobs wait on it (before documents that are
//   merely due), else when it is dirty (opened, changed or invalidated) and due. A round takes
//   everything pending. In a document's first round whose last change gives the whole text,
//   DocumentAnalysis::Preview looks at that text first, and PublishPreview publishes what it
//   found when the version is still current (no change or invalidation came meanwhile). Then it
//   applies every change accepted since the last round, in order, to the
//   document's text (changes made during the debounce are coalesced into one round), then calls
//   DocumentAnalysis::Analyse with the text and the newest version, outside the lock. Then, under
//   the lock: when the document is still open, no change or invalidation came meanwhile and
//   Analyse reports `analysed`, Publish(version) is called. The jobs waiting on that version then
//   run, outside the lock, on the analysed text. Jobs asked on an older version are superseded;
//   when a change or invalidation came during the round, the jobs asked on the current version
//   wait for the next round, which starts at once.
//
// Debounce. An opened or invalidated document is due at once; a changed one after the debounce:
//   the fixed one (SetFixedDebounce) when set, else adaptive: kDebounceFactor times the moving
//   average of the document's incremental analysis times (Analyse outcomes `analysed` and not
//   `from_scratch`), clamped to [kMinDebounceMs, kMaxDebounceMs]. Every change moves the due
//   time; a job makes its document due at once.
//
// Cancellation. Every job taken by Query is either run or superseded, exactly once. It is
//   superseded (`superseded` called, `run` never) when a newer version of its document is accepted
//   before it ran, when its document is closed, replaced by Open or dropped, or at Stop. The work
//   of a closed or replaced document is abandoned: its pending changes are never applied, and a
//   round already running finishes but neither publishes nor runs jobs. Once Close or a
//   replacing Open returned, no Publish of that document is running or will run.
//
// Drops. A change that does not fit the text (a range outside it or inside a character, a range
//   change before any text) or an exception thrown by Analyse drops the document: its jobs are
//   superseded and, when it is still the open document under its key, it is removed as by Close
//   (later Changes get kNotOpen until it is opened again). `on_drop` is told in both cases.
//
// Shutdown. Stop (also run by the destructor) supersedes the jobs no round has taken, lets each
//   worker finish the round it is in (Analyse, Publish and the jobs that round took run to
//   completion), and joins the workers. Pending changes are dropped. Only the destructor may
//   follow Stop.
//
// Callbacks. Publish and on_drop run under the scheduler's lock, so that they are ordered with
//   Close and Open: they must not call the Scheduler. Job callbacks and Analyse run outside it
//   and may. Job callbacks must not throw (an exception escaping one is swallowed).
#ifndef TVMLS_SERVER_SCHEDULER_H_
#define TVMLS_SERVER_SCHEDULER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "syntax/document.h"
#include "text/line_index.h"

namespace tvmls::server {

/// The shortest and longest adaptive debounce. Below 50 ms a fast typist's every keystroke would
/// start an analysis; above 500 ms diagnostics lag visibly behind typing even in huge files.
inline constexpr double kMinDebounceMs = 50;
inline constexpr double kMaxDebounceMs = 500;
/// The adaptive debounce is a little longer than an incremental analysis takes, so that edits
/// arriving faster than the document can be analysed are coalesced rather than queued.
inline constexpr double kDebounceFactor = 1.2;
/// Workers are one per core up to this many: a worker serves one document at a time, few
/// documents are edited at once, and each analysis of a large file holds tens of MB of
/// temporaries, so more threads would add memory rather than responsiveness.
inline constexpr unsigned kMaxWorkers = 4;

/// One change of a document's text: the whole text (`full`), or the range [start, end) replaced
/// by `text`, its positions in the encoding given to Scheduler::Change.
struct TextChange {
  bool full = true;
  analysis::Position start;
  analysis::Position end;
  std::string text;
};

/// The owner's analysis of one open document, given to Scheduler::Open. Used by one worker at a
/// time, never concurrently; destroyed outside the scheduler's lock once the document is closed,
/// replaced or dropped and no round uses it any more.
class DocumentAnalysis {
 public:
  virtual ~DocumentAnalysis() = default;

  struct Outcome {
    bool analysed = false;      // an analysis ran (so there is something to publish)
    bool from_scratch = false;  // a first analysis: its time says nothing about the next edit's
    double ms = 0;              // how long it took (the adaptive debounce)
  };
  /// Worker, outside the lock: brings the analysis up to `text`, the document at `version`.
  /// `edited`: the text changed or InvalidateAll was called since the last round; when false,
  /// only jobs are waiting and the analysis may stand (the owner may still redo it). Throwing
  /// drops the document.
  virtual Outcome Analyse(const analysis::Document& text, int64_t version, bool edited) = 0;
  /// Worker, under the lock: publishes what Analyse found; `version` is still the current one.
  virtual void Publish(int64_t version) = 0;

  /// Worker, outside the lock, in a document's first round, before its text is parsed: a quick
  /// first look at `text`, the document at `version`, to be published before the round's own
  /// analysis (which may take seconds on a large file); false when there is nothing to publish.
  virtual bool Preview(const std::string& text, int64_t version) {
    (void)text;
    (void)version;
    return false;
  }
  /// Worker, under the lock: publishes what Preview found; `version` is still the current one,
  /// and the round's Analyse and Publish follow.
  virtual void PublishPreview(int64_t version) { (void)version; }
};

class Scheduler {
 public:
  /// Worker, under the lock: the document `key` was dropped for `reason`. `removed`: it was
  /// still the open document and has been removed (false: it had been closed or replaced).
  using DropHook =
      std::function<void(const std::string& key, const std::string& reason, bool removed)>;

  /// A request that needs the analysed current version of a document.
  struct Job {
    /// Worker, outside the lock: the document's text and its DocumentAnalysis (the one given to
    /// Open for this document, to be cast back by the owner), analysed at the version the job was
    /// asked on.
    std::function<void(const analysis::Document& text, DocumentAnalysis& analysis)> run;
    /// The caller of Close, Open or Stop, or a worker: the job will not run.
    std::function<void()> superseded;
  };

  enum class ChangeStatus { kAccepted, kNotOpen, kNotNewer };
  struct ChangeResult {
    ChangeStatus status;
    int64_t version;  // the document's version after the call (0 when it is not open)
  };

  /// Starts `workers` threads (at least one).
  explicit Scheduler(unsigned workers = DefaultWorkers(), DropHook on_drop = nullptr);
  /// Stop().
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  /// One per core, at most kMaxWorkers.
  static unsigned DefaultWorkers();
  /// kDebounceFactor * recent_ms, clamped to [kMinDebounceMs, kMaxDebounceMs].
  static double AdaptiveDebounceMs(double recent_ms);

  /// The debounce of every change from now on (nullopt: adaptive, the default).
  void SetFixedDebounce(std::optional<double> ms);
  /// The debounce a change of `key` would get now; nullopt when it is not open.
  std::optional<double> DebounceMs(const std::string& key) const;

  /// Opens `key` at `version` with `text`, due at once. Returns true when it replaced a document
  /// open under the same key (whose jobs are superseded and whose work is abandoned).
  bool Open(const std::string& key, int64_t version, std::string text,
            std::unique_ptr<DocumentAnalysis> analysis);
  /// Queues `changes` (positions in `encoding`) as `version` of `key`, due after the debounce.
  /// Jobs asked on older versions are superseded when the next round ends.
  ChangeResult Change(const std::string& key, int64_t version, std::vector<TextChange> changes,
                      analysis::Encoding encoding);
  /// Closes `key`: its pending changes are dropped and its jobs superseded. False when it was
  /// not open.
  bool Close(const std::string& key);
  /// Every open document is dirty and due at once (the owner's settings changed).
  void InvalidateAll();
  /// Queues `job` on the current version of `key`, which is then analysed at once. False when
  /// `key` is not open: the job is dropped, neither of its callbacks called.
  bool Query(const std::string& key, Job job);

  /// The keys of the open documents, in key order.
  std::vector<std::string> Keys() const;
  /// Whether `key` is open.
  bool IsOpen(const std::string& key) const;

  /// Supersedes the waiting jobs, lets the rounds in progress finish and joins the workers.
  /// Idempotent.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_SCHEDULER_H_
