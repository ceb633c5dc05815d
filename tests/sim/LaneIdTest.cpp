#include "engine/SimTypes.h"

#include <gtest/gtest.h>

namespace kl::sim::test {

TEST(LaneId, ComputeLanesAndDmaQueuesAreTold) {
    // The five compute lanes (two TensorE rows, VectorE, ScalarE, GpSimdE), then one lane per DMA queue.
    for (const Lane lane : {Lane::LoadStationary, Lane::MultiplyMoving, Lane::Vector, Lane::Scalar, Lane::GpSimd}) {
        EXPECT_TRUE(LaneId(lane).isCompute()) << laneName(LaneId(lane).value());
        EXPECT_FALSE(LaneId(lane).isDma());
    }
    for (std::uint32_t queue : {0U, 1U, 15U}) {
        const LaneId lane = LaneId::dma(queue);
        EXPECT_TRUE(lane.isDma());
        EXPECT_EQ(lane.queue(), queue);
        EXPECT_EQ(lane.value(), dmaLane(queue));
        EXPECT_EQ(laneName(lane.value()), "dma.q" + std::to_string(queue));
    }
    EXPECT_EQ(LaneId(Lane::Vector), LaneId(std::uint16_t{2}));
    EXPECT_NE(LaneId(Lane::Vector), LaneId::dma(0));
}

} // namespace kl::sim::test
