#pragma once

#include "source/LineCost.h"
#include "source/LinkSet.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <map>
#include <memory>
#include <vector>

class QAction;
class QMenu;
class QUndoStack;
class QWidget;

namespace kl::core {
class ReviewFile;
}

namespace kl::sim {
struct SimResult;
}

namespace kl::views {
class HeatMargin;
class HotLinesView;
class LinkPainter;
class SourcePane;
class TimelineView;
} // namespace kl::views

namespace kl::app {

struct RunLineCosts;

/// Owns the wiring between the CUDA pane, the NKI pane, the timeline and the review file's line links;
/// the three never know each other.
///
/// - NKI <-> timeline: selecting NKI lines (caret or selection) dims every instruction not on them
///   (TimelineView::setHighlighted) and reports "42 instructions on lines 30-33"; selecting an
///   instruction highlights its line (MainWindow calls SourcePane::showLine) and the CUDA range linked to it.
/// - Per-line cost: on every run, core::computeLineCost feeds the NKI heat margin and the Hot Lines list.
/// - CUDA <-> NKI links: `# cuda:` comments, reviewer links (Link/Unlink, undoable on `undoStack()`, the
///   review's stack in the main window),
///   and structural suggestions the reviewer accepts or dismisses; painted alike in both panes, the
///   partner of the hovered range lit up. With a review open (`setReview`), reviewer links and decided
///   suggestions are written through to its `link` table; without one they live in memory.
///
/// State: no sources -> `sourcesShown()` (links parsed and suggested) -> `showRun()` (costs). New sources end
/// the link edits made before them (dropped from the stack when reached); a new run of the same task keeps
/// links and history.
class SourceLinkController : public QObject {
    Q_OBJECT
public:
    SourceLinkController(views::SourcePane* cuda, views::SourcePane* nki, views::TimelineView* timeline,
                         QObject* parent = nullptr);
    ~SourceLinkController() override;

    /// The panes show new sources: parse `# cuda:` comments, suggest links, reload stored links.
    void sourcesShown();
    /// `costs`: the run's line costs built off the GUI thread (RunDisplay); without them they are computed here.
    void showRun(std::shared_ptr<const sim::SimResult> result, std::shared_ptr<const RunLineCosts> costs = nullptr);
    /// The kernel file the NKI pane shows at first; its run's other files (a package's modules) are offered
    /// in the pane's file chooser, found relative to it.
    struct ExtraFile {
        QString label; ///< as the chooser lists it (relative to the task folder)
        QString path;  ///< absolute
    };
    void setKernelFile(const QString& absolutePath, const QList<ExtraFile>& extraFiles = {});
    /// Shows file `index` of the run (0: the kernel file); false when it cannot be shown.
    bool showKernelFile(std::uint32_t index);
    /// Shows `line` of the run's file `file`, switching files first when the chooser offers several.
    void showKernelLocation(std::uint32_t file, int line);
    /// Shows `line` of `file` as a front-end error names it (relative to the kernel's package or task
    /// folder): the kernel file, or another file found above the kernel's folder.
    void showProblemLocation(const QString& file, int line);
    /// Links of `taskId` are read from and written to `review` (nullptr: in memory only).
    void setReview(core::ReviewFile* review, std::int64_t taskId);

    /// Adds the Links menu entries (link, unlink, accept, dismiss; undo and redo only while the controller has
    /// its own stack) to `menu`.
    void populateMenu(QMenu* menu) const;
    [[nodiscard]] views::HotLinesView* hotLinesView() const;
    /// The Hot Lines list, for a dock (which then owns it).
    [[nodiscard]] QWidget* hotLinesWidget() const;
    /// The stack link edits go to: the controller's own, or the one given to `shareUndoStack`.
    [[nodiscard]] QUndoStack* undoStack() const { return m_undo; }
    /// Link edits go to `stack` from now on (MainWindow gives the review's, so Edit > Undo undoes them in
    /// order with every other review edit); the controller's own stack is dropped.
    void shareUndoStack(QUndoStack* stack);
    [[nodiscard]] const core::LinkSet& links() const { return m_links; }
    [[nodiscard]] const views::LinkPainter& painter() const { return *m_painter; }
    [[nodiscard]] const core::LineCostTable& lineCost() const { return m_cost; }
    [[nodiscard]] const std::vector<std::uint32_t>& highlightedInstructions() const { return m_highlighted; }
    [[nodiscard]] QString reasonOf(core::LinkSet::Key key) const;

    /// The actions, public so tests and menus can trigger them.
    bool linkSelection(); ///< links the selected CUDA lines to the selected NKI lines
    bool unlinkAtCaret(); ///< removes the link under the NKI caret (or the CUDA caret)
    bool decideSuggestionAtCaret(core::LinkState state);

signals:
    void statusMessage(const QString& text);
    void problem(const QString& text, const QString& file, int line);

private:
    void nkiLinesSelected(int first, int last);
    void cudaLinesSelected(int first, int last);
    void instructionSelected(qint64 index);
    void highlightInstructions(std::vector<std::uint32_t> indices);
    void push(std::unique_ptr<core::LinkCommand> command);
    void repaint();
    [[nodiscard]] std::optional<core::LinkSet::Entry> linkAtCarets() const;
    [[nodiscard]] std::uint32_t fileIndex() const;
    [[nodiscard]] bool showingKernelFile() const;
    void offerPackageFiles();
    [[nodiscard]] int currentChoice() const;
    bool showChoice(int index);
    bool showForeignFile(const QString& label, const QString& path);
    void showCosts();
    [[nodiscard]] std::vector<core::LineLink> storedLinks();

    views::SourcePane* m_cuda;
    views::SourcePane* m_nki;
    views::TimelineView* m_timeline;
    QPointer<views::HotLinesView> m_hotLines; ///< owned by its dock once MainWindow docks it
    std::unique_ptr<views::HeatMargin> m_heat;
    std::unique_ptr<views::LinkPainter> m_painter;
    QUndoStack* m_undo;
    bool m_ownsUndo = true;
    std::shared_ptr<const int> m_linkGeneration =
        std::make_shared<const int>(0); ///< see views::EditUndoCommand::bindTo
    QAction* m_linkAction = nullptr;
    QAction* m_unlinkAction = nullptr;
    QAction* m_acceptAction = nullptr;
    QAction* m_dismissAction = nullptr;
    core::LinkSet m_links;
    std::unique_ptr<core::ReviewLinkStore> m_store;
    std::map<core::LinkSet::Key, QString> m_reasons;
    std::shared_ptr<const sim::SimResult> m_result;
    core::LineCostTable m_cost;
    std::shared_ptr<const RunLineCosts> m_costs; ///< of m_result, when built by the worker
    std::vector<std::uint32_t> m_highlighted;
    views::SourcePane* m_lastActive = nullptr;                 ///< the pane the user touched last, for Unlink/Accept
    static constexpr std::uint32_t kForeignFile = 0xfffffffeu; ///< m_shownFile: a file not in the run
    QString m_kernelPath;                                      ///< absolute path of the kernel file (setKernelFile)
    QString m_packageBase; ///< folder the run's `files` are relative to; empty: not found
    struct Choice {
        QString label;
        QString path;
        std::uint32_t runIndex; ///< index into the run's files, sim::kNoIndex for a task's extra file
    };
    std::vector<Choice> m_choices; ///< what the NKI pane's file chooser offers, in its order
    QList<ExtraFile> m_extraFiles;
    QString m_foreignPath; ///< the file shown when m_shownFile == kForeignFile
    std::uint32_t m_shownFile =
        0xffffffffu; ///< index of the shown file in the run (0xffffffff = sim::kNoIndex: one file)
};

} // namespace kl::app
