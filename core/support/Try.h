#pragma once

// KL_TRY lives beside kl::Error in sim/common, so sim/ can use it too; core code includes it from here.
#include "common/Try.h"
