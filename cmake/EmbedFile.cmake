# Wraps a text file into a C++ raw string literal, for tools that carry a
# default input with them (gopt-explore's bundled model).
#   cmake -DINPUT=<file> -DOUTPUT=<file.inc> -P EmbedFile.cmake
file(READ "${INPUT}" content)
file(WRITE "${OUTPUT}" "R\"gopt_embedded(${content})gopt_embedded\"\n")
