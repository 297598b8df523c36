//===- ShapeClasses.cpp - One configuration per class of shapes -----------===//

#include "GOpt/Explore/ShapeClasses.h"
#include "GOpt/Explore/Report.h"
#include "GOpt/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::gopt;

std::string ShapePoint::label() const {
  std::string text;
  for (const auto &[name, size] : dims)
    text += (text.empty() ? "" : ",") + name + "=" + std::to_string(size);
  return text;
}

/// The sizes of one --shapes value, ascending, without repeats.
static llvm::Expected<std::vector<int64_t>> parseSizes(llvm::StringRef spec,
                                                       llvm::StringRef text) {
  auto bad = [&](const llvm::Twine &why) {
    return makeError("--shapes='" + spec + "': " + why +
                     " (NAME=V1,V2,... or NAME=A..B)");
  };
  std::set<int64_t> sizes;
  auto [from, to] = text.split("..");
  if (text.contains("..")) {
    int64_t a = 0, b = 0;
    if (from.getAsInteger(10, a) || to.getAsInteger(10, b) || a < 1 || b < a)
      return bad("a range is A..B with 1 <= A <= B");
    for (int64_t v = a; v <= b; v *= 2)
      sizes.insert(v);
    sizes.insert(b);
  } else {
    llvm::SmallVector<llvm::StringRef> parts;
    text.split(parts, ',');
    for (llvm::StringRef part : parts) {
      int64_t v = 0;
      if (part.trim().getAsInteger(10, v) || v < 1)
        return bad("'" + part + "' is not a size of at least 1");
      sizes.insert(v);
    }
  }
  return std::vector<int64_t>(sizes.begin(), sizes.end());
}

llvm::Expected<std::vector<ShapePoint>>
mlir::gopt::parseShapeGrid(llvm::ArrayRef<std::string> specs,
                           size_t maxPoints) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> axes;
  for (const std::string &spec : specs) {
    auto [name, values] = llvm::StringRef(spec).split('=');
    name = name.trim();
    if (name.empty() || values.empty())
      return makeError("--shapes='" + spec +
                       "' must be NAME=V1,V2,... or NAME=A..B");
    for (const auto &axis : axes)
      if (axis.first == name)
        return makeError("--shapes names dimension '" + name + "' twice");
    auto sizes = parseSizes(spec, values.trim());
    if (!sizes)
      return sizes.takeError();
    axes.push_back({name.str(), std::move(*sizes)});
  }
  std::vector<ShapePoint> points(1);
  for (const auto &[name, sizes] : axes) {
    std::vector<ShapePoint> next;
    for (const ShapePoint &point : points)
      for (int64_t size : sizes) {
        ShapePoint extended = point;
        extended.dims.push_back({name, size});
        next.push_back(std::move(extended));
      }
    points = std::move(next);
    if (points.size() > maxPoints)
      return makeError("--shapes makes more than " +
                       llvm::Twine(static_cast<uint64_t>(maxPoints)) +
                       " shapes to analyze: give fewer sizes");
  }
  if (axes.empty())
    return std::vector<ShapePoint>();
  return points;
}

ShapeOutcome mlir::gopt::summarizeShape(const ShapePoint &shape,
                                        const ExploreReport &report) {
  ShapeOutcome outcome;
  outcome.shape = shape;
  const EffectAnalysis &analysis = report.analysis;
  if (analysis.effects.size() != report.configurations.size() ||
      !analysis.choice.index) {
    outcome.error = analysis.choice.reason.empty() ? "nothing was measured"
                                                   : analysis.choice.reason;
    return outcome;
  }
  size_t chosen = *analysis.choice.index;
  outcome.choice = report.configurations[chosen].name;
  outcome.choiceSpeedup = analysis.effects[chosen].speedup;
  const ChoiceCriteria &criteria = analysis.criteria;
  for (size_t i = 0; i < report.configurations.size(); ++i) {
    const ConfigurationEffect &effect = analysis.effects[i];
    if (!effect.valid)
      continue;
    if (criteria.memoryLimitBytes > 0 && i < report.measurements.size() &&
        report.measurements[i].peakBytes > criteria.memoryLimitBytes)
      continue;
    if (criteria.p99BoundMs > 0 && effect.p99Ms > criteria.p99BoundMs)
      continue;
    double upper = std::max(effect.speedup, effect.speedupInterval.high);
    if (i == chosen || upper >= outcome.choiceSpeedup)
      outcome.acceptable.push_back(
          {report.configurations[i].name, effect.speedup});
  }
  return outcome;
}

void mlir::gopt::classifyShapes(
    ShapeClassing &classing,
    const std::function<std::pair<std::string, std::string>(
        llvm::StringRef configuration)> &pipelineOf) {
  classing.classes.clear();
  classing.classOf.assign(classing.shapes.size(), std::nullopt);
  auto unassigned = [&](size_t s) {
    return !classing.classOf[s] && classing.shapes[s].error.empty() &&
           !classing.shapes[s].acceptable.empty();
  };
  while (true) {
    // For each configuration: the unassigned points it serves, its S there.
    std::map<std::string, std::pair<std::vector<size_t>, double>> serves;
    for (size_t s = 0; s < classing.shapes.size(); ++s) {
      if (!unassigned(s))
        continue;
      for (const auto &[name, speedup] : classing.shapes[s].acceptable) {
        auto &entry = serves[name];
        entry.first.push_back(s);
        entry.second += speedup;
      }
    }
    if (serves.empty())
      break;
    const std::pair<const std::string, std::pair<std::vector<size_t>, double>>
        *best = nullptr;
    for (const auto &entry : serves) {
      if (!best) {
        best = &entry;
        continue;
      }
      size_t n = entry.second.first.size(), bn = best->second.first.size();
      double mean = entry.second.second / n,
             bestMean = best->second.second / bn;
      if (n > bn || (n == bn && mean > bestMean))
        best = &entry;
    }
    ShapeClass shapeClass;
    shapeClass.configuration = best->first;
    std::tie(shapeClass.pipeline, shapeClass.loweringOptions) =
        pipelineOf(best->first);
    for (size_t s : best->second.first) {
      shapeClass.members.push_back(s);
      for (const auto &[name, speedup] : classing.shapes[s].acceptable)
        if (name == best->first)
          shapeClass.speedups.push_back(speedup);
      classing.classOf[s] = classing.classes.size();
    }
    classing.classes.push_back(std::move(shapeClass));
  }
}

std::optional<size_t> mlir::gopt::classForShape(const ShapeClassing &classing,
                                                const ShapePoint &shape) {
  std::optional<size_t> nearest;
  double nearestDistance = 0;
  for (size_t s = 0; s < classing.shapes.size(); ++s) {
    if (!classing.classOf[s])
      continue;
    const ShapePoint &point = classing.shapes[s].shape;
    if (point.dims.size() != shape.dims.size())
      return std::nullopt;
    double distance = 0;
    for (size_t d = 0; d < point.dims.size(); ++d) {
      if (point.dims[d].first != shape.dims[d].first ||
          shape.dims[d].second < 1)
        return std::nullopt;
      distance +=
          std::fabs(std::log2(static_cast<double>(shape.dims[d].second)) -
                    std::log2(static_cast<double>(point.dims[d].second)));
    }
    if (!nearest || distance < nearestDistance) {
      nearest = *classing.classOf[s];
      nearestDistance = distance;
    }
  }
  return nearest;
}

std::string mlir::gopt::describeShapeRule(const ShapeClassing &classing) {
  return "a shape takes the class of the nearest analyzed shape: the "
         "smallest sum over " +
         llvm::join(classing.dimNames, ", ") +
         " of |log2(size) - log2(analyzed size)| (ties: the earlier shape)";
}

llvm::json::Object mlir::gopt::toJSON(const ShapeClassing &classing) {
  auto shapeJSON = [](const ShapePoint &point) {
    llvm::json::Object object;
    for (const auto &[name, size] : point.dims)
      object[name] = size;
    return object;
  };
  llvm::json::Array dims, classes, shapes;
  for (const std::string &name : classing.dimNames)
    dims.push_back(name);
  for (const ShapeClass &c : classing.classes) {
    llvm::json::Array members;
    for (size_t s : c.members)
      members.push_back(shapeJSON(classing.shapes[s].shape));
    classes.push_back(llvm::json::Object{
        {"configuration", c.configuration},
        {"pipeline", c.pipeline},
        {"lowering_options", c.loweringOptions},
        {"shapes", std::move(members)},
    });
  }
  for (size_t s = 0; s < classing.shapes.size(); ++s) {
    const ShapeOutcome &o = classing.shapes[s];
    llvm::json::Array acceptable;
    for (const auto &[name, speedup] : o.acceptable)
      acceptable.push_back(name);
    shapes.push_back(llvm::json::Object{
        {"shape", shapeJSON(o.shape)},
        {"error", o.error.empty() ? llvm::json::Value(nullptr)
                                  : llvm::json::Value(o.error)},
        {"choice",
         o.choice ? llvm::json::Value(*o.choice) : llvm::json::Value(nullptr)},
        {"choice_speedup", o.choice ? llvm::json::Value(o.choiceSpeedup)
                                    : llvm::json::Value(nullptr)},
        {"acceptable", std::move(acceptable)},
        {"class", classing.classOf[s] ? llvm::json::Value(static_cast<int64_t>(
                                            *classing.classOf[s]))
                                      : llvm::json::Value(nullptr)},
    });
  }
  return llvm::json::Object{
      {"dims", std::move(dims)},
      {"rule", describeShapeRule(classing)},
      {"classes", std::move(classes)},
      {"shapes", std::move(shapes)},
  };
}
