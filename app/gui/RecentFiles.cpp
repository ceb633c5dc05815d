#include "gui/RecentFiles.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace kl::app {

namespace {
constexpr auto kSettingsKey = "recentFiles";
}

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {
    m_entries = QSettings().value(kSettingsKey).toStringList();
}

void RecentFiles::add(const QString& path) {
    const QString clean = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    m_entries.removeAll(clean);
    m_entries.prepend(clean);
    while (m_entries.size() > kMaxEntries) {
        m_entries.removeLast();
    }
    save();
    rebuildMenu();
}

void RecentFiles::clear() {
    m_entries.clear();
    save();
    rebuildMenu();
}

void RecentFiles::attachMenu(QMenu* menu) {
    m_menu = menu;
    rebuildMenu();
}

void RecentFiles::save() const {
    QSettings().setValue(kSettingsKey, m_entries);
}

void RecentFiles::rebuildMenu() {
    if (m_menu == nullptr) {
        return;
    }
    m_menu->clear();
    int index = 1;
    for (const QString& path : m_entries) {
        const QString label = index < 10 ? QStringLiteral("&%1 %2").arg(index).arg(path) : path;
        QAction* action = m_menu->addAction(label);
        action->setEnabled(QFileInfo::exists(path));
        connect(action, &QAction::triggered, this, [this, path] { emit openRequested(path); });
        ++index;
    }
    if (m_entries.isEmpty()) {
        m_menu->addAction(tr("No recent files"))->setEnabled(false);
    }
    m_menu->addSeparator();
    QAction* clearAction = m_menu->addAction(tr("Clear Recent Files"));
    clearAction->setEnabled(!m_entries.isEmpty());
    connect(clearAction, &QAction::triggered, this, &RecentFiles::clear);
}

} // namespace kl::app
