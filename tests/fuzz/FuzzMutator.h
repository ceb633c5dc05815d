#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kl::fuzz {

/// splitmix64: small, fast and the same on every machine, so case N of a run is always the same input.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next();
    /// Uniform in [0, n); 0 when n is 0.
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
    bool oneIn(std::size_t n) { return below(n) == 0; }

private:
    std::uint64_t m_state;
};

/// One value of a JSON text: where it is and what it is (found by jsonValues).
struct JsonSpan {
    enum class Kind : std::uint8_t { Number, String, Literal, Array, Object };
    std::size_t begin = 0;
    std::size_t end = 0; ///< one past the last character
    Kind kind = Kind::Number;
    std::size_t memberBegin = 0; ///< for an object member's value: where its key starts (else == begin)
};

/// The values of `text` if it is JSON (at most `limit` of them); empty when it is not. A plain scanner with an
/// explicit stack, so any nesting depth is fine.
[[nodiscard]] std::vector<JsonSpan> jsonValues(std::string_view text, std::size_t limit = 1 << 16);

/// Mutations of a file for the fuzz harness (docs/fuzzing.md lists them): byte-level (flips, interesting bytes,
/// insertions, erasures, truncation, duplication of a chunk) for every format, and JSON-aware ones for JSON
/// formats: a number swapped for an extreme value (0, -1, 1e308, 2^63, 1e999, "NaN"), a value of one type
/// swapped for another (number, string, array, object, null), a string swapped for a hostile one (escape
/// sequences, invalid UTF-8, 64 KiB), a member deleted or duplicated, a value wrapped in deep nesting.
class Mutator {
public:
    explicit Mutator(bool json) : m_json(json) {}

    /// Applies one to four mutations to `input`, all chosen by `rng`.
    [[nodiscard]] std::string mutate(std::string input, Rng& rng) const;

private:
    void byteMutation(std::string& s, Rng& rng) const;
    /// False when `s` is not JSON (then a byte mutation is applied instead).
    bool jsonMutation(std::string& s, Rng& rng) const;

    bool m_json;
};

/// Case `index` of a run with `seed`: a seed file chosen and mutated, the same bytes every time.
[[nodiscard]] std::string makeCase(const std::vector<std::string>& seeds, const Mutator& mutator, std::uint64_t seed,
                                   std::uint64_t index);

} // namespace kl::fuzz
