#include "gui/SourceLinkController.h"

#include "gui/RunDisplay.h"

#include "source/HeatMargin.h"
#include "source/HotLinesModel.h"
#include "source/HotLinesView.h"
#include "source/LinkPainter.h"
#include "common/EditUndoCommand.h"
#include "source/SourcePane.h"
#include "timeline/TimelineView.h"

#include "ir/KernelIr.h"
#include "result/SimResult.h"
#include "review/ReviewFile.h"
#include "source/CudaLinkComments.h"
#include "source/LinkSuggester.h"
#include "task/TaskSpec.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QUndoStack>

#include <algorithm>

namespace kl::app {

namespace {

QString rangeText(int first, int last) {
    return first == last ? QString::number(first) : QStringLiteral("%1-%2").arg(first).arg(last);
}

QString instructions(std::size_t count) {
    return count == 1 ? QStringLiteral("1 instruction") : QStringLiteral("%1 instructions").arg(count);
}

bool sameRanges(const core::LineLink& a, const core::LineLink& b) {
    return a.cudaFirst == b.cudaFirst && a.cudaLast == b.cudaLast && a.nkiFirst == b.nkiFirst && a.nkiLast == b.nkiLast;
}

} // namespace

SourceLinkController::SourceLinkController(views::SourcePane* cuda, views::SourcePane* nki,
                                           views::TimelineView* timeline, QObject* parent)
    : QObject(parent), m_cuda(cuda), m_nki(nki), m_timeline(timeline), m_hotLines(new views::HotLinesView),
      m_heat(std::make_unique<views::HeatMargin>(nki->editor(), views::SourcePane::kFirstFreeMarker)),
      m_painter(std::make_unique<views::LinkPainter>(cuda, nki)), m_undo(new QUndoStack(this)) {
    connect(m_nki, &views::SourcePane::linesSelected, this, &SourceLinkController::nkiLinesSelected);
    connect(m_cuda, &views::SourcePane::linesSelected, this, &SourceLinkController::cudaLinesSelected);
    connect(m_cuda, &views::SourcePane::lineHovered, this, [this](int line) { m_painter->hoverCuda(m_links, line); });
    connect(m_nki, &views::SourcePane::lineHovered, this, [this](int line) { m_painter->hoverNki(m_links, line); });
    connect(m_timeline, &views::TimelineView::instructionSelected, this, &SourceLinkController::instructionSelected);
    connect(m_nki, &views::SourcePane::fileChosen, this, [this](int index) { showChoice(index); });
    connect(m_hotLines, &views::HotLinesView::lineActivated, this, [this](int line) {
        m_nki->showLine(line);
        nkiLinesSelected(line, line);
    });

    m_linkAction = new QAction(tr("&Link Selected Lines"), this);
    m_linkAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+L")));
    m_linkAction->setToolTip(tr("Link the lines selected in the CUDA pane to those selected in the NKI pane"));
    m_unlinkAction = new QAction(tr("&Unlink"), this);
    m_unlinkAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+L")));
    m_acceptAction = new QAction(tr("&Accept Suggested Link"), this);
    m_dismissAction = new QAction(tr("&Dismiss Suggested Link"), this);
    connect(m_linkAction, &QAction::triggered, this, [this] { linkSelection(); });
    connect(m_unlinkAction, &QAction::triggered, this, [this] { unlinkAtCaret(); });
    connect(m_acceptAction, &QAction::triggered, this, [this] { decideSuggestionAtCaret(core::LinkState::Accepted); });
    connect(m_dismissAction, &QAction::triggered, this, [this] { decideSuggestionAtCaret(core::LinkState::Rejected); });
    for (auto* pane : {m_cuda, m_nki}) {
        for (QAction* action : {m_linkAction, m_unlinkAction, m_acceptAction, m_dismissAction}) {
            pane->addContextAction(action);
        }
    }
}

SourceLinkController::~SourceLinkController() {
    if (m_ownsUndo) {
        m_undo->clear(); // commands refer to m_links
    }
    m_linkGeneration.reset(); // a shared stack outlives m_links: its link commands become no-ops
    if (m_hotLines && m_hotLines->parent() == nullptr) {
        delete m_hotLines; // never docked (tests)
    }
}

views::HotLinesView* SourceLinkController::hotLinesView() const {
    return m_hotLines;
}

QWidget* SourceLinkController::hotLinesWidget() const {
    return m_hotLines;
}

void SourceLinkController::populateMenu(QMenu* menu) const {
    menu->addAction(m_linkAction);
    menu->addAction(m_unlinkAction);
    menu->addSeparator();
    menu->addAction(m_acceptAction);
    menu->addAction(m_dismissAction);
    if (!m_ownsUndo) {
        return; // Edit > Undo and Redo
    }
    menu->addSeparator();
    QAction* undo = m_undo->createUndoAction(menu, tr("Undo Link Edit"));
    QAction* redo = m_undo->createRedoAction(menu, tr("Redo Link Edit"));
    undo->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+Z")));
    redo->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+Shift+Z")));
    menu->addAction(undo);
    menu->addAction(redo);
}

std::vector<core::LineLink> SourceLinkController::storedLinks() {
    if (!m_store) {
        return {};
    }
    auto stored = m_store->list();
    if (!stored) {
        emit problem(QString::fromStdString(stored.error().message), {}, 0);
        return {};
    }
    return *stored;
}

void SourceLinkController::shareUndoStack(QUndoStack* stack) {
    if (m_ownsUndo) {
        delete m_undo;
    }
    m_undo = stack;
    m_ownsUndo = false;
}

void SourceLinkController::sourcesShown() {
    if (m_ownsUndo) {
        m_undo->clear();
    }
    m_linkGeneration = std::make_shared<const int>(0); // earlier link commands refer to the links replaced here
    m_reasons.clear();
    const std::string nki = m_nki->text().toStdString();
    const std::string cuda = m_cuda->text().toStdString();
    const int cudaLines = m_cuda->fileName().isEmpty() ? 0 : m_cuda->lineCount();
    auto parsed = core::parseCudaLinkComments(nki, cudaLines);
    if (m_cuda->fileName().isEmpty() && !parsed.links.empty()) {
        parsed.links.clear(); // a kernel without its CUDA file: nothing to link to
    }
    for (const auto& warning : parsed.warnings) {
        emit problem(QString::fromStdString(warning.message), m_nki->fileName(), warning.line);
    }
    std::vector<core::LineLink> links = parsed.links;
    // Reviewer links and suggestions belong to the kernel file; another file of its package shows only
    // its own `# cuda:` comments.
    const bool kernelFile = showingKernelFile();
    const auto stored = kernelFile ? storedLinks() : std::vector<core::LineLink>{};
    links.insert(links.end(), stored.begin(), stored.end());
    std::vector<core::LinkSuggestion> suggestions;
    if (!m_cuda->fileName().isEmpty() && kernelFile) {
        suggestions = core::LinkSuggester::suggest(cuda, nki, links);
    }
    std::vector<QString> reasons(links.size());
    for (auto& s : suggestions) {
        const bool decided = std::any_of(stored.begin(), stored.end(), [&](const core::LineLink& l) {
            return l.origin == core::LinkOrigin::Suggestion && sameRanges(l, s.link);
        });
        if (!decided) {
            links.push_back(s.link);
            reasons.push_back(QString::fromStdString(s.reason));
        }
    }
    m_links.setStore(nullptr);
    m_links.reset(links);
    m_links.setStore(m_store.get());
    for (std::size_t i = 0; i < m_links.entries().size() && i < reasons.size(); ++i) {
        if (!reasons[i].isEmpty()) {
            m_reasons[m_links.entries()[i].key] = reasons[i];
        }
    }
    m_heat->clear();
    m_hotLines->model()->clear();
    m_highlighted.clear();
    repaint();
}

void SourceLinkController::setReview(core::ReviewFile* review, std::int64_t taskId) {
    m_store = review != nullptr ? std::make_unique<core::ReviewLinkStore>(*review, taskId) : nullptr;
    sourcesShown();
}

QString SourceLinkController::reasonOf(core::LinkSet::Key key) const {
    const auto it = m_reasons.find(key);
    return it == m_reasons.end() ? QString() : it->second;
}

void SourceLinkController::setKernelFile(const QString& absolutePath, const QList<ExtraFile>& extraFiles) {
    m_kernelPath = absolutePath;
    m_extraFiles = extraFiles;
    m_packageBase.clear();
    m_choices.clear();
    m_shownFile = sim::kNoIndex;
    m_nki->setFileChoices({}, -1);
}

bool SourceLinkController::showingKernelFile() const {
    return m_shownFile == sim::kNoIndex || m_shownFile == 0;
}

std::uint32_t SourceLinkController::fileIndex() const {
    if (!m_result || m_shownFile == kForeignFile) {
        return sim::kNoIndex;
    }
    if (m_shownFile != sim::kNoIndex) {
        return m_shownFile;
    }
    // A run of one file belongs to the pane whatever its recorded path; otherwise match on the name.
    const auto index = core::findSourceFile(*m_result, m_nki->fileName().toStdString());
    return index == sim::kNoIndex && m_result->files.size() <= 1 ? sim::kNoIndex : index;
}

void SourceLinkController::offerPackageFiles() {
    // files[0] is the kernel file, relative to the folder the others are relative to: that folder is
    // the kernel's path without that suffix. Without a match (an IR loaded alone) only the kernel file
    // and the task's extra files are offered.
    const auto& files = m_result->files;
    const QString first = files.empty() ? QString() : QString::fromStdString(files.front());
    m_choices.clear();
    if (!first.isEmpty() && m_kernelPath.endsWith(QLatin1Char('/') + first)) {
        m_packageBase = m_kernelPath.left(m_kernelPath.size() - first.size());
        for (std::uint32_t i = 0; i < files.size(); ++i) {
            const QString name = QString::fromStdString(files[i]);
            m_choices.push_back({name, m_packageBase + name, i});
        }
    } else {
        m_choices.push_back({QFileInfo(m_kernelPath).fileName(), m_kernelPath, 0});
    }
    for (const auto& extra : m_extraFiles) {
        if (std::none_of(m_choices.begin(), m_choices.end(), [&](const Choice& c) { return c.path == extra.path; })) {
            m_choices.push_back({extra.label, extra.path, sim::kNoIndex});
        }
    }
    if (m_choices.size() < 2) {
        m_choices.clear();
        return;
    }
    if (m_shownFile == sim::kNoIndex || (m_shownFile != kForeignFile && m_shownFile >= files.size())) {
        m_shownFile = 0;
    }
    QStringList names;
    for (const auto& c : m_choices) {
        names << c.label;
    }
    m_nki->setFileChoices(names, currentChoice());
}

int SourceLinkController::currentChoice() const {
    for (std::size_t i = 0; i < m_choices.size(); ++i) {
        const bool shown =
            m_shownFile == kForeignFile ? m_choices[i].path == m_foreignPath : m_choices[i].runIndex == m_shownFile;
        if (shown) {
            return static_cast<int>(i);
        }
    }
    return 0;
}

bool SourceLinkController::showChoice(int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= m_choices.size()) {
        return false;
    }
    const Choice& c = m_choices[static_cast<std::size_t>(index)];
    if (c.runIndex != sim::kNoIndex) {
        return showKernelFile(c.runIndex);
    }
    return showForeignFile(c.label, c.path);
}

bool SourceLinkController::showForeignFile(const QString& label, const QString& path) {
    auto text = core::readTextFile(path.toStdString());
    if (!text) {
        emit problem(tr("cannot read %1: %2").arg(label, QString::fromStdString(text.error().message)), label, 0);
        m_nki->setCurrentFileChoice(currentChoice());
        return false;
    }
    m_shownFile = kForeignFile; // not in the run: no costs; reviewer links stay off until the kernel is back
    m_foreignPath = path;
    m_nki->showSource(label, QString::fromStdString(*text));
    m_nki->setCurrentFileChoice(currentChoice());
    sourcesShown();
    if (m_result) {
        showCosts();
    }
    return true;
}

bool SourceLinkController::showKernelFile(std::uint32_t index) {
    const auto it =
        std::find_if(m_choices.begin(), m_choices.end(), [&](const Choice& c) { return c.runIndex == index; });
    if (!m_result || it == m_choices.end()) {
        return false;
    }
    if (index == m_shownFile) {
        return true;
    }
    auto text = core::readTextFile(it->path.toStdString());
    if (!text) {
        emit problem(tr("cannot read %1: %2").arg(it->label, QString::fromStdString(text.error().message)), it->label,
                     0);
        m_nki->setCurrentFileChoice(currentChoice());
        return false;
    }
    m_shownFile = index;
    m_nki->showSource(it->label, QString::fromStdString(*text));
    m_nki->setCurrentFileChoice(currentChoice());
    sourcesShown();
    showCosts();
    return true;
}

void SourceLinkController::showKernelLocation(std::uint32_t file, int line) {
    if (file != sim::kNoIndex && m_shownFile != sim::kNoIndex && file != m_shownFile) {
        showKernelFile(file);
    }
    m_nki->showLine(line);
}

void SourceLinkController::showProblemLocation(const QString& file, int line) {
    const bool kernel = file.isEmpty() || m_kernelPath.isEmpty() || m_kernelPath.endsWith(QLatin1Char('/') + file) ||
                        QFileInfo(m_kernelPath).fileName() == file;
    if (kernel) {
        if (!showingKernelFile() && m_result) {
            showKernelFile(0);
        }
        m_nki->showLine(line);
        return;
    }
    if (m_result) {
        for (std::size_t i = 0; i < m_result->files.size(); ++i) {
            if (QString::fromStdString(m_result->files[i]) == file && showKernelFile(static_cast<std::uint32_t>(i))) {
                m_nki->showLine(line);
                return;
            }
        }
    }
    // No run to map it (the trace failed): the nearest folder above the kernel that holds the file.
    for (QDir dir = QFileInfo(m_kernelPath).dir(); !dir.isRoot(); dir.cdUp()) {
        const QString path = dir.filePath(file);
        if (QFileInfo(path).isFile()) {
            if (showForeignFile(file, path)) {
                m_nki->showLine(line);
            }
            return;
        }
    }
    m_nki->showLine(line);
}

void SourceLinkController::showRun(std::shared_ptr<const sim::SimResult> result,
                                   std::shared_ptr<const RunLineCosts> costs) {
    m_result = std::move(result);
    m_costs = m_result ? std::move(costs) : nullptr;
    m_highlighted.clear();
    if (!m_result) {
        m_heat->clear();
        m_hotLines->model()->clear();
        return;
    }
    if (m_shownFile == kForeignFile) { // a file shown for a failed trace: the new run starts on the kernel
        if (auto text = core::readTextFile(m_kernelPath.toStdString())) {
            m_nki->showSource(QFileInfo(m_kernelPath).fileName(), QString::fromStdString(*text));
        }
        m_shownFile = sim::kNoIndex;
        sourcesShown();
    }
    offerPackageFiles();
    showCosts();
}

void SourceLinkController::showCosts() {
    if (m_shownFile == kForeignFile) { // a file the run never executed: nothing to attribute
        m_cost = {};
        m_heat->clear();
        m_hotLines->model()->clear();
        return;
    }
    const std::uint32_t index = fileIndex();
    const core::LineCostTable* built = m_costs ? m_costs->of(index) : nullptr;
    m_cost = built ? *built : core::computeLineCost(m_result->timeline, index);
    m_heat->show(m_cost);
    // A fresh task opens on its docstring; bring the hottest line (and the CUDA it came from) into view.
    if (!m_cost.lines.empty() && m_nki->editor()->firstVisibleLine() == 0) {
        const int hottest = m_cost.byCost().front().line;
        m_nki->editor()->setFirstVisibleLine(std::max(0, hottest - 5));
        if (const auto link = m_links.atNkiLine(hottest)) {
            m_cuda->editor()->setFirstVisibleLine(std::max(0, link->link.cudaFirst - 5));
        }
    }
    m_hotLines->model()->setTable(m_cost, m_nki->text().split(QLatin1Char('\n')));
    const QString file = m_nki->fileName().isEmpty() ? tr("the kernel") : m_nki->fileName();
    const QString lines = m_cost.lines.size() == 1 ? tr("1 line. ") : tr("%1 lines. ").arg(m_cost.lines.size());
    m_hotLines->setSummary(lines + QString::fromStdString(core::laneTimeSummary(m_cost, file.toStdString())));
}

void SourceLinkController::highlightInstructions(std::vector<std::uint32_t> indices) {
    m_highlighted = indices;
    m_timeline->setHighlighted(std::move(indices));
}

void SourceLinkController::nkiLinesSelected(int first, int last) {
    m_lastActive = m_nki;
    const auto link = m_links.atNkiLine(first);
    m_cuda->highlightLines(link ? link->link.cudaFirst : 0, link ? link->link.cudaLast : 0);
    if (!m_result) {
        return;
    }
    auto indices = core::instructionsOnLines(m_result->timeline, fileIndex(), first, last);
    const auto count = indices.size();
    highlightInstructions(std::move(indices));
    const QString lines = first == last ? tr("line %1").arg(first) : tr("lines %1").arg(rangeText(first, last));
    emit statusMessage(tr("%1 on %2").arg(instructions(count), lines));
}

void SourceLinkController::cudaLinesSelected(int first, int last) {
    m_lastActive = m_cuda;
    std::vector<core::LinkSet::Entry> hit;
    for (const auto& e : m_links.visible()) {
        if (e.link.cudaFirst <= last && first <= e.link.cudaLast && e.link.state != core::LinkState::Proposed) {
            hit.push_back(e);
        }
    }
    if (hit.empty()) {
        m_nki->highlightLines(0, 0);
        emit statusMessage(tr("CUDA %1 is not linked to NKI lines").arg(rangeText(first, last)));
        return;
    }
    int nkiFirst = hit.front().link.nkiFirst;
    int nkiLast = hit.front().link.nkiLast;
    std::vector<std::uint32_t> indices;
    for (const auto& e : hit) {
        nkiFirst = std::min(nkiFirst, e.link.nkiFirst);
        nkiLast = std::max(nkiLast, e.link.nkiLast);
        if (m_result) {
            const auto on = core::instructionsOnLines(m_result->timeline, fileIndex(), e.link.nkiFirst, e.link.nkiLast);
            indices.insert(indices.end(), on.begin(), on.end());
        }
    }
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    m_nki->highlightLines(nkiFirst, nkiLast);
    const auto count = indices.size();
    if (m_result) {
        highlightInstructions(std::move(indices));
    }
    emit statusMessage(
        tr("CUDA %1 -> NKI %2: %3").arg(rangeText(first, last), rangeText(nkiFirst, nkiLast), instructions(count)));
}

void SourceLinkController::instructionSelected(qint64 index) {
    if (!m_result || index < 0 || static_cast<std::size_t>(index) >= m_result->timeline.size()) {
        return;
    }
    const int line = static_cast<int>(m_result->timeline.line(static_cast<std::size_t>(index)));
    const auto file = m_result->timeline.file(static_cast<std::size_t>(index));
    const auto link =
        line > 0 && (m_shownFile == sim::kNoIndex || file == m_shownFile) ? m_links.atNkiLine(line) : std::nullopt;
    m_cuda->highlightLines(link ? link->link.cudaFirst : 0, link ? link->link.cudaLast : 0);
}

std::optional<core::LinkSet::Entry> SourceLinkController::linkAtCarets() const {
    const auto nkiLine = m_nki->selectedLines().first;
    const auto cudaLine = m_cuda->selectedLines().first;
    if (m_lastActive == m_cuda && cudaLine > 0) {
        if (auto e = m_links.atCudaLine(cudaLine)) {
            return e;
        }
    }
    if (nkiLine > 0) {
        if (auto e = m_links.atNkiLine(nkiLine)) {
            return e;
        }
    }
    return cudaLine > 0 ? m_links.atCudaLine(cudaLine) : std::nullopt;
}

bool SourceLinkController::linkSelection() {
    if (!showingKernelFile()) {
        emit statusMessage(tr("Links are kept for the kernel file; show %1 to link its lines")
                               .arg(m_result ? QString::fromStdString(m_result->files.front()) : QString()));
        return false;
    }
    const auto [c0, c1] = m_cuda->selectedLines();
    const auto [n0, n1] = m_nki->selectedLines();
    if (c0 == 0 || n0 == 0) {
        emit statusMessage(tr("Select lines in both the CUDA and the NKI pane, then Link"));
        return false;
    }
    if (m_links.findRanges(c0, c1, n0, n1)) {
        emit statusMessage(tr("CUDA %1 and NKI %2 are already linked").arg(rangeText(c0, c1), rangeText(n0, n1)));
        return false;
    }
    core::LineLink link;
    link.cudaFirst = c0;
    link.cudaLast = c1;
    link.nkiFirst = n0;
    link.nkiLast = n1;
    link.origin = core::LinkOrigin::Reviewer;
    link.state = core::LinkState::Accepted;
    // By index, not count: on a shared stack the push may drop a redo tail as long as the command it adds.
    const auto before = m_undo->index();
    push(std::make_unique<core::AddLinkCommand>(link));
    return m_undo->index() > before;
}

bool SourceLinkController::unlinkAtCaret() {
    const auto entry = linkAtCarets();
    if (!entry) {
        emit statusMessage(tr("No link under the caret"));
        return false;
    }
    if (entry->link.origin == core::LinkOrigin::Comment) {
        emit statusMessage(tr("This link comes from a '# cuda:' comment: it is hidden until the task is opened "
                              "again; edit the comment to remove it for good"));
    }
    push(std::make_unique<core::RemoveLinkCommand>(entry->key));
    return true;
}

bool SourceLinkController::decideSuggestionAtCaret(core::LinkState state) {
    const auto entry = linkAtCarets();
    if (!entry || entry->link.state != core::LinkState::Proposed) {
        emit statusMessage(tr("No suggested link under the caret"));
        return false;
    }
    push(std::make_unique<core::SetLinkStateCommand>(entry->key, state));
    return true;
}

void SourceLinkController::push(std::unique_ptr<core::LinkCommand> command) {
    auto* undoable = new views::EditUndoCommand<core::LinkSet>(
        std::move(command), [this] { return &m_links; }, [this] { repaint(); },
        [this](const Error& error) { emit problem(QString::fromStdString(error.message), {}, 0); });
    undoable->bindTo(m_linkGeneration);
    m_undo->push(undoable);
}

void SourceLinkController::repaint() {
    m_painter->paint(m_links);
    std::size_t proposed = 0;
    for (const auto& e : m_links.entries()) {
        proposed += e.link.state == core::LinkState::Proposed ? 1 : 0;
    }
    m_acceptAction->setText(proposed > 0 ? tr("&Accept Suggested Link (%1 open)").arg(proposed)
                                         : tr("&Accept Suggested Link"));
}

} // namespace kl::app
