#include "source/NameUse.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>

namespace nu = kl::core::name_use;

namespace {

// The patterns the scanners replace, spelled as the callers used to build them.
std::regex mentionPattern(const std::string& name, const std::string& notBefore) {
    return std::regex("(^|[^\\w" + notBefore + "])" + name + "\\b");
}
std::regex usedWithPlusEquals(const std::string& name) {
    return std::regex("\\b" + name + R"((\s*\[[^\]]*\])*\s*\+=)");
}
std::regex assignmentPattern(const std::string& name) {
    return std::regex("(^|[^\\w.])" + name + R"(\s*(\[[^\]]*\]\s*)*(\+|-|\*)?=[^=])");
}
std::regex storePattern(const std::string& name) {
    return std::regex("^\\s*" + name + "\\s*\\[[^=]*\\]\\s*=[^=]");
}

TEST(NameUse, ExamplesFromKernels) {
    EXPECT_TRUE(nu::mentions("c[i] = a[i] + b[i];", "a"));
    EXPECT_FALSE(nu::mentions("int i = blockIdx.x;", "x", ".>"));
    EXPECT_FALSE(nu::mentions("p->x = 1;", "x", ".>"));
    EXPECT_FALSE(nu::mentions("acc2 = 0;", "acc"));
    EXPECT_TRUE(nu::usedWith("acc[i][j] += a * b;", "acc", "", "+="));
    EXPECT_TRUE(nu::usedWith("s.acc += 1;", "acc", "", "+="));
    EXPECT_FALSE(nu::usedWith("acc = acc + 1;", "acc", "", "+="));
    EXPECT_TRUE(nu::assignedTo("    result[i] -= x", "result", "."));
    EXPECT_FALSE(nu::assignedTo("if result == x:", "result", "."));
    EXPECT_FALSE(nu::assignedTo("self.result = x", "result", "."));
    EXPECT_FALSE(nu::assignedTo("result =", "result", ".")); // a character must follow '='
    EXPECT_TRUE(nu::storesElementOf("  out[row * n + col] = acc;", "out"));
    EXPECT_TRUE(nu::storesElementOf("out[a[i]] = v;", "out"));
    EXPECT_FALSE(nu::storesElementOf("out[i] == v", "out"));
    EXPECT_FALSE(nu::storesElementOf("x = out[i];", "out"));
}

// Generated lines over the characters the patterns care about, with names placed often: every scanner must
// answer exactly as its pattern does.
TEST(NameUse, AgreesWithTheRegexOnGeneratedLines) {
    const std::string alphabet = "ac1_ .>[]=+-*\t(";
    struct Name {
        std::string text;
        std::regex mention, mentionAnywhere, plusEquals, assignment, store;
    };
    std::vector<Name> names;
    for (const char* text : {"ac", "a", "c_1"}) {
        names.push_back({text, mentionPattern(text, ".>"), mentionPattern(text, ""), usedWithPlusEquals(text),
                         assignmentPattern(text), storePattern(text)});
    }
    std::mt19937 random(20261202);
    int matched = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string line;
        const int length = static_cast<int>(random() % 14);
        for (int k = 0; k < length; ++k) {
            if (random() % 4 == 0) {
                line += names[random() % names.size()].text;
            } else {
                line += alphabet[random() % alphabet.size()];
            }
        }
        for (const Name& name : names) {
            SCOPED_TRACE("line '" + line + "', name '" + name.text + "'");
            const bool mention = std::regex_search(line, name.mention);
            ASSERT_EQ(nu::mentions(line, name.text, ".>"), mention);
            ASSERT_EQ(nu::mentions(line, name.text), std::regex_search(line, name.mentionAnywhere));
            ASSERT_EQ(nu::usedWith(line, name.text, "", "+="), std::regex_search(line, name.plusEquals));
            const bool assigned = std::regex_search(line, name.assignment);
            ASSERT_EQ(nu::assignedTo(line, name.text, "."), assigned);
            const bool stored = std::regex_search(line, name.store);
            ASSERT_EQ(nu::storesElementOf(line, name.text), stored);
            matched += mention + assigned + stored;
        }
    }
    EXPECT_GT(matched, 1000); // the generator reaches the interesting cases, not only misses
}

} // namespace
