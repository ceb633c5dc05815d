// kernellens: the desktop workbench. Opens what it is given on the command line.
#include "gui/MainWindow.h"
#include "gui/RunHeadStart.h"
#include "gui/SimulationRunner.h"
#include "gui/Theme.h"
#include "gui/TimingLog.h"
#include "gui/WorkspaceTrust.h"
#include "gui/Workspaces.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>

namespace {

struct Options {
    QCommandLineOption workspace{QStringLiteral("workspace"),
                                 QStringLiteral("Layout to open in: review, teaching or compare."),
                                 QStringLiteral("name")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("Colours for this session: light or dark (the saved choice stays)."),
                             QStringLiteral("name")};
};

void describe(QCommandLineParser& parser, const Options& options) {
    parser.setApplicationDescription(
        QStringLiteral("Review, optimize and teach NKI kernels on a simulated NeuronCore."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(options.workspace);
    parser.addOption(options.theme);
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QStringLiteral("A task folder, an NKI kernel (.py) or a review file (.klreview)."));
}

/// The run of a trusted task folder given alone on the command line, begun before the application connects to the
/// display and builds the window (RunHeadStart). Any doubt about the arguments (Qt's own, help, an error): none;
/// the window then runs it as usual.
std::shared_ptr<kl::app::RunHeadStart> headStart(int argc, char** argv, const Options& options) {
    QCommandLineParser parser;
    describe(parser, options);
    QStringList arguments;
    for (int i = 0; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    if (!parser.parse(arguments) || parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version")) ||
        parser.positionalArguments().size() != 1) {
        return nullptr;
    }
    return kl::app::RunHeadStart::forPath(parser.positionalArguments().front(),
                                          kl::app::WorkspaceTrust::defaultStorePath());
}

} // namespace

int main(int argc, char** argv) {
    kl::app::TimingLog::mark("main entered"); // after the dynamic loader: the libraries' share of the open time
    QApplication::setOrganizationName(QStringLiteral("KernelLens"));
    QApplication::setApplicationName(QStringLiteral("KernelLens"));
    QApplication::setApplicationVersion(QStringLiteral(KL_VERSION));
    const Options options;
    auto early = headStart(argc, argv, options);
    QApplication app(argc, argv);
    kl::app::TimingLog::mark("application created");
    Q_INIT_RESOURCE(resources); // the .qrc lives in the kl_app static library

    QCommandLineParser parser;
    describe(parser, options);
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
