#pragma once

#include "source/LineCost.h"

#include <QAbstractTableModel>

#include <vector>

namespace kl::views {

/// The NKI lines of a run by cost: line, simulated time, share of the run, instruction count, hottest
/// first. Sortable on any column (QTreeView header clicks call `sort`). Text of the line comes from the
/// caller (`setRun`'s `lineText`) so the list can show what the line says.
class HotLinesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LineColumn, TimeColumn, ShareColumn, CountColumn, CodeColumn, ColumnCount };
    static constexpr int LineRole = Qt::UserRole + 1; ///< the 1-based line of a row, in any column

    explicit HotLinesModel(QObject* parent = nullptr);

    void setTable(const core::LineCostTable& table, const QStringList& lineText = {});
    void clear();
    [[nodiscard]] int lineAt(int row) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    void sortRows();

    std::vector<core::LineCost> m_rows;
    int m_sortColumn = TimeColumn; ///< kept across setTable, so a new run keeps the user's order
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
    QStringList m_text;
    double m_maxShare = 0;
};

} // namespace kl::views
