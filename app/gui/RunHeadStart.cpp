#include "gui/RunHeadStart.h"

#include "gui/TimingLog.h"

#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "trust/TrustStore.h"

#include <QFileInfo>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace kl::app {

struct RunHeadStart::Shared {
    std::mutex mutex;
    std::condition_variable endedSignal;
    std::optional<RunJobResult> result;
    std::vector<core::RunProgress> reported;                  ///< replayed to the adopter
    std::function<void(const core::RunProgress&)> onProgress; ///< the adopter's, once adopted
    std::function<bool()> adopterCancels;
    bool cancelled = false;
    bool adopted = false;
    bool ended = false;
};

std::shared_ptr<RunHeadStart> RunHeadStart::forPath(const QString& path, const QString& trustStore) {
    const QFileInfo info(path);
    if (!info.isDir() || !QFileInfo::exists(info.absoluteFilePath() + QStringLiteral("/task.json"))) {
        return nullptr;
    }
    const QString folder = info.absoluteFilePath();
    // Read only: a store that does not load is the window's to report and set aside (WorkspaceTrust).
    auto store = core::TrustStore::load(trustStore.toStdString());
    auto subject = core::describeTaskFolder(folder.toStdString());
    if (!store || !subject || !store->decide(*subject, core::examplesDir()).trusted()) {
        return nullptr;
    }
    TimingLog::mark("run started before the window");
    return std::make_shared<RunHeadStart>(runRequestFor(folder, {}));
}

RunHeadStart::RunHeadStart(core::RunRequest request)
    : m_request(std::move(request)), m_shared(std::make_shared<Shared>()) {
    std::thread([shared = m_shared, request = m_request] {
        auto shouldCancel = [&shared] {
            std::function<bool()> adopterCancels;
            {
                const std::lock_guard lock(shared->mutex);
                if (shared->cancelled) {
                    return true;
                }
                adopterCancels = shared->adopterCancels;
            }
            return adopterCancels && adopterCancels();
        };
        auto onProgress = [&](const core::RunProgress& progress) {
            TimingLog::mark(stageMark(progress.stage)); // as it happens: an adopter would mark it late
            // Under the lock, so that the adopter sees the replayed reports and the new ones in order.
            const std::lock_guard lock(shared->mutex);
            shared->reported.push_back(progress);
            if (shared->onProgress) {
                shared->onProgress(progress);
            }
        };
        RunJobResult result = runJob(request, shouldCancel, onProgress);
        const std::lock_guard lock(shared->mutex);
        shared->result = std::move(result);
        shared->ended = true;
        shared->endedSignal.notify_all();
    }).detach();
}

RunHeadStart::~RunHeadStart() {
    const std::lock_guard lock(m_shared->mutex);
    if (!m_shared->adopted) {
        m_shared->cancelled = true;
    }
}

void RunHeadStart::cancel() {
    const std::lock_guard lock(m_shared->mutex);
    m_shared->cancelled = true;
}

void RunHeadStart::adopt() {
    const std::lock_guard lock(m_shared->mutex);
    m_shared->adopted = true;
}

bool RunHeadStart::adopted() const {
    const std::lock_guard lock(m_shared->mutex);
    return m_shared->adopted;
}

bool RunHeadStart::cancelled() const {
    const std::lock_guard lock(m_shared->mutex);
    return m_shared->cancelled;
}

bool RunHeadStart::ended() const {
    const std::lock_guard lock(m_shared->mutex);
    return m_shared->ended;
}

RunJobResult RunHeadStart::join(std::function<bool()> shouldCancel,
                                std::function<void(const core::RunProgress&)> onProgress) {
    std::unique_lock lock(m_shared->mutex);
    m_shared->adopted = true;
    m_shared->adopterCancels = std::move(shouldCancel);
    for (const core::RunProgress& progress : m_shared->reported) {
        onProgress(progress);
    }
    m_shared->onProgress = std::move(onProgress);
    m_shared->endedSignal.wait(lock, [this] { return m_shared->ended; });
    m_shared->onProgress = nullptr;
    return std::move(*m_shared->result);
}

} // namespace kl::app
