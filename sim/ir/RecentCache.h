#pragma once

#include <array>
#include <cstddef>

namespace kl::sim {

/// The last few distinct keys a reader looked up and what they turned into, compared one by one before any map or
/// conversion. A loop body's records come back in short cycles (a matmul's tiles are three buffer kinds in turn;
/// its instructions four op, engine and attribute triples), so the record before is rarely the same one but a
/// record a few places back almost always is. Replaces the oldest entry when full.
template <typename Key, typename Value, std::size_t N> class RecentCache {
public:
    /// The value stored for `key`, or nullptr.
    [[nodiscard]] const Value* find(const Key& key) const {
        for (std::size_t i = 0; i < m_size; ++i) {
            if (m_keys[i] == key) {
                return &m_values[i];
            }
        }
        return nullptr;
    }
    void add(const Key& key, const Value& value) {
        m_keys[m_next] = key;
        m_values[m_next] = value;
        m_next = (m_next + 1) % N;
        m_size = m_size < N ? m_size + 1 : N;
    }

private:
    std::array<Key, N> m_keys{};
    std::array<Value, N> m_values{};
    std::size_t m_size = 0;
    std::size_t m_next = 0;
};

} // namespace kl::sim
