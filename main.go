// Command ctxscope is a desktop inspector and session debugger for
// long-running LLM agents. With no arguments (or only a session file and
// --workspace) it opens the desktop window; with a command it runs headless
// (see app/cli).
package main

import (
	"embed"
	"io/fs"
	"os"

	"ctxscope/app/cli"
)

//go:embed all:frontend/dist
var assets embed.FS

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		panic(err) // the embed directive guarantees the directory exists
	}
	env := &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Assets: dist, Version: version}
	if file, ok := cli.DesktopArgs(os.Args[1:], env); ok {
		if err := runDesktop(env, file); err != nil {
			os.Stderr.WriteString("ctxscope: " + err.Error() + "\n")
			os.Exit(1)
		}
		return
	}
	os.Exit(cli.Run(os.Args[1:], env))
}
