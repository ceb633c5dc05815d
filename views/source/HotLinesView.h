#pragma once

#include <QWidget>

class QLabel;
class QTreeView;

namespace kl::views {

class HotLinesModel;

/// The Hot Lines dock: a QTreeView over a HotLinesModel, hottest line first, with a one-line summary
/// above it. Activating (or selecting) a row emits `lineActivated` so the owner can jump to the line.
class HotLinesView : public QWidget {
    Q_OBJECT
public:
    explicit HotLinesView(QWidget* parent = nullptr);
    [[nodiscard]] HotLinesModel* model() const { return m_model; }
    [[nodiscard]] QTreeView* tree() const { return m_tree; }
    void setSummary(const QString& text);

signals:
    void lineActivated(int line);

private:
    HotLinesModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace kl::views
