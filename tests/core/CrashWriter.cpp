// Test helper for CrashTest: opens a review and adds annotations to task 1 in a loop, printing each
// id on its own line right after `create` returns (and flushing), so the parent knows which saves
// completed before it killed us. Usage: kl_review_crash_writer FILE COUNT SEED [--print-early]
// --print-early prints the id the next save will get *before* saving: a deliberately wrong writer
// that lets the crash test show it can catch a lost save.
#include "db/Database.h"
#include "review/ReviewFile.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: %s FILE COUNT SEED [--print-early]\n", argv[0]);
        return 2;
    }
    auto file = kl::core::ReviewFile::open(argv[1]);
    if (!file) {
        std::fprintf(stderr, "%s\n", kl::formatError(file.error()).c_str());
        return 1;
    }
    const int count = std::atoi(argv[2]);
    const long seed = std::atol(argv[3]);
    const bool printEarly = argc == 5 && std::string(argv[4]) == "--print-early";
    auto repo = file->annotations();
    for (int i = 0; i < count; ++i) {
        kl::core::Annotation a;
        a.taskId = 1;
        a.anchor = kl::core::Anchor::timeRange(i, i + seed);
        a.severity = kl::core::Severity::Minor;
        // Vary the size so some saves span several pages of the WAL.
        a.text = "crash test " + std::to_string(seed) + "/" + std::to_string(i) +
                 std::string(static_cast<std::size_t>((i * 997 + seed) % 6000), 'z');
        a.author = "crash";
        if (printEarly) {
            auto next = file->database().queryInt(
                "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'annotation'), 0) + 1");
            std::printf("%lld\n", static_cast<long long>(next.value_or(0)));
            std::fflush(stdout);
        }
        auto saved = repo.create(a);
        if (!saved) {
            std::fprintf(stderr, "%s\n", kl::formatError(saved.error()).c_str());
            return 1;
        }
        if (!printEarly) {
            std::printf("%lld\n", static_cast<long long>(saved->id));
            std::fflush(stdout);
        }
    }
    return 0;
}
