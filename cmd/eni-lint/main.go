// Command eni-lint finds where pods that use Security groups for Pods can run out of branch
// ENIs on Amazon EKS nodes. See the README.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/eni-lint/eni-lint/internal/gcpace"
	"github.com/eni-lint/eni-lint/pkg/cli"
)

func main() {
	cli.DenyDefaultNetwork()
	gcpace.Start()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], cli.DefaultIO())
	stop()
	os.Exit(code)
}
