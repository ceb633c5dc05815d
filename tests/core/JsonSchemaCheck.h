#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kl::core::test {

/// Validates `v` against `schema` for the subset of JSON Schema the project's schemas use (docs/report-schema.json,
/// docs/numerics-schema.json): type (name or list), required, properties, items, enum, additionalProperties
/// (false). Any other keyword in the schema is itself reported as an error, so the subset cannot silently grow
/// without the validator. Each problem is appended to `errors` with its JSON path ("$.tasks[0].severity: ...").
void validateJson(const nlohmann::json& schema, const nlohmann::json& v, const std::string& path,
                  std::vector<std::string>& errors);

} // namespace kl::core::test
