#include "gui/CommandLine.h"

namespace kl::app {

namespace {

/// One answer for both early looks: help in any of its forms (`--help-all` included) or the version.
bool asksForHelpOrVersion(const QCommandLineParser& parser) {
    return parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all")) ||
           parser.isSet(QStringLiteral("version"));
}

} // namespace

void CommandLine::describe(QCommandLineParser& parser) const {
    parser.setApplicationDescription(
        QStringLiteral("Review, optimize and teach NKI kernels on a simulated NeuronCore."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(workspace);
    parser.addOption(theme);
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QStringLiteral("A task folder, an NKI kernel (.py) or a review file (.klreview)."));
}

QString CommandLine::onlyPath(const QStringList& arguments) const {
    QCommandLineParser parser;
    describe(parser);
    if (!parser.parse(arguments) || asksForHelpOrVersion(parser) || parser.positionalArguments().size() != 1) {
        return {};
    }
    return parser.positionalArguments().front();
}

bool CommandLine::answersOnTerminal(const QStringList& arguments) const {
    QCommandLineParser parser;
    describe(parser);
    return parser.parse(arguments) && asksForHelpOrVersion(parser);
}

} // namespace kl::app
