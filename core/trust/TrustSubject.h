#pragma once

#include "common/Error.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kl::core {

class ReviewFile;

/// What the trust prompt shows before anything runs: the code that would run and how it would be called.
struct RunPreview {
    std::string title;
    std::filesystem::path kernelFile;   ///< absolute on disk; for a review, as the review stores it
    std::string kernelName;             ///< empty: the file's only kernel
    std::vector<std::string> arguments; ///< "a: 4096x1024 float32"
    std::vector<std::string> scalars;   ///< "eps = 1e-5"
    std::filesystem::path codeRoot;     ///< the folder whose modules the kernel can import
    std::size_t hashedFiles = 0;        ///< how many files the content hash covers
    std::string author;                 ///< a review's first reviewer, empty when it names none
    std::vector<std::string> tasks;     ///< a review: one line per task
};

/// Something that would run kernel code, as the trust decision sees it (DESIGN.md, "Trust and isolation").
///
/// The content hash covers what the kernel can execute: for a task folder task.json, the kernel file and every
/// importable file (.py, .pyc, .so, .pth) under its code root, which is the folder that holds the kernel's top
/// package (the kernel's own folder for a plain script); for a kernel file the same without task.json; for a
/// review every file every task stores. Any change to them asks again.
struct TrustSubject {
    enum class Kind { TaskFolder, KernelFile, Review };
    Kind kind = Kind::TaskFolder;
    std::filesystem::path location; ///< absolute: the task folder, kernel file or review file as opened
    std::string contentHash;        ///< "sha256:<64 hex>", empty when it could not be computed
    std::string hashProblem;        ///< why contentHash is empty (too many files, unreadable), for people
    std::vector<std::string> authors;
    RunPreview preview;
};

/// The limits on what a content hash reads; beyond them only folder trust is offered.
struct HashLimits {
    std::size_t maxFiles = 20'000;
    std::uintmax_t maxBytes = 256ull << 20;
};

/// Reads `folder/task.json` and hashes what the task would run. Errors: the task cannot be read at all.
[[nodiscard]] Expected<TrustSubject> describeTaskFolder(const std::filesystem::path& folder, HashLimits limits = {});
/// A kernel file opened on its own (arguments given by the user).
[[nodiscard]] Expected<TrustSubject> describeKernelFile(const std::filesystem::path& file, HashLimits limits = {});
/// A review: every task's stored files; its author is the first reviewer it names.
[[nodiscard]] Expected<TrustSubject> describeReview(ReviewFile& review);

/// The folder a kernel's imports resolve from, as the front end decides it (sim/frontend/kltrace/imports.py):
/// the parent of its top package (an explicit `packageRoot`, else the highest folder with `__init__.py` above
/// the kernel), else the kernel's own folder.
[[nodiscard]] std::filesystem::path codeRootOf(const std::filesystem::path& kernelFile,
                                               const std::filesystem::path& packageRoot = {});

} // namespace kl::core
