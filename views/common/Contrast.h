#pragma once

#include <QColor>

class QPalette;

namespace kl::views {

/// WCAG 2 relative luminance of an sRGB colour (0 black .. 1 white), alpha ignored.
[[nodiscard]] double relativeLuminance(const QColor& colour);

/// WCAG 2 contrast ratio of two colours, 1 (same) .. 21 (black on white). Text wants 4.5, marks 3.
[[nodiscard]] double contrastRatio(const QColor& a, const QColor& b);

/// `colour` made lighter (on a dark background) or darker (on a light one), keeping its hue, until it has at
/// least `minRatio` against `background`, or as far as it can go.
[[nodiscard]] QColor ensureContrast(const QColor& colour, const QColor& background, double minRatio);

/// Whether a palette is a dark one: its base (where data is drawn) is darker than mid grey.
[[nodiscard]] bool isDarkPalette(const QPalette& palette);

} // namespace kl::views
