// The CLI's one option parser (app/cli/CliSupport: parseCommandLine): the open form the trace-based commands use
// and the closed form of review, batch, report and compat.
#include "cli/CliSupport.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kl::app {
namespace {

using Args = std::vector<std::string>;

const OptionSpec kClosed{{"--task", "--text", "-j"}, {"--json"}, /*closed=*/true};

TEST(CliOptions, AClosedCommandLineReadsValuesSwitchesAndPositionals) {
    auto line = parseCommandLine({"r.klreview", "--task", "3", "--json", "--text=a = b", "-j", "-4", "-"}, kClosed);
    ASSERT_TRUE(line) << line.error().message;
    EXPECT_EQ(line->positional, (Args{"r.klreview", "-"})) << "'-' alone is a positional (stdout)";
    EXPECT_EQ(line->get("--task"), "3");
    EXPECT_EQ(line->get("--text"), "a = b") << "only the first '=' splits --FLAG=VALUE";
    EXPECT_EQ(line->get("-j"), "-4") << "a value may start with '-'";
    EXPECT_TRUE(line->has("--json"));
    EXPECT_FALSE(line->get("--missing"));
}

TEST(CliOptions, AClosedCommandLineRefusesWhatItDoesNotKnow) {
    struct Case {
        Args args;
        std::string message;
    };
    const Case cases[] = {
        {{"--bogus"}, "unknown option '--bogus'"},           {{"-x", "file"}, "unknown option '-x'"},
        {{"--json=yes"}, "unknown option '--json'"}, // a switch takes no value
        {{"--task", "1", "--task=2"}, "--task given twice"}, {{"file", "--text"}, "--text needs a value"},
    };
    for (const Case& c : cases) {
        auto line = parseCommandLine(c.args, kClosed);
        ASSERT_FALSE(line) << c.message;
        EXPECT_EQ(line.error().code, ErrorCode::InvalidArgument);
        EXPECT_EQ(line.error().message, c.message);
    }
}

TEST(CliOptions, AnOpenCommandLinePassesEverythingElseOnInOrder) {
    // simulate's own flags taken out; the trace flags, unknown ones included, left for parseTraceArguments.
    auto line = parseCommandLine({"k.py", "--kernel", "f", "--hw", "trn1", "--hw=x", "--no-sandbox", "--hw", "trn2"},
                                 {{"--hw"}});
    ASSERT_TRUE(line) << line.error().message;
    EXPECT_EQ(line->positional, (Args{"k.py", "--kernel", "f", "--hw=x", "--no-sandbox"}));
    EXPECT_EQ(line->get("--hw"), "trn2") << "the last of a repeated flag wins, as before";
}

TEST(CliOptions, IntegersAreWholeAndSigned) {
    EXPECT_EQ(parseInteger("-12"), -12);
    EXPECT_EQ(parseInteger("0"), 0);
    EXPECT_FALSE(parseInteger(""));
    EXPECT_FALSE(parseInteger("3x"));
    EXPECT_FALSE(parseInteger("+3"));
    EXPECT_EQ(parseCount("--timeline", "20"), 20u);
    ASSERT_FALSE(parseCount("--timeline", "-1"));
    EXPECT_EQ(parseCount("--timeline", "-1").error().message, "--timeline needs a non-negative whole number");
}

} // namespace
} // namespace kl::app
