//===- CUDAGraph.cpp - One call of compiled code as one CUDA graph --------===//
//
// Stream capture in relaxed mode (cuStreamBeginCapture_v2): the calls the
// compiled code makes while it records go to one non-blocking stream
// (GraphCapture.h); cuStreamEndCapture hands back the graph, which is
// instantiated once and launched per replay. Memory the capture allocates
// is the graph's arena (DevicePool.h).
//
//===----------------------------------------------------------------------===//

#include "DevicePool.h"
#include "Driver.h"
#include "GraphCapture.h"

#include "GOpt/Runtime/CUDA.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace gopt {
namespace runtime {
namespace cuda {

struct CapturedGraph::State {
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  CUstream stream = nullptr;
  GraphArena arena;
};

namespace {

/// The capture going on, if any.
struct Capture {
  std::mutex mutex;
  std::atomic<CUstream> stream{nullptr};
  /// The graph being recorded (its stream and arena).
  std::unique_ptr<CapturedGraph::State> state;
  /// A stream outside the capture, for staging host copies.
  CUstream staging = nullptr;
  int64_t stagedBytes = 0;
};

Capture &capture() {
  static Capture *c = new Capture();
  return *c;
}

/// The node counts of `graph`, into `result`.
void countNodes(CUgraph graph, CapturedGraph &result) {
  const Driver &d = driver();
  size_t count = 0;
  check("cuGraphGetNodes", d.cuGraphGetNodes(graph, nullptr, &count));
  std::vector<CUgraphNode> nodes(count);
  if (count)
    check("cuGraphGetNodes", d.cuGraphGetNodes(graph, nodes.data(), &count));
  for (CUgraphNode node : nodes) {
    int type = -1;
    check("cuGraphNodeGetType", d.cuGraphNodeGetType(node, &type));
    switch (type) {
    case kGraphNodeKernel:
      ++result.kernelNodes;
      break;
    case kGraphNodeMemcpy:
      ++result.copyNodes;
      break;
    case kGraphNodeMemset:
      ++result.memsetNodes;
      break;
    default:
      ++result.otherNodes;
    }
  }
}

} // namespace

CUstream capturingStream() { return capture().stream.load(); }

bool isDevicePointer(const void *ptr) {
  unsigned type = 0;
  return driver().cuPointerGetAttribute(&type, kPointerAttributeMemoryType,
                                        reinterpret_cast<CUdeviceptr>(ptr)) ==
             0 &&
         type == kMemoryTypeDevice;
}

const void *stageHostSource(const void *src, size_t bytes) {
  Capture &c = capture();
  // The pool puts the buffer in the graph's arena; it stays live (and the
  // graph's) until the graph is destroyed.
  void *staged = devicePool().allocate(bytes);
  const Driver &d = driver();
  check("cuMemcpyAsync",
        d.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(staged),
                        reinterpret_cast<CUdeviceptr>(src), bytes, c.staging));
  check("cuStreamSynchronize", d.cuStreamSynchronize(c.staging));
  c.stagedBytes += static_cast<int64_t>(bytes);
  return staged;
}

std::string beginGraphCapture() {
  if (std::string why = graphsUnavailableReason(); !why.empty())
    return "cannot capture a CUDA graph: " + why;
  Capture &c = capture();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.state)
    return "cannot capture a CUDA graph: a capture is already going on";
  const Driver &d = driver();
  auto state = std::make_unique<CapturedGraph::State>();
  check("cuStreamCreate",
        d.cuStreamCreate(&state->stream, /*CU_STREAM_NON_BLOCKING=*/1));
  if (!c.staging)
    check("cuStreamCreate",
          d.cuStreamCreate(&c.staging, /*CU_STREAM_NON_BLOCKING=*/1));
  check("cuStreamBeginCapture_v2",
        d.cuStreamBeginCapture(state->stream, kStreamCaptureModeRelaxed));
  devicePool().beginArena(&state->arena);
  c.stagedBytes = 0;
  c.stream.store(state->stream);
  c.state = std::move(state);
  return "";
}

std::unique_ptr<CapturedGraph> endGraphCapture(std::string &error) {
  Capture &c = capture();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.state) {
    error = "no CUDA graph capture is going on";
    return nullptr;
  }
  const Driver &d = driver();
  std::unique_ptr<CapturedGraph> result(new CapturedGraph());
  result->state = std::move(c.state);
  CapturedGraph::State &state = *result->state;
  c.stream.store(nullptr);
  devicePool().endArena();
  result->stagedBytes = c.stagedBytes;
  CUresult status = d.cuStreamEndCapture(state.stream, &state.graph);
  if (status != 0) {
    error = describeError("cuStreamEndCapture", status);
    return nullptr; // ~CapturedGraph frees the stream and the arena
  }
  countNodes(state.graph, *result);
  status = d.cuGraphInstantiateWithFlags(&state.exec, state.graph, 0);
  if (status != 0) {
    error = describeError("cuGraphInstantiateWithFlags", status);
    return nullptr;
  }
  result->memoryBytes = state.arena.bytes();
  return result;
}

CapturedGraph::CapturedGraph() = default;

CapturedGraph::~CapturedGraph() {
  if (!state)
    return;
  const Driver &d = driver();
  if (state->exec)
    check("cuGraphExecDestroy", d.cuGraphExecDestroy(state->exec));
  if (state->graph)
    check("cuGraphDestroy", d.cuGraphDestroy(state->graph));
  if (state->stream)
    check("cuStreamDestroy_v2", d.cuStreamDestroy(state->stream));
  devicePool().releaseArena(state->arena);
}

void CapturedGraph::replay() {
  const Driver &d = driver();
  check("cuGraphLaunch", d.cuGraphLaunch(state->exec, state->stream));
  check("cuStreamSynchronize", d.cuStreamSynchronize(state->stream));
}

} // namespace cuda
} // namespace runtime
} // namespace gopt
