# Debian packages from the tree, split as a distribution splits such a
# project (cpack -G DEB in a build configured with -DCMAKE_INSTALL_PREFIX=/usr):
#   rpcrdma-tools             rpcrdma-dump, rpcrdma-top, rpcrdma-peer, their man
#                             pages and completion, the documents, a sample
#   rpcrdma-exporter          the exporter, its systemd unit and defaults file,
#                             the Prometheus and Grafana samples
#   librpcrdma-dissectN       the shared library (N: RR_DISSECT_SOVERSION)
#   librpcrdma-dissect-dev    headers, static library, pkg-config, CMake package
#   wireshark-plugin-rpcrdma  the plugin, for the Wireshark minor it was built for
# Dependencies on Debian's libraries come from dpkg-shlibdeps.

# the exporter's unit and defaults (only the package installs them: they
# name /usr/bin)
install(FILES exporters/systemd/rpcrdma-exporter.service
              exporters/systemd/rpcrdma-exporter.socket
        DESTINATION lib/systemd/system COMPONENT exporter EXCLUDE_FROM_ALL)
install(FILES exporters/systemd/rpcrdma-exporter.default
        DESTINATION /etc/default RENAME rpcrdma-exporter COMPONENT exporter
        EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rpcrdma-tools)
set(CPACK_PACKAGE_VENDOR "rpcrdma-tools")
set(CPACK_PACKAGE_CONTACT "rpcrdma-tools maintainers <rpcrdma-tools@users.noreply.github.com>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "RPC-over-RDMA traffic made visible")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tools exporter lib dev)
if(RR_WIRESHARK_MINOR)
  list(APPEND CPACK_COMPONENTS_ALL plugin)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/rpcrdma-tools/rpcrdma-tools")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME rpcrdma-tools)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
  "RPC-over-RDMA traffic made visible: rpcrdma-dump and rpcrdma-top\n\
rpcrdma-dump prints NFS over RDMA and any ONC RPC carried by RoCE,\n\
InfiniBand or iWARP as tcpdump prints packets, with credits, chunks, call\n\
and reply matching and conformance findings; rpcrdma-top watches the\n\
connections live; rpcrdma-peer is a reference RPC-over-RDMA v1 peer.")
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION net)

set(CPACK_DEBIAN_EXPORTER_PACKAGE_NAME rpcrdma-exporter)
set(CPACK_COMPONENT_EXPORTER_DESCRIPTION
  "Prometheus exporter of RPC-over-RDMA credits, chunks and latency\n\
rpcrdma-exporter serves the statistics of rpcrdma-tools' analyzer, and the\n\
kernel's NFS/RDMA counters, for Prometheus; with a systemd unit, alerting\n\
and recording rules and a Grafana dashboard.")
set(CPACK_DEBIAN_EXPORTER_PACKAGE_SECTION net)
set(CPACK_DEBIAN_EXPORTER_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/exporters/systemd/postinst
    ${PROJECT_SOURCE_DIR}/exporters/systemd/prerm
    ${PROJECT_SOURCE_DIR}/exporters/systemd/postrm
    ${PROJECT_SOURCE_DIR}/exporters/systemd/conffiles)
set(CPACK_DEBIAN_EXPORTER_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_LIB_PACKAGE_NAME librpcrdma-dissect${RR_DISSECT_SOVERSION})
set(CPACK_COMPONENT_LIB_DESCRIPTION
  "RPC-over-RDMA decoders (shared library)\n\
Stateless decoders of RoCE, InfiniBand and iWARP frames carrying\n\
RPC-over-RDMA (RFC 8166, 8167, 8797).")
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME librpcrdma-dissect-dev)
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "RPC-over-RDMA decoders (development files)\n\
Headers, the static library, a pkg-config file and a CMake package for\n\
librpcrdma-dissect.")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "librpcrdma-dissect${RR_DISSECT_SOVERSION} (= ${PROJECT_VERSION}-1)")

set(CPACK_DEBIAN_PLUGIN_PACKAGE_NAME wireshark-plugin-rpcrdma)
set(CPACK_COMPONENT_PLUGIN_DESCRIPTION
  "Wireshark plugin for RPC-over-RDMA (Wireshark ${RR_WIRESHARK_MINOR})\n\
Shows credits, chunks, CM private data, call/reply matching, rebuilt RPC\n\
messages and conformance findings of RPC-over-RDMA traffic in Wireshark\n\
and tshark, for the Wireshark ${RR_WIRESHARK_MINOR} it was built against.")
set(CPACK_DEBIAN_PLUGIN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PLUGIN_PACKAGE_ENHANCES "wireshark, tshark")

include(CPack)
