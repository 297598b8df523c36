//===- GOptInterfaces.td - GOpt op interfaces --------------*- tablegen -*-===//
//
// The two questions every gopt op answers: what kind of op it is for fusion,
// and what it costs. Analyses and passes ask these; they never switch on op
// names.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_INTERFACES_TD
#define GOPT_INTERFACES_TD

include "mlir/IR/OpBase.td"

def GOpt_FusionKindOpInterface : OpInterface<"FusionKindOpInterface"> {
  let cppNamespace = "::mlir::gopt";
  let description = [{
    Classifies an op for the fusion pass and for kernel counting:
    elementwise, broadcast, reduction, contraction, data movement, constant
    or opaque.
  }];
  let methods = [
    InterfaceMethod<"Returns the op's fusion kind.",
      "::mlir::gopt::FusionKind", "getFusionKind">,
    InterfaceMethod<[{
        Whether elementwise producers of this op's operands may be computed
        inside its kernel: true when the op reads each operand element once
        (elementwise, broadcast and plain reductions), false for windowed or
        contracting ops, which would recompute the producer per use.
      }],
      "bool", "acceptsProducerFusion", (ins), [{}], [{
        ::mlir::gopt::FusionKind kind = $_op.getFusionKind();
        return kind == ::mlir::gopt::FusionKind::Elementwise ||
               kind == ::mlir::gopt::FusionKind::Broadcast ||
               kind == ::mlir::gopt::FusionKind::Reduction;
      }]>,
  ];
}

def GOpt_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::mlir::gopt";
  let description = [{
    Static cost of one execution of the op, computed from its shapes:
    floating-point (or integer) operations, and bytes read and written
    assuming every operand is read once and every result written once.
    Implementations may read only the op's name, attributes, properties and
    operand and result types (and, for region ops, the ops of their regions):
    GraphStats memoizes costs by exactly these.
  }];
  let methods = [
    InterfaceMethod<"Returns the estimated arithmetic operations.",
      "int64_t", "getFlops">,
    InterfaceMethod<"Returns the bytes of all tensor operands.",
      "int64_t", "getBytesRead", (ins), [{}], [{
        int64_t bytes = 0;
        for (::mlir::Value v : $_op->getOperands())
          bytes += ::mlir::gopt::getTensorBytes(v.getType());
        return bytes;
      }]>,
    InterfaceMethod<"Returns the bytes of all tensor results.",
      "int64_t", "getBytesWritten", (ins), [{}], [{
        int64_t bytes = 0;
        for (::mlir::Value v : $_op->getResults())
          bytes += ::mlir::gopt::getTensorBytes(v.getType());
        return bytes;
      }]>,
  ];
}

#endif // GOPT_INTERFACES_TD
