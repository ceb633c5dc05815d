#pragma once

#include "gui/RunJob.h"

#include <QString>

#include <functional>
#include <memory>

namespace kl::app {

/// The first run of a GUI session begun before the window is built, so that tracing, most of the time from launch
/// to timeline, overlaps building the window.
///
/// It starts only for a task folder given on the command line that the user's trust store already trusts: exactly
/// the run the window would start at once without asking, so nothing runs earlier that would have waited for the
/// user's consent. SimulationRunner adopts it when its run asks for the same request (runRequestFor); a different
/// request, or nobody adopting it, cancels it. Its progress so far is replayed to the adopter in order.
class RunHeadStart {
public:
    /// Starts the run for `path` when it is a task folder the trust store at `trustStore` trusts as it is; null
    /// otherwise, with no error: the window opens the path and reports what is wrong with it.
    [[nodiscard]] static std::shared_ptr<RunHeadStart> forPath(const QString& path, const QString& trustStore);

    /// Starts `request` now, on a thread of its own.
    explicit RunHeadStart(core::RunRequest request);
    /// Cancels the run unless it was adopted; never waits for it.
    ~RunHeadStart();
    RunHeadStart(const RunHeadStart&) = delete;
    RunHeadStart& operator=(const RunHeadStart&) = delete;

    [[nodiscard]] const core::RunRequest& request() const { return m_request; }
    /// Taken over by a runner (SimulationRunner::start, on its thread): from now on only the adopter cancels it.
    void adopt();
    /// For the adopting worker thread: sends the progress reported so far, then every later report, to
    /// `onProgress`; cancels the run when `shouldCancel` says so; waits for the end and returns it.
    [[nodiscard]] RunJobResult join(std::function<bool()> shouldCancel,
                                    std::function<void(const core::RunProgress&)> onProgress);
    void cancel();

    [[nodiscard]] bool adopted() const;
    [[nodiscard]] bool cancelled() const;
    /// The run is over (finished, failed or stopped by a cancel).
    [[nodiscard]] bool ended() const;

private:
    struct Shared;
    core::RunRequest m_request;
    std::shared_ptr<Shared> m_shared;
};

} // namespace kl::app
