// The tvmls command line.
#include "cli.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <sstream>

#include "check_command.h"
#include "ops_command.h"
#include "serve_command.h"
#include "syntax/document.h"
#include "syntax/syntax_errors.h"

namespace tvmls::server {

namespace {

constexpr const char* kUsage =
    "usage: tvmls <command> [options] [FILE...]\n"
    "\n"
    "commands:\n"
    "  check [--format text|json] [--hints] [--config FILE] [--select CODE,...]\n"
    "        [--ignore CODE,...] [-j N] [--fix | --diff] FILE|DIR...\n"
    "                           check TVMScript files: syntax, shapes, purity, memory, buffers\n"
    "                           (text: one diagnostic per block; json: one LSP-style array);\n"
    "                           folders are walked (*.py, *.tvmscript, *.relax, *.tir, minus\n"
    "                           .gitignore and the configuration's excludes); settings come from\n"
    "                           the nearest tvmls.toml or pyproject.toml [tool.tvmls]; -j N\n"
    "                           files at once (default: one per core); --fix prints the file\n"
    "                           with the preferred fixes applied, --diff the changes as a\n"
    "                           unified diff (nothing is written)\n"
    "  infer [--format text|json] FILE|DIR...\n"
    "                           the struct info tvmls infers for every Relax parameter,\n"
    "                           binding and returned value, as hover shows it\n"
    "  ops [--format text|json] the Relax operators tvmls knows: spellings, purity, whether\n"
    "                           their result is inferred, parameters and defaults\n"
    "  parse [--sexp] FILE...   parse TVMScript/Python files; report syntax errors\n"
    "                           (--sexp prints each syntax tree as an S-expression)\n"
    "  serve [--stdio] [--listen HOST:PORT [--allow-remote]]\n"
    "        [--log-level error|warn|info|debug]\n"
    "                           run the language server (LSP) on stdio (the default) or TCP\n"
    "                           (loopback only unless --allow-remote); logs go to stderr\n"
    "  help                     show this help\n"
    "\n"
    "options:\n"
    "  --version                print the version and exit\n"
    "  -h, --help               show this help\n"
    "\n"
    "exit status: 0 no errors, 1 errors found, 2 usage or I/O problem\n"
    "             (serve: 0 after an LSP shutdown, 1 when the session ended without one)\n";

int Usage(std::ostream& err, const std::string& problem) {
  err << "tvmls: " << problem << "\n" << kUsage;
  return kExitUsage;
}

struct ParseOptions {
  bool sexp = false;
  std::vector<std::string> files;
};

int RunParse(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ParseOptions options;
  bool only_files = false;
  for (const std::string& arg : args) {
    if (!only_files && arg == "--") {
      only_files = true;
    } else if (!only_files && arg == "--sexp") {
      options.sexp = true;
    } else if (!only_files && arg.size() > 1 && arg[0] == '-') {
      return Usage(err, "parse: unknown option '" + arg + "'");
    } else {
      options.files.push_back(arg);
    }
  }
  if (options.files.empty()) return Usage(err, "parse: no input files");

  int status = kExitOk;
  for (const std::string& path : options.files) {
    std::string text, error;
    if (!ReadSourceFile(path, &text, &error)) {
      err << path << ": error: " << error << "\n";
      status = kExitUsage;
      continue;
    }
    analysis::Document doc(std::move(text));
    if (options.sexp) out << analysis::ToSexp(doc.Root()) << "\n";
    for (const analysis::SyntaxError& e : analysis::CollectSyntaxErrors(doc.Root(), doc.Text())) {
      // Lines and columns are 1-based; columns count characters (code points).
      analysis::Position p = doc.PositionOf(e.range.begin, analysis::Encoding::kUtf32);
      out << path << ":" << p.line + 1 << ":" << p.column + 1 << ": syntax error: " << e.message
          << "\n";
      if (status == kExitOk) status = kExitErrors;
    }
  }
  return status;
}

}  // namespace

bool ReadSourceFile(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = std::strerror(errno);
    return false;
  }
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) {
    *error = "cannot determine the file size (not a regular file?)";
    return false;
  }
  if (static_cast<uint64_t>(size) > kMaxFileBytes) {
    *error = "file is " + std::to_string(size / (1024 * 1024)) + " MiB; tvmls reads files up to " +
             std::to_string(kMaxFileBytes / (1024 * 1024)) + " MiB";
    return false;
  }
  in.seekg(0, std::ios::beg);
  text->resize(static_cast<size_t>(size));
  if (size > 0 && !in.read(text->data(), size)) {
    *error = "read failed";
    return false;
  }
  return true;
}

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const CliEnvironment& environment) {
  try {
    if (args.empty()) return Usage(err, "no command given");
    const std::string& command = args[0];
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "--version" || command == "version") {
      out << "tvmls " << TVMLS_VERSION << "\n";
      return kExitOk;
    }
    if (command == "-h" || command == "--help" || command == "help") {
      out << kUsage;
      return kExitOk;
    }
    if (command == "parse") return RunParse(rest, out, err);
    if (command == "ops") return RunOps(rest, out, err);
    if (command == "infer") return RunInfer(rest, out, err);
    if (command == "check") {
      CheckOptions options;
      std::string problem;
      if (!ParseCheckArgs(rest, &options, &problem)) return Usage(err, "check: " + problem);
      options.progress = environment.stderr_is_terminal;
      return RunCheck(options, out, err);
    }
    if (command == "serve") {
      ServeOptions options;
      std::string problem;
      if (!ParseServeArgs(rest, &options, &problem)) return Usage(err, "serve: " + problem);
      return RunServe(options, err);
    }
    if (!command.empty() && command[0] == '-') return Usage(err, "unknown option '" + command + "'");
    return Usage(err, "unknown command '" + command + "'");
  } catch (const std::exception& e) {
    err << "tvmls: internal error: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace tvmls::server
