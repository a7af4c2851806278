# The image from source: `docker build -t eni-lint .` in a clone, for any platform BuildKit
# targets (`docker buildx build --platform linux/arm64 .`). The compiler runs on the build
# machine's platform and cross-compiles, so an arm64 image needs no emulation. The result is
# the release image's shape: a static binary on distroless static, as a non-root user.
# Released images are built by GoReleaser from release.Dockerfile, which copies the binary of
# the release archives instead of compiling.
#
#   docker build --build-arg VERSION=$(git describe --tags) -t eni-lint .
#   docker run --rm -v "$PWD:/src:ro" eni-lint check . --node-group default=m5.large
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
ARG TARGETOS
ARG TARGETARCH
# The version `eni-lint version`, SARIF and the PR comment report. Left empty, it is
# 0.0.0-dev, as for any build without a tag (the context has no .git to read a commit from).
ARG VERSION=
WORKDIR /src
# The module download is its own layer: editing the code does not download again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The release's flags (.goreleaser.yaml): static, trimmed, stripped.
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -ldflags "-s -w -X github.com/eni-lint/eni-lint/pkg/cli.Version=$VERSION" -o /out/eni-lint ./cmd/eni-lint

# Pinned by digest: gcr.io/distroless/static-debian12:nonroot (UID 65532), as release.Dockerfile.
FROM gcr.io/distroless/static-debian12:nonroot@sha256:d093aa3e30dbadd3efe1310db061a14da60299baff8450a17fe0ccc514a16639
COPY --from=build /out/eni-lint /usr/bin/eni-lint
USER 65532:65532
WORKDIR /src
ENTRYPOINT ["/usr/bin/eni-lint"]
CMD ["--help"]
