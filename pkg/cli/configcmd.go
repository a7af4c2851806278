package cli

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/eni-lint/eni-lint/pkg/config"
	"github.com/spf13/cobra"
)

func newConfig(stdio IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Inspect the effective configuration",
	}
	var path string
	show := &cobra.Command{
		Use:   "show",
		Short: "Print every effective setting and where it came from",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			eff, err := config.Resolve(config.Flags{Config: path}, stdio.Getenv, wd)
			if err != nil {
				return usageError{err}
			}
			tw := tabwriter.NewWriter(stdio.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SETTING\tVALUE\tFROM")
			for _, row := range eff.Show() {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", row[0], row[1], row[2])
			}
			return tw.Flush()
		},
	}
	show.Flags().StringVar(&path, "config", "", "config file (default: "+config.FileName+" in the current folder or above)")
	cmd.AddCommand(show)
	return cmd
}
