#pragma once

#include "ir/AccessPattern.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace kl::sim {

/// An instruction's destination or source operands: a range of indices into KernelIr's table of distinct
/// operands. A loop's instructions name the same tile regions again and again (a load's destination is the
/// matmul's source), so the IR keeps each region once and an instruction four bytes per operand. Reads like a
/// span of AccessPattern (size, [], front, range-for); it is a view and stays valid while the KernelIr does.
class OperandList {
public:
    class Iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = AccessPattern;
        using difference_type = std::ptrdiff_t;
        using pointer = const AccessPattern*;
        using reference = const AccessPattern&;

        Iterator() = default;
        Iterator(const AccessPattern* table, const std::uint32_t* at) : m_table(table), m_at(at) {}
        reference operator*() const { return m_table[*m_at]; }
        pointer operator->() const { return &m_table[*m_at]; }
        reference operator[](difference_type n) const { return m_table[m_at[n]]; }
        Iterator& operator++() {
            ++m_at;
            return *this;
        }
        Iterator operator++(int) {
            Iterator old = *this;
            ++m_at;
            return old;
        }
        Iterator& operator--() {
            --m_at;
            return *this;
        }
        Iterator operator--(int) {
            Iterator old = *this;
            --m_at;
            return old;
        }
        Iterator& operator+=(difference_type n) {
            m_at += n;
            return *this;
        }
        Iterator& operator-=(difference_type n) {
            m_at -= n;
            return *this;
        }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator& a, const Iterator& b) { return a.m_at - b.m_at; }
        friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_at == b.m_at; }
        friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.m_at <=> b.m_at; }

    private:
        const AccessPattern* m_table = nullptr;
        const std::uint32_t* m_at = nullptr;
    };

    OperandList() = default;
    OperandList(const AccessPattern* table, const std::uint32_t* indices, std::size_t count)
        : m_table(table), m_indices(indices), m_count(count) {}

    [[nodiscard]] std::size_t size() const { return m_count; }
    [[nodiscard]] bool empty() const { return m_count == 0; }
    [[nodiscard]] const AccessPattern& operator[](std::size_t i) const { return m_table[m_indices[i]]; }
    [[nodiscard]] const AccessPattern& front() const { return m_table[m_indices[0]]; }
    [[nodiscard]] const AccessPattern& back() const { return m_table[m_indices[m_count - 1]]; }
    /// The index of operand `i` in KernelIr's operand table (equal indices: the same region).
    [[nodiscard]] std::uint32_t tableIndex(std::size_t i) const { return m_indices[i]; }
    /// The first `n` operands, and the operands from `offset` on (as std::span's first and subspan).
    [[nodiscard]] OperandList first(std::size_t n) const { return {m_table, m_indices, n}; }
    [[nodiscard]] OperandList subspan(std::size_t offset) const {
        return {m_table, m_indices + offset, m_count - offset};
    }
    /// Where the indices lie: equal for the same operand slot of an instruction, whichever list reached it.
    [[nodiscard]] const std::uint32_t* indexData() const { return m_indices; }
    [[nodiscard]] Iterator begin() const { return {m_table, m_indices}; }
    [[nodiscard]] Iterator end() const { return {m_table, m_indices + m_count}; }

private:
    const AccessPattern* m_table = nullptr;
    const std::uint32_t* m_indices = nullptr;
    std::size_t m_count = 0;
};

} // namespace kl::sim
