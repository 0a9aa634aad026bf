// The files `tvmls check` reads, from the paths on its command line.
//
// A path naming a file is checked as given, whatever its name. A folder is walked recursively, in
// sorted order, keeping the files that match the governing configuration's `include` globs
// (default *.py, *.tvmscript, *.relax, *.tir) and skipping what its `exclude` globs, any
// .gitignore on the way (from the repository root down) and the folders .git, .hg, .svn,
// __pycache__, node_modules, .venv and .tox leave out. Symbolic links to folders are not
// followed. The governing configuration of a folder is `--config FILE` when given, else the
// nearest tvmls.toml / pyproject.toml [tool.tvmls] at or above it (project_config.h).
#ifndef TVMLS_SERVER_INPUT_FILES_H_
#define TVMLS_SERVER_INPUT_FILES_H_

#include <string>
#include <vector>

#include "project_config.h"

namespace tvmls::server {

struct InputProblem {
  std::string path;
  std::string message;
};

/// Expands `args` into the files to check, in a stable order: the arguments in the order given,
/// each folder's files sorted by path. A file reached twice is listed once. `configs` gives each
/// folder's configuration (built with `--config`'s file, or finding one per folder). A path that is not a folder is listed as given
/// (reading it reports what is wrong); `problems` gets the folders that cannot be listed.
std::vector<std::string> ExpandInputs(const std::vector<std::string>& args, ConfigStore* configs,
                                      std::vector<InputProblem>* problems);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_INPUT_FILES_H_
