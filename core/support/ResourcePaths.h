#pragma once

#include <filesystem>

namespace kl::core {

/// Finds KernelLens's bundled files (hardware profiles, rubrics, lessons, examples, the Python front end).
/// Order: $KL_DATA_DIR, then the source tree the binary was built from, then `../share/kernellens` next to
/// the running executable (an installed layout). Returns an empty path when none holds `resources/`.
[[nodiscard]] std::filesystem::path dataRoot();

[[nodiscard]] std::filesystem::path resourcesDir();
[[nodiscard]] std::filesystem::path examplesDir();
[[nodiscard]] std::filesystem::path frontendEntryScript();

/// The Python interpreter for the front end: $KL_PYTHON, else Debian's /usr/bin/python3, else `python3`.
[[nodiscard]] std::filesystem::path pythonInterpreter();

} // namespace kl::core
