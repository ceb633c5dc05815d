#include "TeamTestSupport.h"

#include "support/ResourcePaths.h"
#include "task/TaskSpec.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <stdlib.h>

namespace kl::core::team::test {

Scratch::Scratch() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kl-team-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        ADD_FAILURE() << "cannot create a scratch folder";
    }
    m_path = pattern;
}

Scratch::~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

std::string rubricJson() {
    return readTextFile(resourcesDir() / "rubrics" / "nki-migration.json").value_or("");
}

ReviewFile reviewerFile(const std::string& path, const std::string& reviewer, int tasks) {
    auto file = ReviewFile::create(path, {rubricJson(), "nki-migration.json", reviewer});
    if (!file) {
        ADD_FAILURE() << formatError(file.error());
        std::abort();
    }
    for (int i = 0; i < tasks; ++i) {
        const std::string folder = "task-" + std::to_string(i);
        const std::vector<TaskFile> files{{"task.json", "task_json", "{\"title\": \"" + folder + "\"}"},
                                          {"kernel.py", "nki", "# kernel " + folder + "\n"}};
        if (!file->tasks().add(folder, "Task " + std::to_string(i), files)) {
            ADD_FAILURE() << "cannot add " << folder;
        }
    }
    return std::move(*file);
}

std::int64_t taskId(ReviewFile& file, int index) {
    for (const Task& t : file.tasks().list().value_or(std::vector<Task>{})) {
        if (t.folder == "task-" + std::to_string(index)) {
            return t.id;
        }
    }
    ADD_FAILURE() << "no task-" << index;
    return 0;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

} // namespace kl::core::team::test
