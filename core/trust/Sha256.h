#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace kl::core {

/// SHA-256 (FIPS 180-4), incremental: update() any number of times, then hex() once. Used to remember trust
/// per file content (core/trust), where a collision would let changed code run as trusted, so nothing weaker.
/// Written here rather than taken from OpenSSL to keep core's dependencies as they are (fmt, JSON, SQLite).
class Sha256 {
public:
    Sha256();
    void update(std::string_view bytes);
    /// Adds the length first, then the bytes: a sequence of fields hashes unambiguously.
    void updateField(std::string_view bytes);
    /// The length prefix of a field whose bytes follow through update() (a file read in blocks).
    void updateLength(std::uint64_t size);
    /// The digest as 64 lower-case hex digits. The object must not be used afterwards.
    [[nodiscard]] std::string hex();

private:
    void block(const std::uint8_t* p);

    std::array<std::uint32_t, 8> m_state{};
    std::array<std::uint8_t, 64> m_buffer{};
    std::size_t m_used = 0;
    std::uint64_t m_bytes = 0;
};

} // namespace kl::core
