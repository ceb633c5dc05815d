// kl_ir_compare A B: loads two Kernel IR files (either form) and says whether they hold the same program.
// Exit 0: the same; 1: they differ (the first difference is printed); 2: one does not load.
#include "IrCompare.h"

#include "ir/IrLoader.h"

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: kl_ir_compare A B\n");
        return 2;
    }
    auto a = kl::sim::IrLoader::loadFile(argv[1]);
    auto b = kl::sim::IrLoader::loadFile(argv[2]);
    if (!a || !b) {
        std::fprintf(stderr, "%s\n", kl::formatError(a ? b.error() : a.error()).c_str());
        return 2;
    }
    if (auto diff = kl::test::firstDifference(*a, *b)) {
        std::printf("%s and %s differ: %s\n", argv[1], argv[2], diff->c_str());
        return 1;
    }
    std::printf("%s and %s hold the same program (%zu instructions)\n", argv[1], argv[2], a->instructions().size());
    return 0;
}
