#include "cli/TraceArguments.h"

#include "ir/IrBinary.h"
#include "support/Try.h"

#include <filesystem>
#include <fstream>

namespace kl::app {
namespace fs = std::filesystem;

namespace {

/// A Kernel IR given where a kernel is expected (binary by its magic, JSON by its name): the front end would
/// try to run it as Python and fail with a syntax error that says nothing about --ir.
bool looksLikeKernelIr(const fs::path& file) {
    if (file.extension() == ".klir" || file.extension() == ".json") {
        return true;
    }
    std::ifstream in(file, std::ios::binary);
    return in && sim::BinaryIrReader::startsWithMagic(in);
}

} // namespace

Expected<TraceArguments> parseTraceArguments(const std::vector<std::string>& args, bool requireOutput) {
    TraceArguments parsed;
    auto& request = parsed.request;
    std::string input;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& flag = args[i];
        auto value = [&]() -> Expected<std::string> {
            if (i + 1 >= args.size()) {
                return makeError(ErrorCode::InvalidArgument, flag + " needs a value");
            }
            return args[++i];
        };
        if (flag == "-h" || flag == "--help") {
            return makeError(ErrorCode::Cancelled, "help");
        }
        if (flag == "--no-sandbox") {
            request.allowUnsandboxed = true;
            continue;
        }
        const bool takesValue = flag == "--kernel" || flag == "--arg" || flag == "--scalar" || flag == "--grid" ||
                                flag == "--lnc" || flag == "--package-root" || flag == "--timeout" || flag == "-o" ||
                                flag == "--output";
        if (!takesValue) {
            if (!flag.starts_with("-") && input.empty()) {
                input = flag;
            } else {
                parsed.rest.push_back(flag);
            }
            continue;
        }
        auto v = value();
        KL_TRY(v);
        if (flag == "--kernel") {
            request.kernelName = *v;
        } else if (flag == "--arg") {
            request.argSpecs.push_back(*v);
        } else if (flag == "--scalar") {
            request.scalars.push_back(*v);
        } else if (flag == "--grid") {
            request.grid = *v;
        } else if (flag == "--lnc") {
            if (*v != "1" && *v != "2") {
                return makeError(ErrorCode::InvalidArgument,
                                 "--lnc takes 1 or 2 (physical NeuronCores per logical core), not '" + *v + "'");
            }
            request.lnc = *v;
        } else if (flag == "--package-root") {
            request.packageRoot = *v;
        } else if (flag == "--timeout") {
            try {
                request.timeoutSeconds = std::stoi(*v);
            } catch (...) {
                return makeError(ErrorCode::InvalidArgument, "--timeout needs a whole number of seconds");
            }
        } else {
            request.output = *v;
        }
    }
    if (requireOutput && request.output.empty()) {
        return makeError(ErrorCode::InvalidArgument, "trace needs -o OUT.json");
    }
    if (input.empty()) {
        return parsed; // the caller decides whether an input is required (simulate --ir needs none)
    }
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
        request.taskDir = input;
    } else if (fs::is_regular_file(input, ec)) {
        if (fs::path(input).filename() == "task.json") {
            return makeError(ErrorCode::InvalidArgument, "give the task's folder, not its task.json",
                             fs::path(input).parent_path().string());
        }
        if (looksLikeKernelIr(input)) {
            return makeError(ErrorCode::InvalidArgument,
                             "this looks like a Kernel IR file, not a kernel: give it with --ir (simulate, findings, "
                             "export-trace), or give the kernel's .py file or its task folder",
                             input);
        }
        request.kernelFile = input;
    } else {
        return makeError(ErrorCode::NotFound, "no such task folder or kernel file", input);
    }
    return parsed;
}

} // namespace kl::app
