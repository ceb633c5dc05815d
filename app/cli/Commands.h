#pragma once

#include <string>
#include <vector>

namespace kl::app {

/// The whole of kernellens-cli: argv as main() got it; returns the process exit code.
int runCommandLine(int argc, char** argv);

/// Each subcommand of kernellens-cli takes its own arguments (without the subcommand name) and returns the
/// process exit code. Errors go to stderr; results to stdout or the `-o` file.
int runTraceCommand(const std::vector<std::string>& args);
int runSimulateCommand(const std::vector<std::string>& args);
int runReviewCommand(const std::vector<std::string>& args);
int runReportCommand(const std::vector<std::string>& args);
int runExportTraceCommand(const std::vector<std::string>& args);
int runCompatCommand(const std::vector<std::string>& args);
int runFindingsCommand(const std::vector<std::string>& args);
int runBatchCommand(const std::vector<std::string>& args);
int runNumericsCommand(const std::vector<std::string>& args);

} // namespace kl::app
