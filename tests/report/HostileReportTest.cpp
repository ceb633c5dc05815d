// Hostile text through every format: markup, script, event handlers, Markdown links, CSV formulas,
// backtick runs and invalid UTF-8 must come out as inert text. Invalid UTF-8 becomes U+FFFD.
#include "ReportFixture.h"
#include "TestSupport.h"

#include "report/CsvReport.h"
#include "report/HtmlReport.h"
#include "report/JsonReport.h"
#include "report/MarkdownReport.h"
#include "report/TextEscape.h"
#ifdef KL_HAVE_QT_REPORT
#include "report/ReportQt.h"
#endif

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>

namespace kl::core::report::test {
namespace {

const std::string kReplacement = "\xEF\xBF\xBD";

/// Every tag in the HTML is one the writer itself emits, with attributes from a short list: so no tag
/// and no attribute (onerror, onload, href=javascript:) can have come from user text.
void expectOnlyOwnTags(const std::string& html) {
    static const std::set<std::string> kTags = {
        "!DOCTYPE", "html", "head", "meta",    "title",  "style", "body",       "h1",   "h2", "h3",
        "p",        "b",    "i",    "section", "table",  "tr",    "th",         "td",   "ul", "li",
        "ol",       "div",  "span", "pre",     "figure", "img",   "figcaption", "font", "br"};
    static const std::set<std::string> kAttributes = {
        "lang", "charset", "http-equiv", "content", "class",       "id",          "style",   "src",
        "alt",  "width",   "height",     "border",  "cellspacing", "cellpadding", "bgcolor", "color"};
    const std::regex tag(R"(<\s*/?\s*([!A-Za-z0-9-]+)([^>]*)>)");
    const std::regex attribute(R"(([A-Za-z-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), tag); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1];
        EXPECT_TRUE(kTags.contains(name)) << "unexpected tag <" << name << ">";
        if (name == "!DOCTYPE" || name == "style") {
            continue;
        }
        const std::string attrs = (*it)[2];
        for (auto a = std::sregex_iterator(attrs.begin(), attrs.end(), attribute); a != std::sregex_iterator(); ++a) {
            EXPECT_TRUE(kAttributes.contains((*a)[1])) << "unexpected attribute " << (*a)[1] << " on <" << name << ">";
            if ((*a)[1] == "src") {
                EXPECT_TRUE((*a)[2].str().starts_with("\"data:image/png;base64,") ||
                            (*a)[2].str().starts_with("\"kl-timeline-"))
                    << (*a)[2];
            }
        }
    }
    // Between the CSS and the end, a "<" is always the start of one of our tags (checked above).
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<img src=x"), std::string::npos);
    EXPECT_EQ(html.find("<svg"), std::string::npos);
}

TEST(HostileText, HtmlIsInert) {
    Report report = hostileReport();
    report.tasks[0].timelinePng = "\x89PNG fake";
    for (const bool qt : {false, true}) {
        HtmlReport::Options options;
        options.forQtTextDocument = qt;
        const std::string html = HtmlReport::write(report, options);
        expectOnlyOwnTags(html);
        EXPECT_TRUE(isValidUtf8(html));
        EXPECT_NE(html.find(kReplacement), std::string::npos);
        EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
        EXPECT_NE(html.find("&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
        EXPECT_NE(html.find("&lt;/pre&gt;&lt;script&gt;"), std::string::npos); // a snippet cannot close its <pre>
    }
}

/// Lines outside fenced code blocks.
std::vector<std::string> proseLines(const std::string& md) {
    std::vector<std::string> out;
    std::string fence;
    std::size_t start = 0;
    while (start < md.size()) {
        const std::size_t end = md.find('\n', start);
        const std::string line = md.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? md.size() : end + 1;
        const std::size_t ticks = line.find_first_not_of('`');
        if (line.starts_with("```")) {
            const std::string run = line.substr(0, ticks == std::string::npos ? line.size() : ticks);
            if (fence.empty()) {
                fence = run;
                continue;
            }
            if (run == fence && (ticks == std::string::npos)) {
                fence.clear();
                continue;
            }
        }
        if (fence.empty()) {
            out.push_back(line);
        }
    }
    EXPECT_TRUE(fence.empty()) << "a code block was not closed: a backtick run inside broke out of its fence";
    return out;
}

TEST(HostileText, MarkdownIsInert) {
    const std::string md = MarkdownReport::write(hostileReport());
    EXPECT_TRUE(isValidUtf8(md));
    EXPECT_NE(md.find(kReplacement), std::string::npos);
    for (const std::string& line : proseLines(md)) {
        EXPECT_EQ(line.find('<'), std::string::npos) << line;  // no raw HTML
        EXPECT_EQ(line.find("]("), std::string::npos) << line; // no link or image
        EXPECT_FALSE(line.starts_with("1.")) << line;          // no list made of user text
        EXPECT_FALSE(line.starts_with("> quote")) << line;
        EXPECT_FALSE(line.starts_with("    code")) << line;
        // Headings: only the writer's own ("# Report", "## Task 1: ...", "#### 1. blocking ...").
        if (line.starts_with("#")) {
            EXPECT_TRUE(line.starts_with("# Report") || line.starts_with("## Task ") || line.starts_with("### ") ||
                        line.starts_with("#### "))
                << line;
        }
    }
    // Snippet text is kept exactly (inside the fence) and its fence is longer than its backtick runs.
    EXPECT_NE(md.find("`````"), std::string::npos);
    EXPECT_NE(md.find("x = '```' + \"</pre><script>alert(5)</script>\""), std::string::npos);
}

/// RFC 4180 parser: rows of cells.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(std::move(cell));
            cell.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.back().push_back(std::move(cell));
            cell.clear();
            rows.emplace_back();
            ++i;
        } else {
            cell += c;
        }
    }
    EXPECT_FALSE(quoted);
    if (rows.back().empty()) {
        rows.pop_back();
    }
    return rows;
}

TEST(HostileText, CsvHasNoFormulas) {
    const std::string csv = CsvReport::write(hostileReport());
    EXPECT_TRUE(isValidUtf8(csv));
    const auto rows = parseCsv(csv);
    ASSERT_EQ(rows.size(), 3u); // header + two items
    for (const auto& row : rows) {
        EXPECT_EQ(row.size(), rows.front().size());
        for (const std::string& cell : row) {
            ASSERT_FALSE(cell.empty() && false);
            if (!cell.empty()) {
                EXPECT_EQ(std::string("=+-@\t\r").find(cell[0]), std::string::npos) << cell;
            }
        }
    }
    EXPECT_EQ(rows[1][2].substr(0, 8), "<script>"); // text kept, only quoted where needed
    EXPECT_EQ(rows[1][1], "'-2+3");
    EXPECT_EQ(rows[1][9], "'=cmd|' /C calc'!A0");
    EXPECT_EQ(rows[2][8], "'@item");
}

TEST(HostileText, JsonKeepsTextAsData) {
    const std::string text = JsonReport::write(hostileReport());
    ASSERT_TRUE(isValidUtf8(text));
    const auto json = nlohmann::json::parse(text); // throws on invalid UTF-8 or syntax
    const std::string title = json["tasks"][0]["title"];
    EXPECT_EQ(title.substr(0, 25), "<script>alert(1)</script>");
    EXPECT_NE(title.find(kReplacement + " bad " + kReplacement + "("), std::string::npos) << title;
}

TEST(HostileText, Utf8Policy) {
    EXPECT_EQ(sanitizeUtf8("ok \xc3\xa9"), "ok \xc3\xa9");
    EXPECT_EQ(sanitizeUtf8("\xff"), kReplacement);
    EXPECT_EQ(sanitizeUtf8("\xe2\x82"), kReplacement);     // truncated sequence: one replacement
    EXPECT_EQ(sanitizeUtf8("\xed\xa0\x80"), kReplacement); // surrogate: one replacement for the run
    EXPECT_EQ(sanitizeUtf8("\xc0\xaf"), kReplacement);     // overlong
    EXPECT_EQ(sanitizeUtf8(std::string("a\0b", 3)), "a" + kReplacement + "b");
    EXPECT_EQ(csvCell("a,\"b\""), "\"a,\"\"b\"\"\"");
    EXPECT_EQ(markdownFence("a ```` b"), "`````");
    EXPECT_EQ(base64("Man"), "TWFu");
    EXPECT_EQ(base64("Ma"), "TWE=");
}

#ifdef KL_HAVE_QT_REPORT
TEST(HostileText, PdfAndImageAreWritten) {
    kl::core::test::TempDir dir;
    kl::app::report::QtSession session;
    Report report = hostileReport();
    kl::app::report::attachTimelineImage(report.tasks[0], 800);
    ASSERT_FALSE(report.tasks[0].timelinePng.empty());
    EXPECT_EQ(report.tasks[0].timelinePng.substr(1, 3), "PNG");
    const std::string path = dir.file("hostile.pdf");
    ASSERT_TRUE(kl::app::report::writePdf(report, path));
    EXPECT_EQ(kl::core::test::readBytes(path).substr(0, 5), "%PDF-");
}
#endif

} // namespace
} // namespace kl::core::report::test
