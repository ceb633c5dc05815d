#include "review/AnnotationListModel.h"

#include "common/QtText.h"

#include "review/SeverityPalette.h"

#include <QColor>

namespace kl::views {

namespace {} // namespace

AnnotationListModel::AnnotationListModel(QObject* parent) : QAbstractTableModel(parent) {}

void AnnotationListModel::setAnnotations(std::vector<core::Annotation> annotations) {
    beginResetModel();
    m_annotations = std::move(annotations);
    endResetModel();
}

const core::Annotation* AnnotationListModel::annotationAt(int row) const {
    return row >= 0 && row < static_cast<int>(m_annotations.size()) ? &m_annotations[static_cast<std::size_t>(row)]
                                                                    : nullptr;
}

int AnnotationListModel::rowOfId(std::int64_t id) const {
    for (std::size_t i = 0; i < m_annotations.size(); ++i) {
        if (m_annotations[i].id == id) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int AnnotationListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_annotations.size());
}

int AnnotationListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString AnnotationListModel::anchorText(const core::Anchor& a) {
    switch (a.kind) {
    case core::AnchorKind::TimeRange:
        return tr("time %1-%2 us")
            .arg(static_cast<double>(a.t0Ns) / 1000.0, 0, 'f', 2)
            .arg(static_cast<double>(a.t1Ns) / 1000.0, 0, 'f', 2);
    case core::AnchorKind::Instruction: return tr("instruction #%1").arg(a.instructionId);
    case core::AnchorKind::NkiLines:
        return a.firstLine == a.lastLine ? tr("NKI line %1").arg(a.firstLine)
                                         : tr("NKI lines %1-%2").arg(a.firstLine).arg(a.lastLine);
    case core::AnchorKind::CudaLines:
        return a.firstLine == a.lastLine ? tr("CUDA line %1").arg(a.firstLine)
                                         : tr("CUDA lines %1-%2").arg(a.firstLine).arg(a.lastLine);
    }
    return {};
}

QColor AnnotationListModel::severityColour(core::Severity severity) {
    const core::Rgb c = core::rgbOf(core::severityColours(severity).mark);
    return {c.r, c.g, c.b};
}

QVariant AnnotationListModel::data(const QModelIndex& index, int role) const {
    const core::Annotation* a = annotationAt(index.row());
    if (a == nullptr) {
        return {};
    }
    switch (role) {
    case AnnotationIdRole: return QVariant::fromValue<qint64>(a->id);
    case SeverityRole: return toQString(core::toString(a->severity));
    case ResolvedRole: return a->resolved;
    case AuthorRole: return toQString(a->author);
    case ItemRole: return toQString(a->rubricItem);
    case Qt::DecorationRole: return index.column() == Severity ? QVariant(severityColour(a->severity)) : QVariant();
    case Qt::ToolTipRole: // the whole annotation on every cell: the narrow columns cut what they show
        return QVariant(tr("#%1 %2, %3%4%5\n%6")
                            .arg(index.row() + 1)
                            .arg(anchorText(a->anchor), toQString(core::toString(a->severity)),
                                 a->rubricItem.empty() ? QString() : QStringLiteral(", ") + toQString(a->rubricItem),
                                 a->resolved ? tr(", resolved") : tr(", open"), toQString(a->text)));
    case Qt::DisplayRole: break;
    default: return {};
    }
    switch (index.column()) {
    case Number: return index.row() + 1;
    case Anchor: return anchorText(a->anchor);
    case Severity: return toQString(core::toString(a->severity));
    case Item: return toQString(a->rubricItem);
    case Score: return a->score ? QVariant(*a->score) : QVariant();
    case Text: return toQString(a->text).section(QLatin1Char('\n'), 0, 0).left(200);
    case Author: return toQString(a->author);
    case Status: return a->resolved ? tr("resolved") : tr("open");
    default: return {};
    }
}

QVariant AnnotationListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* kNames[] = {"#", "Anchor", "Severity", "Item", "Score", "Text", "Author", "Status"};
    return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

AnnotationFilterModel::AnnotationFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void AnnotationFilterModel::setItemFilter(const QString& item) {
    m_item = item;
    invalidateFilter();
}
void AnnotationFilterModel::setSeverityFilter(const QString& severity) {
    m_severity = severity;
    invalidateFilter();
}
void AnnotationFilterModel::setStatusFilter(const QString& status) {
    m_status = status;
    invalidateFilter();
}
void AnnotationFilterModel::setAuthorFilter(const QString& author) {
    m_author = author;
    invalidateFilter();
}

bool AnnotationFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    using M = AnnotationListModel;
    if (!m_item.isEmpty() && index.data(M::ItemRole).toString() != m_item) {
        return false;
    }
    if (!m_severity.isEmpty() && index.data(M::SeverityRole).toString() != m_severity) {
        return false;
    }
    if (!m_status.isEmpty() && index.data(M::ResolvedRole).toBool() != (m_status == QLatin1String("resolved"))) {
        return false;
    }
    return m_author.isEmpty() || index.data(M::AuthorRole).toString() == m_author;
}

} // namespace kl::views
