#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace kl::app {

/// The desktop workbench's options (`kernellens --help`), in one place for main() and for the early look at the
/// arguments that decides whether a run may begin before the window (RunHeadStart).
struct CommandLine {
    QCommandLineOption workspace{QStringLiteral("workspace"),
                                 QStringLiteral("Layout to open in: review, teaching or compare."),
                                 QStringLiteral("name")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("Colours for this session: light or dark (the saved choice stays)."),
                             QStringLiteral("name")};

    /// Adds the description, help, version, the options and the positional path to `parser`.
    void describe(QCommandLineParser& parser) const;
    /// The one path the arguments (argv, program name first) open when they are exactly understood, without an
    /// application object: empty for several paths, none, help, version, an unknown option (Qt's own included,
    /// which QApplication consumes later) or a missing value.
    [[nodiscard]] QString onlyPath(const QStringList& arguments) const;
    /// True when the arguments are exactly understood and ask only for help or the version: main() answers them on
    /// the terminal with a QCoreApplication, so `kernellens --help` works without a display. Qt's own options
    /// (`-platform`, `--help-all`'s GUI part) are not known here: those go through QApplication as before.
    [[nodiscard]] bool answersOnTerminal(const QStringList& arguments) const;
};

} // namespace kl::app
