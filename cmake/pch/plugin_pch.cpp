// Compiles the plugins' shared precompiled header (cmake/precompiled_headers.cmake); no code.
