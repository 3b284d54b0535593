package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"ctxscope/engine/store"
)

var tokenCommand = command{
	name:    "token",
	args:    "create NAME | revoke NAME | list",
	summary: "manage the per-user tokens a team signs in to a shared server with",
	run:     runToken,
}

// runToken creates, revokes or lists the users' tokens of the workspace
// (with --store, of the shared database, which every server reads). A new
// token is printed once; only its hash is kept.
func runToken(env *Env, args []string) error {
	fs := newFlags("token", env.Stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || (pos[0] == "list") != (len(pos) == 1) || len(pos) > 2 {
		return usageError("token create NAME | token revoke NAME | token list")
	}
	ctx := context.Background()
	st, err := store.OpenLocation(ctx, env.Workspace, env.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	switch pos[0] {
	case "create":
		token, err := st.CreateUserToken(ctx, pos[1])
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stderr, "the token is shown this once; give it to "+pos[1]+", who opens https://HOST:PORT/#token=TOKEN")
		fmt.Fprintln(env.Stdout, token)
		return nil
	case "revoke":
		if err := st.RevokeUserToken(ctx, pos[1]); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "revoked the token of %s\n", pos[1])
		return nil
	case "list":
		list, err := st.UserTokens(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "USER\tCREATED")
		for _, t := range list {
			fmt.Fprintf(tw, "%s\t%s\n", t.Name, t.Created.Format("2006-01-02 15:04"))
		}
		return tw.Flush()
	default:
		return usageError("unknown token action %q: create, revoke or list", pos[0])
	}
}
