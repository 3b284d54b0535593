package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"ctxscope/app/cli"
)

// icon is the window icon.
//
//go:embed build/appicon.png
var icon []byte

// runDesktop opens the desktop window on the app, with file (if any) as
// the first session shown.
func runDesktop(env *cli.Env, file string) error {
	ensureLanguage()
	a, release, err := cli.NewApp(env, file, env.Stdout)
	if err != nil {
		return err
	}
	defer release()
	host := &desktop{}
	return wails.Run(&options.App{
		Title:            "ctxscope",
		Width:            1400,
		Height:           900,
		MinWidth:         900,
		MinHeight:        600,
		BackgroundColour: &options.RGBA{R: 20, G: 22, B: 28, A: 255},
		AssetServer:      &assetserver.Options{Assets: env.Assets},
		OnStartup: func(ctx context.Context) {
			// The platform needs the runtime's context to emit events, so
			// it is set (and what reports through it started) only now.
			host.ctx = ctx
			a.SetPlatform(host)
			a.Startup(ctx)
		},
		OnDomReady: func(ctx context.Context) {
			// Tests wait for this line rather than sleeping.
			fmt.Fprintln(env.Stdout, "ctxscope: dom ready")
		},
		OnShutdown: a.Shutdown,
		// Sessions dropped on the window are imported by path.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		Linux:       &linux.Options{Icon: icon, ProgramName: "ctxscope"},
		Bind:        []any{a.Bridge()},
	})
}

// ensureLanguage gives WebKit a valid BCP 47 language. Under the C or
// POSIX locale WebKitGTK reports navigator.language as "C", and every Intl
// API then throws "invalid language tag: C", which breaks the page at load
// (seen on Debian with LANG=C.UTF-8). Only the messages category changes:
// number and date formats of the process stay as the user set them.
func ensureLanguage() {
	effective := ""
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" {
			effective = v
			break
		}
	}
	if effective != "" && effective != "C" && effective != "POSIX" && !strings.HasPrefix(effective, "C.") {
		return
	}
	if all := os.Getenv("LC_ALL"); all != "" {
		// LC_ALL would override LC_MESSAGES; keep its value for the rest.
		os.Unsetenv("LC_ALL")
		os.Setenv("LANG", all)
	}
	os.Setenv("LC_MESSAGES", "en_US.UTF-8")
}

// desktop implements app.Platform with the Wails runtime.
type desktop struct{ ctx context.Context }

func (d *desktop) OpenFileDialog(title string) (string, error) {
	return runtime.OpenFileDialog(d.ctx, runtime.OpenDialogOptions{
		Title: title,
		Filters: []runtime.FileFilter{
			{DisplayName: "Agent sessions (*.jsonl, *.json, *.traj, *.eval)", Pattern: "*.jsonl;*.json;*.traj;*.eval"},
			{DisplayName: "All files", Pattern: "*"},
		},
	})
}

func (d *desktop) SaveFileDialog(title, name string) (string, error) {
	return runtime.SaveFileDialog(d.ctx, runtime.SaveDialogOptions{Title: title, DefaultFilename: name})
}

func (d *desktop) Emit(event string, data any) { runtime.EventsEmit(d.ctx, event, data) }

func (d *desktop) Desktop() bool { return true }
