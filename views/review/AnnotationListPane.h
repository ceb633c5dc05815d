#pragma once

#include "review/ReviewTypes.h"

#include <QWidget>

class QComboBox;
class QTableView;

namespace kl::views {

class AnnotationFilterModel;
class AnnotationListModel;

/// The annotation list of the current task with filters (rubric item, severity, status, author). Activating
/// a row (click or Enter) asks to navigate to its anchor; the context menu edits, resolves or deletes.
/// next()/previous() step through the visible rows (N / P in the main window).
class AnnotationListPane : public QWidget {
    Q_OBJECT
public:
    explicit AnnotationListPane(QWidget* parent = nullptr);

    void setAnnotations(std::vector<core::Annotation> annotations);
    [[nodiscard]] AnnotationListModel* model() const { return m_model; }
    [[nodiscard]] AnnotationFilterModel* filter() const { return m_filter; }
    [[nodiscard]] QTableView* table() const { return m_table; }
    /// Selects and activates the next / previous visible annotation, wrapping; returns its id or 0.
    std::int64_t next();
    std::int64_t previous();
    void selectId(std::int64_t id);

signals:
    void annotationActivated(qint64 id);
    void editRequested(qint64 id);
    void resolveToggled(qint64 id);
    void deleteRequested(qint64 id);
    void replyRequested(qint64 id);

private:
    std::int64_t step(int direction);
    [[nodiscard]] qint64 idAt(int proxyRow) const;
    void refreshFilterChoices();
    void showContextMenu(const QPoint& pos);

    AnnotationListModel* m_model = nullptr;
    AnnotationFilterModel* m_filter = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_item = nullptr;
    QComboBox* m_severity = nullptr;
    QComboBox* m_status = nullptr;
    QComboBox* m_author = nullptr;
};

} // namespace kl::views
