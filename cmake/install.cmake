# install.cmake - the install layout and the Debian package.
#
#   PREFIX/bin/mcpcheck, PREFIX/bin/mcpcheck-refserver
#   PREFIX/share/mcpcheck/scenarios/   the scenario library, profiles/ inside
#   PREFIX/share/mcpcheck/schemas/     the bundled protocol schemas
#   PREFIX/share/man/man1/             both programs' manuals (help2man)
#   PREFIX/share/doc/mcpcheck/         copyright, changelogs, README, docs
#
# The programs find share/mcpcheck from their own path (core/datadir.h), so
# the prefix can be moved or copied whole. The check catalogue (the quotes
# of the built-in checks and of the library) is compiled into mcpcheck.
#
# `cpack -G DEB` (scripts/package.sh) builds mcpcheck_VERSION_ARCH.deb; its
# Depends come from dpkg-shlibdeps.
include(GNUInstallDirs)
# cpack and `make install` do not build the whole tree (the tests) first:
# scripts/package.sh builds the two programs, and the package test packs
# what the build made.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(MC_DATA_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/mcpcheck)
set(MC_DOC_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/doc/mcpcheck)

install(TARGETS mcpcheck mcpcheck-refserver RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios/ DESTINATION ${MC_DATA_INSTALL_DIR}/scenarios)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/harness/schemas/ DESTINATION ${MC_DATA_INSTALL_DIR}/schemas
        FILES_MATCHING PATTERN "*.json")

# Debian keeps changelogs and the copyright in a fixed shape: the copyright
# file machine-readable, changelogs gzip -9n (no name, no time stamp, so the
# package builds the same twice).
find_program(MC_GZIP gzip)
set(MC_PKG_DIR ${CMAKE_BINARY_DIR}/package)
file(MAKE_DIRECTORY ${MC_PKG_DIR})
set(MC_DOC_GZ)
if(MC_GZIP)
  foreach(pair "changelog.gz=${CMAKE_SOURCE_DIR}/CHANGELOG.md"
               "changelog.Debian.gz=${CMAKE_SOURCE_DIR}/packaging/deb/changelog")
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 name)
    list(GET pair 1 from)
    add_custom_command(OUTPUT ${MC_PKG_DIR}/${name}
                       COMMAND ${MC_GZIP} -9n -c ${from} > ${MC_PKG_DIR}/${name}
                       DEPENDS ${from} VERBATIM)
    list(APPEND MC_DOC_GZ ${MC_PKG_DIR}/${name})
  endforeach()
endif()

# The manuals, made from --help and --version by help2man when it is
# installed (scripts/setup.sh installs it).
find_program(MC_HELP2MAN help2man)
set(MC_MAN_GZ)
if(MC_HELP2MAN AND MC_GZIP)
  foreach(prog mcpcheck mcpcheck-refserver)
    if(prog STREQUAL "mcpcheck")
      set(what "conformance harness and fuzzer for Model Context Protocol servers")
    else()
      set(what "reference Model Context Protocol server of mcpcheck")
    endif()
    add_custom_command(OUTPUT ${MC_PKG_DIR}/${prog}.1.gz
                       COMMAND ${MC_HELP2MAN} --no-info --no-discard-stderr
                               --name=${what} --section=1
                               --version-string=${PROJECT_VERSION}
                               --output=${MC_PKG_DIR}/${prog}.1 $<TARGET_FILE:${prog}>
                       COMMAND ${MC_GZIP} -9nf ${MC_PKG_DIR}/${prog}.1
                       DEPENDS ${prog} VERBATIM)
    list(APPEND MC_MAN_GZ ${MC_PKG_DIR}/${prog}.1.gz)
  endforeach()
endif()
add_custom_target(mc_package_docs ALL DEPENDS ${MC_DOC_GZ} ${MC_MAN_GZ})
if(MC_MAN_GZ)
  install(FILES ${MC_MAN_GZ} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${MC_DOC_GZ} ${CMAKE_SOURCE_DIR}/packaging/deb/copyright
              ${CMAKE_SOURCE_DIR}/README.md
        DESTINATION ${MC_DOC_INSTALL_DIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${MC_DOC_INSTALL_DIR}/docs
        FILES_MATCHING PATTERN "*.md")

# ---- the Debian package ------------------------------------------------------
set(CPACK_PACKAGE_NAME mcpcheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "mcpcheck maintainers <maintainers@mcpcheck.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "conformance harness and fuzzer for Model Context Protocol servers")
set(CPACK_PACKAGE_DESCRIPTION
    "mcpcheck runs a library of protocol scenarios against an MCP server over
stdio or Streamable HTTP, judges every message against the specification of
each protocol version, and writes console, JSON, JUnit, SARIF, HTML and
Markdown reports. It includes mcpcheck-refserver, a reference server that
passes every check and can be switched to break any of them.")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
set(CPACK_GENERATOR DEB)
include(CPack)
