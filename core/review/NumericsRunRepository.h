#pragma once

#include "common/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {

class Database;
struct NumericsResult;

/// A numerics run kept in the review (table `numerics_run`, schema version 4): the settings it ran with, whether
/// every comparison passed, and the front end's numerics document as JSON text (docs/numerics-json.md).
struct NumericsRun {
    std::int64_t id = 0;
    std::int64_t taskId = 0;
    std::string createdAt;
    std::string kernel;
    std::string inputsKind;
    std::int64_t seed = 0;
    std::string reference;
    std::string cudaNumerics;
    std::string tolerance; ///< toleranceSummary() of the run
    bool passed = false;
    std::string document; ///< the numerics JSON as stored (heat maps dropped when over kMaxDocumentBytes)
};

/// Numerics runs of the review's tasks. `add` checks the document with the numerics reader before storing it,
/// so everything read back parses; a document over the size cap is stored without its heat maps and
/// histograms (the figures a report quotes stay), and refused if still too large.
class NumericsRunRepository {
public:
    static constexpr std::size_t kMaxDocumentBytes = 8u << 20; ///< also a CHECK in the table

    explicit NumericsRunRepository(Database& db) : m_db(db) {}

    /// Stores the run of `taskId` described by `documentJson`; the summary columns come from the document.
    [[nodiscard]] Expected<NumericsRun> add(std::int64_t taskId, const std::string& documentJson);
    /// Runs of a task, oldest first.
    [[nodiscard]] Expected<std::vector<NumericsRun>> list(std::int64_t taskId);
    /// The newest run of a task, or nothing.
    [[nodiscard]] Expected<std::optional<NumericsRun>> latest(std::int64_t taskId);

private:
    Database& m_db;
};

} // namespace kl::core
