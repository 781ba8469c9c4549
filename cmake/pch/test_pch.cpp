// Compiles the tests' shared precompiled header (cmake/precompiled_headers.cmake); no code.
// gtest_main provides main().
