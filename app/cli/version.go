package cli

import "fmt"

var versionCommand = command{
	name:    "version",
	summary: "print the version",
	run: func(env *Env, args []string) error {
		fmt.Fprintf(env.Stdout, "ctxscope %s\n", env.Version)
		return nil
	},
}
