#include "compat/CompatManifest.h"

#include "task/TaskSpec.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace kl::core {

using nlohmann::json;

namespace {

constexpr const char* kHint = "see docs/compat.md for the manifest format";
constexpr std::array<std::string_view, 9> kEntryFields = {"file", "kernel",       "args",         "scalars", "grid",
                                                          "hw",   "package_root", "shape_source", "note"};

bool isIdentifier(const std::string& s) {
    if (s.empty() || (std::isdigit(static_cast<unsigned char>(s.front())) != 0)) {
        return false;
    }
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// Reads one entry, naming the manifest, the entry and the field in every error.
class EntryReader {
public:
    EntryReader(const json& item, std::size_t index, const std::string& origin)
        : m_item(item), m_index(index), m_origin(origin) {}

    [[nodiscard]] std::unexpected<Error> fail(const std::string& field, const std::string& what) const {
        const std::string kernel = m_item.is_object() && m_item.contains("kernel") && m_item["kernel"].is_string()
                                       ? fmt::format(" (kernel \"{}\")", m_item["kernel"].get<std::string>())
                                       : "";
        const std::string where = field.empty() ? "" : fmt::format(": field \"{}\"", field);
        return makeError(ErrorCode::Parse, fmt::format("entries[{}]{}{} {}", m_index, kernel, where, what), m_origin, 0,
                         kHint);
    }

    /// A string field; `required` ones must be present and non-empty.
    Expected<std::string> text(const char* key, bool required) const {
        if (!m_item.contains(key)) {
            if (required) {
                return fail(key, "is missing");
            }
            return std::string();
        }
        const json& v = m_item[key];
        if (!v.is_string() || (required && v.get<std::string>().empty())) {
            return fail(key, required ? "must be a non-empty string" : "must be a string");
        }
        return v.get<std::string>();
    }

    Expected<std::vector<long long>> positiveInts(const json& v, const std::string& field, std::size_t maxSize) const {
        const auto positive = [](const json& n) { return n.is_number_integer() && n.get<long long>() > 0; };
        if (!v.is_array() || v.empty() || v.size() > maxSize || !std::all_of(v.begin(), v.end(), positive)) {
            return fail(field,
                        fmt::format("must be a list of 1 to {} positive whole numbers, got {}", maxSize, v.dump()));
        }
        std::vector<long long> out;
        for (const json& n : v) {
            out.push_back(n.get<long long>());
        }
        return out;
    }

    Expected<std::vector<CompatArgument>> args() const {
        std::vector<CompatArgument> out;
        if (!m_item.contains("args")) {
            return out;
        }
        const json& list = m_item["args"];
        if (!list.is_array()) {
            return fail("args", "must be a list of {\"name\", \"shape\", \"dtype\"}");
        }
        for (std::size_t i = 0; i < list.size(); ++i) {
            const json& a = list[i];
            const std::string field = fmt::format("args[{}]", i);
            if (!a.is_object()) {
                return fail(field, "must be an object {\"name\", \"shape\", \"dtype\"}");
            }
            CompatArgument arg;
            if (!a.contains("name") || !a["name"].is_string() || !isIdentifier(a["name"].get<std::string>())) {
                return fail(field + ".name", "must be a Python parameter name");
            }
            arg.name = a["name"].get<std::string>();
            if (!a.contains("shape")) {
                return fail(field + ".shape", "is missing");
            }
            auto shape = positiveInts(a["shape"], field + ".shape", 8);
            KL_TRY(shape);
            arg.shape = std::move(*shape);
            if (!a.contains("dtype") || !a["dtype"].is_string() || a["dtype"].get<std::string>().empty()) {
                return fail(field + ".dtype", "must be a dtype name such as \"bfloat16\"");
            }
            arg.dtype = a["dtype"].get<std::string>();
            const bool duplicate =
                std::any_of(out.begin(), out.end(), [&](const CompatArgument& o) { return o.name == arg.name; });
            if (duplicate) {
                return fail(field + ".name", fmt::format("repeats the argument \"{}\"", arg.name));
            }
            out.push_back(std::move(arg));
        }
        return out;
    }

    Expected<std::vector<std::pair<std::string, std::string>>> scalars() const {
        std::vector<std::pair<std::string, std::string>> out;
        if (!m_item.contains("scalars")) {
            return out;
        }
        const json& map = m_item["scalars"];
        if (!map.is_object()) {
            return fail("scalars", "must be an object of NAME: \"Python literal text\"");
        }
        for (const auto& [name, value] : map.items()) {
            if (!isIdentifier(name)) {
                return fail("scalars", fmt::format("has \"{}\", which is not a Python parameter name", name));
            }
            if (!value.is_string()) {
                return fail(
                    "scalars." + name,
                    fmt::format("must be text (a Python literal such as \"-1\" or \"(3, 4)\"), got {}", value.dump()));
            }
            out.emplace_back(name, value.get<std::string>());
        }
        return out;
    }

    Expected<CompatEntry> read() const {
        if (!m_item.is_object()) {
            return fail("", "must be an object with at least \"file\" and \"kernel\"");
        }
        for (const auto& [key, value] : m_item.items()) {
            if (std::find(kEntryFields.begin(), kEntryFields.end(), key) == kEntryFields.end()) {
                return fail(key, "is not a manifest field (file, kernel, args, scalars, grid, hw, package_root, "
                                 "shape_source, note)");
            }
        }
        CompatEntry entry;
        auto file = text("file", true);
        auto kernel = text("kernel", true);
        auto packageRoot = text("package_root", false);
        auto hardware = text("hw", false);
        auto shapeSource = text("shape_source", false);
        auto note = text("note", false);
        for (const auto* part : {&file, &kernel, &packageRoot, &hardware, &shapeSource, &note}) {
            KL_TRY(*part);
        }
        entry.file = *file;
        entry.kernel = *kernel;
        entry.packageRoot = *packageRoot;
        entry.hardware = *hardware;
        entry.shapeSource = *shapeSource;
        entry.note = *note;
        auto args = this->args();
        KL_TRY(args);
        entry.args = std::move(*args);
        auto scalars = this->scalars();
        KL_TRY(scalars);
        entry.scalars = std::move(*scalars);
        if (m_item.contains("grid")) {
            auto grid = positiveInts(m_item["grid"], "grid", 3);
            KL_TRY(grid);
            entry.grid = std::move(*grid);
        }
        return entry;
    }

private:
    const json& m_item;
    std::size_t m_index;
    const std::string& m_origin;
};

} // namespace

Expected<CompatManifest> parseCompatManifest(const std::string& text, const std::string& origin) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        // e.byte is 1-based and points just past the offending character.
        const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(e.byte, text.size()));
        const int line = 1 + static_cast<int>(std::count(text.begin(), end > text.begin() ? end - 1 : end, '\n'));
        return makeError(ErrorCode::Parse, fmt::format("not valid JSON: {}", e.what()), origin, line, kHint);
    } catch (const json::exception& e) { // a number JSON cannot hold, such as 1e999 (out_of_range)
        return makeError(ErrorCode::Parse, fmt::format("not valid JSON: {}", e.what()), origin, 0, kHint);
    }
    if (!doc.is_object()) {
        return makeError(ErrorCode::Parse, "a manifest is a JSON object {\"format\": 1, \"entries\": [...]}", origin, 0,
                         kHint);
    }
    if (!doc.contains("format") || !doc["format"].is_number_integer()) {
        return makeError(ErrorCode::Parse, "field \"format\" is missing or not a number (expected 1)", origin, 0,
                         kHint);
    }
    if (doc["format"].get<long long>() != 1) {
        return makeError(ErrorCode::Unsupported,
                         fmt::format("format {} is not one this KernelLens reads (1)", doc["format"].dump()), origin, 0,
                         kHint);
    }
    CompatManifest manifest;
    if (doc.contains("source")) {
        if (!doc["source"].is_string()) {
            return makeError(ErrorCode::Parse, "field \"source\" must be a string", origin, 0, kHint);
        }
        manifest.source = doc["source"].get<std::string>();
    }
    if (!doc.contains("entries") || !doc["entries"].is_array()) {
        return makeError(ErrorCode::Parse, "field \"entries\" is missing or not a list", origin, 0, kHint);
    }
    const json& entries = doc["entries"];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        auto entry = EntryReader(entries[i], i, origin).read();
        KL_TRY(entry);
        manifest.entries.push_back(std::move(*entry));
    }
    return manifest;
}

Expected<CompatManifest> loadCompatManifest(const std::filesystem::path& path) {
    auto text = readTextFile(path);
    if (!text) {
        return makeError(ErrorCode::NotFound, "cannot read the manifest", path.string());
    }
    return parseCompatManifest(*text, path.string());
}

} // namespace kl::core
