#pragma once

#include "source/LinkSet.h"

#include <QColor>

#include <map>

namespace kl::views {

class SourcePane;

/// Paints a LinkSet onto the CUDA and NKI panes: each linked range in its own colour, the same in both
/// panes (as Compiler Explorer does), open suggestions in one pale grey, and on hover the partner of the
/// range under the mouse. Colours follow the links' order by CUDA line, so they stay put as links come
/// and go elsewhere in the file.
class LinkPainter {
public:
    LinkPainter(SourcePane* cuda, SourcePane* nki) : m_cuda(cuda), m_nki(nki) {}

    void paint(const core::LinkSet& set);
    /// The mouse is over `line` of the CUDA (or NKI) pane (0: nowhere): mark the partner range.
    void hoverCuda(const core::LinkSet& set, int line);
    void hoverNki(const core::LinkSet& set, int line);
    [[nodiscard]] QColor colourOf(core::LinkSet::Key key) const;

    static constexpr int kPaletteSize = 11;
    [[nodiscard]] static QColor paletteColour(int index);
    [[nodiscard]] static QColor suggestionColour();

private:
    SourcePane* m_cuda;
    SourcePane* m_nki;
    std::map<core::LinkSet::Key, QColor> m_colours;
};

} // namespace kl::views
