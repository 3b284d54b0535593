package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlags returns a flag set for a command that writes its help (for -h)
// to w. Parse errors are not printed by the flag package: [parse] returns
// them as usage errors, which Run prints once.
func newFlags(name string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {}
	return fs
}

// parse parses args with flags and positional arguments in any order, so
// that both `inspect --json FILE` and `inspect FILE --json` work. A lone
// "--" ends flag parsing.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBool(f) && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(flags)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(out, "flags of ctxscope %s:\n", fs.Name())
		fs.PrintDefaults()
		return nil, err
	case err != nil:
		return nil, usageError("%v", err)
	}
	return pos, nil
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
