#include "review/NumericsRunRepository.h"

#include "db/ExpectedOps.h"
#include "db/Query.h"
#include "numerics/NumericsReader.h"
#include "review/TextCheck.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kl::core {

namespace {

/// The document without the per-output drawings (heat map, histogram): what is kept when the whole is too large.
std::string withoutDrawings(const std::string& documentJson) {
    nlohmann::json doc = nlohmann::json::parse(documentJson, nullptr, false);
    if (doc.is_discarded() || !doc.contains("outputs") || !doc["outputs"].is_array()) {
        return documentJson;
    }
    for (auto& out : doc["outputs"]) {
        if (out.is_object()) {
            out.erase("heatmap");
            out.erase("histogram");
        }
    }
    return doc.dump();
}

constexpr const char* kColumns =
    "id, task_id, created_at, kernel, inputs_kind, seed, reference, cuda_numerics, tolerance, passed, document";

NumericsRun fromRow(const Statement& row) {
    return NumericsRun{row.int64(0), row.int64(1), row.text(2), row.text(3),       row.text(4), row.int64(5),
                       row.text(6),  row.text(7),  row.text(8), row.int64(9) != 0, row.text(10)};
}

} // namespace

Expected<NumericsRun> NumericsRunRepository::add(std::int64_t taskId, const std::string& documentJson) {
    auto parsed = parseNumericsDocument(documentJson);
    KL_TRY(parsed);
    NumericsRun run;
    run.taskId = taskId;
    run.document = documentJson.size() > kMaxDocumentBytes ? withoutDrawings(documentJson) : documentJson;
    if (run.document.size() > kMaxDocumentBytes) {
        return makeError(ErrorCode::InvalidArgument,
                         fmt::format("the numerics document is {} bytes even without its heat maps, more than the "
                                     "{} MiB a review keeps per run",
                                     run.document.size(), kMaxDocumentBytes >> 20));
    }
    KL_TRY(checkText(run.document, "numerics document", false));
    run.createdAt = utcNow();
    run.kernel = parsed->kernel;
    run.inputsKind = parsed->inputsKind;
    run.seed = parsed->seed;
    run.reference = parsed->reference;
    run.cudaNumerics = parsed->cudaNumerics;
    run.tolerance = toleranceSummary(*parsed);
    run.passed = parsed->passed();
    KL_TRY(withContext(execute(m_db,
                               "INSERT INTO numerics_run(task_id, created_at, kernel, inputs_kind, seed, reference, "
                               "cuda_numerics, tolerance, passed, document) "
                               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                               taskId, run.createdAt, run.kernel, run.inputsKind, run.seed, run.reference,
                               run.cudaNumerics, run.tolerance, std::int64_t{run.passed ? 1 : 0}, run.document),
                       fmt::format("saving numerics run for task {}", taskId)));
    run.id = m_db.lastInsertRowId();
    return run;
}

Expected<std::vector<NumericsRun>> NumericsRunRepository::list(std::int64_t taskId) {
    return selectRows(m_db, fmt::format("SELECT {} FROM numerics_run WHERE task_id = ?1 ORDER BY id", kColumns),
                      fromRow, taskId);
}

Expected<std::optional<NumericsRun>> NumericsRunRepository::latest(std::int64_t taskId) {
    return selectFirst(m_db,
                       fmt::format("SELECT {} FROM numerics_run WHERE task_id = ?1 ORDER BY id DESC LIMIT 1", kColumns),
                       fromRow, taskId);
}

} // namespace kl::core
