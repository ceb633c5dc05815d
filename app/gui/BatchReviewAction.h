#pragma once

#include <QString>

class QWidget;

namespace kl::app {

/// File > New Review from Batch Results: asks for a batch results file, which tasks (all, failed, ok) and where
/// to save the review, then writes a review of those tasks in triage order (core/batch/ReviewFromResults).
/// Returns the new review's path, or empty when cancelled or refused (the reason was shown).
[[nodiscard]] QString newReviewFromBatchResults(QWidget* parent, const QString& reviewer);

} // namespace kl::app
