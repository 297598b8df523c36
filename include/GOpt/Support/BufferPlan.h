//===- BufferPlan.h - What the static buffer planner did ---------*- C++
//-*-===//
//
// The figures gopt-plan-buffers records on an entry function, as the runner
// reads them from compiled code and gopt-explore reports them per
// configuration (docs/Lowering.md, "Static buffer planning").
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_SUPPORT_BUFFERPLAN_H
#define GOPT_SUPPORT_BUFFERPLAN_H

#include <cstdint>

namespace mlir {
namespace gopt {

/// What gopt-plan-buffers did to the entry's intermediates (all zero when
/// lowered with plan-buffers=false or when none had a known lifetime).
struct BufferPlan {
  /// Bytes of the one arena the entry allocates per call.
  int64_t arenaBytes = 0;
  /// Intermediates placed in it, and the sum of their sizes: what separate
  /// allocations, all alive at once, would hold.
  int64_t plannedBuffers = 0;
  int64_t plannedBytes = 0;
  /// The most of those bytes alive at one moment: no arena is smaller, so
  /// arenaBytes - mostLiveBytes is what the packing loses (0: not known,
  /// e.g. a plan loaded from an older compile cache entry).
  int64_t mostLiveBytes = 0;

  /// Whether any intermediate was planned.
  bool planned() const { return plannedBytes > 0; }
  /// The fraction of the intermediates' bytes the arena saves by reuse,
  /// 1 - arena / sum (0 when nothing was planned).
  double reuse() const {
    return planned() ? 1.0 - static_cast<double>(arenaBytes) /
                                 static_cast<double>(plannedBytes)
                     : 0.0;
  }
};

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_BUFFERPLAN_H
