// Package app is the layer that the desktop window and serve mode bind. It
// holds a few services; each bound method validates its arguments, calls
// one engine function and returns a JSON-tagged value (or an error, which
// rejects the frontend's promise).
//
// The package imports no Wails code. What it needs from its host (a file
// dialog, a way to send events to the frontend) comes through [Platform],
// which main.go implements for the desktop window and app/serve for the
// browser.
package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"

	"ctxscope/engine/workspace"
)

// Platform is what the host offers the app.
type Platform interface {
	// OpenFileDialog asks the user to choose a session file and returns
	// its path, or "" when the user cancels. Hosts without dialogs return
	// ErrNoDialog.
	OpenFileDialog(title string) (string, error)
	// SaveFileDialog asks the user where to save a file, suggesting name,
	// and returns the path, or "" when the user cancels. Hosts without
	// dialogs return ErrNoDialog.
	SaveFileDialog(title, name string) (string, error)
	// Emit sends an event to the frontend.
	Emit(event string, data any)
	// Desktop reports whether the host is the desktop window (true) or a
	// browser served by serve mode (false).
	Desktop() bool
}

// Options configure an [App].
type Options struct {
	// Workspace is the workspace directory; "" means the default location
	// (store.DefaultDir).
	Workspace string
	// Store, when not "", is the PostgreSQL database (a postgres:// URL)
	// the workspace lives in, shared with other ctxscope servers; the
	// workspace directory then keeps this process's search index.
	Store string
	// Initial is a session file to import and open at start.
	Initial string
	// Log receives one line per notable event; nil means os.Stderr.
	Log io.Writer
	// Home is the directory discovery looks for the agents' session
	// directories in; "" means the user's home directory.
	Home string
	// NoGuide keeps the first-run guide from showing (scripted runs).
	NoGuide bool
	// CallLog, when not nil, receives one JSON line per call of a bound
	// method with its arguments (the CTXSCOPE_CALL_LOG file): tests check
	// with it that no session content reaches Go from the frontend.
	CallLog io.Writer
}

// App owns the workspace and the bound services.
type App struct {
	platform Platform
	log      io.Writer
	ws       *workspace.Workspace
	sessions *Sessions
	ui       *UI
	debugger *Debugger
	live     *Live
	memory   *Memory
	annotate *Annotations
	index    *indexer
	changes  *changeFeed
	local    *localSettings
	otlp     *otlpReceiver
	callMu   sync.Mutex
	callLog  io.Writer
	home     string // where discovery looks for the agents' directories
	latest   latestCalls

	dispatchOnce  sync.Once
	dispatchTable map[string]reflect.Value
}

// New opens the workspace and returns an app with no platform yet; call
// SetPlatform before use, and Close when done. A workspace that has never
// held a session is given the bundled demo session, once.
func New(opts Options) (*App, error) {
	a := &App{log: opts.Log, platform: noPlatform{}, callLog: opts.CallLog, home: opts.Home}
	if a.log == nil {
		a.log = os.Stderr
	}
	if a.home == "" {
		a.home = userHome()
	}
	ws, rebuilt, err := workspace.Open(opts.Workspace, opts.Store)
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	if rebuilt {
		a.logf("search index rebuilt for a new mapping")
	}
	a.ws = ws
	a.local = newLocalSettings(a)
	a.otlp = newOTLPReceiver()
	a.index = newIndexer(a)
	a.sessions = newSessions(a, opts.Initial)
	a.ui = &UI{app: a, noGuide: opts.NoGuide}
	a.debugger = newDebugger(a)
	a.live = newLive(a)
	a.otlp.notices = newNotices(noticeEvery, a.live.announce)
	a.memory = newMemory(a)
	a.annotate = &Annotations{app: a, mem: a.memory}
	if err := a.sessions.seedDemo(context.Background()); err != nil {
		a.index.close()
		ws.Close()
		return nil, err
	}
	if a.changes, err = newChangeFeed(a); err != nil {
		a.index.close()
		ws.Close()
		return nil, fmt.Errorf("follow the workspace's changes: %w", err)
	}
	a.sessions.preopen()
	return a, nil
}

// Close stops following live sessions and closes the workspace.
func (a *App) Close() error {
	a.otlp.notices.close()
	a.live.close()
	if a.changes != nil {
		a.changes.close()
	}
	a.sessions.background.Wait()
	a.index.close()
	return a.ws.Close()
}

// SetPlatform sets the host's platform, then starts what reports through
// it: the discovery of new sessions, when the workspace has it on.
func (a *App) SetPlatform(p Platform) {
	a.platform = p
	a.live.resumeDiscovery()
	a.live.resumeProxy()
}

// Startup is called by the host when the frontend is about to load.
func (a *App) Startup(ctx context.Context) {}

// Shutdown is called by the host when the window closes.
func (a *App) Shutdown(ctx context.Context) {
	if err := a.Close(); err != nil {
		a.logf("close the workspace: %v", err)
	}
}

// services returns the services whose methods the page calls. Each
// exports exactly the methods [BoundMethods] lists, which both the desktop
// window ([Bridge]) and serve mode ([App.Invoke]) reach, and nothing else.
func (a *App) services() []any {
	return []any{a.sessions, a.ui, a.debugger, a.live, a.memory, a.annotate}
}

// Live returns the live service, for hosts that drive it without a
// frontend (the proxy command).
func (a *App) Live() *Live { return a.live }

// Logf writes a line to the app's log, for its host (serve mode) to
// record what it tells no client.
func (a *App) Logf(format string, args ...any) { a.logf(format, args...) }

func (a *App) logf(format string, args ...any) {
	fmt.Fprintf(a.log, "ctxscope: "+format+"\n", args...)
}

// noPlatform is the platform before the host sets one.
type noPlatform struct{}

func (noPlatform) OpenFileDialog(string) (string, error)         { return "", ErrNoDialog }
func (noPlatform) SaveFileDialog(string, string) (string, error) { return "", ErrNoDialog }
func (noPlatform) Emit(string, any)                              {}
func (noPlatform) Desktop() bool                                 { return false }
