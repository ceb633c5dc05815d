#pragma once

#include "result/SimResult.h"

#include <QAbstractTableModel>

#include <memory>

namespace kl::views {

/// The what-if table: one row per figure (total time, per-engine active %, exposed DMA, DMA active %) with the
/// base run's value, the what-if run's value and the delta; a time that got shorter is green, longer red.
///
/// The rows are fixed, so new runs update the cells in place (no reset): the view keeps its selection and
/// scroll position while a learner drags a value and runs come back.
class WhatIfModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Figure, Base, WhatIf, Delta, ColumnCount };
    enum Role { ValueRole = Qt::UserRole + 1 }; ///< the figure as a number (us or %), for Base, WhatIf and Delta

    explicit WhatIfModel(QObject* parent = nullptr);

    /// A new base run; the what-if column empties until setWhatIf.
    void setBase(std::shared_ptr<const sim::SimResult> base);
    /// The re-simulated run (nullptr: none, the what-if column shows a dash).
    void setWhatIf(std::shared_ptr<const sim::SimResult> whatIf);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void changedColumns(int first, int last);
    [[nodiscard]] QVariant value(int row, int column) const;
    [[nodiscard]] QString text(int row, int column) const;
    [[nodiscard]] QColor deltaColour(int row) const;

    std::shared_ptr<const sim::SimResult> m_base;
    std::shared_ptr<const sim::SimResult> m_whatIf;
};

} // namespace kl::views
