#pragma once

#include "review/ReviewTypes.h"
#include "team/AgreementReport.h"

#include <QAbstractTableModel>

#include <vector>

namespace kl::views {

/// The disagreements of a team review, largest spread first (as the report orders them): task and item, each
/// reviewer's score and the agreed grade once set. TaskIdRole and ItemRole name a row across updates, so the
/// pane keeps the adjudicator's place when the report comes back after an edit.
class DisagreementsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TaskAndItem, Scores, Agreed, ColumnCount };
    enum Role { TaskIdRole = Qt::UserRole + 1, ItemRole };

    explicit DisagreementsModel(QObject* parent = nullptr);

    void setDisagreements(std::vector<core::team::Disagreement> disagreements);
    [[nodiscard]] const core::team::Disagreement* at(int row) const;
    [[nodiscard]] int rowOf(qint64 taskId, const QString& item) const; ///< -1 when none

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    [[nodiscard]] QString text(const core::team::Disagreement& d, int column) const;
    [[nodiscard]] QString tip(const core::team::Disagreement& d, int column) const;

    std::vector<core::team::Disagreement> m_rows;
};

} // namespace kl::views
