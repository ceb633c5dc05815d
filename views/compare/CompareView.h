#pragma once

#include "result/SimResult.h"

#include <QWidget>

#include <memory>

class QLabel;
class QSplitter;
class QTableView;

namespace kl::views {

class ComparisonModel;
class SourcePane;
class TimelineView;

/// One side of a comparison as the compare view shows it.
struct CompareSide {
    std::shared_ptr<const sim::SimResult> result;
    QString label;      ///< "matmul_hoisted on trn1"
    QString sourceName; ///< NKI file name for the pane title
    QString sourceText; ///< NKI source (read-only)
};

/// Two runs on one time scale: timeline A over timeline B (zoom or pan either, the other follows), the delta
/// table (core::RunComparison through ComparisonModel) and both NKI sources side by side, read-only.
///
/// The shorter run is drawn against the longer one's time scale: the views' ranges are kept equal, so a run
/// that finishes early ends early on screen. It never talks to runners or files: its owner hands it runs.
class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    void setRuns(const CompareSide& a, const CompareSide& b);
    /// One run alone (a lesson step without a comparison): A's timeline and figures, its NKI source beside
    /// the CUDA source it was migrated from (`cudaName`/`cudaText`, highlighted with highlightCudaLines).
    void setSingleRun(const CompareSide& a, const QString& cudaName, const QString& cudaText);
    [[nodiscard]] bool isSingle() const { return m_single; }
    void highlightCudaLines(int first, int last);
    /// Back to the empty state: only `message` (progress or an error) shows, not the previous comparison.
    void clear(const QString& message);
    /// Whether timelines, figures and sources are shown; until a comparison arrives only the headline is, so an
    /// empty compare dock takes a line's height, not half the window.
    [[nodiscard]] bool isShowingRuns() const;
    /// Shows [t0, t1] in both timelines.
    void setTimeRange(sim::TimePs t0, sim::TimePs t1);
    /// Highlights NKI lines in A's pane and (when the same file is shown) in B's; (0, 0) clears.
    void highlightNkiLines(int first, int last);
    /// A note over [t0, t1] on timeline A (a lesson step's annotation); empty text clears.
    /// Cleared by every new comparison (setRuns, setSingleRun, clear): the owner sets it after the runs.
    void setNote(const QString& text, sim::TimePs t0, sim::TimePs t1);
    [[nodiscard]] bool hasNote() const;
    /// The note label (a lesson's annotation), for tests of its theme.
    [[nodiscard]] QLabel* noteLabel() const { return m_note; }

    [[nodiscard]] TimelineView* timelineA() const { return m_timelineA; }
    [[nodiscard]] TimelineView* timelineB() const { return m_timelineB; }
    [[nodiscard]] ComparisonModel* model() const { return m_model; }
    [[nodiscard]] SourcePane* sourceA() const { return m_sourceA; }
    [[nodiscard]] SourcePane* sourceB() const { return m_sourceB; }
    [[nodiscard]] SourcePane* cudaSource() const { return m_cuda; }
    [[nodiscard]] sim::TimePs commonEnd() const { return m_end; }

signals:
    /// The panes appeared (a comparison or a single run arrived): the dock holding the view may need height.
    void runsShown();

protected:
    void changeEvent(QEvent* event) override;

private:
    void follow(TimelineView* leader, TimelineView* follower);
    void showPanes(bool shown);
    /// The note as a sticky note in the current palette: pale yellow on light, dark amber on dark.
    void styleNote();

    QLabel* m_headline = nullptr;
    QLabel* m_emptyHint = nullptr; ///< what the view will show, in the empty state
    QLabel* m_labelA = nullptr;
    QLabel* m_labelB = nullptr;
    QLabel* m_note = nullptr;
    TimelineView* m_timelineA = nullptr;
    TimelineView* m_timelineB = nullptr;
    ComparisonModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    SourcePane* m_sourceA = nullptr;
    SourcePane* m_sourceB = nullptr;
    SourcePane* m_cuda = nullptr; ///< shown instead of B's NKI source for a single run
    QSplitter* m_splitter = nullptr;
    sim::TimePs m_end = 0;
    bool m_syncing = false;
    bool m_single = false;
};

} // namespace kl::views
