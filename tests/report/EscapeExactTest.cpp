// Every escape function character by character: the characters each output format gives meaning to, one by one
// and together, with the exact text expected (HTML's five, Markdown's punctuation, terminal controls).
#include "report/TextEscape.h"

#include <gtest/gtest.h>

namespace kl::core::report {
namespace {

TEST(EscapeExact, HtmlEscapesItsFiveCharactersAndNothingElse) {
    EXPECT_EQ(escapeHtml("&"), "&amp;");
    EXPECT_EQ(escapeHtml("<"), "&lt;");
    EXPECT_EQ(escapeHtml(">"), "&gt;");
    EXPECT_EQ(escapeHtml("\""), "&quot;");
    EXPECT_EQ(escapeHtml("'"), "&#39;");
    EXPECT_EQ(escapeHtml("a & b <c> \"d\" 'e'"), "a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39;");
    EXPECT_EQ(escapeHtml("&amp;"), "&amp;amp;") << "already-escaped text is text, escaped again";
    EXPECT_EQ(escapeHtml("plain text, 410 -> 820"), "plain text, 410 -&gt; 820");
    EXPECT_EQ(escapeHtml("\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9") << "UTF-8 passes through";
    EXPECT_EQ(escapeHtml("a\xFF"
                         "b"),
              "a\xEF\xBF\xBD"
              "b")
        << "invalid UTF-8 becomes U+FFFD";
}

TEST(EscapeExact, MarkdownEscapesItsPunctuationOnce) {
    for (const char c : std::string_view("\\`*_{}[]()#!|~")) {
        const std::string in(1, c);
        EXPECT_EQ(escapeMarkdown("x" + in, false), "x\\" + in) << "'" << c << "'";
    }
    EXPECT_EQ(escapeMarkdown("plain words", false), "plain words");
    EXPECT_EQ(escapeMarkdown("a*b*", false), "a\\*b\\*");
}

TEST(EscapeExact, TerminalTextReplacesEveryControlButKeepsText) {
    EXPECT_EQ(terminalText("ok"), "ok");
    EXPECT_EQ(terminalText("a\x1b[2Jb"), "a\xEF\xBF\xBD[2Jb") << "ESC";
    EXPECT_EQ(terminalText("a\x07"
                           "b"),
              "a\xEF\xBF\xBD"
              "b")
        << "BEL";
    EXPECT_EQ(terminalText("a\nb"), "a\xEF\xBF\xBD"
                                    "b")
        << "one line unless multiline";
    EXPECT_EQ(terminalText("a\nb", true), "a\nb");
    EXPECT_EQ(terminalText("a\xC2\x9B"
                           "b"),
              "a\xEF\xBF\xBD"
              "b")
        << "C1 CSI";
    EXPECT_EQ(terminalText("a\xE2\x80\xAE"
                           "b"),
              "a\xEF\xBF\xBD"
              "b")
        << "right-to-left override";
    EXPECT_EQ(terminalText("a\x7F"
                           "b"),
              "a\xEF\xBF\xBD"
              "b")
        << "DEL";
    EXPECT_EQ(terminalText("caf\xC3\xA9"), "caf\xC3\xA9");
}

} // namespace
} // namespace kl::core::report
