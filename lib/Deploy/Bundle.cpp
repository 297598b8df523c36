//===- Bundle.cpp - The bundle's manifest and tensor files ----------------===//

#include "GOpt/Deploy/Bundle.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace gopt {
namespace deploy {

size_t elementTypeBytes(const std::string &type) {
  if (type == "f64" || type == "i64")
    return 8;
  if (type == "f32" || type == "i32")
    return 4;
  if (type == "f16" || type == "bf16" || type == "i16")
    return 2;
  if (type == "i8" || type == "i1")
    return 1;
  return 0;
}

int64_t BundleTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

static std::string formatShape(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") + std::to_string(shape[i]);
  return text;
}

std::string BundleTensor::describe() const {
  return elementType + " " + formatShape(shape);
}

static bool parseShape(const std::string &text, std::vector<int64_t> &shape) {
  shape.clear();
  if (text == "scalar")
    return true;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, 'x')) {
    if (part.empty() || part.size() > 12 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return false;
    shape.push_back(std::stoll(part));
  }
  return !shape.empty();
}

std::string bundlePath(const std::string &dir, const std::string &file) {
  return dir.empty() || dir.back() == '/' ? dir + file : dir + "/" + file;
}

std::string readBundle(const std::string &dir, Bundle &bundle) {
  std::string path = bundlePath(dir, "manifest.txt");
  std::ifstream in(path);
  if (!in)
    return "cannot read " + path + ": not a GOpt bundle (gopt-run "
           "--export-bundle writes one)";
  std::stringstream text;
  text << in.rdbuf();
  return parseBundleManifest(text.str(), path, bundle);
}

std::string parseBundleManifest(const std::string &text,
                                const std::string &path, Bundle &bundle) {
  bundle = Bundle();
  std::stringstream in(text);
  std::string line;
  int number = 0;
  auto fail = [&](const std::string &why) {
    return path + ":" + std::to_string(number) + ": " + why;
  };
  bool sawHeader = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty())
      continue;
    std::stringstream fields(line);
    std::string key;
    fields >> key;
    std::vector<std::string> values;
    for (std::string v; fields >> v;)
      values.push_back(v);
    auto expect = [&](size_t n) { return values.size() == n; };
    if (!sawHeader) {
      if (key != "gopt-bundle" || !expect(1))
        return fail("the first line must be 'gopt-bundle " +
                    std::to_string(kBundleFormatVersion) + "'");
      if (values[0] != std::to_string(kBundleFormatVersion))
        return fail("bundle format " + values[0] + ", this GOpt reads " +
                    std::to_string(kBundleFormatVersion));
      sawHeader = true;
      continue;
    }
    if (key == "gopt-version" && expect(1)) {
      bundle.goptVersion = values[0];
    } else if (key == "target" && expect(2)) {
      bundle.target = values[0];
      bundle.chip = values[1];
    } else if (key == "library" && expect(1)) {
      bundle.library = values[0];
    } else if (key == "entry" && expect(2)) {
      bundle.entry = values[0];
      bundle.entrySymbol = values[1];
    } else if (key == "graph-pipeline" && expect(1)) {
      bundle.graphPipeline = values[0] == "-" ? "" : values[0];
    } else if (key == "reference" && expect(1)) {
      bundle.reference = values[0];
    } else if (key == "launch" && expect(1)) {
      if (values[0] != "cuda-graph")
        return fail("unknown launch '" + values[0] + "' (cuda-graph)");
      bundle.cudaGraph = true;
    } else if (key == "kernel" && expect(1)) {
      bundle.kernels.push_back(values[0]);
    } else if ((key == "input" || key == "weight" || key == "result") &&
               expect(3)) {
      BundleTensor tensor;
      tensor.elementType = values[0];
      if (!elementTypeBytes(tensor.elementType))
        return fail("unknown element type '" + values[0] + "'");
      if (!parseShape(values[1], tensor.shape))
        return fail("bad shape '" + values[1] +
                    "' (extents separated by 'x', or 'scalar')");
      // At most 2^40 elements (4 TiB of f32): a product that overflows is
      // no tensor a runner can hold.
      int64_t elements = 1;
      for (int64_t d : tensor.shape)
        if (d != 0 && elements > (int64_t(1) << 40) / d)
          return fail("shape '" + values[1] + "' is too large");
        else
          elements *= d;
      tensor.file = values[2] == "-" ? "" : values[2];
      if (tensor.file.empty() && key == "weight")
        return fail("a weight needs a file");
      if (tensor.file.find('/') != std::string::npos)
        return fail("file '" + tensor.file + "' is not inside the bundle");
      (key == "input" ? bundle.inputs
                      : key == "weight" ? bundle.weights : bundle.results)
          .push_back(std::move(tensor));
    } else {
      return fail("unexpected line '" + line + "'");
    }
  }
  if (!sawHeader)
    return path + ": empty manifest";
  if (bundle.library.empty() || bundle.entrySymbol.empty() ||
      bundle.target.empty())
    return path + ": the manifest lacks its target, library or entry line";
  if (bundle.library.find('/') != std::string::npos)
    return path + ": library '" + bundle.library + "' is not inside the bundle";
  return "";
}

std::string writeBundleManifest(const std::string &dir, const Bundle &bundle) {
  std::string path = bundlePath(dir, "manifest.txt");
  std::ofstream out(path);
  if (!out)
    return "cannot write " + path;
  out << "gopt-bundle " << kBundleFormatVersion << "\n";
  out << "gopt-version " << bundle.goptVersion << "\n";
  out << "target " << bundle.target << " " << bundle.chip << "\n";
  out << "library " << bundle.library << "\n";
  out << "entry " << bundle.entry << " " << bundle.entrySymbol << "\n";
  out << "graph-pipeline "
      << (bundle.graphPipeline.empty() ? "-" : bundle.graphPipeline) << "\n";
  out << "reference " << (bundle.reference.empty() ? "-" : bundle.reference)
      << "\n";
  if (bundle.cudaGraph)
    out << "launch cuda-graph\n";
  for (const std::string &kernel : bundle.kernels)
    out << "kernel " << kernel << "\n";
  auto tensorLine = [&](const char *key, const BundleTensor &t) {
    out << key << " " << t.elementType << " " << formatShape(t.shape) << " "
        << (t.file.empty() ? "-" : t.file) << "\n";
  };
  for (const BundleTensor &t : bundle.inputs)
    tensorLine("input", t);
  for (const BundleTensor &t : bundle.weights)
    tensorLine("weight", t);
  for (const BundleTensor &t : bundle.results)
    tensorLine("result", t);
  out.close();
  if (!out)
    return "cannot write " + path;
  return "";
}

std::string readTensorFile(const std::string &dir, const BundleTensor &tensor,
                           std::vector<char> &bytes) {
  std::string path = bundlePath(dir, tensor.file);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    return "cannot read " + path;
  std::streamsize size = in.tellg();
  if (size < 0 || static_cast<size_t>(size) != tensor.byteSize())
    return path + " has " + std::to_string(size) + " bytes; " +
           tensor.describe() + " needs " + std::to_string(tensor.byteSize());
  bytes.resize(static_cast<size_t>(size));
  in.seekg(0);
  if (!in.read(bytes.data(), size))
    return "cannot read " + path;
  return "";
}

std::vector<char> generateInput(const BundleTensor &tensor) {
  size_t bytes = elementTypeBytes(tensor.elementType);
  std::vector<char> data(tensor.byteSize());
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
    int64_t k = (i * 7919) % 129 - 64;
    char *at = data.data() + i * bytes;
    const std::string &type = tensor.elementType;
    if (type == "f32") {
      float v = k / 16.0f;
      std::memcpy(at, &v, 4);
    } else if (type == "f64") {
      double v = k / 16.0;
      std::memcpy(at, &v, 8);
    } else if (type == "f16" || type == "bf16") {
      // k / 16 is exact in both: sign, exponent and the top mantissa bits.
      float v = k / 16.0f;
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      uint16_t half;
      if (type == "bf16") {
        half = static_cast<uint16_t>(bits >> 16);
      } else if (v == 0) {
        half = 0;
      } else {
        uint32_t sign = bits >> 31, exponent = (bits >> 23) & 0xff,
                 mantissa = bits & 0x7fffff;
        half = static_cast<uint16_t>((sign << 15) |
                                     ((exponent - 127 + 15) << 10) |
                                     (mantissa >> 13));
      }
      std::memcpy(at, &half, 2);
    } else if (type == "i64") {
      int64_t v = k;
      std::memcpy(at, &v, 8);
    } else if (type == "i32") {
      int32_t v = static_cast<int32_t>(k);
      std::memcpy(at, &v, 4);
    } else if (type == "i16") {
      int16_t v = static_cast<int16_t>(k);
      std::memcpy(at, &v, 2);
    } else if (type == "i1") {
      *at = static_cast<char>(k & 1);
    } else {
      *at = static_cast<char>(k);
    }
  }
  return data;
}

std::string writeFile(const std::string &dir, const std::string &file,
                      const void *bytes, size_t size) {
  std::string path = bundlePath(dir, file);
  std::ofstream out(path, std::ios::binary);
  if (!out || !out.write(static_cast<const char *>(bytes),
                         static_cast<std::streamsize>(size)))
    return "cannot write " + path;
  return "";
}

} // namespace deploy
} // namespace gopt
