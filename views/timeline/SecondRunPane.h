#pragma once

#include "result/SimResult.h"

#include <QWidget>

#include <memory>

class QLabel;
class QToolButton;

namespace kl::views {

class TimelineView;

/// A second run's lanes under the base run's timeline (a what-if re-simulation): a title line naming the run
/// and what differs, a Remove button, and its own TimelineView. TimelinePage keeps the two views on one time
/// axis; this pane only shows and says when the user wants it gone.
class SecondRunPane : public QWidget {
    Q_OBJECT
public:
    explicit SecondRunPane(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const sim::SimResult> run, const QString& title);
    [[nodiscard]] TimelineView* timeline() const { return m_timeline; }
    [[nodiscard]] QString title() const;
    [[nodiscard]] QToolButton* removeButton() const { return m_remove; }

signals:
    void removeRequested();

private:
    QLabel* m_title = nullptr;
    QToolButton* m_remove = nullptr;
    TimelineView* m_timeline = nullptr;
};

} // namespace kl::views
