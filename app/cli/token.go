package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"ctxscope/engine/store"
)

var tokenCommand = command{
	name:    "token",
	args:    "create [--role member|operator] NAME | revoke NAME | list",
	summary: "manage the per-user tokens a team signs in to a shared server with",
	run:     runToken,
}

// runToken creates, revokes or lists the users' tokens of the workspace
// (with --store, of the shared database, which every server reads). A new
// token is printed once; only its hash is kept. A token is a member's
// unless --role operator says otherwise (docs/security.md, "Roles").
func runToken(env *Env, args []string) error {
	fs := newFlags("token", env.Stderr)
	roleName := fs.String("role", string(store.RoleMember), "the role of a new token: member (read, search, replay, annotate, build memory offline) or operator (also the server's settings, disk, LLM endpoint and others' data)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || (pos[0] == "list") != (len(pos) == 1) || len(pos) > 2 {
		return usageError("token create [--role member|operator] NAME | token revoke NAME | token list")
	}
	role, err := store.ParseRole(*roleName)
	if err != nil {
		return usageError("%v", err)
	}
	ctx := context.Background()
	st, err := store.OpenLocation(ctx, env.Workspace, env.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	switch pos[0] {
	case "create":
		name, err := store.NormalizeUserName(pos[1])
		if err != nil {
			return err
		}
		token, err := st.CreateUserToken(ctx, name, role)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "the token of %s (%s) is shown this once; give it to them, who open https://HOST:PORT/#token=TOKEN\n", name, role)
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
		fmt.Fprintln(tw, "USER\tROLE\tCREATED")
		for _, t := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", t.Name, t.Role, t.Created.Format("2006-01-02 15:04"))
		}
		return tw.Flush()
	default:
		return usageError("unknown token action %q: create, revoke or list", pos[0])
	}
}
