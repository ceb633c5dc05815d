#include "rubric/RubricLoader.h"

#include "support/ResourcePaths.h"

#include "common/JsonRead.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace kl::core {

namespace {

using nlohmann::json;

constexpr int kSupportedFormat = 1;
constexpr int kMaxLevels = 10;
constexpr double kMaxWeight = 1000;
constexpr double kMaxThreshold = 5; ///< the overall score is on the 1-5 scale (docs/review-file.md)

/// Walks the parsed JSON and builds a Rubric; each failure names the JSON path and, where the
/// enclosing item or area id can be found in the text, its line.
class RubricParser {
public:
    RubricParser(std::string_view text, const std::string& source) : m_text(text), m_source(source) {}

    Expected<Rubric> parse(const json& root) {
        if (!root.is_object()) {
            return fail("the top level must be a JSON object", 1);
        }
        if (!root.contains("format") || !root["format"].is_number_integer() || root["format"] != kSupportedFormat) {
            return fail(fmt::format("\"format\" must be {} (the rubric format this build reads)", kSupportedFormat), 1);
        }
        Rubric rubric;
        auto ok = str(root, "id", "", rubric.id) && str(root, "title", "", rubric.title);
        if (!ok) {
            return std::unexpected(m_error);
        }
        rubric.version = "1";
        if (root.contains("version") && !str(root, "version", "", rubric.version)) {
            return std::unexpected(m_error);
        }
        if (!number(root, "pass_threshold", "", rubric.passThreshold, 3.0, kMaxThreshold)) {
            return std::unexpected(m_error);
        }
        if (!root.contains("areas") || !root["areas"].is_array() || root["areas"].empty()) {
            return fail("missing field \"areas\": a non-empty array of rubric areas", 1);
        }
        std::set<std::string> areaIds;
        for (std::size_t a = 0; a < root["areas"].size(); ++a) {
            RubricArea area;
            if (!parseArea(root["areas"][a], fmt::format("areas[{}]", a), area)) {
                return std::unexpected(m_error);
            }
            if (!areaIds.insert(area.id).second) {
                return fail(fmt::format("areas[{}]: duplicate area id \"{}\"", a, area.id), lineOf(area.id));
            }
            rubric.areas.push_back(std::move(area));
        }
        return rubric;
    }

private:
    bool parseArea(const json& node, const std::string& path, RubricArea& area) {
        if (!node.is_object()) {
            return failed(fmt::format("{}: must be an object", path), 0);
        }
        if (!str(node, "id", path, area.id) || !str(node, "title", path, area.title) ||
            !number(node, "weight", path, area.weight, 1.0, kMaxWeight)) {
            return false;
        }
        if (!node.contains("items") || !node["items"].is_array() || node["items"].empty()) {
            return failed(fmt::format("{} (\"{}\"): missing field \"items\": a non-empty array", path, area.id),
                          lineOf(area.id));
        }
        for (std::size_t i = 0; i < node["items"].size(); ++i) {
            RubricItem item;
            if (!parseItem(node["items"][i], fmt::format("{}.items[{}]", path, i), item)) {
                return false;
            }
            if (!m_itemIds.insert(item.id).second) {
                return failed(fmt::format("{}.items[{}]: duplicate item id \"{}\"", path, i, item.id), lineOf(item.id));
            }
            area.items.push_back(std::move(item));
        }
        return true;
    }

    bool parseItem(const json& node, const std::string& path, RubricItem& item) {
        if (!node.is_object()) {
            return failed(fmt::format("{}: must be an object", path), 0);
        }
        if (!str(node, "id", path, item.id)) {
            return false;
        }
        const std::string where = fmt::format("{} (\"{}\")", path, item.id);
        if (!str(node, "title", where, item.title) || !str(node, "guidance", where, item.guidance) ||
            !number(node, "weight", where, item.weight, 1.0, kMaxWeight)) {
            return false;
        }
        if (!node.contains("scale")) {
            return failed(fmt::format("{}: missing field \"scale\"", where), lineOf(item.id));
        }
        return parseScale(node["scale"], where + ".scale", item);
    }

    bool parseScale(const json& node, const std::string& path, RubricItem& item) {
        const int line = lineOf(item.id);
        if (!node.is_object() || !node.contains("kind") || !node["kind"].is_string()) {
            return failed(fmt::format("{}: must be an object with \"kind\": \"levels\" or \"pass_fail\"", path), line);
        }
        const std::string kind = node["kind"].get<std::string>();
        if (kind == "pass_fail") {
            item.scale.kind = ScaleKind::PassFail;
            return str(node, "pass", path, item.scale.passMeaning) && str(node, "fail", path, item.scale.failMeaning);
        }
        if (kind != "levels") {
            return failed(fmt::format("{}: unknown kind \"{}\" (use \"levels\" or \"pass_fail\")", path, kind), line);
        }
        item.scale.kind = ScaleKind::Levels;
        const json* levels = node.contains("levels") ? &node["levels"] : nullptr;
        if (levels == nullptr || !levels->is_array() || levels->size() < 2 || levels->size() > kMaxLevels) {
            return failed(fmt::format("{}: \"levels\" must be an array of 2 to {} strings, the meaning of 1, 2, ...",
                                      path, kMaxLevels),
                          line);
        }
        for (const json& level : *levels) {
            if (!level.is_string() || level.get<std::string>().empty()) {
                return failed(fmt::format("{}.levels: every level needs a non-empty meaning", path), line);
            }
            item.scale.levels.push_back(level.get<std::string>());
        }
        return true;
    }

    bool str(const json& node, const char* key, const std::string& path, std::string& out) {
        auto it = node.find(key);
        const std::string field = path.empty() ? std::string(key) : fmt::format("{}: \"{}\"", path, key);
        if (it == node.end()) {
            return failed(
                fmt::format("{}missing field \"{}\" (a non-empty string)", path.empty() ? "" : path + ": ", key), 0);
        }
        if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
            return failed(kl::json::mismatch(field, "a non-empty string", *it), 0);
        }
        out = it->get<std::string>();
        return true;
    }

    /// An optional number in (0, maximum]; `fallback` when absent.
    bool number(const json& node, const char* key, const std::string& path, double& out, double fallback,
                double maximum) {
        auto it = node.find(key);
        if (it == node.end()) {
            out = fallback;
            return true;
        }
        const auto v = kl::json::numberIn(*it, 0, maximum);
        if (!v || *v <= 0) {
            const std::string field = path.empty() ? std::string(key) : fmt::format("{}: \"{}\"", path, key);
            return failed(
                kl::json::mismatch(field, fmt::format("a number greater than 0 and at most {:g}", maximum), *it), 0);
        }
        out = *v;
        return true;
    }

    /// Line of the first `"id"` string in the text: good enough to put an editor on the right item.
    int lineOf(const std::string& id) const {
        if (id.empty()) {
            return 0;
        }
        const std::size_t pos = m_text.find(fmt::format("\"{}\"", id));
        if (pos == std::string_view::npos) {
            return 0;
        }
        return 1 +
               static_cast<int>(std::count(m_text.begin(), m_text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    }

    bool failed(std::string message, int line) {
        m_error = Error{ErrorCode::Parse, "rubric: " + std::move(message), m_source, line,
                        "see docs/review-file.md for the rubric format"};
        return false;
    }
    std::unexpected<Error> fail(std::string message, int line) {
        failed(std::move(message), line);
        return std::unexpected(m_error);
    }

    std::string_view m_text;
    std::string m_source;
    std::set<std::string> m_itemIds;
    Error m_error;
};

int lineAtByte(std::string_view text, std::size_t byte) {
    byte = std::min(byte, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
}

} // namespace

Expected<std::string> RubricLoader::readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::NotFound, "cannot read file", path);
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

Expected<Rubric> RubricLoader::loadFile(const std::string& path) {
    auto text = readText(path);
    KL_TRY(text);
    return parse(*text, path);
}

Expected<Rubric> RubricLoader::parse(std::string_view text, const std::string& sourceName) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        // e.byte is 1-based and points just past the offending character.
        const std::size_t byte = e.byte > 0 ? e.byte - 1 : 0;
        return makeError(ErrorCode::Parse, fmt::format("rubric is not valid JSON: {}", e.what()), sourceName,
                         lineAtByte(text, byte));
    } catch (const json::exception& e) { // a number such as 1e999 (out_of_range)
        return makeError(ErrorCode::Parse, fmt::format("rubric is not valid JSON: {}", e.what()), sourceName);
    }
    return RubricParser(text, sourceName).parse(root);
}

std::string RubricLoader::defaultRubricPath() {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (const char* dir = std::getenv("KL_RESOURCE_DIR")) {
        candidates.emplace_back(fs::path(dir) / "rubrics");
    }
    candidates.push_back(resourcesDir() / "rubrics"); // the installed data first, else the source tree
    std::error_code ec;
    for (const fs::path& dir : candidates) {
        const fs::path file = dir / "nki-migration.json";
        if (fs::is_regular_file(file, ec)) {
            return file.string();
        }
    }
    return {};
}

} // namespace kl::core
