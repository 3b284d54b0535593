package cli

var serveCommand = command{
	name:    "serve",
	args:    "[--addr 127.0.0.1:0] [--open] [FILE]",
	summary: "serve the app to a browser on loopback, behind a per-launch token",
	run: func(env *Env, args []string) error {
		return usageError("serve is not built yet")
	},
}
