#include "lesson/LessonLoader.h"

#include "common/JsonRead.h"
#include "lesson/LessonText.h"
#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace kl::core {

namespace {

using Json = nlohmann::json;

/// A field problem with the JSON path of the field; turned into kl::Error with the file by the caller.
struct FieldError {
    std::string message;
};

int lineOfByte(std::string_view text, std::size_t byte) {
    byte = std::min(byte, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
}

constexpr std::int64_t kMaxLine = 0x7fffffff;
constexpr double kMaxMicroseconds = 1e9; ///< a time range in "us": at most 1000 s

const Json& require(const Json& object, const char* key, const std::string& path) {
    if (!object.contains(key)) {
        throw FieldError{fmt::format("{}{} is missing", path, key)};
    }
    return object[key];
}

std::string requireString(const Json& object, const char* key, const std::string& path) {
    const Json& v = require(object, key, path);
    if (!v.is_string() || v.get<std::string>().empty()) {
        throw FieldError{kl::json::mismatch(path + key, "a non-empty string", v)};
    }
    return v.get<std::string>();
}

std::string optionalString(const Json& object, const char* key, const std::string& path) {
    if (!object.contains(key)) {
        return {};
    }
    if (!object[key].is_string()) {
        throw FieldError{kl::json::mismatch(path + key, "a string", object[key])};
    }
    return object[key].get<std::string>();
}

LessonLines parseLines(const Json& object, const char* key, const std::string& path) {
    if (!object.contains(key)) {
        return {};
    }
    const Json& v = object[key];
    const auto first = v.is_array() && v.size() == 2 ? kl::json::integerIn(v[0], 1, kMaxLine) : std::nullopt;
    const auto last = first ? kl::json::integerIn(v[1], *first, kMaxLine) : std::nullopt;
    if (!last) {
        throw FieldError{kl::json::mismatch(path + key, "[first, last] with 1 <= first <= last <= 2^31 - 1", v)};
    }
    return {static_cast<int>(*first), static_cast<int>(*last)};
}

LessonTimeRange parseTimeRange(const Json& v, const std::string& path) {
    const std::string field = path + "time_range";
    if (!v.is_object() || !v.contains("from") || !v.contains("to")) {
        throw FieldError{
            kl::json::mismatch(field, "{\"from\": number, \"to\": number, \"unit\": \"fraction\" | \"us\"}", v)};
    }
    LessonTimeRange r;
    const std::string unit = v.contains("unit") ? requireString(v, "unit", field + ".") : std::string("fraction");
    if (unit == "us") {
        r.unit = LessonTimeRange::Unit::Microseconds;
    } else if (unit != "fraction") {
        throw FieldError{fmt::format("{}.unit must be \"fraction\" or \"us\", not \"{}\"", field, unit)};
    }
    // Microseconds become integer picoseconds: at most kMaxMicroseconds keeps that far from overflow.
    const double limit = r.unit == LessonTimeRange::Unit::Fraction ? 1.0 : kMaxMicroseconds;
    const auto from = kl::json::numberIn(v["from"], 0, limit);
    const auto to = kl::json::numberIn(v["to"], 0, limit);
    if (!from || !to || *to <= *from) {
        throw FieldError{
            fmt::format("{} needs 0 <= from < to <= {:g} ({}), found from {} and to {}", field, limit,
                        r.unit == LessonTimeRange::Unit::Fraction ? "a fraction of the run" : "microseconds",
                        kl::json::describe(v["from"]), kl::json::describe(v["to"]))};
    }
    r.from = *from;
    r.to = *to;
    return r;
}

class Parser {
public:
    Parser(const std::filesystem::path& examplesDir) : m_examplesDir(examplesDir) {}

    std::string checkTask(const std::string& task, const std::string& path) const {
        std::error_code ec;
        if (task.find('/') != std::string::npos || task.find("..") != std::string::npos ||
            task.find('\0') != std::string::npos || !std::filesystem::exists(m_examplesDir / task / "task.json", ec)) {
            std::vector<std::string> known;
            for (const auto& entry : std::filesystem::directory_iterator(m_examplesDir, ec)) {
                if (std::filesystem::exists(entry.path() / "task.json", ec)) {
                    known.push_back(entry.path().filename().string());
                }
            }
            std::sort(known.begin(), known.end());
            throw FieldError{
                fmt::format("{}: unknown example \"{}\" (examples: {})", path, task, fmt::join(known, ", "))};
        }
        return task;
    }

    ProfileOverrides parseWhatIf(const Json& v, const std::string& path) const {
        if (!v.is_object()) {
            throw FieldError{fmt::format("{}what_if must be an object of profile field -> value", path)};
        }
        ProfileOverrides overrides;
        for (const auto& [key, value] : v.items()) {
            const WhatIfField* field = findWhatIfField(key);
            if (!field) {
                throw FieldError{fmt::format("{}what_if: unknown profile field {}", path, kl::json::inQuotes(key))};
            }
            const auto number = kl::json::numberIn(value, field->minimum, field->maximum);
            if (!number) {
                throw FieldError{kl::json::mismatch(
                    fmt::format("{}what_if.{}", path, key),
                    fmt::format("a number from {:g} to {:g} {}", field->minimum, field->maximum, field->unit), value)};
            }
            overrides[key] = *number;
        }
        return overrides;
    }

    LessonStep parseStep(const Json& s, const std::string& path) const {
        if (!s.is_object()) {
            throw FieldError{fmt::format("{} must be an object", path)};
        }
        const std::string prefix = path + ".";
        LessonStep step;
        step.title = requireString(s, "title", prefix);
        step.text = requireString(s, "text", prefix);
        if (auto bad = unknownPlaceholder(step.text)) {
            throw FieldError{
                fmt::format("{}text: unknown live number {{{}}} (docs/lessons.md lists them)", prefix, *bad)};
        }
        const Json& anchors = require(s, "anchors", prefix);
        const std::string anchorPath = prefix + "anchors.";
        if (!anchors.is_object()) {
            throw FieldError{fmt::format("{}anchors must be an object", prefix)};
        }
        step.task = checkTask(requireString(anchors, "task", anchorPath), anchorPath + "task");
        if (anchors.contains("hardware")) {
            step.hardware = requireString(anchors, "hardware", anchorPath);
        }
        if (anchors.contains("time_range")) {
            step.timeRange = parseTimeRange(anchors["time_range"], anchorPath);
        }
        step.nkiLines = parseLines(anchors, "nki_lines", anchorPath);
        step.cudaLines = parseLines(anchors, "cuda_lines", anchorPath);
        step.annotation = optionalString(anchors, "annotation", anchorPath);
        if (s.contains("what_if")) {
            step.whatIf = parseWhatIf(s["what_if"], prefix);
        }
        if (s.contains("compare")) {
            const Json& c = s["compare"];
            if (!c.is_object()) {
                throw FieldError{fmt::format("{}compare must be an object", prefix)};
            }
            LessonComparison cmp;
            cmp.task = c.contains("task")
                           ? checkTask(requireString(c, "task", prefix + "compare."), prefix + "compare.task")
                           : step.task;
            cmp.hardware = c.contains("hardware") ? requireString(c, "hardware", prefix + "compare.") : step.hardware;
            if (cmp.task == step.task && cmp.hardware == step.hardware) {
                throw FieldError{
                    fmt::format("{}compare names the step's own run: give another task or hardware", prefix)};
            }
            step.compare = cmp;
        }
        return step;
    }

    Lesson parse(const Json& root) const {
        if (!root.is_object()) {
            throw FieldError{"a lesson file must hold one JSON object"};
        }
        const auto version = root.find("lesson_version");
        if (version == root.end() || kl::json::integerIn(*version, 1, 1) != 1) {
            throw FieldError{version == root.end() ? std::string("lesson_version must be 1 (found none)")
                                                   : kl::json::mismatch("lesson_version", "1", *version)};
        }
        Lesson lesson;
        lesson.title = requireString(root, "title", "");
        lesson.summary = requireString(root, "summary", "");
        lesson.cudaCounterpart = requireString(root, "cuda_counterpart", "");
        const Json& steps = require(root, "steps", "");
        if (!steps.is_array() || steps.empty()) {
            throw FieldError{"steps must be a non-empty array"};
        }
        for (std::size_t i = 0; i < steps.size(); ++i) {
            lesson.steps.push_back(parseStep(steps[i], fmt::format("steps[{}]", i)));
        }
        return lesson;
    }

private:
    std::filesystem::path m_examplesDir;
};

} // namespace

LessonLoader::LessonLoader(std::filesystem::path examplesDir) : m_examplesDir(std::move(examplesDir)) {}

Expected<Lesson> LessonLoader::loadString(std::string_view json, std::string_view origin) const {
    Json root;
    try {
        root = Json::parse(json.begin(), json.end());
    } catch (const Json::out_of_range& e) { // a number such as 1e999
        return makeError(ErrorCode::Parse, fmt::format("lesson is not valid JSON: {}", e.what()), std::string(origin),
                         0, "write numbers JSON can hold");
    } catch (const Json::parse_error& e) {
        const int line = lineOfByte(json, e.byte > 0 ? e.byte - 1 : 0);
        // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line ...".
        std::string what = e.what();
        if (const auto colon = what.find(": "); colon != std::string::npos) {
            what = what.substr(colon + 2);
        }
        return makeError(ErrorCode::Parse, fmt::format("lesson is not valid JSON: {}", what), std::string(origin), line,
                         "check for a missing comma, quote or bracket");
    }
    try {
        Lesson lesson = Parser(m_examplesDir).parse(root);
        lesson.file = std::filesystem::path(origin);
        lesson.id = lesson.file.stem().string();
        return lesson;
    } catch (const FieldError& e) {
        return makeError(ErrorCode::Parse, fmt::format("bad lesson: {}", e.message), std::string(origin), 0,
                         "see docs/lessons.md for the format");
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("bad lesson: {}", e.what()), std::string(origin), 0,
                         "see docs/lessons.md for the format");
    }
}

Expected<Lesson> LessonLoader::loadFile(const std::filesystem::path& path) const {
    auto text = readTextFile(path);
    KL_TRY(text);
    return loadString(*text, path.string());
}

std::vector<Lesson> LessonLoader::loadFolder(const std::filesystem::path& folder, std::vector<Error>* errors) const {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<Lesson> lessons;
    for (const auto& file : files) {
        auto lesson = loadFile(file);
        if (lesson) {
            lessons.push_back(std::move(*lesson));
        } else if (errors) {
            errors->push_back(lesson.error());
        }
    }
    return lessons;
}

std::filesystem::path lessonsDir() {
    return resourcesDir() / "lessons";
}

} // namespace kl::core
