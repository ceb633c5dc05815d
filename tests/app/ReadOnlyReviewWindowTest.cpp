// A review the user cannot write opens read-only in the window: a banner says why, edits are refused with a
// message and leave the file as it was, and "Save an Editable Copy" continues in a writable copy. As root
// every file is writable, so the window runs in a child that has dropped to nobody.
#include "gui/MainWindow.h"
#include "gui/ReviewSession.h"

#include "common/ReadOnlyBanner.h"
#include "review/ReviewFile.h"
#include "rubric/RubricLoader.h"
#include "task/TaskSpec.h"
#include "support/ResourcePaths.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

namespace {

constexpr uid_t kNobody = 65534;
constexpr int kSkip = 77;

/// The checks, run as nobody; 0 when all hold, else 1 with the reason on stderr.
int checkAsNobody(const QString& review, const QString& copyFolder) {
    auto fail = [](const char* what) {
        std::fprintf(stderr, "%s\n", what);
        return 1;
    };
    kl::app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    if (!window.openPath(review)) {
        return fail("the read-only review did not open");
    }
    auto* banner = window.findChild<kl::views::ReadOnlyBanner*>();
    if (banner == nullptr || banner->isHidden() || !banner->text().contains(QStringLiteral("not writable"))) {
        return fail("no banner naming why the review is read-only");
    }
    window.review()->setReviewer(QStringLiteral("Ana"));
    QSignalSpy failed(window.review(), &kl::app::ReviewSession::failed);
    window.review()->setScore("fidelity.semantics", 1);
    if (failed.count() != 1 || !failed.front().front().toString().contains(QStringLiteral("read-only"))) {
        return fail("an edit of a read-only review was not refused with a message");
    }
    const QString copy = copyFolder + QStringLiteral("/editable.klreview");
    if (!window.saveReviewAs(copy) || !banner->isHidden() || window.review()->isReadOnly()) {
        return fail("Save As did not continue in a writable copy");
    }
    failed.clear();
    window.review()->setReviewer(QStringLiteral("Ana"));
    window.review()->setScore("fidelity.semantics", 1);
    if (!failed.isEmpty()) {
        std::fprintf(stderr, "the copy refused an edit: %s\n", qPrintable(failed.front().front().toString()));
        return 1;
    }
    return 0;
}

} // namespace

class ReadOnlyReviewWindowTest : public QObject {
    Q_OBJECT

private slots:
    void aReviewNobodyCanWriteOpensReadOnlyWithABanner() {
        if (::geteuid() != 0) {
            QSKIP("needs root to drop to another user (as a normal user, ReadOnlyReviewTest covers the core)");
        }
        QTemporaryDir dir; // root's, 0700: opened up to reading only
        QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0755) == 0);
        const QString review = dir.filePath(QStringLiteral("team.klreview"));
        {
            auto rubric =
                kl::core::readTextFile((kl::core::resourcesDir() / "rubrics" / "nki-migration.json").string());
            QVERIFY(rubric.has_value());
            auto file = kl::core::ReviewFile::create(review.toStdString(), {*rubric, "nki-migration.json", "Ana"});
            QVERIFY(file.has_value());
            QVERIFY(file->tasks().add("t", "Task", {}).has_value());
        }
        QVERIFY(::chmod(review.toLocal8Bit().constData(), 0644) == 0);
        QTemporaryDir copies;
        QVERIFY(::chmod(copies.path().toLocal8Bit().constData(), 0777) == 0);
        const QByteArray before = [&] {
            QFile f(review);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();

        std::fflush(nullptr);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) {
                ::_exit(kSkip);
            }
            ::_exit(checkAsNobody(review, copies.path()));
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status), "the window died in the child");
        if (WEXITSTATUS(status) == kSkip) {
            QSKIP("cannot drop privileges here");
        }
        QCOMPARE(WEXITSTATUS(status), 0);
        QFile after(review);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before); // opening it read-only left it byte-identical
    }
};

QTEST_MAIN(ReadOnlyReviewWindowTest)
#include "ReadOnlyReviewWindowTest.moc"
