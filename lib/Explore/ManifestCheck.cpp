//===- ManifestCheck.cpp - Is a deployment manifest still valid? ----------===//

#include "GOpt/Explore/ManifestCheck.h"
#include "GOpt/Support/Error.h"

#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::gopt;

llvm::Expected<std::vector<std::string>>
mlir::gopt::checkManifest(llvm::StringRef manifestText,
                          const ManifestContext &current) {
  auto parsed = llvm::json::parse(manifestText);
  if (!parsed)
    return makeError("not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root || root->getString("schema") != "gopt-explore-manifest")
    return makeError("not a gopt-explore manifest (its \"schema\" is not "
                     "\"gopt-explore-manifest\")");
  auto modelHash = root->getString("model_hash");
  auto toolVersion = root->getString("tool_version");
  const llvm::json::Object *host = root->getObject("host");
  if (!modelHash || !toolVersion || !host || !host->getString("cpu_model") ||
      !host->getInteger("cores") || !host->getString("gemm_library"))
    return makeError("the manifest lacks model_hash, tool_version or host "
                     "(cpu_model, cores, gemm_library): written by an older "
                     "gopt-explore? Run the analysis again");
  std::vector<std::string> reasons;
  auto differs = [&](llvm::StringRef what, llvm::StringRef then,
                     llvm::StringRef now) {
    if (then != now)
      reasons.push_back((what + " was '" + then + "', is '" + now + "'").str());
  };
  if (*modelHash != current.modelHash)
    reasons.push_back("the model changed (hash " + modelHash->substr(0, 12).str() +
                      "… measured, " + current.modelHash.substr(0, 12) +
                      "… now)");
  differs("the GOpt version", *toolVersion, current.toolVersion);
  differs("the CPU", *host->getString("cpu_model"), current.cpuModel);
  if (*host->getInteger("cores") != current.cores)
    reasons.push_back("the core count was " +
                      std::to_string(*host->getInteger("cores")) + ", is " +
                      std::to_string(current.cores));
  differs("the GEMM library", *host->getString("gemm_library"),
          current.gemmLibrary);
  return reasons;
}
