#include "numerics/NumericsModel.h"

#include "common/QtText.h"

#include "numerics/NumericsTable.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace kl::views {

namespace {

/// Non-finite errors sort above every finite one.
double sortable(double v) {
    return std::isnan(v) ? INFINITY : v;
}

} // namespace

QString numericsFigureText(double value) {
    return QString::fromStdString(core::numericsFigure(value));
}

NumericsModel::NumericsModel(QObject* parent) : QAbstractTableModel(parent) {}

void NumericsModel::setResult(std::shared_ptr<const core::NumericsResult> result) {
    beginResetModel();
    m_result = std::move(result);
    m_rows.clear();
    if (m_result) {
        for (std::size_t o = 0; o < m_result->outputs.size(); ++o) {
            for (core::ComparisonKind kind : core::kAllComparisons) {
                if (m_result->outputs[o].comparison(kind)) {
                    m_rows.push_back({static_cast<int>(o), kind});
                }
            }
        }
    }
    endResetModel();
}

int NumericsModel::firstRowOf(int output) const {
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].output == output) {
            return static_cast<int>(r);
        }
    }
    return -1;
}

int NumericsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int NumericsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const core::NumericsComparison& NumericsModel::comparison(const Row& row) const {
    return *m_result->outputs[static_cast<std::size_t>(row.output)].comparison(row.kind);
}

QVariant NumericsModel::display(const Row& row, int column) const {
    const auto& out = m_result->outputs[static_cast<std::size_t>(row.output)];
    const auto& c = comparison(row);
    switch (column) {
    case Output: return QStringLiteral("%1 (%2)").arg(toQString(out.tensor.name), toQString(out.tensor.dtype));
    case Comparison: return toQString(std::string(core::comparisonLabel(row.kind)));
    case MaxAbs: return numericsFigureText(c.maxAbsError);
    case MaxRel: return numericsFigureText(c.maxRelError);
    case MaxUlp: return numericsFigureText(c.maxUlpError);
    case Rms: return numericsFigureText(c.rmsError);
    case Mismatches: return QStringLiteral("%1 (%2 %)").arg(c.mismatches).arg(numericsFigureText(c.mismatchPct));
    case Result: return c.passed ? tr("pass") : tr("FAIL");
    case Tolerance: return tr("rtol %1, atol %2").arg(numericsFigureText(c.rtol), numericsFigureText(c.atol));
    default: return {};
    }
}

QVariant NumericsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const auto& c = comparison(row);
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case Qt::ToolTipRole:
        return index.column() == Result && !c.passed
                   ? tr("%1 of the elements lie outside atol + rtol * |expected|").arg(c.mismatches)
                   : display(row, index.column());
    case Qt::ForegroundRole: return c.passed ? QVariant() : QVariant(QBrush(QColor(198, 40, 40)));
    case Qt::TextAlignmentRole:
        return index.column() >= MaxAbs && index.column() <= Mismatches
                   ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                   : QVariant();
    case OutputRole: return row.output;
    case PassedRole: return c.passed;
    case SortRole:
        switch (index.column()) {
        case MaxAbs: return sortable(c.maxAbsError);
        case MaxRel: return sortable(c.maxRelError);
        case MaxUlp: return sortable(c.maxUlpError);
        case Rms: return sortable(c.rmsError);
        case Mismatches: return static_cast<qlonglong>(c.mismatches);
        default: return display(row, index.column());
        }
    default: return {};
    }
}

QVariant NumericsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char* const kHeaders[ColumnCount] = {"Output", "Comparison", "Max abs", "Max rel",  "Max ULP",
                                                      "RMS",    "Mismatches", "Result",  "Tolerance"};
    return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

NumericsInstructionModel::NumericsInstructionModel(QObject* parent) : QAbstractTableModel(parent) {}

void NumericsInstructionModel::setResult(std::shared_ptr<const core::NumericsResult> result) {
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int NumericsInstructionModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->topErrorInstructions.size());
}

int NumericsInstructionModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NumericsInstructionModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const auto& ins = m_result->topErrorInstructions[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Index: return QStringLiteral("#%1").arg(ins.index);
        case Op: return toQString(ins.op);
        case Location: return QStringLiteral("%1:%2").arg(toQString(ins.file)).arg(ins.line);
        case AddedError: return numericsFigureText(ins.addedError);
        case Output: return toQString(ins.output);
        default: return {};
        }
    case IndexRole: return static_cast<qlonglong>(ins.index);
    case FileRole: return toQString(ins.file);
    case LineRole: return ins.line;
    default: return {};
    }
}

QVariant NumericsInstructionModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char* const kHeaders[ColumnCount] = {"Instruction", "Op", "Line", "Added error", "Output"};
    return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

} // namespace kl::views
