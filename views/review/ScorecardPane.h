#pragma once

#include "rubric/Rubric.h"
#include "rubric/Scorecard.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTextBrowser;
class QTreeView;

namespace kl::views {

class ScorecardModel;

/// The rubric scorecard of the current task: a ScorecardModel in a tree with a score box on every item row
/// (chosen from the item's scale, with the meaning of each level), the current item's guidance below, the
/// overall result above and what is still unscored.
class ScorecardPane : public QWidget {
    Q_OBJECT
public:
    explicit ScorecardPane(QWidget* parent = nullptr);

    void setRubric(const core::Rubric* rubric);
    void setScorecard(const std::optional<core::Scorecard>& card);
    [[nodiscard]] QTreeView* tree() const { return m_tree; }
    [[nodiscard]] ScorecardModel* model() const { return m_model; }
    [[nodiscard]] QString resultText() const;
    [[nodiscard]] QString guidanceText() const; ///< the guidance shown, as plain text

signals:
    void scoreChosen(const QString& itemId, int value); ///< value < 0: clear the score

private:
    void showResult();
    void afterReset();
    void showGuidance();

    ScorecardModel* m_model = nullptr;
    QString m_currentItem; ///< kept across resets
    QLabel* m_result = nullptr;
    QTreeView* m_tree = nullptr;
    QTextBrowser* m_guidance = nullptr;
};

} // namespace kl::views
