#include "trust/TrustStore.h"

#include "review/TextCheck.h"
#include "support/AtomicFile.h"
#include "support/Try.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>

namespace kl::core {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxValueBytes = 4096;

constexpr std::pair<TrustKind, const char*> kKinds[] = {
    {TrustKind::Content, "content"}, {TrustKind::Folder, "folder"}, {TrustKind::Author, "author"}};

std::optional<TrustKind> kindFromName(const std::string& name) {
    for (const auto& [kind, text] : kKinds) {
        if (name == text) {
            return kind;
        }
    }
    return std::nullopt;
}

bool hasControlCharacters(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

bool isContentHash(std::string_view value) {
    constexpr std::string_view kPrefix = "sha256:";
    if (!value.starts_with(kPrefix) || value.size() != kPrefix.size() + 64) {
        return false;
    }
    return std::all_of(value.begin() + kPrefix.size(), value.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

/// Why `entry` cannot be stored, or nothing when it can.
std::optional<std::string> problemWith(const TrustEntry& entry) {
    const std::string& v = entry.value;
    if (v.empty() || v.size() > kMaxValueBytes || !isValidUtf8(v) || hasControlCharacters(v)) {
        return fmt::format("the value must be 1 to {} bytes of UTF-8 text without control characters", kMaxValueBytes);
    }
    if (entry.label.size() > kMaxValueBytes || !isValidUtf8(entry.label) || hasControlCharacters(entry.label) ||
        entry.added.size() > 64 || !isValidUtf8(entry.added) || hasControlCharacters(entry.added)) {
        return "the label and date must be short UTF-8 text without control characters";
    }
    if (entry.kind == TrustKind::Content && !isContentHash(v)) {
        return "a content entry must be \"sha256:\" and 64 lower-case hex digits";
    }
    if (entry.kind == TrustKind::Folder) {
        const fs::path folder(v);
        if (!folder.is_absolute() || folder.lexically_normal() != folder || folder == folder.root_path()) {
            return "a folder entry must be an absolute, normalized folder other than the root";
        }
    }
    return std::nullopt;
}

/// True when `path` is `folder` or inside it (whole path components, after resolving symlinks).
bool isInside(const fs::path& path, const fs::path& folder) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(path, ec);
    const fs::path f = fs::weakly_canonical(folder, ec);
    if (p.empty() || f.empty()) {
        return false;
    }
    const fs::path rel = p.lexically_relative(f);
    return !rel.empty() && *rel.begin() != "..";
}

Expected<TrustEntry> parseEntry(const json& item, std::size_t index, const std::string& file) {
    const auto bad = [&](const std::string& what) {
        return makeError(ErrorCode::Parse, fmt::format("trust store entry {}: {}", index, what), file, 0,
                         "nothing in this file is trusted; remove it or trust again from KernelLens");
    };
    if (!item.is_object()) {
        return bad("must be an object with kind, value, label and added");
    }
    for (const auto& [key, value] : item.items()) {
        const bool known = key == "kind" || key == "value" || key == "label" || key == "added";
        if (!known || !value.is_string()) {
            return bad(known ? fmt::format("'{}' must be a string", key) : fmt::format("unknown field '{}'", key));
        }
    }
    const auto kind = kindFromName(item.value("kind", ""));
    if (!kind) {
        return bad("'kind' must be content, folder or author");
    }
    TrustEntry entry{*kind, item.value("value", ""), item.value("label", ""), item.value("added", "")};
    if (auto problem = problemWith(entry)) {
        return bad(*problem);
    }
    return entry;
}

Expected<std::string> readStoreFile(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        return makeError(ErrorCode::Parse, "the trust store is not a regular file", path.string());
    }
    const auto size = fs::file_size(path, ec);
    if (ec || size > TrustStore::kMaxFileBytes) {
        return makeError(ErrorCode::Parse,
                         fmt::format("the trust store is larger than {} bytes", TrustStore::kMaxFileBytes),
                         path.string(), 0, "nothing in this file is trusted; remove it or trust again from KernelLens");
    }
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!in || !in.read(text.data(), static_cast<std::streamsize>(text.size()))) {
        return makeError(ErrorCode::Io, "cannot read the trust store", path.string());
    }
    return text;
}

} // namespace

const char* trustKindName(TrustKind kind) {
    for (const auto& [k, text] : kKinds) {
        if (k == kind) {
            return text;
        }
    }
    return "content";
}

Expected<TrustStore> TrustStore::load(const fs::path& path) {
    TrustStore store(path);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) {
        return store;
    }
    auto text = readStoreFile(path);
    KL_TRY(text);
    const std::string file = path.string();
    const json doc = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object()) {
        return makeError(ErrorCode::Parse, "the trust store is not a JSON object", file, 0,
                         "nothing in this file is trusted; remove it or trust again from KernelLens");
    }
    const auto format = doc.find("format");
    if (format == doc.end() || !format->is_number_integer() || format->get<std::int64_t>() != kFormat) {
        return makeError(ErrorCode::Unsupported, fmt::format("the trust store is not format {}", kFormat), file, 0,
                         "it was written by another KernelLens version; nothing in it is trusted");
    }
    const auto entries = doc.find("entries");
    if (entries == doc.end() || !entries->is_array() || entries->size() > kMaxEntries) {
        return makeError(ErrorCode::Parse,
                         fmt::format("the trust store needs 'entries': a list of at most {}", kMaxEntries), file, 0,
                         "nothing in this file is trusted; remove it or trust again from KernelLens");
    }
    for (std::size_t i = 0; i < entries->size(); ++i) {
        auto entry = parseEntry((*entries)[i], i, file);
        KL_TRY(entry);
        store.m_entries.push_back(std::move(*entry));
    }
    return store;
}

Expected<fs::path> TrustStore::setAside(const fs::path& path) {
    const fs::path aside = fs::path(path).concat(".broken");
    std::error_code ec;
    fs::rename(path, aside, ec);
    if (ec) {
        return makeError(ErrorCode::Io, fmt::format("cannot move the refused trust store aside: {}", ec.message()),
                         path.string());
    }
    return aside;
}

TrustDecision TrustStore::decide(const TrustSubject& subject, const fs::path& bundledExamples) const {
    if (!bundledExamples.empty() && isInside(subject.location, bundledExamples)) {
        return {TrustReason::BundledExample, bundledExamples.string()};
    }
    for (const TrustEntry& e : m_entries) {
        if (e.kind == TrustKind::Content && !subject.contentHash.empty() && e.value == subject.contentHash) {
            return {TrustReason::Content, e.label};
        }
    }
    for (const TrustEntry& e : m_entries) {
        if (e.kind == TrustKind::Folder && isInside(subject.location, e.value)) {
            return {TrustReason::Folder, e.value};
        }
        if (e.kind == TrustKind::Author && subject.kind == TrustSubject::Kind::Review &&
            std::find(subject.authors.begin(), subject.authors.end(), e.value) != subject.authors.end()) {
            return {TrustReason::Author, e.value};
        }
    }
    return {};
}

Expected<void> TrustStore::add(TrustEntry entry) {
    if (entry.kind == TrustKind::Folder) {
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(fs::absolute(entry.value, ec), ec);
        if (ec) {
            return makeError(ErrorCode::NotFound, "cannot resolve the folder to trust", entry.value);
        }
        entry.value = canonical.lexically_normal().string();
        while (entry.value.size() > 1 && entry.value.ends_with('/')) {
            entry.value.pop_back();
        }
        if (isTooBroadToTrust(entry.value)) {
            return makeError(ErrorCode::InvalidArgument,
                             "this folder holds files from anywhere and cannot be trusted as a whole", entry.value, 0,
                             "trust the folder of the task or review inside it instead");
        }
    }
    if (entry.added.empty()) {
        entry.added = utcNow();
    }
    if (auto problem = problemWith(entry)) {
        return makeError(ErrorCode::InvalidArgument, "cannot trust this: " + *problem, entry.value);
    }
    if (m_entries.size() >= kMaxEntries) {
        return makeError(ErrorCode::InvalidArgument, "the trust store is full", m_path.string(), 0,
                         "remove entries in File > Trusted Locations");
    }
    remove(entry.kind, entry.value);
    m_entries.push_back(std::move(entry));
    return {};
}

bool TrustStore::remove(TrustKind kind, const std::string& value) {
    const auto before = m_entries.size();
    std::erase_if(m_entries, [&](const TrustEntry& e) { return e.kind == kind && e.value == value; });
    return m_entries.size() != before;
}

Expected<void> TrustStore::save() const {
    json entries = json::array();
    for (const TrustEntry& e : m_entries) {
        entries.push_back(
            {{"kind", trustKindName(e.kind)}, {"value", e.value}, {"label", e.label}, {"added", e.added}});
    }
    const json doc = {{"format", kFormat}, {"entries", std::move(entries)}};
    std::error_code ec;
    if (m_path.has_parent_path()) {
        fs::create_directories(m_path.parent_path(), ec);
    }
    return writeFileAtomically(m_path, doc.dump(2) + "\n", /*privateToOwner=*/true);
}

TrustEntry contentTrust(const TrustSubject& subject) {
    static constexpr const char* kWhat[] = {"task folder", "kernel file", "review"};
    std::string where = subject.location.string();
    if (!isValidUtf8(where)) {
        where = "(a path that is not UTF-8)";
    }
    std::replace_if(
        where.begin(), where.end(),
        [](char c) {
            return hasControlCharacters({&c, 1});
        },
        '?');
    return {TrustKind::Content,
            subject.contentHash,
            fmt::format("{} {}", kWhat[static_cast<int>(subject.kind)], where),
            {}};
}

bool isTooBroadToTrust(const fs::path& folder) {
    std::error_code ec;
    const fs::path f = fs::weakly_canonical(folder, ec);
    if (ec || f.empty() || f == f.root_path()) {
        return true;
    }
    std::vector<fs::path> broad{fs::temp_directory_path(ec)};
    if (const char* home = std::getenv("HOME"); home && *home) {
        broad.emplace_back(home);
    }
    return std::any_of(broad.begin(), broad.end(), [&](const fs::path& b) {
        std::error_code e;
        return !b.empty() && fs::weakly_canonical(b, e) == f;
    });
}

fs::path folderToTrust(const TrustSubject& subject) {
    return subject.kind == TrustSubject::Kind::TaskFolder ? subject.location : subject.location.parent_path();
}

} // namespace kl::core
