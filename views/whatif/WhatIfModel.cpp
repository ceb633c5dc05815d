#include "whatif/WhatIfModel.h"

#include <QColor>

#include <cmath>
#include <iterator>

namespace kl::views {

namespace {

struct FigureSpec {
    const char* label;
    bool isTime; ///< in us, else a percentage
    double (*value)(const sim::SimResult&);
};

double engine(const sim::SimResult& r, sim::Engine e) {
    return r.summary.engine(e).activePct;
}

const FigureSpec kFigures[] = {
    {QT_TRANSLATE_NOOP("kl::views::WhatIfModel", "Total time"), true,
     [](const sim::SimResult& r) { return static_cast<double>(r.summary.totalPs) / 1e6; }},
    {QT_TRANSLATE_NOOP("kl::views::WhatIfModel", "TensorE active %"), false,
     [](const sim::SimResult& r) { return engine(r, sim::Engine::Tensor); }},
    {QT_TRANSLATE_NOOP("kl::views::WhatIfModel", "VectorE active %"), false,
     [](const sim::SimResult& r) { return engine(r, sim::Engine::Vector); }},
    {QT_TRANSLATE_NOOP("kl::views::WhatIfModel", "ScalarE active %"), false,
     [](const sim::SimResult& r) { return engine(r, sim::Engine::Scalar); }},
    {QT_TRANSLATE_NOOP("kl::views::WhatIfModel", "GpSimdE active %"), false,
     [](const sim::SimResult& r) { return engine(r, sim::Engine::GpSimd); }},
    {QT_TRANSLATE_NOOP("kl::views::WhatIfModel", "Exposed DMA"), true,
     [](const sim::SimResult& r) { return static_cast<double>(r.summary.dmaExposedPs) / 1e6; }},
    {QT_TRANSLATE_NOOP("kl::views::WhatIfModel", "DMA active %"), false,
     [](const sim::SimResult& r) { return r.summary.dmaActivePct; }},
};
constexpr int kRows = static_cast<int>(std::size(kFigures));

QString timeText(double us) {
    return std::abs(us) >= 1000 ? QStringLiteral("%1 ms").arg(us / 1000.0, 0, 'f', 3)
                                : QStringLiteral("%1 us").arg(us, 0, 'f', 2);
}

QString figureText(const FigureSpec& fig, double v) {
    return fig.isTime ? timeText(v) : QStringLiteral("%1%").arg(v, 0, 'f', 1);
}

} // namespace

WhatIfModel::WhatIfModel(QObject* parent) : QAbstractTableModel(parent) {}

void WhatIfModel::setBase(std::shared_ptr<const sim::SimResult> base) {
    m_base = std::move(base);
    m_whatIf.reset();
    changedColumns(Base, Delta);
}

void WhatIfModel::setWhatIf(std::shared_ptr<const sim::SimResult> whatIf) {
    m_whatIf = std::move(whatIf);
    changedColumns(WhatIf, Delta);
}

void WhatIfModel::changedColumns(int first, int last) {
    emit dataChanged(index(0, first), index(kRows - 1, last));
}

int WhatIfModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kRows;
}

int WhatIfModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WhatIfModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Figure: return tr("Figure");
    case Base: return tr("Base");
    case WhatIf: return tr("What-if");
    case Delta: return tr("Delta");
    default: return {};
    }
}

QVariant WhatIfModel::value(int row, int column) const {
    const FigureSpec& fig = kFigures[row];
    switch (column) {
    case Base: return m_base ? QVariant(fig.value(*m_base)) : QVariant();
    case WhatIf: return m_whatIf ? QVariant(fig.value(*m_whatIf)) : QVariant();
    case Delta: return m_base && m_whatIf ? QVariant(fig.value(*m_whatIf) - fig.value(*m_base)) : QVariant();
    default: return {};
    }
}

QString WhatIfModel::text(int row, int column) const {
    const FigureSpec& fig = kFigures[row];
    if (column == Figure) {
        return tr(fig.label);
    }
    if (column == WhatIf && !m_whatIf) {
        return m_base ? QStringLiteral("–") : QString();
    }
    const QVariant v = value(row, column);
    if (!v.isValid()) {
        return {};
    }
    if (column != Delta) {
        return figureText(fig, v.toDouble());
    }
    const double d = v.toDouble();
    const double base = fig.value(*m_base);
    QString delta = (d > 0 ? QStringLiteral("+") : QString()) + figureText(fig, d);
    if (fig.isTime && base > 0) {
        delta +=
            QStringLiteral(" (%1%2%)").arg(d > 0 ? QStringLiteral("+") : QString()).arg(100.0 * d / base, 0, 'f', 1);
    }
    return delta;
}

QColor WhatIfModel::deltaColour(int row) const {
    const QVariant d = value(row, Delta);
    if (!kFigures[row].isTime || !d.isValid() || std::abs(d.toDouble()) <= 1e-9) {
        return {};
    }
    return d.toDouble() < 0 ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb0, 0x24, 0x24);
}

QVariant WhatIfModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const int row = index.row();
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return text(row, column);
    case Qt::TextAlignmentRole:
        return static_cast<int>(column == Figure ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                 : (Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        if (const QColor c = column == Delta ? deltaColour(row) : QColor(); c.isValid()) {
            return c;
        }
        return {};
    case ValueRole: return value(row, column);
    default: return {};
    }
}

} // namespace kl::views
