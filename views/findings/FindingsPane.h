#pragma once

#include "findings/FindingDecisions.h"
#include "findings/Finding.h"
#include "findings/Roofline.h"

#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace kl::views {

class FindingsModel;
class RooflinePlot;

/// The Findings dock: a sortable table of the run's findings (FindingsModel) with Go to Evidence, Accept,
/// Dismiss and Restore, and a Roofline tab (RooflinePlot). It only shows and asks: every action is a signal
/// carrying the finding's key, and the owner (app's FindingsController) does the work.
///
/// Keys on the table: Enter goes to the evidence, A accepts, D dismisses. Selecting a row also asks for its
/// evidence. Accept and Dismiss need an open review (setReviewAvailable); without one they are disabled and
/// their tooltip says why.
class FindingsPane : public QWidget {
    Q_OBJECT
public:
    explicit FindingsPane(QWidget* parent = nullptr);

    void setFindings(std::vector<core::findings::Finding> findings);
    void setDecisions(std::vector<core::findings::FindingDecision> decisions);
    /// A one-line state in place of the summary ("Simulating...", "The rules could not run: ...").
    void setMessage(const QString& text);
    void setRoofline(std::optional<core::findings::RooflinePoint> point);
    /// `whyNot`: the tooltip of Accept and Dismiss while they cannot be used.
    void setReviewAvailable(bool available, const QString& whyNot = {});

    [[nodiscard]] FindingsModel* model() const { return m_model; }
    [[nodiscard]] QSortFilterProxyModel* proxy() const { return m_proxy; }
    [[nodiscard]] QTableView* table() const { return m_table; }
    [[nodiscard]] QTabWidget* tabs() const { return m_tabs; }
    [[nodiscard]] RooflinePlot* roofline() const { return m_roofline; }
    [[nodiscard]] QPushButton* acceptButton() const { return m_accept; }
    [[nodiscard]] QPushButton* dismissButton() const { return m_dismiss; }
    [[nodiscard]] QPushButton* restoreButton() const { return m_restore; }
    [[nodiscard]] QLabel* summary() const { return m_summary; }
    /// The key of the selected finding; empty when none is selected.
    [[nodiscard]] QString selectedKey() const;
    bool selectKey(const QString& key);

signals:
    void evidenceRequested(const QString& key);
    void acceptRequested(const QString& key);
    void dismissRequested(const QString& key);
    void restoreRequested(const QString& key);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* buildButtons();
    void updateButtons();
    void fitTitleColumn();
    void updateSummary();
    void request(void (FindingsPane::*signal)(const QString&), const QPushButton* button);

    FindingsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_evidence = nullptr;
    QPushButton* m_accept = nullptr;
    QPushButton* m_dismiss = nullptr;
    QPushButton* m_restore = nullptr;
    RooflinePlot* m_roofline = nullptr;
    bool m_reviewAvailable = false;
    QString m_whyNot;
    QString m_message;
};

} // namespace kl::views
