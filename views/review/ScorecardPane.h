#pragma once

#include "rubric/Rubric.h"
#include "rubric/Scorecard.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTextBrowser;
class QTreeWidget;

namespace kl::views {

/// The rubric scorecard of the current task: a score per item (chosen from the item's scale, with the meaning
/// of each level), the item's guidance beside it, area scores, the overall result and what is still unscored.
class ScorecardPane : public QWidget {
    Q_OBJECT
public:
    explicit ScorecardPane(QWidget* parent = nullptr);

    void setRubric(const core::Rubric* rubric);
    void setScorecard(const std::optional<core::Scorecard>& card);
    [[nodiscard]] QTreeWidget* tree() const { return m_tree; }
    [[nodiscard]] QString resultText() const;

signals:
    void scoreChosen(const QString& itemId, int value); ///< value < 0: clear the score

private:
    void rebuild();
    void showGuidance();

    const core::Rubric* m_rubric = nullptr;
    std::optional<core::Scorecard> m_card;
    QLabel* m_result = nullptr;
    QTreeWidget* m_tree = nullptr;
    QTextBrowser* m_guidance = nullptr;
};

} // namespace kl::views
