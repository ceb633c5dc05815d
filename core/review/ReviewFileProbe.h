#pragma once

#include "common/Error.h"

#include <cstdint>
#include <string>

namespace kl::core {

/// What the first 100 bytes of a file say about it, read with plain file I/O before SQLite touches it:
/// opening a file with SQLite read-write can already change it (journal recovery, WAL switch), so a
/// file must prove it is a review of a version we understand before we open it for writing.
struct ReviewFileHeader {
    std::int32_t applicationId = 0;
    int userVersion = 0;
    bool walMode = false; ///< header says WAL; user_version may then be newer in the -wal file
};

/// Checks the SQLite magic and application id; errors say "not a KernelLens review file" and why.
[[nodiscard]] Expected<ReviewFileHeader> probeReviewFile(const std::string& path);

} // namespace kl::core
