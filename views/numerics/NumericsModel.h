#pragma once

#include "numerics/NumericsResult.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace kl::views {

/// The comparisons of one numerics run as a table, one row per comparison made (output x NKI vs exact / GPU vs
/// exact / NKI vs GPU): max abs, max rel and max ULP error, RMS, mismatches, pass/fail and the tolerance. Failing
/// rows are red. `OutputRole` gives the row's output index (the heat map and histogram follow the selection).
class NumericsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Output, Comparison, MaxAbs, MaxRel, MaxUlp, Rms, Mismatches, Result, Tolerance, ColumnCount };
    enum Role { OutputRole = Qt::UserRole + 1, PassedRole, SortRole };

    explicit NumericsModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const core::NumericsResult> result);
    [[nodiscard]] const std::shared_ptr<const core::NumericsResult>& result() const { return m_result; }
    /// The first row of output `output`, or -1.
    [[nodiscard]] int firstRowOf(int output) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        int output = 0;
        core::ComparisonKind kind = core::ComparisonKind::NkiVsExact;
    };
    [[nodiscard]] const core::NumericsComparison& comparison(const Row& row) const;
    [[nodiscard]] QVariant display(const Row& row, int column) const;

    std::shared_ptr<const core::NumericsResult> m_result;
    std::vector<Row> m_rows;
};

/// The instructions that added most rounding error in a numerics run: index, op, file:line, added error and the
/// output they feed. `IndexRole` and `LineRole`/`FileRole` carry what a click needs to go to the timeline or the
/// NKI line.
class NumericsInstructionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Index, Op, Location, AddedError, Output, ColumnCount };
    enum Role { IndexRole = Qt::UserRole + 1, FileRole, LineRole };

    explicit NumericsInstructionModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const core::NumericsResult> result);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const core::NumericsResult> m_result;
};

/// A figure as the tables show it (3 significant digits, "nan"/"inf").
[[nodiscard]] QString numericsFigureText(double value);

} // namespace kl::views
