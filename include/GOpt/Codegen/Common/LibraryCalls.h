//===- LibraryCalls.h - Ops a runtime library computes ----------*- C++ -*-===//
//
// The marks that say an op is computed by a call of a runtime library (set
// by a target's selection pass, e.g. gopt-select-library-contractions on the
// CPU), what the target-independent passes do about them: leave the op
// whole (gopt-fuse-kernel-loops neither tiles it nor fuses into it), and make
// its kernel's epilogue write in place into its result.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_CODEGEN_COMMON_LIBRARYCALLS_H
#define GOPT_CODEGEN_COMMON_LIBRARYCALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class RewritePatternSet;
namespace gopt {

/// The `library_call` value that marks a contraction for the runtime's
/// `gopt_sgemm`, and the name of that function.
inline constexpr llvm::StringLiteral kSgemmLibraryCall = "gopt_sgemm";
/// The runtime's convolution, and the discardable attribute
/// (`gopt.library_call = "gopt_conv2d"`) that marks a convolution for it
/// (named convolutions have no `library_call` of their own).
inline constexpr llvm::StringLiteral kConv2DLibraryCall = "gopt_conv2d";
/// The runtime's convolution on channels-last operands; convolutions on
/// NHWC carry the same mark, and their calls name this function.
inline constexpr llvm::StringLiteral kConv2DChannelsLastLibraryCall =
    "gopt_conv2d_nhwc";
/// The runtime's max/sum pooling, marked likewise; NHWC poolings carry the
/// same mark, and their calls name gopt_pool2d_nhwc.
inline constexpr llvm::StringLiteral kPool2DLibraryCall = "gopt_pool2d";
inline constexpr llvm::StringLiteral kPool2DChannelsLastLibraryCall =
    "gopt_pool2d_nhwc";
/// The elementwise kernel after a channels-last library convolution that
/// the convolution applies as it writes its output (ConvolutionEpilogue.h),
/// marked likewise.
inline constexpr llvm::StringLiteral kConvolutionEpilogueLibraryCall =
    "gopt_conv2d_epilogue";
/// A bias (or a bias and a ReLU) after a library GEMM that the GEMM's call
/// applies on the GPU (gopt_cuda_sgemm_epilogue over cuBLASLt), marked
/// likewise.
inline constexpr llvm::StringLiteral kSgemmEpilogueLibraryCall =
    "gopt_sgemm_epilogue";
/// The runtime's attention (gopt.attention_kernel on buffers becomes a call
/// of it).
inline constexpr llvm::StringLiteral kAttentionLibraryCall = "gopt_attention";
inline constexpr llvm::StringLiteral kLibraryCallAttrName =
    "gopt.library_call";

/// Whether `op` is a contraction marked for `gopt_sgemm`.
bool isLibrarySgemm(Operation *op);
/// Whether `op` is a convolution marked for `gopt_conv2d`.
bool isLibraryConvolution(Operation *op);
/// Whether `op` is a pooling marked for `gopt_pool2d`.
bool isLibraryPooling(Operation *op);
/// Whether `op` is an epilogue marked for the convolution before it.
bool isLibraryConvolutionEpilogue(Operation *op);
/// Whether `op` is an epilogue marked for its GEMM's call.
bool isLibrarySgemmEpilogue(Operation *op);
/// Whether `op` is computed by a library call (any of the above): the
/// tensor-level passes leave it whole.
bool isLibraryCall(Operation *op);

/// The private declaration `func.func private @name(args) -> ()` of a
/// runtime function in `module`, created at its start when missing.
func::FuncOp declareRuntimeFunction(OpBuilder &builder, ModuleOp module,
                                    StringRef name, ArrayRef<Type> args);

/// `gopt.attention_kernel`s on buffers become `gopt_attention` calls
/// (LowerAttentionKernels.cpp; gopt-lower-library-contractions adds them).
void populateLowerAttentionKernelsPatterns(RewritePatternSet &patterns);

/// The address `address` (an index, e.g. from
/// memref.extract_aligned_pointer_as_index) as the `!llvm.ptr` a runtime
/// function takes.
Value indexToPointer(OpBuilder &builder, Location loc, Value address);

/// The address of the first element of the f32 buffer `v` (its aligned
/// pointer plus its offset), as an index.
Value firstElementAddress(OpBuilder &builder, Location loc, Value v);

/// firstElementAddress as the `!llvm.ptr` a runtime function takes.
Value firstElementPointer(OpBuilder &builder, Location loc, Value v);

/// Makes an all-parallel generic that reads a library contraction's result
/// (its only use) at the same indices it writes, and writes into an empty
/// tensor, write into that result instead: the epilogue then runs in place
/// over the sgemm output. With `markConvolutionEpilogues`, such a generic
/// after a channels-last convolution whose payload the runtime's
/// convolution applies (matchConvolutionEpilogue) is marked for it.
/// A library GEMM whose result starts as a broadcast bias vector (a
/// linear's bias operand) starts from zero instead, and a generic after it
/// adds the bias: an epilogue the GEMM's call can apply (gemm-epilogues).
/// Rooted at the GEMM (apply it to the library contractions).
void populateMoveBiasInitPatterns(RewritePatternSet &patterns);

/// With `markGemmEpilogues`, such a generic after a library GEMM that is a
/// bias along the result's innermost dim (the GEMM's n), or a bias and a
/// ReLU (getGemmEpilogueCode), is marked for the GEMM's call.
void populateEpilogueInPlacePatterns(RewritePatternSet &patterns,
                                     bool markConvolutionEpilogues = false,
                                     bool markGemmEpilogues = false);

} // namespace gopt
} // namespace mlir

#endif // GOPT_CODEGEN_COMMON_LIBRARYCALLS_H
