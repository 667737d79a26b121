# The examples of data/systemd/ that nmt-serve(1) names under FILES: a systemd unit and the
# --config file it reads. They are documentation, installed as
# PREFIX/share/doc/rnnsearch/examples (the Debian package's /usr/share/doc/rnnsearch/examples),
# not as a live unit: the administrator copies them to /etc/systemd/system and /etc.
install(FILES
  ${PROJECT_SOURCE_DIR}/data/systemd/nmt-serve.service
  ${PROJECT_SOURCE_DIR}/data/systemd/nmt-serve.conf
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
