#pragma once

#include <Qsci/qscilexercpp.h>

namespace kl::views {

/// C++ highlighting that also knows CUDA: qualifiers, built-in variables, synchronisation, atomics, warp
/// shuffles and fast-math/conversion intrinsics, as keyword set 2 (QsciLexerCPP::KeywordSet2).
class CudaLexer : public QsciLexerCPP {
    Q_OBJECT
public:
    explicit CudaLexer(QObject* parent = nullptr);
    [[nodiscard]] const char* language() const override { return "CUDA"; }
    [[nodiscard]] const char* keywords(int set) const override;
    [[nodiscard]] QColor defaultColor(int style) const override;
    [[nodiscard]] QFont defaultFont(int style) const override;
};

} // namespace kl::views
