#include "numerics/NumericsReader.h"

#include "common/JsonRead.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace kl::core {

namespace {

using nlohmann::json;
using Limits = NumericsLimits;
constexpr std::int64_t kMaxCount = std::int64_t{1} << 62;
constexpr std::int64_t kMaxDimSize = std::int64_t{1} << 40;
constexpr int kMaxLine = 10'000'000;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Thrown while reading with the field's message; never leaves this file.
struct FieldError {
    std::string message;
};

[[noreturn]] void fail(const std::string& path, std::string_view what, const json& v) {
    throw FieldError{kl::json::mismatch(path, what, v)};
}

std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

const json& member(const json& obj, const std::string& path, const char* key) {
    const auto it = obj.find(key);
    if (it == obj.end()) {
        throw FieldError{fmt::format("{}: missing", join(path, key))};
    }
    return *it;
}

const json& objectAt(const json& obj, const std::string& path, const char* key) {
    const json& v = member(obj, path, key);
    if (!v.is_object()) {
        fail(join(path, key), "an object", v);
    }
    return v;
}

const json& arrayAt(const json& v, const std::string& path, std::size_t maxSize) {
    if (!v.is_array() || v.size() > maxSize) {
        fail(path, fmt::format("an array of at most {} items", maxSize), v);
    }
    return v;
}

std::string text(const json& v, const std::string& path) {
    const auto s = kl::json::stringOf(v);
    if (!s || s->size() > Limits::kMaxText) {
        fail(path, fmt::format("a string of at most {} bytes", Limits::kMaxText), v);
    }
    return *s;
}

std::string textAt(const json& obj, const std::string& path, const char* key) {
    return text(member(obj, path, key), join(path, key));
}

std::int64_t integer(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi) {
    const auto n = kl::json::integerIn(v, lo, hi);
    if (!n) {
        fail(path, kl::json::integerRange(lo, hi), v);
    }
    return *n;
}

std::int64_t integerAt(const json& obj, const std::string& path, const char* key, std::int64_t lo, std::int64_t hi) {
    return integer(member(obj, path, key), join(path, key), lo, hi);
}

/// A float: a JSON number within [lo, hi], or "nan" / "inf" / "-inf" when `nonFinite` allows them.
double number(const json& v, const std::string& path, double lo, double hi, bool nonFinite = true) {
    if (nonFinite && v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (s == "nan") {
            return std::numeric_limits<double>::quiet_NaN();
        }
        if (s == "inf" && hi == kInf) {
            return kInf;
        }
        if (s == "-inf" && lo == -kInf) {
            return -kInf;
        }
    }
    const auto n = kl::json::numberIn(v, lo, hi);
    if (!n) {
        const std::string range = std::isinf(lo) && std::isinf(hi) ? std::string("a number")
                                  : std::isinf(hi)                 ? fmt::format("a number of at least {}", lo)
                                                                   : kl::json::numberRange(lo, hi);
        fail(path, nonFinite ? range + " or \"nan\"/\"inf\"/\"-inf\"" : range, v);
    }
    return *n;
}

double numberAt(const json& obj, const std::string& path, const char* key, double lo, double hi,
                bool nonFinite = true) {
    return number(member(obj, path, key), join(path, key), lo, hi, nonFinite);
}

bool boolAt(const json& obj, const std::string& path, const char* key) {
    const json& v = member(obj, path, key);
    if (!v.is_boolean()) {
        fail(join(path, key), "true or false", v);
    }
    return v.get<bool>();
}

std::vector<std::int64_t> shape(const json& v, const std::string& path) {
    const json& list = arrayAt(v, path, Limits::kMaxDims);
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        out.push_back(integer(list[i], fmt::format("{}[{}]", path, i), 0, kMaxDimSize));
    }
    return out;
}

NumericsTensor tensor(const json& v, const std::string& path) {
    if (!v.is_object()) {
        fail(path, "an object with \"name\", \"shape\" and \"dtype\"", v);
    }
    return {textAt(v, path, "name"), shape(member(v, path, "shape"), join(path, "shape")), textAt(v, path, "dtype")};
}

NumericsComparison comparison(const json& v, const std::string& path) {
    NumericsComparison c;
    c.maxAbsError = numberAt(v, path, "max_abs_error", 0, kInf);
    c.maxRelError = numberAt(v, path, "max_rel_error", 0, kInf);
    c.maxUlpError = numberAt(v, path, "max_ulp_error", 0, kInf);
    c.rmsError = numberAt(v, path, "rms_error", 0, kInf);
    c.mismatches = integerAt(v, path, "mismatches", 0, kMaxCount);
    c.mismatchPct = numberAt(v, path, "mismatch_pct", 0, 100, false);
    c.rtol = numberAt(v, path, "rtol", 0, 1e6, false);
    c.atol = numberAt(v, path, "atol", 0, 1e300, false);
    c.passed = boolAt(v, path, "passed");
    const std::string worstPath = join(path, "worst");
    const json& worst = arrayAt(member(v, path, "worst"), worstPath, Limits::kMaxWorst);
    for (std::size_t i = 0; i < worst.size(); ++i) {
        const std::string p = fmt::format("{}[{}]", worstPath, i);
        if (!worst[i].is_object()) {
            fail(p, "an object with \"index\", \"value\" and \"expected\"", worst[i]);
        }
        NumericsWorstElement e;
        e.index = shape(member(worst[i], p, "index"), join(p, "index"));
        e.value = numberAt(worst[i], p, "value", -kInf, kInf);
        e.expected = numberAt(worst[i], p, "expected", -kInf, kInf);
        c.worst.push_back(std::move(e));
    }
    return c;
}

NumericsHeatmap heatmap(const json& v, const std::string& path) {
    NumericsHeatmap h;
    h.rows = static_cast<int>(integerAt(v, path, "rows", 0, Limits::kMaxHeatmapSide));
    h.cols = static_cast<int>(integerAt(v, path, "cols", 0, Limits::kMaxHeatmapSide));
    const json& cell = arrayAt(member(v, path, "cell"), join(path, "cell"), 2);
    if (cell.size() != 2) {
        fail(join(path, "cell"), "[rows, cols] of a cell", cell);
    }
    h.cellRows = integer(cell[0], join(path, "cell[0]"), 1, kMaxDimSize);
    h.cellCols = integer(cell[1], join(path, "cell[1]"), 1, kMaxDimSize);
    const std::size_t cells = static_cast<std::size_t>(h.rows) * static_cast<std::size_t>(h.cols);
    const std::string errPath = join(path, "abs_error");
    const json& err = arrayAt(member(v, path, "abs_error"), errPath, cells);
    const std::string worstPath = join(path, "worst");
    const json& worst = arrayAt(member(v, path, "worst"), worstPath, cells);
    if (err.size() != cells || worst.size() != cells) {
        throw FieldError{fmt::format("{}: abs_error and worst must hold rows x cols = {} values each, found {} and {}",
                                     path, cells, err.size(), worst.size())};
    }
    h.absError.reserve(cells);
    h.worst.reserve(cells);
    for (std::size_t i = 0; i < cells; ++i) {
        h.absError.push_back(number(err[i], fmt::format("{}[{}]", errPath, i), 0, kInf));
        h.worst.push_back(integer(worst[i], fmt::format("{}[{}]", worstPath, i), 0, kMaxCount));
    }
    return h;
}

NumericsHistogram histogram(const json& v, const std::string& path) {
    NumericsHistogram h;
    const std::string edgesPath = join(path, "log10_abs_error_edges");
    const json& edges = arrayAt(member(v, path, "log10_abs_error_edges"), edgesPath, Limits::kMaxHistogramBins + 1);
    const std::string countsPath = join(path, "counts");
    const json& counts = arrayAt(member(v, path, "counts"), countsPath, Limits::kMaxHistogramBins);
    if (counts.size() + 1 != edges.size() && !(counts.empty() && edges.empty())) {
        throw FieldError{
            fmt::format("{}: {} counts need {} edges, found {}", path, counts.size(), counts.size() + 1, edges.size())};
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
        h.log10Edges.push_back(number(edges[i], fmt::format("{}[{}]", edgesPath, i), -400, 400, false));
        if (i > 0 && h.log10Edges[i] < h.log10Edges[i - 1]) {
            fail(fmt::format("{}[{}]", edgesPath, i), "edges in increasing order", edges[i]);
        }
    }
    for (std::size_t i = 0; i < counts.size(); ++i) {
        h.counts.push_back(integer(counts[i], fmt::format("{}[{}]", countsPath, i), 0, kMaxCount));
    }
    h.zeros = integerAt(v, path, "zeros", 0, kMaxCount);
    return h;
}

NumericsOutput output(const json& v, const std::string& path) {
    NumericsOutput out;
    out.tensor = tensor(v, path);
    const json& comps = objectAt(v, path, "comparisons");
    const std::string compsPath = join(path, "comparisons");
    for (ComparisonKind kind : kAllComparisons) {
        const std::string key(comparisonKey(kind));
        const json& c = member(comps, compsPath, key.c_str());
        if (c.is_null()) {
            continue;
        }
        if (!c.is_object()) {
            fail(join(compsPath, key), "a comparison object or null", c);
        }
        out.comparisons[static_cast<std::size_t>(kind)] = comparison(c, join(compsPath, key));
    }
    // A heat map and a histogram are drawn when present; an output without elements has neither.
    if (const auto it = v.find("heatmap"); it != v.end() && !it->is_null()) {
        out.heatmap = heatmap(it->is_object() ? *it : (fail(join(path, "heatmap"), "an object", *it), *it),
                              join(path, "heatmap"));
    }
    if (const auto it = v.find("histogram"); it != v.end() && !it->is_null()) {
        out.histogram = histogram(it->is_object() ? *it : (fail(join(path, "histogram"), "an object", *it), *it),
                                  join(path, "histogram"));
    }
    return out;
}

NumericsInstruction instruction(const json& v, const std::string& path) {
    if (!v.is_object()) {
        fail(path, "an object with \"index\", \"op\", \"file\", \"line\", \"added_error\"", v);
    }
    NumericsInstruction ins;
    ins.index = integerAt(v, path, "index", 0, kMaxCount);
    ins.op = textAt(v, path, "op");
    ins.file = textAt(v, path, "file");
    ins.line = static_cast<int>(integerAt(v, path, "line", 0, kMaxLine));
    ins.addedError = numberAt(v, path, "added_error", 0, kInf);
    if (const auto it = v.find("output"); it != v.end() && !it->is_null()) {
        ins.output = text(*it, join(path, "output"));
    }
    return ins;
}

void readHeader(const json& doc, NumericsResult& r) {
    if (textAt(doc, "", "format") != "kernellens-numerics") {
        fail("format", "\"kernellens-numerics\"", doc["format"]);
    }
    const json& version = member(doc, "", "version");
    if (kl::json::integerIn(version, 1, 1) != 1) {
        throw FieldError{kl::json::integerIn(version, 2, INT32_MAX)
                             ? fmt::format("version {} is newer than this KernelLens reads (1)", version.dump())
                             : kl::json::mismatch("version", "1", version)};
    }
    r.kernel = textAt(doc, "", "kernel");
    r.kernelFile = textAt(doc, "", "kernel_file");
    const json& args = arrayAt(member(doc, "", "args"), "args", Limits::kMaxArgs);
    for (std::size_t i = 0; i < args.size(); ++i) {
        r.args.push_back(tensor(args[i], fmt::format("args[{}]", i)));
    }
    const json& inputs = objectAt(doc, "", "inputs");
    r.inputsKind = textAt(inputs, "inputs", "kind");
    r.seed = integerAt(inputs, "inputs", "seed", 0, std::numeric_limits<std::int64_t>::max());
    r.inputsFile = textAt(inputs, "inputs", "file");
    r.reference = textAt(doc, "", "reference");
    r.cudaNumerics = textAt(doc, "", "cuda_numerics");
    const json& tol = objectAt(doc, "", "tolerance");
    r.toleranceStandard = textAt(tol, "tolerance", "standard");
    r.toleranceSource = textAt(tol, "tolerance", "source");
    r.toleranceOverridden = boolAt(tol, "tolerance", "overridden");
    r.instructions = integerAt(doc, "", "instructions", 0, kMaxCount);
    r.valueMs = numberAt(doc, "", "value_ms", 0, 1e12, false);
}

NumericsResult readDocument(const json& doc) {
    if (!doc.is_object()) {
        fail("document", "a JSON object", doc);
    }
    NumericsResult r;
    readHeader(doc, r);
    const json& outputs = arrayAt(member(doc, "", "outputs"), "outputs", Limits::kMaxOutputs);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string path = fmt::format("outputs[{}]", i);
        if (!outputs[i].is_object()) {
            fail(path, "an object", outputs[i]);
        }
        r.outputs.push_back(output(outputs[i], path));
    }
    const json& top =
        arrayAt(member(doc, "", "top_error_instructions"), "top_error_instructions", Limits::kMaxTopInstructions);
    for (std::size_t i = 0; i < top.size(); ++i) {
        r.topErrorInstructions.push_back(instruction(top[i], fmt::format("top_error_instructions[{}]", i)));
    }
    if (const auto it = doc.find("warnings"); it != doc.end()) {
        const json& warnings = arrayAt(*it, "warnings", Limits::kMaxWarnings);
        for (std::size_t i = 0; i < warnings.size(); ++i) {
            r.warnings.push_back(text(warnings[i], fmt::format("warnings[{}]", i)));
        }
    }
    return r;
}

} // namespace

Expected<NumericsResult> parseNumericsDocument(std::string_view text, const std::string& file) {
    constexpr const char* kHint = "the numerics document is described in docs/numerics-json.md";
    if (text.size() > Limits::kMaxBytes) {
        return makeError(ErrorCode::Parse,
                         fmt::format("the numerics document is {} bytes, more than the {} MiB allowed", text.size(),
                                     Limits::kMaxBytes >> 20),
                         file, 0, kHint);
    }
    json doc;
    try {
        // Deep nesting is refused while parsing, before anything recursive touches the value.
        doc = json::parse(text.begin(), text.end(), [](int depth, json::parse_event_t, json&) {
            if (depth > Limits::kMaxDepth) {
                throw FieldError{fmt::format("nested more than {} levels deep", Limits::kMaxDepth)};
            }
            return true;
        });
    } catch (const json::exception& e) {
        return makeError(ErrorCode::Parse, fmt::format("the numerics document is not valid JSON: {}", e.what()), file,
                         0, kHint);
    } catch (const FieldError& e) {
        return makeError(ErrorCode::Parse, "the numerics document is " + e.message, file, 0, kHint);
    }
    try {
        return readDocument(doc);
    } catch (const FieldError& e) {
        return makeError(ErrorCode::Parse, "numerics document: " + e.message, file, 0, kHint);
    } catch (const json::exception& e) { // a bug here, not bad input; still never a crash
        return makeError(ErrorCode::Internal, fmt::format("reading the numerics document: {}", e.what()), file);
    }
}

Expected<NumericsResult> readNumericsFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorCode::NotFound, "cannot open the numerics document", path.string());
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > Limits::kMaxBytes) {
        return makeError(ErrorCode::Parse,
                         fmt::format("the numerics document is {} bytes, more than the {} MiB allowed", size,
                                     Limits::kMaxBytes >> 20),
                         path.string());
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return parseNumericsDocument(buffer.str(), path.string());
}

} // namespace kl::core
