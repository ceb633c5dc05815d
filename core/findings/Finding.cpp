#include "findings/Finding.h"

namespace kl::core::findings {

const Figure* Finding::figure(std::string_view name) const {
    for (const Figure& f : figures) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}

std::string_view toString(SourceSide side) {
    return side == SourceSide::Cuda ? "cuda" : "nki";
}

} // namespace kl::core::findings
