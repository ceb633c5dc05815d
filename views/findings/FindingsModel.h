#pragma once

#include "findings/Finding.h"
#include "findings/FindingDecisions.h"

#include <QAbstractTableModel>

#include <vector>

namespace kl::views {

/// The findings of the run on screen as a table: severity, rule, title, key figures, rubric item and what the
/// reviewer decided (open, accepted, dismissed with the reason). Each row is keyed by findings::findingKeys, which
/// is how dismissals in the review file name it. Dismissed rows are greyed. `SortRole` gives every column a value
/// that sorts as a reader expects (severity most severe first, not alphabetically), for a QSortFilterProxyModel.
class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Severity, Rule, Title, Figures, RubricItem, Status, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, KeyRole, AcceptedRole, DismissedRole };

    explicit FindingsModel(QObject* parent = nullptr);

    /// New findings (a new run); every row open until setDecisions says otherwise.
    void setFindings(std::vector<core::findings::Finding> findings);
    /// What the review file says about each finding, in the order of findingsDecisions(findings(), ...).
    void setDecisions(std::vector<core::findings::FindingDecision> decisions);
    [[nodiscard]] const std::vector<core::findings::Finding>& findings() const { return m_findings; }
    [[nodiscard]] const core::findings::Finding* findingAt(int row) const;
    [[nodiscard]] const core::findings::FindingDecision* decisionAt(int row) const;
    [[nodiscard]] int rowOfKey(const QString& key) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// "small_transfer_time_pct 100 % (>= 25 %)": the figures held against thresholds (else the first two), for
    /// the Key figures column; `all` lists every figure, one per line, for its tooltip.
    [[nodiscard]] static QString figuresText(const core::findings::Finding& finding, bool all = false);

private:
    [[nodiscard]] QVariant displayData(int row, int column) const;
    [[nodiscard]] QString statusText(int row) const;

    std::vector<core::findings::Finding> m_findings;
    std::vector<core::findings::FindingDecision> m_decisions; ///< one per finding
};

} // namespace kl::views
