// Renders the timeline widget offscreen over synthetic runs while zooming and panning, and prints frame
// times (median, 95th percentile) and bytes of memory per instruction. Figures only; nothing is asserted.
#include "result/SyntheticRun.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct FrameStats {
    double medianMs = 0;
    double p95Ms = 0;
};

FrameStats measure(kl::views::TimelineView& view, int frames) {
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> times;
    const auto end = view.rows()->endTime();
    for (int f = 0; f < frames; ++f) {
        QElapsedTimer timer;
        timer.start();
        // A frame = one interaction (zoom or pan, which rebuilds the draw list) + one full paint.
        switch (f % 6) {
        case 0: view.fit(); break;
        case 1: view.zoomBy(4.0, 0.3); break;
        case 2: view.panBy(0.2); break;
        case 3: view.zoomBy(40.0, 0.6); break;
        case 4: view.panBy(-0.35); break;
        case 5: view.setVisibleRange(end / 3, end / 3 + end / 7); break;
        }
        view.render(&image);
        times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return {times[times.size() / 2], times[static_cast<std::size_t>(static_cast<double>(times.size()) * 0.95)]};
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int width = 1920;
    std::printf("%-14s %10s %12s %12s %14s %14s %10s\n", "instructions", "width_px", "median_ms", "p95_ms",
                "run_B/instr", "view_B/instr", "marks");
    for (std::size_t count : {std::size_t{1'000'000}, std::size_t{10'000'000}}) {
        auto run = kl::sim::makeSyntheticRun(count);
        kl::views::TimelineView view;
        view.resize(width, 400);
        view.setResult(run);
        const FrameStats stats = measure(view, 120);
        const double runBytes = static_cast<double>(run->timeline.memoryBytes()) / static_cast<double>(count);
        const double viewBytes = static_cast<double>(view.rows()->memoryBytes()) / static_cast<double>(count);
        std::printf("%-14zu %10d %12.3f %12.3f %14.1f %14.1f %10zu\n", count, width, stats.medianMs, stats.p95Ms,
                    runBytes, viewBytes, view.markCount());
    }
    return 0;
}
