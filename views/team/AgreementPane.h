#pragma once

#include "review/ReviewTypes.h"
#include "team/AgreementReport.h"

#include <QColor>
#include <QHash>
#include <QSet>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSpinBox;
class QSortFilterProxyModel;
class QTableView;

namespace kl::core {
struct Rubric;
}

namespace kl::views {

class AgreementItemsModel;
class DisagreementsModel;
class DisputeDetailModel;
class ReviewerLensModel;

/// Adjudication of a team review (several reviewers merged into one file): the agreement figures per rubric
/// item, the disagreements largest first, for the selected one each reviewer's score and what they wrote on
/// that item side by side, and a form to set the agreed grade with a reason. It also offers a reviewer lens
/// for the timeline: annotations coloured by reviewer, each reviewer shown or hidden.
class AgreementPane : public QWidget {
    Q_OBJECT
public:
    explicit AgreementPane(QWidget* parent = nullptr);

    /// Shows `report`; `annotations` are every reviewer's, for the side-by-side comments.
    void setData(const core::team::AgreementReport& report, std::vector<core::Annotation> annotations,
                 const core::Rubric* rubric);
    void clear();
    /// One colour per reviewer (colour-blind-safe palette), stable for a reviewer's position in the list.
    [[nodiscard]] static QColor reviewerColour(int index);

    [[nodiscard]] QTableView* itemsTable() const { return m_items; } ///< shows a sorting proxy
    [[nodiscard]] QTableView* disputesTable() const { return m_disputes; }
    [[nodiscard]] QTableView* detailTable() const { return m_detail; }
    [[nodiscard]] QSpinBox* valueBox() const { return m_value; }
    [[nodiscard]] QLineEdit* reasonEdit() const { return m_reason; }
    [[nodiscard]] QPushButton* agreeButton() const { return m_agree; }
    [[nodiscard]] QCheckBox* lensBox() const { return m_lens; }
    [[nodiscard]] QListView* reviewerList() const { return m_reviewers; }

signals:
    void adjudicateRequested(qint64 taskId, const QString& item, int value, const QString& reason);
    /// Double-click on a disagreement: show that task.
    void taskRequested(qint64 taskId);
    /// Colours by reviewer (empty: colour by severity as usual) and the reviewers whose annotations are hidden
    /// (unticked in the list, whether or not colours are on).
    void reviewerLensChanged(const QHash<QString, QColor>& colours, const QSet<QString>& hidden);

private:
    QWidget* buildForm();
    void fillDisputes();
    [[nodiscard]] int currentDispute() const; ///< -1 when none
    void showDispute(int row);
    void emitLens();

    core::team::AgreementReport m_report;
    std::vector<core::Annotation> m_annotations;
    const core::Rubric* m_rubric = nullptr;
    QLabel* m_summary;
    AgreementItemsModel* m_itemModel;
    QSortFilterProxyModel* m_itemSort;
    QTableView* m_items;
    DisagreementsModel* m_disputeModel;
    DisputeDetailModel* m_detailModel;
    QTableView* m_disputes;
    QTableView* m_detail;
    QSpinBox* m_value;
    QLineEdit* m_reason;
    QPushButton* m_agree;
    QCheckBox* m_lens;
    ReviewerLensModel* m_reviewerModel;
    QListView* m_reviewers;
};

} // namespace kl::views
