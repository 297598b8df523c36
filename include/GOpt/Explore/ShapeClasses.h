//===- ShapeClasses.h - One configuration per class of shapes ---*- C++ -*-===//
//
// gopt-explore --shapes (docs/Explore.md, "Shape classes"): a model with
// named dynamic dimensions (ONNX dim_param, "batch", "seq") is analyzed at
// every point of a grid of sizes; the points whose choices agree — one
// configuration is, at each of them, not slower than that point's choice
// beyond the noise — form a class, and the manifest gets one configuration
// per class with the rule that maps any shape to its class. The grouping
// is pure: it reads the analyses, measures nothing.
//
//===----------------------------------------------------------------------===//

#ifndef GOPT_EXPLORE_SHAPECLASSES_H
#define GOPT_EXPLORE_SHAPECLASSES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace gopt {

struct ExploreReport;

/// One point of the grid: a size per named dimension, in the order the
/// dimensions were given.
struct ShapePoint {
  std::vector<std::pair<std::string, int64_t>> dims;
  /// "batch=1,seq=128".
  std::string label() const;
};

/// The grid of `--shapes` values, each "NAME=V1,V2,..." or "NAME=A..B"
/// (the powers of two from A to B, and B): the cross product, the first
/// dimension outermost, each dimension's sizes ascending. Errors: a
/// malformed value, a size below 1, a dimension named twice, more than
/// `maxPoints` points.
llvm::Expected<std::vector<ShapePoint>>
parseShapeGrid(llvm::ArrayRef<std::string> specs, size_t maxPoints = 64);

/// What the analysis at one point found.
struct ShapeOutcome {
  ShapePoint shape;
  /// Why there is no analysis (the model does not import at this shape,
  /// its baseline fails); empty otherwise.
  std::string error;
  /// The configuration chosen there and its S; none when nothing could be
  /// chosen.
  std::optional<std::string> choice;
  double choiceSpeedup = 0;
  /// The configurations acceptable there, with their S: valid, within the
  /// memory limit and the p99 bound, and not slower than the choice beyond
  /// the noise (the upper end of their S interval reaches the choice's S).
  std::vector<std::pair<std::string, double>> acceptable;
};

/// The outcome at `shape` of `report`, the analysis there.
ShapeOutcome summarizeShape(const ShapePoint &shape,
                            const ExploreReport &report);

/// One class: a configuration and the points it serves.
struct ShapeClass {
  std::string configuration;
  std::string pipeline;
  std::string loweringOptions;
  /// Indices into ShapeClassing::shapes.
  std::vector<size_t> members;
  /// The configuration's S at each member, in the members' order.
  std::vector<double> speedups;
};

/// Every point's outcome and the classes.
struct ShapeClassing {
  std::vector<std::string> dimNames;
  std::vector<ShapeOutcome> shapes;
  std::vector<ShapeClass> classes;
  /// Per point, its class; nullopt where the analysis failed.
  std::vector<std::optional<size_t>> classOf;
};

/// Groups the analyzed points: repeatedly, the configuration acceptable at
/// the most points not yet in a class (ties: the higher mean S there, then
/// the name) becomes a class of those points, until every point with an
/// analysis has one. `pipelineOf` gives a configuration's pipeline and
/// lowering options.
void classifyShapes(ShapeClassing &classing,
                    const std::function<std::pair<std::string, std::string>(
                        llvm::StringRef configuration)> &pipelineOf);

/// The rule the manifest states: the class of a shape is that of the
/// nearest analyzed point, by the sum over the named dimensions of
/// |log2 size - log2 point's size| (ties: the earlier point). nullopt when
/// no point was analyzed or the shape does not name the same dimensions.
std::optional<size_t> classForShape(const ShapeClassing &classing,
                                    const ShapePoint &shape);

/// The rule, in words, for the reports and the manifest.
std::string describeShapeRule(const ShapeClassing &classing);

/// The manifest's "shape_classes" object.
llvm::json::Object toJSON(const ShapeClassing &classing);

} // namespace gopt
} // namespace mlir

#endif // GOPT_EXPLORE_SHAPECLASSES_H
