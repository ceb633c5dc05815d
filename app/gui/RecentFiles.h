#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace kl::app {

/// The most recently opened task folders and review files, newest first, kept in QSettings and shown in a
/// File > Open Recent menu that rebuilds itself whenever the list changes. Entries that no longer exist on
/// disk are shown disabled rather than dropped, since a network drive may only be unmounted.
class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxEntries = 10;

    explicit RecentFiles(QObject* parent = nullptr);
    void add(const QString& path);
    void clear();
    [[nodiscard]] QStringList entries() const { return m_entries; }
    void attachMenu(QMenu* menu);

signals:
    void openRequested(const QString& path);

private:
    void save() const;
    void rebuildMenu();

    QStringList m_entries;
    QMenu* m_menu = nullptr;
};

} // namespace kl::app
