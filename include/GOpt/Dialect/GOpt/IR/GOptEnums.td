//===- GOptEnums.td - GOpt enumerations --------------------*- tablegen -*-===//

#ifndef GOPT_ENUMS_TD
#define GOPT_ENUMS_TD

include "mlir/IR/EnumAttr.td"

/// What an op is for the fusion pass and for kernel counting.
def GOpt_FusionKind : I32EnumAttr<"FusionKind", "fusion kind of an op", [
    I32EnumAttrCase<"Elementwise", 0, "elementwise">,
    I32EnumAttrCase<"Broadcast", 1, "broadcast">,
    I32EnumAttrCase<"Reduction", 2, "reduction">,
    I32EnumAttrCase<"Contraction", 3, "contraction">,
    I32EnumAttrCase<"DataMovement", 4, "data_movement">,
    I32EnumAttrCase<"Constant", 5, "constant">,
    I32EnumAttrCase<"Opaque", 6, "opaque">
  ]> {
  let cppNamespace = "::mlir::gopt";
}

def GOpt_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>
  ]> {
  let cppNamespace = "::mlir::gopt";
}

def GOpt_ReduceKind : I32EnumAttr<"ReduceKind", "reduction kind", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mean", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>
  ]> {
  let cppNamespace = "::mlir::gopt";
}

def GOpt_PoolKind : I32EnumAttr<"PoolKind", "pooling kind", [
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"avg", 1>
  ]> {
  let cppNamespace = "::mlir::gopt";
}

/// How gopt.resize computes an element from the input coordinate it maps
/// to: linear interpolation between the two neighbours on each resized
/// axis, or the nearest input element, rounded as the mode says.
def GOpt_ResizeMode : I32EnumAttr<"ResizeMode", "resize interpolation", [
    I32EnumAttrCase<"linear", 0>,
    I32EnumAttrCase<"nearest_floor", 1>,
    I32EnumAttrCase<"nearest_ceil", 2>,
    I32EnumAttrCase<"nearest_round_prefer_floor", 3>,
    I32EnumAttrCase<"nearest_round_prefer_ceil", 4>
  ]> {
  let cppNamespace = "::mlir::gopt";
}

#endif // GOPT_ENUMS_TD
