#include "common/PlaceholderPane.h"

#include <QLabel>
#include <QVBoxLayout>

namespace kl::views {

PlaceholderPane::PlaceholderPane(const QString& title, const QString& explanation, QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    auto* heading = m_title = new QLabel(title, this);
    QFont font = heading->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    heading->setFont(font);
    heading->setAlignment(Qt::AlignCenter);
    m_explanation = new QLabel(explanation, this);
    m_explanation->setWordWrap(true);
    m_explanation->setAlignment(Qt::AlignCenter);
    m_explanation->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(heading);
    layout->addWidget(m_explanation);
    layout->addStretch(2);
}

void PlaceholderPane::setTitle(const QString& title) {
    m_title->setText(title);
}

void PlaceholderPane::setExplanation(const QString& explanation) {
    m_explanation->setText(explanation);
}

QString PlaceholderPane::explanation() const {
    return m_explanation->text();
}

} // namespace kl::views
