// The TVMScript language server: one LanguageServer per LSP session, registered on the session's
// protocol::Endpoint by the SessionFactory (MakeSessionFactory).
//
// METHODS. One table (lsp_server.cc, LanguageServer::Impl::Methods) lists every method the server
// handles with its handler and the ServerCapabilities fragment it contributes; the initialize
// result is assembled from it and the handlers are registered from it (see MethodTable).
//
// THREADS. Handlers run on the Endpoint's message-loop thread and never parse or analyse: they
// validate params, record edits and queue work on the Scheduler (scheduler.h), whose worker
// threads (one per core, at most 4) apply the edits, analyse, publish diagnostics and answer
// queries, one document per worker at a time. The destructor (on the loop thread, after the
// session ended) stops and joins the workers.
//
// DOCUMENTS. didOpen (language `tvmscript` or `python`; other languages are not tracked),
// didChange (incremental ranges in the negotiated position encoding, or full text), didClose
// (publishes an empty list), didSave (nothing to do). A didChange whose version is not newer than
// the last one is ignored (logged). A change the Document refuses (a range outside the text or
// inside a character) drops the document (logged, its diagnostics cleared) until it is reopened.
//
// SCHEDULING. An edited document is analysed after a debounce: fixed (`debounceMs` in
// initializationOptions) or adaptive, 50 ms to 500 ms scaled by the document's recent
// incremental analysis times (not the first, from-scratch one). Edits arriving meanwhile are
// batched into the same analysis. publishDiagnostics carries the analysed version and is sent
// only while that version is still the current one. A request
// (hover, ...) makes the worker analyse the current version at once and answers from there; a
// request overtaken by a newer edit gets ContentModified (-32801).
//
// Files without TVMScript (Analyzer::HasTvmScript false) get an empty diagnostics list and
// empty answers.
#ifndef TVMLS_SERVER_LSP_SERVER_H_
#define TVMLS_SERVER_LSP_SERVER_H_

#include <memory>
#include <string>
#include <vector>

#include "endpoint.h"

namespace tvmls::server {

class LanguageServer {
 public:
  /// Registers the handlers on `endpoint` and starts the worker. Call in the SessionFactory.
  explicit LanguageServer(protocol::Endpoint& endpoint);
  /// Stops and joins the worker. Queued work is dropped (the session has ended).
  ~LanguageServer();
  LanguageServer(const LanguageServer&) = delete;
  LanguageServer& operator=(const LanguageServer&) = delete;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// One method of the server's method table, as advertised by `initialize`.
struct AdvertisedMethod {
  std::string method;
  bool request = false;     // else a notification
  protocol::json capability;  // its fragment of ServerCapabilities (null: none)
};

/// The method table, each capability evaluated as for an `initialize` request with
/// `initialize_params`. The initialize result's capabilities are `positionEncoding` and these
/// fragments merged (JSON merge patch, in table order); every method is registered with its
/// handler.
std::vector<AdvertisedMethod> MethodTable(const protocol::json& initialize_params);

/// A factory making one LanguageServer per session (for RunStdio, TcpServer, LoopbackClient).
protocol::SessionFactory MakeSessionFactory();

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_LSP_SERVER_H_
