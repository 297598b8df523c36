//===- ConstantEvaluator.h - Evaluate gopt ops on constants -----*- C++ -*-===//
//
// One evaluator serves both the ODS folders (splat operands only, so folding
// never materializes a large constant) and the gopt-fold pass (dense
// operands, bounded by its max-folded-elements option).
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_DIALECT_GOPT_IR_CONSTANTEVALUATOR_H
#define GOPT_DIALECT_GOPT_IR_CONSTANTEVALUATOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include <memory>

namespace mlir {
namespace gopt {

/// Dense results with more elements than this are stored as
/// `dense_resource` blobs, so folded weights are never printed inline.
constexpr int64_t kMaxInlineConstantElements = 64;

/// Evaluates `op` on constant operands. `operands[i]` is the constant value of
/// operand i (null when not constant). Fails, changing nothing, when an operand
/// is not constant, the op cannot be evaluated, evaluation would not match
/// run-time semantics (division by zero, an out-of-range index or cast), or
/// an operand or non-splat result has more than `maxElements` elements
/// (`maxElements = 0`: splat operands and results only).
LogicalResult evaluateConstantOp(Operation *op, ArrayRef<Attribute> operands,
                                 int64_t maxElements,
                                 SmallVectorImpl<Attribute> &results);

/// Returns the value of a splat constant as a double (float or integer), or
/// std::nullopt when `attr` is not a splat.
std::optional<double> getSplatValue(Attribute attr);

/// The elements of a constant attribute as a DenseElementsAttr: itself when
/// dense, a view of its blob when a dense_resource of whole-byte elements;
/// nullopt otherwise (another attribute, a resource without its blob).
std::optional<DenseElementsAttr> getDenseElements(Attribute attr);

/// The row-major bytes of every element of `attr`, read in place: a dense
/// attribute that is not a splat, or a resource's blob, of whole-byte
/// elements; empty otherwise (a splat, sub-byte elements, a resource
/// without its blob).
ArrayRef<char> getRawConstantBytes(ElementsAttr attr);

/// Storage for `bytes` bytes of constant data (free it with std::free), 64
/// bytes aligned; null when there is no memory. A block of 2 MiB or more
/// is aligned to 2 MiB and advised to the kernel as huge pages
/// (MADV_HUGEPAGE): filled once, it takes a page fault per 2 MiB instead
/// of per 4 KiB, and on a virtual machine the faults had cost more than
/// the copy (ResNet-50's weights transposed to channels last: 0.15-0.20 s
/// of graph passes, 0.03-0.07 s in huge pages).
void *allocateConstantStorage(size_t bytes);

/// A mutable blob of `bytes` bytes in allocateConstantStorage's storage
/// (what moveConstant writes a moved constant into).
AsmResourceBlob allocateConstantBlob(size_t bytes);

/// Shared ownership of the bytes [data, data + bytes) when they lie in a
/// block of allocateConstantBlob's that is still alive; null otherwise.
/// The bytes stay valid while the pointer lives, whatever becomes of the
/// blob and its context: how the runner hands compiled code weights that
/// the graph passes wrote without copying them.
std::shared_ptr<const char> retainConstantStorage(const void *data,
                                                  size_t bytes);

/// The linear index in `inShape` that numpy broadcasting reads for each
/// element of `outShape`, in row-major order.
std::vector<int64_t> broadcastSources(ArrayRef<int64_t> inShape,
                                      ArrayRef<int64_t> outShape);

/// `value` moved as `gopt.transpose` with `perm` would move it (empty `perm`:
/// reshaped, as `gopt.reshape` to `resultType`), at any size: a splat keeps
/// its value; other constants of whole-byte elements are rearranged on their
/// raw bytes, without converting a value; large results go into a resource
/// blob, like the imported weights they come from, and share the blob of a
/// resource whose bytes stay in order (a reshape, a permutation that moves
/// only unit dims). nullopt when `value` is
/// neither (a resource without its blob, sub-byte elements).
std::optional<ElementsAttr> moveConstant(ElementsAttr value,
                                         RankedTensorType resultType,
                                         ArrayRef<int64_t> perm);

} // namespace gopt
} // namespace mlir

#endif // GOPT_DIALECT_GOPT_IR_CONSTANTEVALUATOR_H
