#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace kl::app {

/// The one mechanism for background work whose answer may come too late (hotspot's job generation numbers):
/// each job the owner starts takes the next generation with `begin()`; an answer carrying an older generation
/// is dropped (`isCurrent`), and a worker may poll `stillWanted(g)` to stop early. `invalidate()` makes
/// everything in flight stale (cancel, or the owner going away). Lives on the owner's (GUI) thread; only the
/// atomic behind `stillWanted` is read from workers.
class JobGeneration {
public:
    quint64 begin() {
        m_live->store(++m_current);
        return m_current;
    }
    void invalidate() {
        ++m_current;
        m_live->store(0);
    }
    [[nodiscard]] bool isCurrent(quint64 generation) const { return generation == m_current; }
    [[nodiscard]] quint64 current() const { return m_current; }
    /// For a worker thread: true while `generation` is the job the owner still waits for.
    [[nodiscard]] std::function<bool()> stillWanted(quint64 generation) const {
        return [live = m_live, generation] { return live->load() == generation; };
    }

private:
    quint64 m_current = 0;
    std::shared_ptr<std::atomic<quint64>> m_live = std::make_shared<std::atomic<quint64>>(0);
};

/// Runs `fn` on `receiver`'s thread (queued), or drops it when the receiver is gone by then.
template <typename Receiver> void postTo(QPointer<Receiver> receiver, std::function<void()> fn) {
    QMetaObject::invokeMethod(
        receiver.data(),
        [receiver, fn = std::move(fn)] {
            if (receiver) {
                fn();
            }
        },
        Qt::QueuedConnection);
}

/// Runs `work` on a new thread (deleted when done), then `deliver(result)` on `receiver`'s thread while it lives.
template <typename T, typename Receiver>
void runOnWorker(Receiver* receiver, std::function<T()> work, std::function<void(T)> deliver) {
    QPointer<Receiver> self(receiver);
    QThread* worker = QThread::create([self, work = std::move(work), deliver = std::move(deliver)] {
        auto result = std::make_shared<T>(work());
        postTo<Receiver>(self, [deliver, result] { deliver(std::move(*result)); });
    });
    QObject::connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

} // namespace kl::app
