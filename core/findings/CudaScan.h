#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kl::core::findings {

/// A light reading of a CUDA source for the migration rules: where the kernel bodies are, which lines hold code,
/// which guard bounds and which add into float accumulators. Line-based and forgiving (no preprocessor, no parser):
/// what it cannot read it leaves out, so a rule built on it can miss, not invent.
class CudaScan {
public:
    /// `kernel`: the __global__ function to read; empty or not found: every __global__ function.
    CudaScan(std::string_view source, std::string_view kernel);

    struct Line {
        int number = 0;   ///< 1-based
        std::string code; ///< the line without comments, trimmed
        bool inKernel = false;
    };

    [[nodiscard]] const std::vector<Line>& lines() const { return m_lines; }
    /// Lines of the kernel bodies that hold code (not blank, comment, lone braces or preprocessor lines).
    [[nodiscard]] std::vector<int> kernelCodeLines() const;
    /// Kernel code lines that compute on data: they name a floating-point parameter or variable (float, double, half,
    /// bfloat16) and do arithmetic on it, call a math function, accumulate, or store into an output parameter. Index
    /// arithmetic, barriers, bare declarations and staging copies into registers or shared memory have no NKI
    /// counterpart and are left out.
    [[nodiscard]] std::vector<int> dataLines() const;
    /// Kernel lines that test an index against a bound (`if (row < M)`, `if (i >= n) return;`).
    [[nodiscard]] std::vector<int> boundGuards() const;
    /// Kernel lines that add into a variable declared float or double in the kernel (`acc[i][j] += a * b;`).
    [[nodiscard]] std::vector<int> floatAccumulations() const;

private:
    /// Records the floating-point names declared in `text` (a kernel's signature or body).
    void collectNames(std::string_view text, bool parameters);
    /// True when a line does arithmetic on data, calls a math function, accumulates, or stores into a
    /// floating-point kernel parameter; copies and conversions into registers or shared memory are staging.
    [[nodiscard]] bool computes(const std::string& code) const;

    std::vector<Line> m_lines;
    std::vector<std::string> m_dataNames;  ///< floating-point parameters and variables of the kernels
    std::vector<std::string> m_wideNames;  ///< the float and double ones
    std::vector<std::string> m_dataParams; ///< the floating-point kernel parameters
};

} // namespace kl::core::findings
