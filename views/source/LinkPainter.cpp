#include "source/LinkPainter.h"

#include "source/SourcePane.h"

#include <algorithm>

namespace kl::views {

QColor LinkPainter::paletteColour(int index) {
    // Light tints that keep syntax colours readable on top of them.
    static const QColor kPalette[kPaletteSize] = {QColor(198, 232, 198), QColor(200, 220, 250), QColor(250, 214, 214),
                                                  QColor(238, 222, 250), QColor(250, 236, 196), QColor(196, 236, 236),
                                                  QColor(250, 214, 240), QColor(222, 238, 196), QColor(214, 214, 250),
                                                  QColor(250, 226, 208), QColor(208, 240, 220)};
    return kPalette[((index % kPaletteSize) + kPaletteSize) % kPaletteSize];
}

QColor LinkPainter::suggestionColour() {
    return QColor(226, 226, 226);
}

void LinkPainter::paint(const core::LinkSet& set) {
    auto entries = set.visible();
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return std::pair(a.link.cudaFirst, a.link.nkiFirst) < std::pair(b.link.cudaFirst, b.link.nkiFirst);
    });
    m_colours.clear();
    std::vector<PaneRange> cuda;
    std::vector<PaneRange> nki;
    // Wide ranges first so that narrower ones painted later (higher markers) show on top of them.
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return a.link.nkiLast - a.link.nkiFirst > b.link.nkiLast - b.link.nkiFirst;
    });
    int next = 0;
    std::vector<std::pair<int, core::LinkSet::Key>> order;
    for (const auto& e : entries) {
        order.emplace_back(e.link.cudaFirst * 10000 + e.link.nkiFirst, e.key);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [_, key] : order) {
        const auto* entry = set.find(key);
        m_colours[key] = entry->link.state == core::LinkState::Proposed ? suggestionColour() : paletteColour(next++);
    }
    for (const auto& e : entries) {
        const QColor colour = m_colours[e.key];
        const QString tip = QString::fromStdString(core::describeLink(e.link));
        cuda.push_back({e.link.cudaFirst, e.link.cudaLast, colour, tip});
        nki.push_back({e.link.nkiFirst, e.link.nkiLast, colour, tip});
    }
    m_cuda->setLinkRanges(cuda);
    m_nki->setLinkRanges(nki);
}

QColor LinkPainter::colourOf(core::LinkSet::Key key) const {
    const auto it = m_colours.find(key);
    return it == m_colours.end() ? QColor() : it->second;
}

void LinkPainter::hoverCuda(const core::LinkSet& set, int line) {
    const auto entry = line > 0 ? set.atCudaLine(line) : std::nullopt;
    m_nki->setPartnerRange(entry ? entry->link.nkiFirst : 0, entry ? entry->link.nkiLast : 0);
    m_cuda->setPartnerRange(0, 0);
}

void LinkPainter::hoverNki(const core::LinkSet& set, int line) {
    const auto entry = line > 0 ? set.atNkiLine(line) : std::nullopt;
    m_cuda->setPartnerRange(entry ? entry->link.cudaFirst : 0, entry ? entry->link.cudaLast : 0);
    m_nki->setPartnerRange(0, 0);
}

} // namespace kl::views
