#include "gui/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace kl::app {

namespace {

QPalette darkPalette() {
    QPalette p;
    const QColor window(37, 40, 46);
    const QColor base(28, 30, 35);
    const QColor text(220, 223, 228);
    const QColor disabled(120, 124, 130);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(150, 154, 160));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 90, 90));
    p.setColor(QPalette::Link, QColor(90, 170, 255));
    p.setColor(QPalette::Highlight, QColor(52, 120, 198));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(60, 64, 70));
    p.setColor(QPalette::Disabled, QPalette::Text, disabled);
    p.setColor(QPalette::Disabled, QPalette::WindowText, disabled);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, disabled);
    return p;
}

} // namespace

void applyTheme(QApplication& app, Theme theme) {
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    app.setPalette(theme == Theme::Dark ? darkPalette() : app.style()->standardPalette());
}

Theme themeFromName(const QString& name) {
    return name == QLatin1String("dark") ? Theme::Dark : Theme::Light;
}

QString themeName(Theme theme) {
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

} // namespace kl::app
