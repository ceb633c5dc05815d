#include "trace/NumericsOptions.h"

#include <fmt/format.h>

namespace kl::core {

std::vector<std::string> NumericsOptions::frontendFlags() const {
    if (!enabled) {
        return {};
    }
    std::vector<std::string> flags = {"--numerics"};
    auto add = [&](const char* flag, const std::string& value) {
        if (!value.empty()) {
            flags.insert(flags.end(), {flag, value});
        }
    };
    add("--reference", reference);
    add("--cuda-numerics", cudaNumerics);
    add("--inputs", inputs);
    add("--tolerance", tolerance);
    if (seed) {
        add("--seed", std::to_string(*seed));
    }
    // repr-exact: the front end parses the text back to the same double.
    if (rtol) {
        add("--rtol", fmt::format("{}", *rtol));
    }
    if (atol) {
        add("--atol", fmt::format("{}", *atol));
    }
    return flags;
}

} // namespace kl::core
