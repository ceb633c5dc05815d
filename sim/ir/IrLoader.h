#pragma once

#include "common/Error.h"
#include "ir/KernelIr.h"

#include <filesystem>
#include <string_view>

namespace kl::sim {

/// The Kernel IR version this simulator reads (docs/kernel-ir.md).
inline constexpr int kSupportedIrVersion = 1;

/// Reads Kernel IR JSON into a KernelIr (loadFile also reads the binary form, recognised by its magic: see
/// BinaryIrReader). Instructions are converted one by one while the document is
/// parsed and their JSON is dropped at once, so memory follows the compact IR, not the JSON tree; a
/// million-instruction IR loads in a few seconds. Unknown keys are ignored (the front end may add fields
/// within a version); unknown ops load as Op::Unknown with a diagnostic. Errors name the file and, for a
/// bad instruction, its index and id.
class IrLoader {
public:
    [[nodiscard]] static Expected<KernelIr> loadFile(const std::filesystem::path& path);
    /// `origin` is used in error messages (a file name, or "<string>").
    [[nodiscard]] static Expected<KernelIr> loadString(std::string_view json, std::string_view origin = "<string>");
};

} // namespace kl::sim
