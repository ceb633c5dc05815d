#pragma once

#include "common/Error.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kl::core::batch {

/// One task of a batch: a task folder (with a task.json) and the key results are filed under.
struct BatchTask {
    std::string key;              ///< folder relative to the batch root, '/'-separated: stable across machines
    std::filesystem::path folder; ///< absolute
};

/// The tasks of a batch: every folder holding a task.json under `dir` (searched to `maxDepth` levels, sorted by
/// key), or the folders a manifest lists (one per line, relative to the manifest's folder; '#' comments).
/// `root` receives what keys are relative to.
[[nodiscard]] Expected<std::vector<BatchTask>> discoverTasks(const std::filesystem::path& dirOrManifest,
                                                             std::filesystem::path& root, int maxDepth = 4);

/// SHA-256 over every regular file of the folder (relative path and bytes, sorted by path; bytecode caches
/// left out): a task whose files changed since its results were recorded is run again.
[[nodiscard]] Expected<std::string> taskContentHash(const std::filesystem::path& folder);

/// Which of `count` shards a task belongs to (0-based): FNV-1a of its key, so a task's shard depends on nothing
/// but its key and every machine of a cluster agrees without talking to the others.
[[nodiscard]] std::uint32_t shardOf(const std::string& key, std::uint32_t count);

/// "I/N" (1-based, as schedulers number array tasks) into a 0-based index and a count.
[[nodiscard]] Expected<std::pair<std::uint32_t, std::uint32_t>> parseShard(const std::string& text);

} // namespace kl::core::batch
