// kernellens-cli: the headless face of KernelLens. It shares sim/ and core/ with the GUI and links no Qt, so a
// batch of thousands of runs pays nothing for the toolkit; a visual report (PDF, HTML with the timeline image) is
// handed to kernellens-cli-qt (cli/VisualReports.h).
#include "cli/Commands.h"

int main(int argc, char** argv) {
    return kl::app::runCommandLine(argc, argv);
}
