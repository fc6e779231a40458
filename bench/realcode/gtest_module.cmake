# For bench/realcode/run.sh's httplib recipe: its tests call
# gtest_discover_tests, which find_package(GTest) brings; with GoogleTest
# built from source (FetchContent) the module must be loaded by hand.
include(GoogleTest)
