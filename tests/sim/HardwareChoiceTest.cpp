// The rule that picks a run's profile: --hw, then the task's hardware, then the default for the kernel's NKI API.
#include "hw/HardwareChoice.h"

#include <gtest/gtest.h>

namespace kl::sim {
namespace {

struct ChoiceCase {
    const char* name;
    const char* requested;
    const char* task;
    KernelApi api;
    const char* spec;
    HardwareReason reason;
    const char* described;
};

class HardwareChoiceRule : public ::testing::TestWithParam<ChoiceCase> {};

TEST_P(HardwareChoiceRule, PicksTheProfileAndSaysWhy) {
    const ChoiceCase& c = GetParam();
    const HardwareChoice choice = chooseHardware(c.requested, c.task, c.api);
    EXPECT_EQ(choice.spec, c.spec);
    EXPECT_EQ(choice.reason, c.reason);
    EXPECT_EQ(choice.describe(), c.described);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HardwareChoiceRule,
    ::testing::Values(
        ChoiceCase{"NkiDefault", "", "", KernelApi::Nki, "trn2", HardwareReason::NkiDefault,
                   "trn2 (default for nki.* kernels)"},
        ChoiceCase{"LegacyDefault", "", "", KernelApi::Legacy, "trn1", HardwareReason::LegacyDefault,
                   "trn1 (default for legacy neuronxcc.nki kernels)"},
        ChoiceCase{"UnknownApi", "", "", KernelApi::Unknown, "trn1", HardwareReason::UnknownApi,
                   "trn1 (default: the IR does not say which NKI API the kernel uses)"},
        // The task's hardware wins over the default, whichever way the default would go.
        ChoiceCase{"TaskBeatsNkiDefault", "", "trn1", KernelApi::Nki, "trn1", HardwareReason::Task, "trn1 (task.json)"},
        ChoiceCase{"TaskProfileFile", "", "/t/my.json", KernelApi::Legacy, "/t/my.json", HardwareReason::Task,
                   "/t/my.json (task.json)"},
        // --hw wins over both.
        ChoiceCase{"HwBeatsTask", "trn3", "trn1", KernelApi::Nki, "trn3", HardwareReason::Requested, "trn3 (--hw)"},
        ChoiceCase{"HwBeatsLegacyDefault", "trn2", "", KernelApi::Legacy, "trn2", HardwareReason::Requested,
                   "trn2 (--hw)"}),
    [](const ::testing::TestParamInfo<ChoiceCase>& info) { return std::string(info.param.name); });

TEST(HardwareChoice, ReadsTheIrApiField) {
    EXPECT_EQ(kernelApiOf("nki"), KernelApi::Nki);
    EXPECT_EQ(kernelApiOf("legacy"), KernelApi::Legacy);
    EXPECT_EQ(kernelApiOf(""), KernelApi::Unknown);
    EXPECT_EQ(kernelApiOf("NKI"), KernelApi::Unknown); // the IR writes lower case; anything else is not guessed
}

} // namespace
} // namespace kl::sim
