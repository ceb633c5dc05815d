#pragma once

#include "review/ReviewTypes.h"

#include <QWidget>

#include <map>

class QComboBox;
class QTableView;
class QTimer;

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
    /// Below this width the secondary columns (item, score, author, status) hide unless the user chose otherwise from
    /// the header's menu: in a 300 px dock the text would otherwise get a few characters per line.
    static constexpr int kNarrowWidth = 460;
    /// Shows or hides a column as the user's choice, kept over later resizes (the header's context menu).
    void setColumnChoice(int column, bool shown);

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
    void showHeaderMenu(const QPoint& pos);
    /// Hides or shows the secondary columns for the table's width, honouring the user's choices.
    void fitColumnsToWidth();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    AnnotationListModel* m_model = nullptr;
    AnnotationFilterModel* m_filter = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_item = nullptr;
    QComboBox* m_severity = nullptr;
    QComboBox* m_status = nullptr;
    QComboBox* m_author = nullptr;
    std::map<int, bool> m_columnChoice; ///< column -> shown, as the user chose from the header menu
    /// Fits the rows' wrapped heights once a run of resizes pauses: a dock drag resizes the pane dozens of times
    /// a second, and fitting wraps the text of every row.
    QTimer* m_rowFit = nullptr;
    int m_fittedTextWidth = -1; ///< the text column's width the rows were last fitted to
};

} // namespace kl::views
