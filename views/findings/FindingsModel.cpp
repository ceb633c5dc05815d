#include "findings/FindingsModel.h"

#include "common/QtText.h"

#include "review/AnnotationListModel.h"

#include <QColor>
#include <QFont>
#include <QPalette>

#include <cmath>

namespace kl::views {

namespace {

QString number(double v) {
    return std::abs(v) >= 1e5 || (v != 0 && std::abs(v) < 1e-2) ? QString::number(v, 'g', 3)
                                                                : QString::number(v, 'f', v == std::floor(v) ? 0 : 1);
}

QString figureText(const core::findings::Figure& f) {
    const QString unit = f.unit.empty() ? QString() : QLatin1Char(' ') + toQString(f.unit);
    QString text = toQString(f.name) + QLatin1Char(' ') + number(f.value) + unit;
    if (f.threshold) {
        text += QStringLiteral(" (threshold %1%2)").arg(number(*f.threshold), unit);
    }
    return text;
}

} // namespace

FindingsModel::FindingsModel(QObject* parent) : QAbstractTableModel(parent) {}

void FindingsModel::setFindings(std::vector<core::findings::Finding> findings) {
    beginResetModel();
    m_findings = std::move(findings);
    m_decisions.clear();
    for (const std::string& key : core::findings::findingKeys(m_findings)) {
        m_decisions.push_back({key, std::nullopt, std::nullopt});
    }
    endResetModel();
}

void FindingsModel::setDecisions(std::vector<core::findings::FindingDecision> decisions) {
    if (decisions.size() != m_findings.size()) {
        return; // decisions of another run's findings
    }
    m_decisions = std::move(decisions);
    if (!m_findings.empty()) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
}

const core::findings::Finding* FindingsModel::findingAt(int row) const {
    return row >= 0 && row < rowCount() ? &m_findings[static_cast<std::size_t>(row)] : nullptr;
}

const core::findings::FindingDecision* FindingsModel::decisionAt(int row) const {
    return row >= 0 && row < rowCount() ? &m_decisions[static_cast<std::size_t>(row)] : nullptr;
}

int FindingsModel::rowOfKey(const QString& key) const {
    for (std::size_t i = 0; i < m_decisions.size(); ++i) {
        if (toQString(m_decisions[i].key) == key) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString FindingsModel::figuresText(const core::findings::Finding& finding, bool all) {
    QStringList parts;
    for (const auto& f : finding.figures) {
        if (all || f.threshold) {
            parts << figureText(f);
        }
    }
    for (std::size_t i = 0; !all && parts.isEmpty() && i < finding.figures.size() && i < 2; ++i) {
        parts << figureText(finding.figures[i]);
    }
    return parts.join(all ? QStringLiteral("\n") : QStringLiteral(", "));
}

QString FindingsModel::statusText(int row) const {
    const auto& d = m_decisions[static_cast<std::size_t>(row)];
    if (d.acceptedAs) {
        return tr("accepted (annotation)");
    }
    if (d.dismissal) {
        return tr("dismissed: %1").arg(toQString(d.dismissal->reason));
    }
    return tr("open");
}

QVariant FindingsModel::displayData(int row, int column) const {
    const auto& f = m_findings[static_cast<std::size_t>(row)];
    switch (column) {
    case Severity: return toQString(core::toString(f.severity));
    case Rule: return toQString(f.rule);
    case Title: return toQString(f.title);
    case Figures: return figuresText(f);
    case RubricItem: return toQString(f.rubricItem);
    case Status: return statusText(row);
    default: return {};
    }
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const int row = index.row();
    const auto& f = m_findings[static_cast<std::size_t>(row)];
    const auto& d = m_decisions[static_cast<std::size_t>(row)];
    switch (role) {
    case Qt::DisplayRole: return displayData(row, index.column());
    case SortRole:
        // Severity sorts by its order (blocking first), ties by the engine's order; the rest as text.
        return index.column() == Severity ? QVariant(static_cast<int>(f.severity) * 10000 + row)
                                          : QVariant(displayData(row, index.column()).toString().toLower());
    case KeyRole: return toQString(d.key);
    case AcceptedRole: return d.acceptedAs.has_value();
    case DismissedRole: return d.dismissal.has_value();
    case Qt::ForegroundRole:
        if (d.dismissal) {
            return QPalette().color(QPalette::Disabled, QPalette::Text);
        }
        if (index.column() == Severity) {
            // The severity colours are made for bands and markers; as text they need more contrast with the row.
            const QColor c = AnnotationListModel::severityColour(f.severity);
            return QPalette().color(QPalette::Base).lightness() > 128 ? c.darker(140) : c.lighter(120);
        }
        return {};
    case Qt::FontRole: {
        QFont font;
        font.setItalic(d.dismissal.has_value());
        font.setBold(index.column() == Severity && !d.dismissal);
        return font;
    }
    case Qt::ToolTipRole:
        if (index.column() == Figures) {
            return figuresText(f, true);
        }
        if (d.dismissal) {
            return tr("Dismissed by %1: %2").arg(toQString(d.dismissal->author), toQString(d.dismissal->reason));
        }
        return toQString(f.suggestion);
    default: return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Severity: return tr("Severity");
    case Rule: return tr("Rule");
    case Title: return tr("Finding");
    case Figures: return tr("Key figures");
    case RubricItem: return tr("Rubric item");
    case Status: return tr("Status");
    default: return {};
    }
}

} // namespace kl::views
