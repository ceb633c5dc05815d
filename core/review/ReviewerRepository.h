#pragma once

#include "common/Error.h"
#include "review/ReviewTypes.h"

#include <string>
#include <vector>

namespace kl::core {

class Database;

/// People taking part in the review. Authors of annotations and replies are added automatically;
/// `add` is for naming a reviewer before they write anything (`review new --reviewer`).
class ReviewerRepository {
public:
    explicit ReviewerRepository(Database& db) : m_db(db) {}

    /// Adds the reviewer unless present; returns the stored row either way.
    [[nodiscard]] Expected<Reviewer> add(const std::string& name);
    [[nodiscard]] Expected<std::vector<Reviewer>> list();

private:
    Database& m_db;
};

} // namespace kl::core
