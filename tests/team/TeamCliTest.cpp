// kernellens-cli review merge / agreement / adjudicate, run as a user would: exit codes, the JSON file,
// and reviewer names written to fool a terminal shown harmless.
#include "TeamTestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace kl::core::team {
namespace {

struct CliRun {
    int status = -1;
    std::string output; ///< stdout and stderr
};

CliRun cli(const std::string& args) {
    CliRun r;
    FILE* pipe = ::popen((std::string(KL_CLI) + " review " + args + " 2>&1").c_str(), "r");
    if (pipe == nullptr) {
        return r;
    }
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
        r.output.append(buffer, n);
    }
    const int raw = ::pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return r;
}

TEST(TeamCli, MergeAgreementAndAdjudicateFromTheCommandLine) {
    test::Scratch dir;
    // A right-to-left override and an escape sequence in reviewer names, as a hostile colleague could send.
    const std::string evil = "ev\xE2\x80\xAEil", loud = "lo\x1b[2Jud";
    for (const auto& [name, who, value] : {std::tuple{"a.klreview", evil, 1}, std::tuple{"b.klreview", loud, 0}}) {
        auto file = test::reviewerFile(dir.file(name), "first", 1);
        ASSERT_TRUE(file.scores().set(test::taskId(file, 0), "fidelity.semantics", value, who));
    }
    const CliRun merged =
        cli(dir.file("a.klreview") + " merge " + dir.file("b.klreview") + " -o " + dir.file("t.klreview"));
    EXPECT_NE(merged.status, 0) << "the subcommand comes first";
    const CliRun ok =
        cli("merge " + dir.file("a.klreview") + " " + dir.file("b.klreview") + " -o " + dir.file("t.klreview"));
    ASSERT_EQ(ok.status, 0) << ok.output;
    EXPECT_NE(ok.output.find("1 tasks"), std::string::npos) << ok.output;

    const CliRun agreement = cli("agreement " + dir.file("t.klreview") + " --json " + dir.file("a.json"));
    ASSERT_EQ(agreement.status, 0) << agreement.output;
    EXPECT_EQ(agreement.output.find('\x1b'), std::string::npos) << "no escape sequence reaches the terminal";
    EXPECT_EQ(agreement.output.find("\xE2\x80\xAE"), std::string::npos) << "no direction override either";
    EXPECT_NE(agreement.output.find("fidelity.semantics"), std::string::npos);
    std::ifstream in(dir.file("a.json"));
    const auto j = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    EXPECT_EQ(j["items"][0]["n_reviewers"], 2);
    EXPECT_EQ(j["disagreements"].size(), 1u);

    EXPECT_EQ(cli("adjudicate " + dir.file("t.klreview") +
                  " --task 1 --item fidelity.semantics --value 9 "
                  "--reason x")
                  .status,
              1);
    EXPECT_EQ(cli("adjudicate " + dir.file("t.klreview") + " --task 1 --item fidelity.semantics").status, 2);
    const CliRun decided =
        cli("adjudicate " + dir.file("t.klreview") +
            " --task 1 --item fidelity.semantics --value 0 --reason 'tail unmasked' --adjudicator lead");
    ASSERT_EQ(decided.status, 0) << decided.output;
    EXPECT_NE(cli("agreement " + dir.file("t.klreview")).output.find("agreed 0"), std::string::npos);

    const CliRun refused =
        cli("merge " + dir.file("a.klreview") + " " + dir.file("b.klreview") + " -o " + dir.file("t.klreview"));
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.output.find("already exists"), std::string::npos) << refused.output;
}

} // namespace
} // namespace kl::core::team
