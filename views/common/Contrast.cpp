#include "common/Contrast.h"

#include <QPalette>

#include <algorithm>
#include <cmath>

namespace kl::views {

namespace {

double linear(double channel) {
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

} // namespace

double relativeLuminance(const QColor& colour) {
    const QColor c = colour.toRgb();
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor ensureContrast(const QColor& colour, const QColor& background, double minRatio) {
    const bool lighten = relativeLuminance(background) < 0.18;
    QColor c = colour.toHsl();
    const int alpha = colour.alpha();
    for (int step = 0; step < 40 && contrastRatio(c, background) < minRatio; ++step) {
        const float l = c.lightnessF();
        const float next = lighten ? std::min(1.0F, l + 0.03F) : std::max(0.0F, l - 0.03F);
        if (next == l) {
            break;
        }
        c.setHslF(c.hslHueF(), c.hslSaturationF(), next);
    }
    QColor out = c.toRgb();
    out.setAlpha(alpha);
    return out;
}

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}

} // namespace kl::views
