# The release image: the eni-lint binary GoReleaser built for the target platform, on
# distroless static, as a non-root user. It compiles nothing; `goreleaser release` places
# the binary for each platform at $TARGETPLATFORM/eni-lint in the build context
# (dockers_v2 in .goreleaser.yaml), so the image holds the very binary the archives and
# checksums describe. `docker build .` uses ./Dockerfile instead, which compiles from source
# onto the same base.
#
#   docker run --rm -v "$PWD:/src:ro" -w /src ghcr.io/eni-lint/eni-lint:VERSION check .
#
# Pinned by digest: gcr.io/distroless/static-debian12:nonroot (UID 65532).
FROM gcr.io/distroless/static-debian12:nonroot@sha256:d093aa3e30dbadd3efe1310db061a14da60299baff8450a17fe0ccc514a16639
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/eni-lint /usr/bin/eni-lint
USER 65532:65532
WORKDIR /src
ENTRYPOINT ["/usr/bin/eni-lint"]
CMD ["--help"]
