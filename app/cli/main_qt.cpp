// kernellens-cli-qt: kernellens-cli with the Qt half of reports (the timeline image, the PDF). kernellens-cli
// hands it a `report` command that asks for either; every other command behaves exactly as in kernellens-cli.
#include "cli/Commands.h"
#include "cli/VisualReports.h"
#include "report/ReportQt.h"

int main(int argc, char** argv) {
    kl::app::installVisualReportWriter(&kl::app::report::writeVisualReport);
    return kl::app::runCommandLine(argc, argv);
}
