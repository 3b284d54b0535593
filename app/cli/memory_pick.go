package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"ctxscope/engine/memory"
)

// memoryFlags are the flags of the commands that work on one stored
// memory: --memory names it, or --sample picks a built LoCoMo one.
type memoryFlags struct {
	name   *string
	sample *int
}

func addMemoryFlags(fs *flag.FlagSet) memoryFlags {
	return memoryFlags{
		name:   fs.String("memory", "", "memory id (see 'memory build'); default: the sample's conversation"),
		sample: fs.Int("sample", 0, "LoCoMo conversation index, when --memory is not given"),
	}
}

// load reads the memory the flags name from env's workspace: the one
// called --memory or, without it, the --sample-th built LoCoMo memory.
func (mf memoryFlags) load(env *Env) (*memory.Memory, error) {
	ws, err := openSharedWorkspace(env)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	id := *mf.name
	if id == "" {
		ids, err := ws.Memories().List(context.Background())
		if err != nil {
			return nil, err
		}
		var built []string
		for _, x := range ids {
			if strings.HasPrefix(x, "conv-") {
				built = append(built, x)
			}
		}
		if *mf.sample < 0 || *mf.sample >= len(built) {
			return nil, fmt.Errorf("no built memory for sample %d in the workspace: run 'ctxscope memory build' first", *mf.sample)
		}
		id = built[*mf.sample]
	}
	return ws.LoadMemory(context.Background(), id)
}
