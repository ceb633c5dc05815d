#pragma once

#include "review/ReviewTypes.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

namespace kl::views {

/// The annotations of the current task as a table: number, anchor, severity, rubric item, score, text, author,
/// status. Numbers are positions in creation order (1-based), the same numbers the timeline bands and the
/// report markers show.
class AnnotationListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number, Anchor, Severity, Item, Score, Text, Author, Status, ColumnCount };
    enum Role { AnnotationIdRole = Qt::UserRole + 1, SeverityRole, ResolvedRole, AuthorRole, ItemRole };

    explicit AnnotationListModel(QObject* parent = nullptr);
    void setAnnotations(std::vector<core::Annotation> annotations);
    [[nodiscard]] const std::vector<core::Annotation>& annotations() const { return m_annotations; }
    [[nodiscard]] const core::Annotation* annotationAt(int row) const;
    [[nodiscard]] int rowOfId(std::int64_t id) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    [[nodiscard]] static QString anchorText(const core::Anchor& anchor);
    [[nodiscard]] static QColor severityColour(core::Severity severity);

private:
    std::vector<core::Annotation> m_annotations;
};

/// Filters the list by rubric item, severity, status (open / resolved) and author; empty = any.
class AnnotationFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit AnnotationFilterModel(QObject* parent = nullptr);
    void setItemFilter(const QString& item);
    void setSeverityFilter(const QString& severity);
    void setStatusFilter(const QString& status); ///< "", "open" or "resolved"
    void setAuthorFilter(const QString& author);

protected:
    [[nodiscard]] bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_item;
    QString m_severity;
    QString m_status;
    QString m_author;
};

} // namespace kl::views
