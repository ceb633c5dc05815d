#pragma once

#include "common/Error.h"
#include "review/EditCommand.h"
#include "review/ReviewTypes.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kl::core {

class ReviewFile;

/// Where a LinkSet keeps the links that outlive the session (reviewer links and decided suggestions).
class LinkStore {
public:
    virtual ~LinkStore() = default;
    [[nodiscard]] virtual Expected<LineLink> add(LineLink link) = 0;
    [[nodiscard]] virtual Expected<void> remove(std::int64_t id) = 0;
    [[nodiscard]] virtual Expected<void> setState(std::int64_t id, LinkState state) = 0;
};

/// A LinkStore over the `link` table of an open review file, for one task (core/review's LinkRepository).
class ReviewLinkStore final : public LinkStore {
public:
    ReviewLinkStore(ReviewFile& file, std::int64_t taskId) : m_file(file), m_taskId(taskId) {}
    [[nodiscard]] Expected<LineLink> add(LineLink link) override;
    [[nodiscard]] Expected<void> remove(std::int64_t id) override;
    [[nodiscard]] Expected<void> setState(std::int64_t id, LinkState state) override;
    [[nodiscard]] Expected<std::vector<LineLink>> list();

private:
    ReviewFile& m_file;
    std::int64_t m_taskId;
};

/// The CUDA<->NKI line links of the task on screen, from all three origins: `# cuda:` comments
/// (derived from the source, never stored), reviewer links and suggestions (Proposed until the
/// reviewer accepts or dismisses them).
///
/// Each entry has a `key` that stays the same across undo and redo (a removed link comes back with
/// its key), so commands can name links by key. `LineLink::id` is the review file's row id, 0 when the
/// link is only in memory. With a store set, reviewer links and decided suggestions are written through
/// to it as they change; without one everything lives in memory.
class LinkSet {
public:
    using Key = std::uint64_t;
    struct Entry {
        Key key = 0;
        LineLink link;
    };

    void setStore(LinkStore* store) { m_store = store; }
    [[nodiscard]] LinkStore* store() const { return m_store; }
    /// Replaces every entry (no store writes): used when a task or a review is loaded.
    void reset(const std::vector<LineLink>& links);

    /// Adds a link; `key` 0 picks a new one. Returns the key.
    [[nodiscard]] Expected<Key> insert(LineLink link, Key key = 0);
    /// Removes a link and returns it as it was (with its store id cleared once removed from the store).
    [[nodiscard]] Expected<LineLink> erase(Key key);
    [[nodiscard]] Expected<void> setState(Key key, LinkState state);

    [[nodiscard]] const std::vector<Entry>& entries() const { return m_entries; }
    [[nodiscard]] const Entry* find(Key key) const;
    /// Links shown in the panes: everything but dismissed suggestions.
    [[nodiscard]] std::vector<Entry> visible() const;
    /// The narrowest visible link covering an NKI (or CUDA) line.
    [[nodiscard]] std::optional<Entry> atNkiLine(int line) const;
    [[nodiscard]] std::optional<Entry> atCudaLine(int line) const;
    /// A visible link with exactly these ranges, if any.
    [[nodiscard]] std::optional<Entry> findRanges(int cudaFirst, int cudaLast, int nkiFirst, int nkiLast) const;
    /// Bumped on every change, so views can tell when to repaint.
    [[nodiscard]] std::uint64_t revision() const { return m_revision; }

    /// Reviewer links, and suggestions once decided, belong in the review file; comment links and open
    /// suggestions do not (they are recomputed from the sources).
    [[nodiscard]] static bool isStored(const LineLink& link);

private:
    Entry* findMutable(Key key);

    std::vector<Entry> m_entries;
    LinkStore* m_store = nullptr;
    Key m_nextKey = 1;
    std::uint64_t m_revision = 0;
};

/// The link edits: LinkCommands (review/EditCommand.h), on the review's one undo stack in the GUI.
class AddLinkCommand final : public LinkCommand {
public:
    explicit AddLinkCommand(LineLink link) : m_link(std::move(link)) {}
    [[nodiscard]] Expected<void> apply(LinkSet& set) override;
    [[nodiscard]] Expected<void> revert(LinkSet& set) override;
    [[nodiscard]] std::string description() const override;
    [[nodiscard]] LinkSet::Key key() const { return m_key; }

private:
    LineLink m_link;
    LinkSet::Key m_key = 0;
};

class RemoveLinkCommand final : public LinkCommand {
public:
    explicit RemoveLinkCommand(LinkSet::Key key) : m_key(key) {}
    [[nodiscard]] Expected<void> apply(LinkSet& set) override;
    [[nodiscard]] Expected<void> revert(LinkSet& set) override;
    [[nodiscard]] std::string description() const override;

private:
    LinkSet::Key m_key;
    LineLink m_removed;
};

/// Accepts or dismisses a suggestion (or any link's state).
class SetLinkStateCommand final : public LinkCommand {
public:
    SetLinkStateCommand(LinkSet::Key key, LinkState state) : m_key(key), m_state(state) {}
    [[nodiscard]] Expected<void> apply(LinkSet& set) override;
    [[nodiscard]] Expected<void> revert(LinkSet& set) override;
    [[nodiscard]] std::string description() const override;

private:
    LinkSet::Key m_key;
    LinkState m_state;
    LinkState m_previous = LinkState::Proposed;
};

/// "CUDA 12-20 <-> NKI 30-33", for menus and messages.
[[nodiscard]] std::string describeLink(const LineLink& link);

} // namespace kl::core
