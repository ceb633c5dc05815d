#pragma once

#include "review/ReviewTypes.h"
#include "team/AgreementReport.h"

#include <QAbstractTableModel>

#include <vector>

namespace kl::views {

/// One disagreement side by side: each reviewer's score and what they wrote on that task's item (their
/// annotations citing it), for the adjudicator to read before setting the agreed grade.
class DisputeDetailModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Reviewer, Score, Said, ColumnCount };

    explicit DisputeDetailModel(QObject* parent = nullptr);

    /// Shows `dispute` (nullptr: nothing) with what each of its reviewers wrote among `annotations`.
    void setDispute(const core::team::Disagreement* dispute, const std::vector<core::Annotation>& annotations);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        QString reviewer;
        int score = 0;
        QString said;
    };
    std::vector<Row> m_rows;
};

} // namespace kl::views
