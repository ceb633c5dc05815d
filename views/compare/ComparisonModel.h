#pragma once

#include "compare/RunComparison.h"

#include <QAbstractTableModel>

namespace kl::views {

/// The delta table of the compare view: one row per figure of core::RunComparison, columns figure, A, B,
/// delta and delta %. Deltas that make B faster or leaner are green, slower or heavier red (for figures
/// where less is better: time, exposed DMA, bytes, peaks); activity percentages are left uncoloured.
class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Figure, A, B, Delta, DeltaPct, ColumnCount };

    explicit ComparisonModel(QObject* parent = nullptr);

    void setComparison(core::RunComparison comparison);
    [[nodiscard]] const core::RunComparison& comparison() const { return m_comparison; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    core::RunComparison m_comparison;
};

} // namespace kl::views
