#include "findings/RuleRegistry.h"

#include "findings/rules/ExposedDmaRule.h"
#include "findings/rules/DmaSmallTransfersRule.h"
#include "findings/rules/EngineBoundRule.h"
#include "findings/rules/Fp32MatmulRule.h"
#include "findings/rules/PartitionsUnderusedRule.h"
#include "findings/rules/TensorIdleWaitingRule.h"
#include "findings/rules/SmallMovingFreeRule.h"
#include "findings/rules/RedundantLoadsRule.h"
#include "findings/rules/PsumBankPressureRule.h"
#include "findings/rules/SbufSpillRule.h"
#include "findings/rules/SerialDependencyChainRule.h"
#include "findings/rules/TransposeOnTensorRule.h"
#include "findings/rules/TailNotHandledRule.h"
#include "findings/rules/AccumulateLowPrecisionRule.h"
#include "findings/rules/CudaLinesUnmappedRule.h"
#include "findings/rules/RooflineRule.h"
#include "findings/rules/SemanticsDifferRule.h"

namespace kl::core::findings {

std::vector<std::unique_ptr<Rule>> createRules() {
    std::vector<std::unique_ptr<Rule>> rules;
#define KL_RULE(Class) rules.push_back(std::make_unique<Class>());
#include "findings/Rules.def"
#undef KL_RULE
    return rules;
}

std::vector<std::string_view> ruleIds() {
    std::vector<std::string_view> ids;
#define KL_RULE(Class) ids.push_back(Class::kId);
#include "findings/Rules.def"
#undef KL_RULE
    return ids;
}

} // namespace kl::core::findings
