//===- CommandLine.h - What a GOpt tool's --help lists ----------*- C++ -*-===//

#ifndef GOPT_SUPPORT_COMMANDLINE_H
#define GOPT_SUPPORT_COMMANDLINE_H

namespace mlir {
namespace gopt {

/// Moves every command-line option registered so far, except --help,
/// --version and the other generic ones, to --help-hidden. Called first in a
/// tool's main, before the tool registers its own, MLIR's and the passes'
/// options, it takes out of --help the options the shared libLLVM.so
/// registers when it loads: hundreds of backend flags (--aarch64-*,
/// --amdgpu-*, ...), Polly's, IR2Vec's, none of which a GOpt tool reads.
/// They still parse, and --help-hidden lists them.
void hideLibraryOptions();

} // namespace gopt
} // namespace mlir

#endif // GOPT_SUPPORT_COMMANDLINE_H
