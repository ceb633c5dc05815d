#include "TestSupport.h"

#include "rubric/RubricLoader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace kl::core::test {

TempDir::TempDir() {
    std::random_device rd;
    m_path = std::filesystem::temp_directory_path() /
             ("kl-core-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

std::string defaultRubricJson() {
    auto text = RubricLoader::readText(std::string(KL_SOURCE_DIR) + "/resources/rubrics/nki-migration.json");
    if (!text) {
        ADD_FAILURE() << formatError(text.error());
        return {};
    }
    return *text;
}

ReviewFile makeReview(const std::string& path) {
    auto file = ReviewFile::create(path, {defaultRubricJson(), "nki-migration.json", "alice"});
    if (!file) {
        std::fprintf(stderr, "%s\n", formatError(file.error()).c_str());
        std::abort();
    }
    return std::move(*file);
}

std::string makeTaskFolder(const std::filesystem::path& parent, const std::string& name) {
    const auto dir = parent / name;
    std::filesystem::create_directories(dir);
    writeBytes((dir / "task.json").string(),
               R"({"format": 1, "title": "Tiled matmul", "kernel_file": "kernel.py", "kernel": "nki_matmul",
                   "cuda_file": "kernel.cu", "args": [{"name": "a", "shape": [128, 128], "dtype": "float32"}]})");
    writeBytes((dir / "kernel.py").string(), "import neuronxcc.nki as nki\n\n@nki.jit\ndef nki_matmul(a):\n    pass\n");
    writeBytes((dir / "kernel.cu").string(), "__global__ void matmul(float* a) {\n}\n");
    return dir.string();
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

} // namespace kl::core::test
