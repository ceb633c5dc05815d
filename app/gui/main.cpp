// kernellens: the desktop workbench. Opens what it is given on the command line.
#include "gui/MainWindow.h"
#include "gui/RunHeadStart.h"
#include "gui/SimulationRunner.h"
#include "gui/Theme.h"
#include "gui/WorkspaceTrust.h"
#include "gui/Workspaces.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    Q_INIT_RESOURCE(resources); // the .qrc lives in the kl_app static library
    QApplication::setOrganizationName(QStringLiteral("KernelLens"));
    QApplication::setApplicationName(QStringLiteral("KernelLens"));
    QApplication::setApplicationVersion(QStringLiteral(KL_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Review, optimize and teach NKI kernels on a simulated NeuronCore."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption workspace(QStringLiteral("workspace"),
                                       QStringLiteral("Layout to open in: review, teaching or compare."),
                                       QStringLiteral("name"));
    parser.addOption(workspace);
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("Colours for this session: light or dark (the saved choice stays)."),
                                   QStringLiteral("name"));
    parser.addOption(theme);
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QStringLiteral("A task folder, an NKI kernel (.py) or a review file (.klreview)."));
    parser.process(app);
    const QStringList paths = parser.positionalArguments();
    // A trusted task's run begins now, so that tracing it overlaps building the window (RunHeadStart).
    auto headStart = paths.size() == 1
                         ? kl::app::RunHeadStart::forPath(paths.front(), kl::app::WorkspaceTrust::defaultStorePath())
                         : nullptr;

    kl::app::applyTheme(app, kl::app::themeFromName(parser.isSet(theme)
                                                        ? parser.value(theme)
                                                        : QSettings().value(QStringLiteral("theme")).toString()));
    kl::app::MainWindow window;
    window.runner()->offerHeadStart(std::move(headStart));
    // The workspace's docks are chosen before the first show, so the window opens at its size with them.
    if (kl::app::Workspaces::Kind kind;
        parser.isSet(workspace) && kl::app::Workspaces::fromName(parser.value(workspace), &kind)) {
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
