#pragma once

#include <QString>

class QApplication;

namespace kl::app {

enum class Theme { Light, Dark };

/// Applies the Fusion style with a light or dark palette to the whole application. Views read colours from
/// the palette, so switching needs no restart.
void applyTheme(QApplication& app, Theme theme);
[[nodiscard]] Theme themeFromName(const QString& name);
[[nodiscard]] QString themeName(Theme theme);

} // namespace kl::app
