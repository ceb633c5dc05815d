// kernellens: the desktop workbench. Opens what it is given on the command line.
#include "gui/CommandLine.h"
#include "gui/MainWindow.h"
#include "gui/RunHeadStart.h"
#include "gui/SimulationRunner.h"
#include "gui/Theme.h"
#include "gui/TimingLog.h"
#include "gui/WorkspaceTrust.h"
#include "gui/Workspaces.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSettings>

int main(int argc, char** argv) {
    kl::app::TimingLog::mark("main entered"); // after the dynamic loader: the libraries' share of the open time
    QApplication::setOrganizationName(QStringLiteral("KernelLens"));
    QApplication::setApplicationName(QStringLiteral("KernelLens"));
    QApplication::setApplicationVersion(QStringLiteral(KL_VERSION));
    // A trusted task folder given alone begins its run before QApplication connects to the display and the window
    // is built (RunHeadStart); any doubt about the arguments: it starts with the window as usual.
    const kl::app::CommandLine options;
    QStringList arguments;
    for (int i = 0; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    if (options.answersOnTerminal(arguments)) {
        QCoreApplication terminal(argc, argv); // help and version need no display
        QCommandLineParser parser;
        options.describe(parser);
        parser.process(terminal); // prints the answer and exits
        return 0;
    }
    const QString onlyPath = options.onlyPath(arguments);
    auto early = onlyPath.isEmpty()
                     ? nullptr
                     : kl::app::RunHeadStart::forPath(onlyPath, kl::app::WorkspaceTrust::defaultStorePath());
    QApplication app(argc, argv);
    kl::app::TimingLog::mark("application created");
    Q_INIT_RESOURCE(resources); // the .qrc lives in the kl_app static library

    QCommandLineParser parser;
    options.describe(parser);
    parser.process(app);
    const QStringList paths = parser.positionalArguments();
    kl::app::applyTheme(app, kl::app::themeFromName(parser.isSet(options.theme)
                                                        ? parser.value(options.theme)
                                                        : QSettings().value(QStringLiteral("theme")).toString()));
    kl::app::MainWindow window;
    window.runner()->offerHeadStart(std::move(early));
    // The workspace's docks are chosen before the first show, so the window opens at its size with them.
    if (kl::app::Workspaces::Kind kind;
        parser.isSet(options.workspace) && kl::app::Workspaces::fromName(parser.value(options.workspace), &kind)) {
        window.workspaces()->switchTo(kind);
    }
    window.show();
    if (paths.isEmpty()) {
        window.showStartPage();
    }
    for (const QString& path : paths) {
        window.openPath(path);
    }
    window.runner()->offerHeadStart(nullptr); // not adopted: the window ran something else, or nothing
    return app.exec();
}
