#include "gui/Workspaces.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QLayout>
#include <QMenu>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>
#include <map>
#include <vector>

namespace kl::app {

namespace {

/// What dock title bars, separators and frames add to a side's docks' own minimum heights (an estimate).
constexpr int kDockFrameAllowance = 48;

struct DefaultLayout {
    Workspaces::Kind kind;
    const char* name;
    const char* label;
    const char* shortcut;
    std::initializer_list<const char*> shown; ///< every other dock is hidden
};

const DefaultLayout kLayouts[] = {
    {Workspaces::Kind::Review,
     "review",
     QT_TRANSLATE_NOOP("Workspaces", "&Review"),
     "Ctrl+Alt+1",
     {"tasksDock", "hotLinesDock", "inspectorDock", "rubricDock", "annotationsDock", "findingsDock"}},
    {Workspaces::Kind::Teaching,
     "teaching",
     QT_TRANSLATE_NOOP("Workspaces", "&Teaching"),
     "Ctrl+Alt+2",
     {"lessonDock", "compareDock", "inspectorDock"}},
    {Workspaces::Kind::Compare,
     "compare",
     QT_TRANSLATE_NOOP("Workspaces", "&Compare"),
     "Ctrl+Alt+3",
     {"compareDock", "whatIfDock", "hotLinesDock", "inspectorDock"}},
};

const DefaultLayout& layoutOf(Workspaces::Kind kind) {
    for (const DefaultLayout& layout : kLayouts) {
        if (layout.kind == kind) {
            return layout;
        }
    }
    return kLayouts[0];
}

QString stateKey(Workspaces::Kind kind) {
    return QStringLiteral("workspace/%1/state").arg(Workspaces::name(kind));
}

} // namespace

Workspaces::Workspaces(QMainWindow* window, QMenu* viewMenu) : QObject(window), m_window(window) {
    QMenu* menu = viewMenu->addMenu(tr("&Workspace"));
    m_actions = new QActionGroup(this);
    for (const DefaultLayout& layout : kLayouts) {
        QAction* action = menu->addAction(tr(layout.label), this, [this, kind = layout.kind] { switchTo(kind); });
        action->setShortcut(QKeySequence(QString::fromLatin1(layout.shortcut)));
        action->setCheckable(true);
        action->setChecked(layout.kind == m_current);
        action->setData(static_cast<int>(layout.kind));
        m_actions->addAction(action);
    }
    // The side columns run the window's full height and the bottom docks sit under the centre only: a tall
    // side dock (what-if) and a tall bottom dock (compare) then share the height instead of adding up.
    m_window->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    m_window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    m_window->installEventFilter(this);
}

QString Workspaces::name(Kind kind) {
    return QString::fromLatin1(layoutOf(kind).name);
}

bool Workspaces::fromName(const QString& name, Kind* kind) {
    for (const DefaultLayout& layout : kLayouts) {
        if (name.compare(QLatin1String(layout.name), Qt::CaseInsensitive) == 0) {
            *kind = layout.kind;
            return true;
        }
    }
    return false;
}

void Workspaces::saveCurrent() const {
    QSettings settings;
    settings.setValue(stateKey(m_current), m_window->saveState());
    settings.setValue(QStringLiteral("workspace/current"), name(m_current));
}

void Workspaces::restoreLast() {
    Kind kind = Kind::Review;
    if (fromName(QSettings().value(QStringLiteral("workspace/current")).toString(), &kind)) {
        m_current = kind;
        for (QAction* action : m_actions->actions()) {
            action->setChecked(action->data().toInt() == static_cast<int>(kind));
        }
    }
}

void Workspaces::switchTo(Kind kind) {
    if (kind != m_current) {
        saveCurrent();
    }
    m_current = kind;
    for (QAction* action : m_actions->actions()) {
        action->setChecked(action->data().toInt() == static_cast<int>(kind));
    }
    const QByteArray saved = QSettings().value(stateKey(kind)).toByteArray();
    if (saved.isEmpty() || !m_window->restoreState(saved)) {
        applyDefault(kind);
    }
    QSettings().setValue(QStringLiteral("workspace/current"), name(kind));
    keepOnScreen();
}

void Workspaces::applyDefault(Kind kind) {
    const DefaultLayout& layout = layoutOf(kind);
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
        bool shown = false;
        for (const char* name : layout.shown) {
            shown = shown || dock->objectName() == QLatin1String(name);
        }
        dock->setVisible(shown);
    }
}

void Workspaces::tabifyCrowdedSides(int roomHeight) {
    // Docks stacked on one side each insist on their minimum height; as tabs they share one. Only a side whose
    // stacked minimum heights do not fit is tabbed, and only as far as needed (the lowest stacks join the one
    // above them first), so the inspector and the rubric stay side by side wherever the screen allows.
    std::map<Qt::DockWidgetArea, std::vector<std::vector<QDockWidget*>>> sides; // area -> stacks, top first
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!dock->isVisible() || dock->isFloating()) {
            continue;
        }
        auto& stacks = sides[m_window->dockWidgetArea(dock)];
        auto same = std::ranges::find_if(
            stacks, [&](const auto& stack) { return m_window->tabifiedDockWidgets(stack.front()).contains(dock); });
        if (same == stacks.end()) {
            stacks.push_back({dock});
        } else {
            same->push_back(dock);
        }
    }
    const auto stackHeight = [](const std::vector<QDockWidget*>& stack) {
        int h = 0;
        for (QDockWidget* dock : stack) {
            h = std::max(h, dock->minimumSizeHint().height());
        }
        return h;
    };
    for (auto& [area, stacks] : sides) {
        if (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea) {
            continue; // top and bottom docks share the width, not the height
        }
        std::ranges::sort(stacks, {}, [](const auto& stack) { return stack.front()->y(); });
        const auto total = [&] {
            int h = 0;
            for (const auto& stack : stacks) {
                h += stackHeight(stack);
            }
            return h;
        };
        while (stacks.size() > 1 && total() > roomHeight) {
            auto last = stacks.back();
            stacks.pop_back();
            for (QDockWidget* dock : last) {
                m_window->tabifyDockWidget(stacks.back().front(), dock);
                stacks.back().push_back(dock);
            }
        }
    }
}

void Workspaces::tabifyEverySide() {
    std::map<Qt::DockWidgetArea, QDockWidget*> first;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!dock->isVisible() || dock->isFloating()) {
            continue;
        }
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        auto it = first.find(area);
        if (it == first.end()) {
            first.emplace(area, dock);
        } else if (!m_window->tabifiedDockWidgets(it->second).contains(dock)) {
            m_window->tabifyDockWidget(it->second, dock);
        }
    }
}

void Workspaces::keepOnScreen() {
    QScreen* screen = m_window->screen();
    if (screen == nullptr || m_fitting || !m_window->isVisible() || m_window->isMaximized() ||
        m_window->isFullScreen()) {
        return;
    }
    m_fitting = true;
    const QRect available = screen->availableGeometry();
    const QSize frame = m_window->frameGeometry().size() - m_window->geometry().size();
    const QSize room = available.size() - frame;
    if (m_window->minimumSizeHint().width() > room.width() || m_window->minimumSizeHint().height() > room.height()) {
        // What the side docks may take: the window's height less the menu and status bars and the dock titles.
        const int bars = m_window->menuBar()->sizeHint().height() + m_window->statusBar()->sizeHint().height();
        tabifyCrowdedSides(room.height() - bars - kDockFrameAllowance);
        m_window->layout()->activate();
        if (m_window->minimumSizeHint().height() > room.height() ||
            m_window->minimumSizeHint().width() > room.width()) {
            tabifyEverySide(); // the centre is what does not fit: every side shares one tab stack
            m_window->layout()->activate();
        } // the new, smaller minimum size must hold before the resize below
    }
    if (m_window->width() > room.width() || m_window->height() > room.height()) {
        m_window->resize(m_window->size().boundedTo(room));
    }
    if (!available.contains(m_window->frameGeometry())) {
        m_window->move(
            std::max(available.left(), std::min(m_window->x(), available.right() - m_window->frameGeometry().width())),
            std::max(available.top(),
                     std::min(m_window->y(), available.bottom() - m_window->frameGeometry().height())));
    }
    m_fitting = false;
}

bool Workspaces::eventFilter(QObject* watched, QEvent* event) {
    // A dock shown from a menu can make the main window's layout grow it: pull it back after the layout ran.
    // Only growth past the screen counts: a window the user (or a test) sized larger on purpose stays.
    if (watched == m_window && event->type() == QEvent::Resize && !m_fitting && m_window->isVisible() &&
        m_window->screen() != nullptr) {
        const auto* resize = static_cast<QResizeEvent*>(event);
        const QSize room = m_window->screen()->availableGeometry().size();
        const auto fits = [&](QSize s) { return s.width() <= room.width() && s.height() <= room.height(); };
        if (resize->oldSize().isValid() && fits(resize->oldSize()) && !fits(resize->size())) {
            QTimer::singleShot(0, this, &Workspaces::keepOnScreen);
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace kl::app
