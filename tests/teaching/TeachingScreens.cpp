// Saves screenshots of the teaching views with real runs (traced through the front end), offscreen:
//   kl_teaching_screens compare TASK_A HW_A TASK_B HW_B OUT.png
//   kl_teaching_screens lesson LESSON_INDEX STEP_INDEX OUT.png
// Run with QT_QPA_PLATFORM=offscreen. Not a test: it only writes the PNG for a person to look at.
#include "compare/CompareView.h"
#include "compare/ComparisonModel.h"
#include "gui/TeachingController.h"
#include "lesson/LessonPanel.h"
#include "support/ResourcePaths.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTimer>

#include <cstdio>

namespace {

QString example(const char* name) {
    return QString::fromStdString((kl::core::examplesDir() / name).string());
}

bool waitFor(const std::function<bool()>& done, int seconds) {
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < seconds * 1000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
    }
    return done();
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    QMainWindow window;
    window.setCentralWidget(new QLabel(QStringLiteral("(main views)")));
    QMenu* menu = window.menuBar()->addMenu(QStringLiteral("&Teaching"));
    kl::app::TeachingController controller;
    QObject::connect(&controller, &kl::app::TeachingController::statusMessage,
                     [](const QString& t) { std::fprintf(stderr, "%s\n", qPrintable(t)); });
    controller.attach(&window, menu);
    if (args.size() == 7 && args[1] == QLatin1String("compare")) {
        controller.comparePair(example(qPrintable(args[2])), args[3], example(qPrintable(args[4])), args[5]);
        if (!waitFor([&] { return controller.compareView()->model()->rowCount() > 0; }, 180)) {
            std::fprintf(stderr, "runs did not arrive\n");
            return 1;
        }
        auto* view = controller.compareView();
        controller.compareDock()->setWidget(nullptr);
        view->setParent(nullptr);
        view->resize(1500, 950);
        view->show();
        waitFor([] { return false; }, 1);
        return view->grab().save(args[6]) ? 0 : 1;
    }
    if (args.size() == 5 && args[1] == QLatin1String("lesson")) {
        window.resize(1700, 1000);
        window.show();
        controller.lessonDock()->show();
        QSignalSpy shown(&controller, &kl::app::TeachingController::lessonStepShown);
        controller.lessonPanel()->selectLesson(args[2].toInt());
        controller.lessonPanel()->goToStep(args[3].toInt());
        if (!waitFor(
                [&] {
                    return !shown.isEmpty() && shown.last().at(1).toInt() == args[3].toInt() &&
                           shown.last().at(0).toInt() == args[2].toInt();
                },
                300)) {
            std::fprintf(stderr, "lesson step did not arrive\n");
            return 1;
        }
        controller.compareDock()->setFloating(false);
        window.resizeDocks({controller.lessonDock()}, {420}, Qt::Horizontal);
        window.resizeDocks({controller.compareDock()}, {850}, Qt::Vertical);
        waitFor([] { return false; }, 1);
        return window.grab().save(args[4]) ? 0 : 1;
    }
    std::fprintf(stderr, "usage: kl_teaching_screens compare TASK_A HW_A TASK_B HW_B OUT.png | lesson L S OUT.png\n");
    return 2;
}
