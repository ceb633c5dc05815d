#include "JsonSchemaCheck.h"

#include <gtest/gtest.h>

#include <set>

namespace kl::core::test {
namespace {

using Json = nlohmann::json;

bool hasType(const Json& v, const std::string& type) {
    if (type == "object")
        return v.is_object();
    if (type == "array")
        return v.is_array();
    if (type == "string")
        return v.is_string();
    if (type == "integer")
        return v.is_number_integer() || v.is_number_unsigned();
    if (type == "number")
        return v.is_number();
    if (type == "boolean")
        return v.is_boolean();
    if (type == "null")
        return v.is_null();
    ADD_FAILURE() << "unknown type in schema: " << type;
    return false;
}

} // namespace

void validateJson(const Json& schema, const Json& v, const std::string& path, std::vector<std::string>& errors) {
    static const std::set<std::string> kSupported = {
        "$schema", "title", "description", "type", "required", "properties", "items", "enum", "additionalProperties"};
    for (const auto& [key, value] : schema.items()) {
        if (!kSupported.contains(key)) {
            errors.push_back(path + ": schema keyword '" + key + "' is not supported by the test validator");
        }
    }
    if (schema.contains("type")) {
        const Json& t = schema["type"];
        bool ok = false;
        if (t.is_string()) {
            ok = hasType(v, t.get<std::string>());
        } else {
            for (const Json& one : t) {
                ok = ok || hasType(v, one.get<std::string>());
            }
        }
        if (!ok) {
            errors.push_back(path + ": expected type " + t.dump() + ", got " + v.dump().substr(0, 60));
            return;
        }
    }
    if (schema.contains("enum")) {
        bool found = false;
        for (const Json& e : schema["enum"]) {
            found = found || e == v;
        }
        if (!found) {
            errors.push_back(path + ": " + v.dump() + " is not one of " + schema["enum"].dump());
        }
    }
    if (v.is_object()) {
        for (const Json& r : schema.value("required", Json::array())) {
            if (!v.contains(r.get<std::string>())) {
                errors.push_back(path + ": missing required '" + r.get<std::string>() + "'");
            }
        }
        const Json properties = schema.value("properties", Json::object());
        for (const auto& [key, value] : v.items()) {
            if (properties.contains(key)) {
                validateJson(properties[key], value, path + "." + key, errors);
            } else if (schema.contains("additionalProperties") && schema["additionalProperties"] == false) {
                errors.push_back(path + ": undocumented key '" + key + "'");
            }
        }
    }
    if (v.is_array() && schema.contains("items")) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            validateJson(schema["items"], v[i], path + "[" + std::to_string(i) + "]", errors);
        }
    }
}

} // namespace kl::core::test
