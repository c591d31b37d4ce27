# targets.cmake - the one list of fuzz targets, shared by fuzz/CMakeLists.txt
# (engine builds) and harness/tests/fuzz/CMakeLists.txt (replay builds with any
# compiler); fuzz/build.sh (OSS-Fuzz) reads the MC_FUZZ_TARGETS block below
# and the MC_FUZZ_MUTATOR_<NAME> lines, so keep their one-item-per-line shape.
#
# For each target NAME (source fuzz/NAME_fuzzer.c):
#   MC_FUZZ_LIBS_<NAME>     project libraries it links
#   MC_FUZZ_MUTATOR_<NAME>  ON when it uses the structure-aware mutator
#   MC_FUZZ_PARTS_<NAME>    further files of the target (fuzz/PART.c), when
#                           it has more than NAME_fuzzer.c; one line each

set(MC_FUZZ_TARGETS
    refserver_session
    client_session
    jsonrpc_decode
    schema_instance
    schema_compile
    refserver_cursor
    refserver_fileroot
    scenario_load)

set(MC_FUZZ_LIBS_refserver_session mc_refserver mc_schema mc_core)
set(MC_FUZZ_LIBS_client_session mc_client mc_judge mc_schema mc_core)
set(MC_FUZZ_LIBS_jsonrpc_decode mc_core)
set(MC_FUZZ_LIBS_schema_instance mc_schema mc_core)
set(MC_FUZZ_LIBS_schema_compile mc_schema mc_core)
set(MC_FUZZ_LIBS_refserver_cursor mc_refserver mc_core)
set(MC_FUZZ_LIBS_refserver_fileroot mc_refserver mc_core)
set(MC_FUZZ_LIBS_scenario_load mc_scenario mc_client mc_judge mc_schema mc_core)

set(MC_FUZZ_MUTATOR_refserver_session ON)
set(MC_FUZZ_MUTATOR_client_session ON)
set(MC_FUZZ_MUTATOR_jsonrpc_decode ON)
set(MC_FUZZ_MUTATOR_schema_instance ON)
set(MC_FUZZ_MUTATOR_schema_compile ON)
set(MC_FUZZ_MUTATOR_refserver_cursor OFF)
set(MC_FUZZ_MUTATOR_refserver_fileroot OFF)
set(MC_FUZZ_MUTATOR_scenario_load OFF)

set(MC_FUZZ_PARTS_refserver_session refserver_session_read refserver_session_script)

# Files every target compiles besides its own source.
set(MC_FUZZ_COMMON_SOURCES
    ${CMAKE_SOURCE_DIR}/fuzz/common.c
    ${CMAKE_SOURCE_DIR}/fuzz/schema_check.c)

# The structure-aware mutator (engine machinery; mutator.c holds the entry
# points, built with MC_FUZZ_LIBFUZZER_MUTATOR or MC_FUZZ_AFL_MUTATOR).
set(MC_FUZZ_MUTATOR_SOURCES
    ${CMAKE_SOURCE_DIR}/fuzz/mutator.c
    ${CMAKE_SOURCE_DIR}/fuzz/mutator_ops.c
    ${CMAKE_SOURCE_DIR}/fuzz/mutator_values.c)
