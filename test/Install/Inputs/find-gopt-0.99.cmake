# Run with cmake -P: asks for a GOpt version the package does not satisfy.
find_package(GOpt 0.99 CONFIG REQUIRED)
