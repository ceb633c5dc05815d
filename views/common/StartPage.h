#pragma once

#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace kl::views {

/// What the window shows when nothing is open: the bundled example tasks (title and what each teaches) and
/// the recent files. Activating an entry asks the owner to open its path.
class StartPage : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QString title;
        QString description;
        QString path;
    };

    explicit StartPage(QWidget* parent = nullptr);
    void setExamples(const QList<Entry>& examples);
    void setRecent(const QStringList& paths);
    [[nodiscard]] QListWidget* examplesList() const { return m_examples; }
    [[nodiscard]] QListWidget* recentList() const { return m_recent; }

signals:
    void openRequested(const QString& path);

private:
    void activate(QListWidgetItem* item);

    QListWidget* m_examples = nullptr;
    QListWidget* m_recent = nullptr;
};

} // namespace kl::views
