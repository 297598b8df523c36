//===- BufferViews.h - The buffer a memref value views ----------*- C++ -*-===//

#ifndef GOPT_CODEGEN_COMMON_BUFFERVIEWS_H
#define GOPT_CODEGEN_COMMON_BUFFERVIEWS_H

#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace gopt {

/// The allocation or argument whose memory `v` views, through view-like ops
/// (subviews, reshapes, casts, a base buffer), or `v` itself.
inline Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_BUFFERVIEWS_H
