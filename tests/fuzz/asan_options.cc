// ASan's defaults for the libFuzzer binaries (ASAN_OPTIONS in the environment is read after these
// and wins).
//
// quarantine_size_mb=16 (ASan's default is 256): freed memory waits in the quarantine before it is
// reused, and with 256 MB every execution allocated into pages it had never touched: page faults,
// and ASan's fill of new blocks, took about a fifth of fuzz_incremental's time. A use after free
// is still caught while the block is among the last 16 MB freed; one execution of a 1 KiB input
// frees far less than that.
// malloc_context_size=4 (default 30): the stack saved with every allocation, for reports, cost
// about a tenth (StackDepot::Put). Rerun a finding with ASAN_OPTIONS=malloc_context_size=30 for
// whole allocation stacks.
// Figures: tests/fuzz/README.md, "Throughput".
extern "C" const char* __asan_default_options() {  // NOLINT: the name ASan looks for
  return "quarantine_size_mb=16:malloc_context_size=4";
}
