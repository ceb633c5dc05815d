#pragma once

#include "common/Error.h"
#include "trust/TrustSubject.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kl::core {

/// What a trust entry names: a content hash, a folder (and everything below it), or a review's author.
enum class TrustKind { Content, Folder, Author };

struct TrustEntry {
    TrustKind kind = TrustKind::Content;
    std::string value; ///< "sha256:<hex>", an absolute canonical folder, or an author name
    std::string label; ///< what it was given for, for the Trusted Locations list ("task folder /home/ana/t1")
    std::string added; ///< ISO 8601 UTC
};

/// Why a subject may run, or that it may not.
enum class TrustReason { NotTrusted, BundledExample, Content, Folder, Author };

struct TrustDecision {
    TrustReason reason = TrustReason::NotTrusted;
    std::string detail; ///< the folder or author that made it trusted
    [[nodiscard]] bool trusted() const { return reason != TrustReason::NotTrusted; }
};

[[nodiscard]] const char* trustKindName(TrustKind kind);

/// The user's workspace-trust decisions (DESIGN.md, "Trust and isolation"), kept in a small JSON file the
/// caller names (the GUI: trust.json in QStandardPaths::AppConfigLocation). It is the only thing that lets a
/// kernel from someone else run: decide() answers for a TrustSubject, add()/remove() change the entries and
/// save() writes them atomically, readable by the owner only.
///
/// The file is input like any other: load() refuses a file that is not exactly what save() writes (wrong
/// types, unknown kinds, malformed hashes, relative folders, control characters, too big) with a message
/// naming the file and the entry, and trusts nothing from it. setAside() moves such a file out of the way
/// so that new decisions can be saved.
///
///     {"format": 1, "entries": [
///       {"kind": "content", "value": "sha256:9f2c...", "label": "task folder /home/ana/rmsnorm", "added": "..."},
///       {"kind": "folder", "value": "/home/ana/reviews", "label": "", "added": "..."},
///       {"kind": "author", "value": "Ana", "label": "", "added": "..."}]}
class TrustStore {
public:
    static constexpr int kFormat = 1;
    static constexpr std::size_t kMaxFileBytes = 4u << 20;
    static constexpr std::size_t kMaxEntries = 10'000;

    /// An empty store that save() writes to `path`.
    explicit TrustStore(std::filesystem::path path) : m_path(std::move(path)) {}

    /// Reads `path`; a missing file is an empty store.
    [[nodiscard]] static Expected<TrustStore> load(const std::filesystem::path& path);
    /// Renames a store that load() refused to `path.broken` (replacing an older one); returns the new name.
    [[nodiscard]] static Expected<std::filesystem::path> setAside(const std::filesystem::path& path);

    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
    [[nodiscard]] const std::vector<TrustEntry>& entries() const { return m_entries; }

    /// Whether `subject` may run. Bundled examples (inside `bundledExamples`) always may.
    [[nodiscard]] TrustDecision decide(const TrustSubject& subject, const std::filesystem::path& bundledExamples) const;

    /// Adds an entry (a folder is made canonical; isTooBroadToTrust() folders are refused); an entry of the
    /// same kind and value is replaced. Not saved until save().
    [[nodiscard]] Expected<void> add(TrustEntry entry);
    /// Removes the entry of that kind and value; false when there was none.
    bool remove(TrustKind kind, const std::string& value);
    /// Writes the entries (creating the folder); owner-only permissions.
    [[nodiscard]] Expected<void> save() const;

private:
    std::filesystem::path m_path;
    std::vector<TrustEntry> m_entries;
};

/// The entry that trusts exactly this content; `label` says what it was.
[[nodiscard]] TrustEntry contentTrust(const TrustSubject& subject);
/// The folder "Trust Folder" offers for a subject: the task folder, the kernel's folder, the review's folder.
[[nodiscard]] std::filesystem::path folderToTrust(const TrustSubject& subject);
/// True for folders that hold other people's files by nature (the root, the home folder, the temporary
/// folder): trusting one of them would trust whatever lands there, so add() refuses them.
[[nodiscard]] bool isTooBroadToTrust(const std::filesystem::path& folder);

} // namespace kl::core
