#pragma once

#include <QWidget>

class QLabel;

namespace kl::views {

/// A pane that is not filled yet says plainly what will appear in it and when, instead of pretending to work.
class PlaceholderPane : public QWidget {
    Q_OBJECT
public:
    PlaceholderPane(const QString& title, const QString& explanation, QWidget* parent = nullptr);
    void setTitle(const QString& title);
    void setExplanation(const QString& explanation);
    [[nodiscard]] QString explanation() const;

private:
    QLabel* m_title = nullptr;
    QLabel* m_explanation = nullptr;
};

} // namespace kl::views
