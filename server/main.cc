// tvmls: entry point. Everything lives in cli.cc so that tests can drive it in-process.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  tvmls::server::CliEnvironment environment;
  environment.stderr_is_terminal = isatty(STDERR_FILENO) != 0;
  return tvmls::server::RunCli(args, std::cout, std::cerr, environment);
}
