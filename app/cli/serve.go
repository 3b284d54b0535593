package cli

import (
	"context"
	"fmt"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"ctxscope/app/serve"
)

var serveCommand = command{
	name:    "serve",
	args:    "[--addr 127.0.0.1:0] [--open] [--annotator NAME] [--tls-cert FILE --tls-key FILE] [FILE]",
	summary: "serve the app to a browser on loopback behind a per-launch token, or to a team over TLS with per-user tokens",
	run:     runServe,
}

func runServe(env *Env, args []string) error {
	fs := newFlags("serve", env.Stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (port 0 picks a free one); beyond loopback only with TLS and user tokens")
	open := fs.Bool("open", false, "open the URL in the default browser")
	annotator := fs.String("annotator", "", "the name the per-launch token's marks are made under (default: the desktop's annotator, else this account's name)")
	certFile := fs.String("tls-cert", "", "serve HTTPS with this PEM certificate (chain); its hosts are the names the server answers to")
	keyFile := fs.String("tls-key", "", "the PEM private key of --tls-cert")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError("at most one FILE")
	}
	if (*certFile == "") != (*keyFile == "") {
		return usageError("--tls-cert and --tls-key go together")
	}
	if err := serve.CheckAddr(*addr, *certFile != ""); err != nil {
		return err
	}
	initial := ""
	if len(pos) == 1 {
		initial = pos[0]
	}
	a, release, err := NewApp(env, initial, env.Stderr)
	if err != nil {
		return err
	}
	defer release()
	defer a.Close()
	srv, err := serve.New(a, env.Assets)
	if err != nil {
		return err
	}
	if err := listen(srv, *addr, *annotator, *certFile, *keyFile); err != nil {
		return err
	}
	// The URL line is the readiness signal scripts and tests wait for.
	fmt.Fprintf(env.Stdout, "ctxscope serving at %s\n", srv.URL())
	if *open {
		// The opener's command line is readable by every local process:
		// it gets the path of a private page that holds a one-time code,
		// not the code and never the token.
		page, remove, err := srv.OpenerPage()
		if err != nil {
			return err
		}
		defer remove()
		openBrowser(page)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return srv.Serve(ctx)
}

// listen sets the server's annotator and TLS certificate, when given,
// and starts listening on addr.
func listen(srv *serve.Server, addr, annotator, certFile, keyFile string) error {
	if annotator != "" {
		if err := srv.UseAnnotator(annotator); err != nil {
			return err
		}
	}
	if certFile != "" {
		if err := srv.UseTLS(certFile, keyFile); err != nil {
			return err
		}
	}
	return srv.Listen(addr)
}

// openBrowser starts the platform's URL opener and does not wait for it.
func openBrowser(url string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	_ = cmd.Start()
}
