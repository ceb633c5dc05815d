#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <vector>

namespace kl::core {

class Database;

/// CUDA<->NKI line links of a task: which CUDA lines became which NKI lines. Links come from a
/// comment in the NKI source, from a reviewer, or from an automatic suggestion that a reviewer
/// accepts or rejects (`state`); the source panes colour linked ranges alike.
class LinkRepository {
public:
    explicit LinkRepository(Database& db) : m_db(db) {}

    [[nodiscard]] Expected<LineLink> add(LineLink link);
    [[nodiscard]] Expected<void> setState(std::int64_t id, LinkState state);
    [[nodiscard]] Expected<void> remove(std::int64_t id);
    [[nodiscard]] Expected<std::vector<LineLink>> list(std::int64_t taskId);

private:
    Database& m_db;
};

} // namespace kl::core
