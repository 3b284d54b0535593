// Package cli is ctxscope's command line: the headless face of the same
// engines the desktop window and serve mode use.
//
// Each command lives in its own file and registers itself in [commands].
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
)

// Env is what commands need from the process that runs them.
type Env struct {
	Stdout, Stderr io.Writer
	// Assets is the built frontend, served by `ctxscope serve`.
	Assets fs.FS
	// Version is the build's version string.
	Version string
	// Workspace is the workspace directory chosen with --workspace, or ""
	// for the default location.
	Workspace string
	// Store is the PostgreSQL database chosen with --store (or the
	// CTXSCOPE_STORE environment variable, which keeps a password out of
	// the process list), or "" for the workspace directory's SQLite
	// database.
	Store string
	// NoGuide is set by --no-guide: the window and serve mode do not show
	// the first-run guide (scripted and test runs).
	NoGuide bool
}

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis of the arguments, for help
	summary string
	run     func(env *Env, args []string) error
}

// commands lists every subcommand, alphabetically.
var commands = []command{
	cwlCommand,
	exportCommand,
	graphCommand,
	importCommand,
	inspectCommand,
	mcpCommand,
	memoryCommand,
	proxyCommand,
	reindexCommand,
	replayCommand,
	searchCommand,
	serveCommand,
	sessionsCommand,
	sweepCommand,
	tailCommand,
	tokenCommand,
	versionCommand,
}

// errUsage marks a usage mistake: the exit code is 2 and help is shown.
var errUsage = errors.New("usage")

// usageError wraps a message as a usage mistake.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// Run executes the command line args (without the program name) and
// returns the process exit code: 0 on success, 1 on failure, 2 on a usage
// mistake.
func Run(args []string, env *Env) int {
	args, err := globalFlags(args, env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ctxscope: %v\n", err)
		return 2
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printHelp(env.Stdout)
		return 0
	}
	cmd, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(env.Stderr, "ctxscope: unknown command %q\n\n", args[0])
		printHelp(env.Stderr)
		return 2
	}
	if err := cmd.run(env, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(env.Stderr, "ctxscope %s: %v\n", cmd.name, strings.TrimPrefix(err.Error(), "usage: "))
		if errors.Is(err, errUsage) {
			fmt.Fprintf(env.Stderr, "usage: ctxscope %s %s\n", cmd.name, cmd.args)
			return 2
		}
		return 1
	}
	return 0
}

// globalFlags consumes the flags that apply to every command.
func globalFlags(args []string, env *Env) ([]string, error) {
	if env.Store == "" {
		env.Store = os.Getenv("CTXSCOPE_STORE")
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--workspace" || a == "-workspace":
			if i+1 >= len(args) {
				return nil, fmt.Errorf("--workspace needs a directory")
			}
			env.Workspace = args[i+1]
			i++
		case strings.HasPrefix(a, "--workspace="):
			env.Workspace = strings.TrimPrefix(a, "--workspace=")
		case a == "--store" || a == "-store":
			if i+1 >= len(args) {
				return nil, fmt.Errorf("--store needs a postgres:// URL")
			}
			env.Store = args[i+1]
			i++
		case strings.HasPrefix(a, "--store="):
			env.Store = strings.TrimPrefix(a, "--store=")
		case a == "--no-guide" || a == "-no-guide":
			env.NoGuide = true
		default:
			rest = append(rest, a)
		}
	}
	return rest, nil
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "ctxscope: inspect and debug long-running LLM agent sessions.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage:")
	fmt.Fprintln(w, "  ctxscope                 open the desktop window")
	fmt.Fprintln(w, "  ctxscope COMMAND [ARGS]  run headless")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	cs := append([]command(nil), commands...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "global flags:")
	fmt.Fprintln(w, "  --workspace DIR  use DIR as the workspace instead of the default")
	fmt.Fprintln(w, "  --store URL      keep the workspace in the PostgreSQL database at URL")
	fmt.Fprintln(w, "                   (postgres://…; or set CTXSCOPE_STORE), shared with other")
	fmt.Fprintln(w, "                   ctxscope servers; DIR then holds this server's search index")
	fmt.Fprintln(w, "  --no-guide       do not show the first-run guide (for scripted runs)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'ctxscope COMMAND -h' for a command's flags.")
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// DesktopArgs reports whether args ask for the desktop window rather than
// a command: no arguments, or only an existing session file (and global
// flags). It
// returns the file, if any, and applies the global flags to env.
func DesktopArgs(args []string, env *Env) (file string, ok bool) {
	rest, err := globalFlags(args, env)
	if err != nil {
		return "", false
	}
	switch {
	case len(rest) == 0:
		return "", true
	case len(rest) == 1 && !strings.HasPrefix(rest[0], "-"):
		if _, isCommand := lookup(rest[0]); !isCommand && rest[0] != "help" && isFile(rest[0]) {
			return rest[0], true
		}
	}
	return "", false
}
