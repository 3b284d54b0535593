package cli

import (
	"flag"
	"strings"

	"ctxscope/engine/memory/retrieve"
)

// knobFlags are the flags that choose the memory's retrieval knobs: a
// file, and single knobs on top of it.
type knobFlags struct {
	file *string
	sets *assignments
}

// assignments collects repeated --set name=value flags.
type assignments []string

func (a *assignments) String() string     { return strings.Join(*a, " ") }
func (a *assignments) Set(v string) error { *a = append(*a, v); return nil }

func addKnobFlags(fs *flag.FlagSet) knobFlags {
	kf := knobFlags{file: fs.String("config", "", "knobs file (JSON, as engine/memory/retrieve/knobs.json); knobs it leaves out keep the shipped values"), sets: &assignments{}}
	fs.Var(kf.sets, "set", "one knob, such as retrieval.graphBoost=0.3 or window=1 (repeatable; applied after --config)")
	return kf
}

// knobs returns the shipped knobs with the file's and the --set flags'.
func (kf knobFlags) knobs() (retrieve.Knobs, error) {
	k := retrieve.DefaultKnobs()
	if *kf.file != "" {
		var err error
		if k, err = retrieve.LoadKnobs(*kf.file); err != nil {
			return k, usageError("%v", err)
		}
	}
	for _, a := range *kf.sets {
		if err := k.Set(a); err != nil {
			return k, usageError("--set %v", err)
		}
	}
	return k, nil
}
